"""The character list: a book's named entities with mention counts and aliases.

Name forms are grouped into characters by :mod:`beyondfind.index.characters` (honorific, gender and
first-name constraints; family surnames left ambiguous). Only person, place, organisation and
vehicle names are listed, and only characters the story itself names (a row whose every mention is
in a title line — the byline's author, a contents entry — is left out; it can still be searched);
the narrator's row is marked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..nlp.name_words import CALENDAR_WORDS, never_a_name
from ..nlp.names import fold_accents, parse_name
from .book import IndexedBook
from .titles import is_title_reference

LISTED_LABELS = frozenset({"PER", "LOC", "GPE", "FAC", "ORG", "VEH"})


@dataclass(frozen=True)
class Entity:
    name: str
    label: str
    mentions: int
    aliases: tuple[str, ...]
    narrator: bool = False
    ambiguous: tuple[str, ...] = ()   # for a family surname: the characters it may name

    def to_dict(self) -> dict:
        d = {"name": self.name, "type": self.label, "mentions": self.mentions, "aliases": list(self.aliases)}
        if self.narrator:
            d["narrator"] = True
        if self.ambiguous:
            d["may_be"] = list(self.ambiguous)
        return d


def list_entities(book: IndexedBook, min_mentions: int = 2) -> list[Entity]:
    index = book.characters
    surfaces = book.form_surfaces
    narrator = index.lookup(book.narrator) if book.narrator is not None else None
    story = book.story_forms
    display = {}
    for c in index.characters:
        written = [s for s, _n in surfaces.get(c.name, Counter()).most_common() if not is_title_reference(s)]
        # the most frequent spelling, unless it is in capitals and the book also writes it otherwise:
        # This Side of Paradise's "ROSALIND" (a play's speaker) is "Rosalind", Dear Enemy's "McBRIDE"
        # (her letters' signature) "McBride"
        tidy = [s for s in written if not _SHOUTED.search(s)]
        shown = (tidy or written)[0] if written else c.name[1]   # "Count Dracula", not "the Count"
        display[c.id] = tidy_case(shown) if c.label == "PER" else shown   # an organisation's "IBM" stays
    out = []
    for c in index.characters:
        # a month or weekday is a name only where the annotator found the book makes it one (Friday)
        if c.mentions < min_mentions or c.label not in LISTED_LABELS \
                or all(never_a_name(k, bool(h)) and k not in CALENDAR_WORDS for h, k in c.forms):
            continue
        if not story.intersection(c.forms):   # written only in headings, contents, the byline
            continue
        forms = Counter()
        for f in c.forms:
            forms.update(surfaces.get(f, {}))
        aliases = distinct_aliases(display[c.id], [f for f, _ in forms.most_common()])
        out.append(Entity(display[c.id], c.label, c.mentions, aliases, narrator is not None and narrator.id == c.id,
                          tuple(display[k] for k in c.candidates)))
    out.sort(key=lambda e: -e.mentions)
    return out


_POSSESSIVE_OR_DASH = re.compile(r"(?:['’]s|[-—.,;:\s])+$")


def distinct_aliases(name: str, surfaces: list[str]) -> tuple[str, ...]:
    """``surfaces`` (most frequent first) without the name itself, without copies of a listed
    one that differ only in case, a possessive or trailing dashes ("Starbuck’s", "DAGGOO",
    "Master Copperfield--"), and without a word broken at a line's end that another listed
    form writes whole (Far from the Madding Crowd's "Miss Ever-" of "Miss Everdene")."""
    def plain(s: str) -> str:
        return _POSSESSIVE_OR_DASH.sub("", s).casefold()

    def untidy(s: str) -> tuple[bool, bool]:
        return s.isupper(), _POSSESSIVE_OR_DASH.search(s) is not None

    at: dict[str, int] = {}   # plain form → its position in ``out``
    out: list[str] = []
    for s in surfaces:
        key = plain(s)
        if key == plain(name):
            continue
        if key not in at:
            at[key] = len(out)
            out.append(s)
        elif untidy(s) < untidy(out[at[key]]):   # "Wilkins Micawber" rather than "WILKINS MICAWBER"
            out[at[key]] = s
    whole = [plain(s) for s in (name, *out)]

    def completed(s: str) -> bool:   # "Miss Ever-" beside "Miss Everdene"
        cut = plain(s)
        return s.endswith("-") and any(w != cut and w.startswith(cut) for w in whole)

    out = [s for s in out if not completed(s)]
    return tuple(map(tidy_case, out))


# a word in capitals (after a "Mc" or "Mac" too), not a roman numeral; a two-letter title before its period
_SHOUTED = re.compile(r"(?:(?<=\bMc)|(?<=\bMac)|\b)(?![IVXLCDM]+\b)[A-Z]{3,}\b|\b(?:MR|MS|DR|ST)(?=\.)")


def tidy_case(surface: str) -> str:
    """Words a heading or a letter set in capitals written as names are ("Mrs. BETH" → "Mrs. Beth",
    "COLONEL TEDDY" → "Colonel Teddy"), for a form the book writes no other way; roman numerals
    and two-letter abbreviations stay ("Henry VIII", "GM").

    >>> tidy_case("Mrs. BETH"), tidy_case("COLONEL TEDDY"), tidy_case("King Henry VIII"), tidy_case("S. McBRIDE")
    ('Mrs. Beth', 'Colonel Teddy', 'King Henry VIII', 'S. McBride')
    >>> tidy_case("MR. William"), tidy_case("DR. SEWARD")
    ('Mr. William', 'Dr. Seward')
    """
    return _SHOUTED.sub(lambda m: m.group().capitalize(), surface)


def closest_names(book: IndexedBook, query: str, n: int = 5) -> list[str]:
    """Listed names that look like ``query`` (case and accents ignored), for "did you mean"."""
    import difflib

    q = parse_name(query)
    ents = list_entities(book)
    pool: dict[str, Entity] = {}   # folded, lower-cased surface → entity
    for e in ents:
        for form in (e.name, *e.aliases):
            pool.setdefault(fold_accents(form).lower(), e)
    close = [pool[c].name for c in difflib.get_close_matches(fold_accents(query).lower(), list(pool), n=n * 2,
                                                             cutoff=0.5)]
    close += [e.name for e in ents if set(q.words) & set(parse_name(e.name).words)]
    seen, out = set(), []
    for name in close:
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out[:n] or [e.name for e in ents[:n]]
