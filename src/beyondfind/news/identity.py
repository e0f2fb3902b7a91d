"""Entity identity within a thread: normalised names and alias rules.

* normalisation: case, possessives, leading articles and titles ("the", "Mr.", "CEO"), corporate
  suffixes ("Inc.", "Corp.", "Computer") — "Apple Computer's" → "apple"; dotted initials —
  "U.S." → "us", as "US";
* acronyms: "GM" ~ "General Motors" when both occur in the thread (initials of the capitalised words);
* person surname back-off: "Jobs" ~ "Steve Jobs";
* spelling variants: "DaimlerChrysler" ~ "Daimler-Chrysler" ~ "Daimler Chrysler", "iPhone4" ~
  "iPhone 4" (:func:`compact`: the normalised name without spaces, hyphens, dots or apostrophes).
"""

from __future__ import annotations

import re

TITLES = frozenset({"mr", "mrs", "ms", "dr", "sir", "ceo", "president", "chairman", "senator", "prof", "the", "minister",
                    "prime", "governor", "secretary", "chief", "executive",
                    # abbreviated titles ("Sen. McCain", "Gen. Motors" is never written so)
                    "sen", "rep", "gov", "gen", "lt", "col", "sgt", "capt", "adm", "supt"})
CORPORATE = frozenset({"inc", "corp", "corporation", "co", "company", "ltd", "llc", "plc", "computer", "computers", "motor",
                       "group", "holdings", "ag", "sa"})
_WORD = re.compile(r"[^\W_]+(?:[.'’&-][^\W_]+)*", re.UNICODE)


def words(name: str) -> list[str]:
    out = []
    for w in _WORD.findall(name):
        w = w.replace("’", "'")
        if w.lower().endswith("'s"):
            w = w[:-2]
        out.append(w)
    return out


_DOTTED = re.compile(r"^(?:[a-z]\.)+[a-z]\.?$")   # u.s., u.k, u.n.


def normalize(name: str) -> str:
    ws = [w.replace(".", "") if _DOTTED.match(w) else w.strip(".") for w in (w.lower() for w in words(name))]
    while len(ws) > 1 and ws[0] in TITLES:
        ws = ws[1:]
    while len(ws) > 1 and ws[-1] in CORPORATE:
        ws = ws[:-1]
    return " ".join(ws)


_JOINERS = re.compile(r"[\s.'-]+")
MIN_COMPACT = 4   # "U.S." ~ "US" is left to normalisation ("us"); shorter compact keys are not compared


def compact(key: str) -> str | None:
    """A normalised name (:func:`normalize`) written without spaces, hyphens, dots or apostrophes,
    when at least :data:`MIN_COMPACT` characters remain: the key under which spelling variants meet."""
    c = _JOINERS.sub("", key)
    return c if len(c) >= MIN_COMPACT else None


def acronym(name: str) -> str | None:
    caps = [w for w in words(name) if w[:1].isupper() and w.lower() not in CORPORATE]
    return "".join(w[0] for w in caps).lower() if len(caps) >= 2 else None


def is_acronym(name: str) -> bool:
    w = words(name)
    return len(w) == 1 and w[0].isupper() and 2 <= len(w[0]) <= 6


def same_entity(a: str, b: str, b_is_person: bool = False) -> bool:
    """Do surfaces ``a`` (new) and ``b`` (known) name the same entity by the alias rules?"""
    na, nb = normalize(a), normalize(b)
    if not na or not nb:
        return False
    if na == nb:
        return True
    if is_acronym(a) and acronym(b) == na:
        return True
    if is_acronym(b) and acronym(a) == nb:
        return True
    wa, wb = na.split(), nb.split()
    if b_is_person and len(wa) == 1 and len(wb) > 1 and wa[0] == wb[-1]:
        return True
    return False  # "Apple" ~ "Apple Computer" is handled by normalisation
