"""Entities a journalist would list: proper names of organisations, people, products and places
found in news text, without dates, numbers or fragments, with one article's forms of one entity
merged (``GM`` / ``General Motors``, ``Jobs`` / ``Steve Jobs``).

The book pipeline's NER is trained on fiction and tags ``Apple CEO`` or ``General Motors`` as
persons, so news entities are read off the parse instead: maximal runs of proper tokens, where a
proper token is a capitalised proper noun, an acronym (``GM``), a camel-case product (``iPod``,
``MacBook``) or a model code (``A380``, ``200LR``); a run goes on over numbers right after a name
(``Boeing 787``, ``iPhone 4``, ``Ford Five Hundred``) and over hyphens inside a word (``Wal-Mart``),
takes in a model number just before it (``the 787 Dreamliner``, ``its 777-200LR``), and stops at job
titles, which are not part of a name (``Apple CEO Steve Jobs`` → ``Apple`` + ``Steve Jobs``).
A capitalised word opening a sentence counts as proper when the tagger says so, when it begins a
longer name, or when the article uses the same word as a proper token mid-sentence ("… leads Ford
Motor Company. Ford cut jobs": the tagger's guess at a sentence start is often wrong). A line
break and a dateline ("January 29, 2005") start a sentence too, whatever the parser says; a name
goes on over "of" after an institution or place word (``Bank of America``, :data:`OF_HEADS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..nlp.name_words import HOLIDAYS, MONTHS, NATIONALITIES, WEEKDAYS
from ..nlp.names import name_gender, parse_name
from .identity import TITLES, acronym, is_acronym, normalize

ROLE_WORDS = TITLES | frozenset({"spokesman", "spokeswoman", "spokesperson", "analyst", "founder", "co-founder",
                                 "vice", "head", "director", "manager", "chancellor", "judge", "commissioner",
                                 "senior", "former"})
"""Words that precede a name without being part of it (kept when the run has nothing else)."""
_RELATIVE_DAYS = frozenset("today yesterday tomorrow".split())
_TIME_ZONES = frozenset("utc gmt est edt pst pdt cet".split())
_UNITS = frozenset("gb mb kb tb ghz mhz".split())
NOT_ENTITIES = MONTHS | WEEKDAYS | HOLIDAYS | NATIONALITIES | _RELATIVE_DAYS | _TIME_ZONES | _UNITS | frozenset(
    "thanksgiving year years chapter internet ad bc am pm".split()
    # amounts written with a capital ("US$1 Billion")
    + "million millions billion billions trillion".split()
    # generic technology words written in capitals
    + "db lcd tv cd dvd usb hd mp3 pc".split())
TRIMMED_WORDS = WEEKDAYS | _RELATIVE_DAYS | _TIME_ZONES | _UNITS
"""Never part of a name, so dropped from a run's ends ("Today Apple", "GB iPod", "Asia Monday")."""
CURRENCY = frozenset("$€£¥#")
OF_HEADS = frozenset({
    "bank", "republic", "university", "department", "ministry", "house", "court", "bay", "states", "kingdom",
    "college", "institute", "board", "bureau", "council", "commission", "federation", "union", "association",
    "museum", "academy", "chamber", "church", "gulf", "isle", "isles", "straits", "port", "province",
})
"""Institution and place words a name goes on after with "of" (``Bank of America``, ``People's Republic
of China``, ``University of Michigan``); not titles (``Secretary of Defense``, ``CEO of GM``)."""
_GROUP_POSSESSORS = frozenset({"people", "children", "women", "men"})   # "People's Republic" is one name
FUNCTION_POS = frozenset({"DET", "PRON", "ADP", "CCONJ", "SCONJ", "AUX", "PART", "ADV", "NUM", "PUNCT"})
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$")    # "June 1st", "September 11th" are dates
_CAMEL = re.compile(r"^[a-z]{1,2}[A-Z]")          # iPod, iTunes, eBay
_INNER_CAP = re.compile(r"^[A-Z][a-z]+[A-Z]")     # MacBook, PowerPC
_CODE = re.compile(r"^[A-Z]+\d[\w-]*$")            # A380, B52, G5
_DIGIT_CODE = re.compile(r"^\d+[A-Z]+[\w-]*$")      # 200LR (of 777-200LR), 3G
_MODEL_NUMBER = re.compile(r"^\d{3,4}$")            # 787 (Dreamliner), 737


@dataclass(frozen=True)
class NewsName:
    """One name occurrence: its text, character offsets and whether a person."""

    text: str
    start: int
    end: int
    is_person: bool


def _proper(tok, sentence_start: bool, next_tok=None, known: frozenset[str] = frozenset()) -> bool:
    text = tok.text
    if not any(c.isalpha() for c in text) or any(c in CURRENCY for c in text):   # US$4.8
        return False
    if _CAMEL.match(text) or _INNER_CAP.match(text) or _CODE.match(text) or _DIGIT_CODE.match(text):
        return True
    if text.isupper() and 2 <= len(text) <= 6 and text.isalpha():
        return True   # acronyms: GM, IBM, UAW
    if not text[:1].isupper():
        return False
    if not sentence_start:
        return tok.pos_ in ("PROPN", "NOUN", "ADJ", "VERB", "X") or (tok.pos_ == "NUM" and tok.i > 0 and
                                                                     _proper(tok.doc[tok.i - 1], False))
    # a capital at a sentence start proves little: the parser must call it a proper noun, the
    # article must use the word as a name mid-sentence (``known``), or it must begin a longer name
    # ("General Motors cut…", "United Airlines said…")
    if tok.pos_ == "PROPN" or text in known:
        return True
    if next_tok is None:
        return False
    if next_tok.text in ("-", "&") and not tok.whitespace_ and not next_tok.whitespace_:
        # Wal-Mart, AT&T: glued to a capitalised word, whatever the tagger guessed ("Wal" as PRON)
        after = tok.doc[next_tok.i + 1] if next_tok.i + 1 < len(tok.doc) else None
        return after is not None and after.text[:1].isupper()
    if tok.pos_ in FUNCTION_POS:
        return False
    return _proper(next_tok, False) and next_tok.text[:1].isupper()


def _number_like(tok) -> bool:
    return any(c.isdigit() for c in tok.text) and tok.text[:1].isalnum()


def _model_number_before(doc, i: int) -> int:
    """Where a name starting at token ``i`` really starts when a model number comes first: "the 787
    Dreamliner", "its 777-200LR" (3–4 digits, not a year, after a determiner, possessive or
    adjective; a count such as "100 Boeing workers" has none of those before it), "the 3G iPhone"
    (digits glued to a one- or two-letter code)."""
    k = i - 1
    if k >= 0 and doc[k].text.isdigit() and not doc[k].whitespace_ and doc[i].text.isupper() \
            and len(doc[i].text) <= 2 and doc[i].text.lower() not in TRIMMED_WORDS:
        return k   # "3G iPhone": the tokenizer splits "3G" like "3 g"
    if k >= 1 and doc[k].text == "-" and not doc[k].whitespace_ and not doc[k - 1].whitespace_:
        k -= 1   # 777-200LR
    elif k < 0 or not doc[k].whitespace_:
        return i
    tok = doc[k]
    if k < 1 or not _MODEL_NUMBER.match(tok.text) or 1800 <= int(tok.text) <= 2099:
        return i
    before = doc[k - 1]
    return k if before.pos_ in ("DET", "PRON", "ADJ") or before.text in ("'s", "’s") else i


def _is_role(tok) -> bool:
    return tok.text.lower().strip(".") in ROLE_WORDS


def name_runs(doc) -> list[NewsName]:
    """Maximal proper-name runs of a parsed article (see the module docstring)."""
    sentence_starts = {s.start for s in doc.sents} | _paragraph_starts(doc)
    sentence_starts |= {k for k in (_after_dateline(doc, start) for start in sentence_starts) if k is not None}
    # a lone capitalised word opening a sentence that the article also writes in lower case is a
    # common word ("Officials said…", "People …")
    lower_words = {t.text for t in doc if t.text.islower()}
    known = frozenset(t.text for t in doc if t.i not in sentence_starts and _proper(t, False)
                      and t.text.lower() not in lower_words)
    doubtful: set[int] = set()
    out: list[NewsName] = []
    i, n = 0, len(doc)
    while i < n:
        tok = doc[i]
        following = doc[i + 1] if i + 1 < n else None
        if not _proper(tok, i in sentence_starts, following, known) or (_is_role(tok) and following is not None
                                                                 and _proper(following, False)):
            i += 1
            continue
        j = i + 1
        while j < n:
            t = doc[j]
            if _is_role(t):
                break
            if _proper(t, False) or (_number_like(t) and doc[j - 1].text[:1].isalnum()):
                j += 1
            elif t.text in ("-", "&") and not doc[j - 1].whitespace_ and not t.whitespace_ and j + 1 < n \
                    and (_proper(doc[j + 1], False) or _number_like(doc[j + 1])):
                j += 2   # Wal-Mart, 777-200LR, AT&T
            elif t.text == "of" and j + 1 < n and doc[j - 1].text.lower() in OF_HEADS and _proper(doc[j + 1], False) \
                    and not _is_role(doc[j + 1]):
                j += 2   # Bank of America, Republic of China
            elif t.text in ("'s", "’s") and j == i + 1 and tok.text.lower() in _GROUP_POSSESSORS and j + 1 < n \
                    and _proper(doc[j + 1], False):
                j += 2   # People's Republic, Children's Hospital
            else:
                break
        span = _trimmed(doc[_model_number_before(doc, i):j])
        if not len(span) or all(t.pos_ == "ADJ" for t in span):   # "Canadian", "North American": adjectives
            i = j
            continue
        person = _person_after_prefix(span)
        if person is not None:   # "Air Force James Roche" → "Air Force" + "James Roche"
            prefix = doc[i:person.start]
            if len(prefix) > 1 or sum(1 for t in doc if t.text == prefix.text) > 1:
                out.append(NewsName(prefix.text, prefix.start_char, prefix.end_char, False))
            span = person
        out.append(NewsName(span.text, span.start_char, span.end_char, _looks_like_person(span.text)))
        if j == i + 1 and i in sentence_starts and tok.text.lower() in lower_words:
            doubtful.add(len(out) - 1)
        i = j
    surnames = {m.text.split()[-1] for m in out if len(m.text.split()) > 1}   # "Jobs" of "Steve Jobs" stays
    return [m for k, m in enumerate(out) if is_news_entity(m.text) and (k not in doubtful or m.text in surnames)]


def _trimmed(span):
    """``span`` without the days, time zones and units at its ends ("Today Apple", "Asia Monday",
    "GB iPod"): a run of capitals picks them up, but they are never part of a name."""
    a, b = span.start, span.end
    while a < b and span.doc[a].text.lower() in TRIMMED_WORDS:
        a += 1
    while b > a and span.doc[b - 1].text.lower() in TRIMMED_WORDS:
        b -= 1
    return span.doc[a:b]


def _paragraph_starts(doc) -> set[int]:
    """Tokens after a line break: the parser runs a headline into the article's first sentence."""
    return {t.i + 1 for t in doc[:-1] if t.is_space and "\n" in t.text}


def _after_dateline(doc, i: int) -> int | None:
    """The token after a dateline opening a sentence ("January 29, 2005 Officials from …": Wikinews
    puts the date before the first sentence, and the parser reads both as one), or None."""
    words = [t.text for t in doc[i:i + 5]]
    if len(words) == 5 and words[0].lower() in MONTHS and words[1].isdigit() and words[2] == "," \
            and len(words[3]) == 4 and words[3].isdigit():
        return i + 4
    return None


def _person_after_prefix(span):
    """The person a run ends with after words that are not part of the name ("Air Force James Roche",
    "Acquisition Darleen Druyun": a title's last words run into the name), or None."""
    if len(span) < 3 or _looks_like_person(span.text):
        return None
    for k in range(1, len(span) - 1):
        rest = span[k:]
        if len(rest) <= 3 and all(t.text[:1].isupper() and t.text.replace(".", "").isalpha() for t in rest) \
                and _looks_like_person(rest.text):
            return rest
    return None


def _looks_like_person(text: str) -> bool:
    """Two or more words starting with a known first name (Steve Jobs, Mary Barra)."""
    words = text.split()
    return len(words) >= 2 and name_gender(parse_name(text)) is not None and not is_acronym(words[0])


def is_news_entity(surface: str) -> bool:
    """False for dates, numbers, single letters and words that are never entities for ranking."""
    words = normalize(surface).split()
    if not words or not any(any(c.isalpha() for c in w) for w in words):
        return False
    if len(words) == 1 and len(words[0]) == 1:
        return False
    if all(w in ROLE_WORDS or w == "officer" for w in words):   # "CEO", "Chief Executive Officer"
        return False
    return not all(w in NOT_ENTITIES or w.isdigit() or _ORDINAL.match(w) for w in words)


def merge_forms(forms: dict[str, tuple[str, bool, bool]]) -> dict[str, str]:
    """Normalised form → the form it belongs to within one article. ``forms``: normalised form →
    (a surface of it, is_person, is_company: some surface had a corporate word, "Ford Motor Co.").

    A plural joins its singular ("dreamliners" → "dreamliner"); a surname alone joins the
    person's full name ("jobs" → "steve jobs") unless the form is also a company ("Ford" with
    "William Clay Ford" and "Ford Motor Company"); an acronym joins the name it abbreviates
    ("gm" → "general motors"); each only when exactly one form fits."""
    target: dict[str, str] = {}
    persons = [f for f, (_s, p, _c) in forms.items() if p and len(f.split()) >= 2]
    for form, (surface, _p, company) in forms.items():
        if form.endswith("s") and form[:-1] in forms:   # "Dreamliners" with "Dreamliner"
            target[form] = form[:-1]
            continue
        if len(form.split()) != 1:
            continue
        owners = [p for p in persons if p.split()[-1] == form]
        if len(owners) == 1 and not company:
            target[form] = owners[0]
        elif is_acronym(surface):
            expansions = [f for f, (s, _p, _c) in forms.items() if f != form and acronym(s) == form]
            if len(expansions) == 1:
                target[form] = expansions[0]
    return target
