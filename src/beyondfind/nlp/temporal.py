"""DATE and TIME entities by rules (an ``entity_ruler`` that never overwrites trained entities).

LitBank has no temporal layer, so these are patterns, checked in the tests on hand-written
sentences: month names with days/years, weekdays, years, clock times, parts of the day. A month or
weekday written after a person's honorific is a surname, never a date: Little Women's `Mrs. March`
(×142), `Aunt March`, `Mr. March` were a title and a DATE wherever the NER missed them.
"""

from .names import STRIP_HONORIFICS

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAY_PARTS = ["morning", "afternoon", "evening", "night", "midnight", "noon", "dawn", "daybreak", "sunset",
             "sunrise", "dusk", "twilight"]
UNITS = ["day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours", "minute", "minutes"]
NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                "a", "an", "few", "several", "many", "some"]


def patterns() -> list[dict]:
    month = {"LOWER": {"IN": [m for m in MONTHS if m != "may"]}}
    may = {"ORTH": "May"}
    out = []
    for m in (month, may):
        out += [
            {"label": "DATE", "pattern": [m, {"IS_DIGIT": True}, {"ORTH": ",", "OP": "?"}, {"SHAPE": "dddd"}]},
            {"label": "DATE", "pattern": [m, {"SHAPE": "dddd"}]},
            {"label": "DATE", "pattern": [{"IS_DIGIT": True}, {"LOWER": "of", "OP": "?"}, m]},
            {"label": "DATE", "pattern": [m, {"IS_DIGIT": True}]},
        ]
    honorific = {"LOWER": {"IN": sorted(STRIP_HONORIFICS | {f"{h}." for h in STRIP_HONORIFICS})}}
    out += [{"label": "PER", "pattern": [honorific, {"LOWER": {"IN": MONTHS + WEEKDAYS}, "IS_TITLE": True}]}]
    out += [{"label": "DATE", "pattern": [month]}]
    out += [{"label": "DATE", "pattern": [{"LOWER": {"IN": ["last", "next", "this", "that", "every"]}, "OP": "?"},
                                          {"LOWER": {"IN": WEEKDAYS}}]}]
    out += [{"label": "DATE", "pattern": [{"LOWER": {"IN": ["in", "of"]}}, {"SHAPE": "dddd"}]}]
    out += [{"label": "DATE", "pattern": [{"LOWER": {"IN": ["yesterday", "today", "to-day", "tomorrow", "to-morrow"]}}]}]
    out += [{"label": "DATE", "pattern": [{"LOWER": {"IN": NUMBER_WORDS}}, {"LOWER": {"IN": UNITS}},
                                          {"LOWER": {"IN": ["ago", "later", "afterwards", "before"]}}]}]
    out += [{"label": "TIME", "pattern": [{"SHAPE": {"IN": ["d:dd", "dd:dd"]}}, {"LOWER": {"IN": ["am", "pm", "a.m.", "p.m."]}, "OP": "?"}]}]
    out += [{"label": "TIME", "pattern": [{"LOWER": {"IN": NUMBER_WORDS[:12]}}, {"LOWER": "o'clock"}]}]
    out += [{"label": "TIME", "pattern": [{"LOWER": {"IN": ["this", "that", "next", "every", "the", "one"]}, "OP": "?"},
                                          {"LOWER": {"IN": DAY_PARTS}}]}]
    return out


def _digit_token(spec: dict) -> bool:
    """A token pattern that only a token with a digit matches (``IS_DIGIT``, a shape of ``d``s)."""
    shape = spec.get("SHAPE")
    shapes = shape.get("IN", []) if isinstance(shape, dict) else [shape] if shape else []
    return spec.get("IS_DIGIT") is True or (bool(shapes) and all("d" in s for s in shapes))


def _words(spec: dict) -> set[str] | None:
    """The lower-case words a token pattern accepts (``LOWER``, or ``ORTH`` lower-cased), or None."""
    for attr in ("LOWER", "ORTH"):
        value = spec.get(attr)
        if isinstance(value, str):
            return {value.lower()}
        if isinstance(value, dict) and set(value) == {"IN"}:
            return {v.lower() for v in value["IN"]}
    return None


def triggers(rules: list[dict]) -> frozenset[str]:
    """Words of which every rule needs one among a text's tokens (lower-cased), unless the rule needs
    a digit instead; a text with none of them and no digit has no match, so the ruler can skip it
    (~80 % of a novel's passages; the ruler took ~6 % of the pipeline's time). For each rule, its
    required (not optional) token that needs a digit, else the one accepting the fewest words."""
    out: set[str] = set()
    for rule in rules:
        required = [spec for spec in rule["pattern"] if spec.get("OP") in (None, "1", "+")]
        if any(_digit_token(spec) for spec in required):
            continue
        choices = [w for w in map(_words, required) if w]
        if not choices:
            raise ValueError(f"temporal rule {rule['pattern']} needs no word and no digit: it cannot be pre-filtered")
        out |= min(choices, key=len)
    return frozenset(out)
