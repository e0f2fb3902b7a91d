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
