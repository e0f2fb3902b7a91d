"""Book-level evidence about name forms: what the whole text says that one sentence cannot.

* Never names (:mod:`beyondfind.nlp.name_words`): months, weekdays, numbers, single letters,
  nationality and language words, kinship and address words used as vocatives ("Papa", "Missis").
* A capitalised word the book writes in lower case at least as often as it capitalises it in
  mid-sentence is a common word ("Meantime", "Providence"), not a name. Conversely a common word
  the book capitalises mid-sentence more often than not, seldom after "the" or "a", is written as
  a surname (:meth:`NameEvidence.capitalised_as_name`: Allan Quatermain's Captain "Good").
* A one-word "person" the book puts after a locative preposition ("at Longbourn", "to Millcote")
  in at least ``LOCATIVE_SHARE`` of its capitalised occurrences is a place: persons score ≤ 0.13
  and places ≥ 0.40 on Pride and Prejudice and Jane Eyre.
* A "person" the WordNet gazetteer knows as a place and never as a person (``Nantucket``,
  ``Cincinnati``, ``the Andes``; :mod:`beyondfind.nlp.training.gazetteer`) is a place, unless it
  is a first name or the book also writes it as a person's surname (``Mr. X``, ``John X``).
* A capitalised plural of a word the book writes itself ("Americans", "Quakers", "Turks",
  "Nantucketers"; or a people's, order's or creed's: "the Huns", "the Carthusians") names a group,
  not a person, unless the singular is a name of the book's people
  ("the Garths" are Mr. and Mrs. Garth) or a first name the book does not write in lower case
  (King Solomon's Mines' "the Stars" are a group of things: "star" is a first name and a noun);
  names that merely end in "s" ("Davis", "Jones") have no such singular and stay.
* A "person" the book writes after "a" or "an" (and at most one word in lower case) in half of
  its (two or more) capitalised occurrences is a noun the author capitalised: Great
  Expectations' "an Insurer of Ships", "a travelling Giant", Middlemarch's "a Churchman".
* A one-word "person" the book boards or gives a deck, hull or crew, after "the" ("aboard the
  Pequod", "the Pequod's deck") is a ship (VEH).
* A month or weekday that speaks in dialogue tags ("…,” says Friday) is a person of the book:
  Robinson Crusoe's Friday, The Age of Innocence's May.
* A capitalised word the book never writes mid-sentence and mostly follows by "!" is an
  interjection ("Halloa!", "Hurrah!", "Aha!"), not a name.
* A "person" of one to three words the book writes after "the" in at least half of its (three
  or more) capitalised occurrences, whose last word is no noun for a person or an animal
  (WordNet's, shipped as ``nlp/data/beings.json``) nor a plural, that (if of several words)
  starts with no first name and never speaks ("said the X", "the X replied") names a place, an
  institution or a thing: A Tale of Two Cities' "the Republic" (×30), "the Bastille", Pride and
  Prejudice's "the Parsonage", Dracula's "the Sereth" and "the Sacred Wafer", Persuasion's "the
  Cobb" (a first name too). "The Jew", "the Dodger", "the President" are nouns for persons; "the
  Vengeance" (a woman's nickname) speaks.
* A capitalised "the X Y" ending in a noun for a person or an animal, written so often, never in
  lower case, and a speaker ("said the Invisible Man") is a character's epithet: a person's name
  (:attr:`NameEvidence.epithets`).
* A "person" of several words that starts with a place word (``Castle Dracula``, ``Lake Maggiore``)
  is a place; so is one that ends in a place word (``Russell Square``, ``Lucas Lodge``,
  ``Bench Prison``, ``East Cliff``), unless it starts with a known first name and the book never puts
  it after a locative preposition (``John Hill`` stays a person; ``Russell Square``, "in Russell
  Square", does not).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Set
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import NamedTuple

from .name_words import CALENDAR_WORDS, NATIONALITIES, PEOPLES, PLACE_FIRST_WORDS, PLACE_HEADS, never_a_name
from .names import NAME_PARTICLES, OFFICE_TITLES, STRIP_HONORIFICS, _first_names, fold_accents
from .text import chunks

LOCATIVE_SHARE = 0.3
MIN_LOCATIVE = 3

_LOCATIVE_PREPOSITION = r"\b(?:in|at|near|into|from|to|towards|through)\s+"

# Words in Latin-1 letters, so that translated novels' accented names count ("Mozháysk", "Bicêtre");
# the counters key them like name keys: accent-folded and lower-cased (:func:`_key`)
_UPPER, _LOWER_LETTERS = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"
_WORD = rf"[{_UPPER}][{_LOWER_LETTERS}’']+"
_LOWER_WORD = rf"[{_LOWER_LETTERS}][{_LOWER_LETTERS}’']+"   # the same word in lower case
_CAP = re.compile(rf"(?<![\w'’])({_WORD})\b(?![’']s\b)")
_LOWER = re.compile(rf"(?<![\w'’])({_LOWER_WORD})\b")
_LOCATIVE = re.compile(_LOCATIVE_PREPOSITION + rf"({_WORD})\b(?![’']s\b)")
_EXCLAIMED = re.compile(rf"(?<![\w'’])({_WORD}),?\s?!")
# a capitalised word joined by a hyphen to a word in lower case ("Ve-ry", "Shell-heap")
_HYPHEN_FIRST = re.compile(rf"(?<![\w'’])({_WORD})-[{_LOWER_LETTERS}]")
# a capitalised word after a possessive determiner ("my Maker", "his Transparency"): a noun, not a name
_POSSESSED = re.compile(rf"\b(?:[Mm]y|[Yy]our|[Hh]is|[Hh]er|[Oo]ur|[Tt]heir|[Tt]hy)\s+({_WORD})\b(?![’']s\b)")
POSSESSED_SHARE = 0.75
MIN_POSSESSED = 3
# honorifics and titles of office ("Inspector Heat"); not "M." ("I'm Tom")
_HONORIFIC_WORDS = "|".join(sorted(h for h in STRIP_HONORIFICS | OFFICE_TITLES if len(h) > 1))
_AFTER_HONORIFIC = re.compile(r"\b(?:" + _HONORIFIC_WORDS + rf")\.?\s+({_WORD})\b",
                              re.IGNORECASE)   # the name's own case is checked where it is counted
# The same search on the lower-cased text (slice by slice), without IGNORECASE: 4.5x faster (0.53 ->
# 0.12 s a novel) and the same matches wherever lower-casing keeps the length and the text has none
# of the four non-ASCII letters IGNORECASE equates with ASCII ones ("İ", "ı", "ſ", the Kelvin sign).
_AFTER_HONORIFIC_LOWER = re.compile(r"\b(?:" + _HONORIFIC_WORDS + rf")\.?\s+({_LOWER_WORD})\b")
_CASE_FOLDED_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
_SHIP_PARTS = (r"(?:deck|decks|hull|keel|bows?|stern|masts?|sails?|crew|boats?|anchor|cabin|hold|rigging|helm"
               r"|captain|commander|skipper)")
_SHIP_KINDS = (r"(?:ship|vessel|whaler|whale-ship|brig|schooner|frigate|barque|sloop|steamer|packet|merchantman"
               r"|man-of-war)")
# boarded, or its crew, captain … ("on board the _Pharaon_": Gutenberg's italics may mark the name);
# called a ship ("a Nantucket ship, the Bachelor"; "the German ship Jungfrau")
_SHIP = re.compile(rf"\b(?:aboard|on board(?: of)?|(?:captain|commander|mate|crew|owners?) of)\s+the\s+_?({_WORD})_?\b"
                   rf"(?![’']s\b)|\b[Tt]he\s+_?({_WORD})_?[’']s\s+" + _SHIP_PARTS + r"\b"
                   rf"|\b{_SHIP_KINDS}(?:,\s+the)?\s+_?([{_UPPER}][{_LOWER_LETTERS}]+)_?(?![\w’'])")
MIN_SHIP = 2
# "Tellson's Bank", "Mile End"; the word takes its possessive (_POSSESSIVE_END strips it), and the place
# word is only looked at, so "King's Bench Prison" counts "Bench" too
_OWNED_PLACE = re.compile(rf"(?<![\w'’])({_WORD})(?=\s+([A-Z][a-z]+)\b)")
_NAMING_HEADS = PLACE_HEADS | {"end", "glen"}
# a first name is a place's when the book writes it before a place word this share of its capitalised
# uses: Jane Eyre's "Marsh" (NLTK's first name) is "Marsh End" or "Marsh Glen" 7 times in 8
FIRST_NAME_PLACE_SHARE = 0.75
_POSSESSIVE_END = re.compile(r"[’']s$")
MIN_OWNED_PLACE = 2
_THE_NAME = re.compile(rf"\b[Tt]he\s+({_WORD})\b(?![’']s\b)")
_SPEECH_VERBS = ("said|says|cried|asked|replied|returned|answered|exclaimed|whispered|rejoined|retorted|observed|"
                 "remarked|inquired|added|repeated|muttered|shrieked|growled|continued|interposed|urged|pursued")
_SPOKEN = re.compile(rf"\b(?:{_SPEECH_VERBS})\s+[Tt]he\s+({_WORD})\b"
                     rf"|\b[Tt]he\s+({_WORD})\s+(?:{_SPEECH_VERBS})\b")
# a dialogue tag after the closing quote: “…,” said Grantaire / “…!” Grantaire cried
_TAGGED_SPEAKER = re.compile(rf"[,!?—-][”\"’']\s+(?:{_SPEECH_VERBS})\s+([A-Z][^\W\d_]+)\b(?![’'-])"
                             rf"|[,!?—-][”\"’']\s+([A-Z][^\W\d_]+)\s+(?:{_SPEECH_VERBS})\b")
_THE_BEFORE = re.compile(r"\b[Tt]he\s+$")
# "a Giant", "a travelling Giant": the article, at most one word in lower case, the capitalised word
_INDEFINITE = re.compile(rf"\b[Aa]n?\s+(?:[{_LOWER_LETTERS}]+\s+)?({_WORD})\b(?![’']s\b)")
_INDEFINITE_BEFORE = re.compile(rf"\b[Aa]n?\s+(?:[{_LOWER_LETTERS}]+\s+)?$")
INDEFINITE_SHARE = 0.5
MIN_INDEFINITE = 2
_LOCATIVE_BEFORE = re.compile(_LOCATIVE_PREPOSITION + r"(?:the\s+)?$")
_SPEECH_BEFORE = re.compile(rf"\b(?:{_SPEECH_VERBS})\s+[Tt]he\s+$")
_SPEECH_AFTER = re.compile(rf"\s+(?:{_SPEECH_VERBS})\b")
THE_SHARE = 0.5
MIN_THE = 3
MIN_COMMON_SINGULAR = 2   # a plural's singular written in lower case this often is a common noun (star)
MIN_SPOKEN = 2
MIN_CALENDAR_SPEAKER = 3
MIN_WRITTEN_AS_NAME = 3   # capitalised mid-sentence this often, never in lower case nor after "the": a name ...
WRITTEN_LOCATIVE_SHARE = 0.2   # ... seldom after "in", "at", "to" (under this share) unless it speaks or is titled
# "the Invisible Man", "the March Hare": two or three capitalised words after "the", not a
# hyphenated name's first part ("the Rue Saint-Denis") nor a possessive's
_EPITHET = re.compile(rf"\b[Tt]he\s+((?:{_WORD}[ \n]){{1,2}}{_WORD})\b(?![’'-])")
MIN_EPITHET = 10          # written so this often ...
EPITHET_LOWER_SHARE = 0.1  # ... and in lower case under this share of that
TITLED_EPITHET_SHARE = 0.2  # a title when this share of its uses has a name after it ("Chief Inspector Heat")
_SENT_START = re.compile(r"(?:^|[.!?:;“\"‘_—-]\s*|\n\s*)$")


@lru_cache(maxsize=4)
def _shipped_words(name: str) -> frozenset[str]:
    """The word list ``name`` of ``data/{name}.json`` (built by ``beyondfind nlp gazetteer``)."""
    data = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text(encoding="utf-8"))
    return frozenset(data[name])


def _gazetteer() -> frozenset[str]:
    return _shipped_words("places")


def _beings() -> frozenset[str]:
    return _shipped_words("beings")


def _written_word(word: str) -> str:
    """A name word as a pattern: capitalised, or a particle in either case ("Insurer of Ships",
    "Château d'If")."""
    if word in NAME_PARTICLES:
        return f"[{re.escape(word[:1].upper())}{re.escape(word[:1])}]{re.escape(word[1:])}"
    return re.escape(word[:1].upper() + word[1:])


def _starts_with_first_name(name: str) -> bool:
    """The name's first word, lower-cased, is on the first-name lists."""
    male, female = _first_names()
    first = name.split()[0].lower()
    return first in male or first in female


def known_place(key: str) -> bool:
    """A place name of the shipped gazetteer (WordNet locations and geographic objects without a
    person sense) whose first word is not a first name."""
    return bool(key.split()) and key in _gazetteer() and not _starts_with_first_name(key)


def listed_organisations() -> list[str]:
    """The shipped WordNet organisations (``nlp/data/organisations.json``) of several words or
    acronyms in capitals ("United Nations", "CIA"), not starting with a first name; one-word
    names ("Hezbollah", but also "Baptists", "Ming") are left to the NER."""
    return sorted(n for n in _shipped_words("organisations")
                  if (" " in n or n.replace(".", "").replace("-", "").isupper()) and not _starts_with_first_name(n))


def listed_places() -> list[str]:
    """The gazetteer's names that :func:`known_place` accepts, sorted."""
    return sorted(k for k in _gazetteer() if known_place(k))


SLICE_CHARS = 1 << 18   # a slice's words as a list: ~2.5 MB
# Long texts are counted in slices (:func:`.text.chunks`: each ends at a sentence end, a line break or
# a space, so the character before a slice is never a letter or a quote): a word not preceded by a
# letter or quote, ending at a word boundary, is found in the slices as in the whole text.
MARGIN_CHARS = 4096   # right context a slice's search may read past its end (a match is far shorter)


def _key(word: str) -> str:
    """A counted word as a name key spells it: accent-folded, lower-cased ("Mozháysk" → mozhaysk)."""
    return fold_accents(word).lower()


def _keyed(found: Iterable[str] | Counter) -> Counter:
    """Counts of ``found`` (words, or a Counter of them) by :func:`_key`, each distinct word folded once."""
    out: Counter = Counter()
    for word, n in Counter(found).items():
        out[_key(word)] += n
    return out


def _word_counts(pattern: re.Pattern, text: str) -> Counter:
    """Counts of ``pattern``'s one group over ``text`` by :func:`_key`, slice by slice."""
    out: Counter = Counter()
    for _start, piece in chunks(text, SLICE_CHARS):   # findall on a whole long book lists every word at once
        out.update(pattern.findall(piece))
    return _keyed(out)


class PhraseCounts(NamedTuple):
    """A name's capitalised occurrences (:meth:`NameEvidence._phrase_counts`), and how many of them
    follow "the", say something ("said the X"), follow a locative preposition ("at Combe Magna"),
    follow "a" or "an" ("an Insurer of Ships")."""

    capitalised: int
    after_the: int
    spoken: int
    placed: int
    indefinite: int   # after "a" or "an"


@dataclass
class NameEvidence:
    """Counts over the whole text, computed once per book. Italics marks are read as spaces (same
    length, so offsets hold): in "to the _Ritz_" the underscore is a word character to ``re``, and
    The Secret Adversary's hotel, written so 27 times, was seen by no pattern — a person's row."""

    text: str

    def __post_init__(self) -> None:
        self.text = self.text.replace("_", " ")

    @cached_property
    def lower(self) -> Counter:
        return _word_counts(_LOWER, self.text)

    @cached_property
    def capital_mid(self) -> Counter:
        """Capitalised occurrences that do not start a sentence, by key."""
        out = Counter()
        text = self.text
        for m in _CAP.finditer(text):
            before = text[max(0, m.start() - 3):m.start()]
            if not _SENT_START.search(before):
                out[m.group(1)] += 1
        return _keyed(out)

    @cached_property
    def capital(self) -> Counter:
        return _word_counts(_CAP, self.text)

    @cached_property
    def locative(self) -> Counter:
        return _keyed(_LOCATIVE.findall(self.text))

    @cached_property
    def exclaimed(self) -> Counter:
        """Capitalised words followed by "!" ("Halloa!", "Aha, !" too), by key."""
        return _keyed(_EXCLAIMED.findall(self.text))

    @cached_property
    def after_honorific(self) -> Counter:
        """Capitalised words right after an honorific ("Mr. Jonas"), by key."""
        text = self.text
        out, resume = Counter(), 0
        if not any(c in text for c in _CASE_FOLDED_TO_ASCII):
            # slice by slice: str.lower() of a non-ASCII text allocates 12 bytes a character (240 MB
            # for 20 MB of text); each slice's search resumes where the previous slice's last match
            # ended and reads up to MARGIN_CHARS past the slice, so the matches are the whole text's
            for start, piece in chunks(text, SLICE_CHARS):
                end = start + len(piece)
                window = text[start:end + MARGIN_CHARS]
                lowered = window.lower()
                if len(lowered) != len(window):
                    break
                for m in _AFTER_HONORIFIC_LOWER.finditer(lowered, max(0, resume - start)):
                    if m.start() >= end - start:
                        break
                    a, b = m.span(1)
                    if window[a].isupper():
                        out[lowered[a:b]] += 1
                    resume = start + m.end()
            else:
                return _keyed(out)
        return _keyed(m.group(1) for m in _AFTER_HONORIFIC.finditer(text) if m.group(1)[0].isupper())

    @cached_property
    def hyphen_first(self) -> Counter:
        """Capitalised words written as the first part of a hyphenated word, by key."""
        return _word_counts(_HYPHEN_FIRST, self.text)

    def word_part(self, word: str) -> bool:
        """Capitalised at least twice, every time as the first part of a hyphenated word: a piece
        the tagger split off, not a name (Bleak House's Miss Flite stammering "Ve-ry happy" ×13, a
        person's row "Ve"; The Country of the Pointed Firs' "Shell-heap Island" ×15; Allan
        Quatermain's axe "Inkosi-kaas" ×31; War and Peace's "Hur-r-rah!"). A name spelled out once
        ("Mig-u-ell" beside "Mig" ×6, Flying U) is not written so every time."""
        cap = self.capital.get(word, 0)
        return cap >= 2 and self.hyphen_first.get(word, 0) >= cap

    def interjection(self, word: str) -> bool:
        """Written at least twice, never mid-sentence nor after an honorific, mostly followed by "!"."""
        cap = self.capital.get(word, 0)
        return (cap >= 2 and not self.capital_mid.get(word, 0) and not self.after_honorific.get(word, 0)
                and 2 * self.exclaimed.get(word, 0) >= cap)

    @cached_property
    def possessed_counts(self) -> Counter:
        return _word_counts(_POSSESSED, self.text)

    def possessed(self, word: str) -> bool:
        """Written after a possessive determiner in :data:`POSSESSED_SHARE` of its (at least
        :data:`MIN_POSSESSED`) capitalised occurrences: Jane Eyre's "my Maker", "your Maker" (6 of 7),
        Vanity Fair's "his Transparency" — a noun the book capitalises, not a person's name."""
        cap = self.capital.get(word, 0)
        return cap >= MIN_POSSESSED and self.possessed_counts.get(word, 0) >= POSSESSED_SHARE * cap

    def written_as_name(self, key: str) -> bool:
        """Written capitalised mid-sentence at least :data:`MIN_WRITTEN_AS_NAME` times, never in lower
        case nor after "the", and after a preposition of place in under :data:`WRITTEN_LOCATIVE_SHARE`
        of those uses unless it is a dialogue tag's speaker or written after a title: a person's name
        only (Huckleberry Finn's "Boggs", 16 times, which the tagger read as a name once; War and
        Peace's "Tíkhon"), not a place the tagger once took for a person (Les Misérables'
        "Pontoise", "to Pontoise" 2 of 8)."""
        mid = self.capital_mid.get(key, 0)
        if mid < MIN_WRITTEN_AS_NAME or self.lower.get(key, 0) or self.after_the.get(key, 0):
            return False
        return (self.locative.get(key, 0) < WRITTEN_LOCATIVE_SHARE * mid
                or bool(self.tagged_speakers.get(key, 0) or self.after_honorific.get(key, 0)))

    def capitalised_as_name(self, key: str) -> bool:
        """Capitalised mid-sentence more often than written in lower case, and after "the", "a" or
        "an" in under a fifth of those uses; not a never-name, a title or a people's word: how a
        book writes a surname that is also a common word (Allan Quatermain's "Good" ×143 against
        "good" ×80), unlike "the Jew" or "a Quaker"."""
        mid = self.capital_mid.get(key, 0)
        return (mid > self.lower.get(key, 0) and 5 * self.after_the.get(key, 0) < mid
                and 5 * self.after_indefinite.get(key, 0) < mid
                and not never_a_name(key) and key not in STRIP_HONORIFICS and key not in OFFICE_TITLES
                and key not in PEOPLES)

    @cached_property
    def epithets(self) -> Counter:
        """Capitalised phrases of two or three words after "the" whose last word is a noun for a
        person or an animal, by key, with their count: the names a book gives a character it does
        not name otherwise — The Invisible Man's "the Invisible Man" ×81 (the tagger found it
        twice), Alice's "the March Hare", David Copperfield's "the Old Soldier". At least
        :data:`MIN_EPITHET` times, in lower case under :data:`EPITHET_LOWER_SHARE` of that (not
        Moby Dick's "the Sperm Whale", a kind of whale), seldom after a preposition of place (not
        Great Expectations' inn, "at the Blue Boar"), seldom before a name (The Secret Agent's "Chief
        Inspector Heat" is Heat), no place name ("the Rue Saint-Denis") nor never-name, and a
        speaker at least :data:`MIN_SPOKEN` times ("said the March Hare"; not The Quest of the Silver
        Fleece's cotton, "the Silver Fleece", nor Portrait's "the Holy Ghost")."""
        found = Counter(re.sub(r"\s+", " ", m) for m in _EPITHET.findall(self.text))
        out = Counter()
        for phrase, count in found.items():
            words = [_key(w) for w in phrase.split()]
            key = " ".join(words)
            if count < MIN_EPITHET or words[-1] not in _beings() or never_a_name(key):
                continue
            if self.place_named(key) or known_place(key):
                continue
            lower = self._word_start_count(rf"{re.escape(phrase.lower())}\b")
            titled = self._word_start_count(rf"{re.escape(phrase)}\s+[{_UPPER}]")
            counts = self._phrase_counts(phrase.split())
            if (lower < EPITHET_LOWER_SHARE * count and counts.placed < LOCATIVE_SHARE * count
                    and titled < TITLED_EPITHET_SHARE * counts.capitalised and counts.spoken >= MIN_SPOKEN):
                out[key] = count
        return out

    def _word_starts(self, pattern: str) -> Iterator[re.Match]:
        """Matches of ``pattern`` (which opens with a literal, so ``re`` scans for it fast) that start
        a word: a lookbehind or ``\\b`` before the literal would make the scan ~50x slower (0.07 s
        a phrase on Les Misérables)."""
        text = self.text
        return (m for m in re.finditer(pattern, text)
                if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_'’"))

    def _word_start_count(self, pattern: str) -> int:
        return sum(1 for _m in self._word_starts(pattern))

    def common_word(self, word: str) -> bool:
        """Written in lower case at least as often as capitalised mid-sentence."""
        low = self.lower.get(word, 0)
        return low >= 3 and low >= self.capital_mid.get(word, 0)

    def group_plural(self, word: str, family_words: set[str], surnames: set[str] = frozenset()) -> bool:
        """A plural ("americans") whose singular is a nationality or a word the book writes at
        least twice, capitalised or not, and is neither a first name nor a word its people's names
        end in (``family_words``: "the Shepherdsons" after "Harney Shepherdson"). A nationality's
        or people's plural is a group unless its singular is a surname written after an honorific
        (``surnames``: "the Frenches" of a Mr. French): a stray "Yon Indian" read as a full name
        kept The Last of the Mohicans' "Indians" ×76 a person. A plural in "-oes" may drop "es"
        (King Solomon's Mines' "Buffaloes", the Mohicans' "Mingoes"). A first name's plural is a
        family unless the book writes the singular in lower case (``MIN_COMMON_SINGULAR`` times)
        and no one bears the plural: King Solomon's Mines' "the Stars" (Star is a first name)."""
        if len(word) < 4 or not word.endswith("s") or word.endswith("ss"):
            return False
        singulars = (word[:-1], word[:-2]) if word.endswith("oes") else (word[:-1],)
        for singular in singulars:
            if singular in NATIONALITIES or singular in PEOPLES:   # "Romans", though Roman is a first name
                return singular not in surnames
        male, female = _first_names()
        if any(s in family_words for s in singulars):
            return False
        # a first name's plural is a family ("the Georges") unless the book writes the singular as a
        # common noun and no one bears the plural: King Solomon's Mines' "white men from the Stars"
        firsts = [s for s in singulars if s in male or s in female]
        if firsts and (word in family_words or all(self.lower.get(s, 0) < MIN_COMMON_SINGULAR for s in firsts)):
            return False
        return any(self.capital.get(s, 0) + self.lower.get(s, 0) >= 2 for s in singulars)

    def place_like(self, key: str) -> bool:
        """The book puts the name after a locative preposition ("at Longbourn", "to Mozháysk") at
        least ``MIN_LOCATIVE`` times and in ``LOCATIVE_SHARE`` of its capitalised occurrences. A
        name of two or three words ("at Combe Magna", "in Vanity Fair") must not start with a first
        name ("to John Hill")."""
        words = key.split()
        if len(words) == 1:
            loc, cap = self.locative.get(key, 0), self.capital.get(key, 0)
        elif len(words) > 3 or self.locative.get(words[0], 0) < MIN_LOCATIVE or _starts_with_first_name(key):
            return False   # most names: no text scan
        else:
            counts = self._phrase_counts(words)
            cap, loc = counts.capitalised, counts.placed
        return loc >= MIN_LOCATIVE and loc >= LOCATIVE_SHARE * max(1, cap)

    @cached_property
    def shipped(self) -> Counter:
        """Capitalised words written as a ship ("aboard the Pequod", "the Pequod's deck"), by key."""
        return _keyed(next(g for g in m.groups() if g) for m in _SHIP.finditer(self.text))

    def ship_named(self, word: str) -> bool:
        """A one-word "person" the book boards, gives a deck, hull, crew, captain, mate …, or calls
        a ship, vessel, whaler … (``MIN_SHIP`` times): a ship, not a person."""
        return self.shipped.get(word, 0) >= MIN_SHIP

    @cached_property
    def owned_places(self) -> Counter:
        """Capitalised words written as the owner or the name of a place or institution ("Tellson's
        Bank", "Jackson's Island", "Ferndean Manor", "Mile End": the second word a place head), by key."""
        return _keyed(_POSSESSIVE_END.sub("", m.group(1)) for m in _OWNED_PLACE.finditer(self.text)
                      if m.group(2).lower() in _NAMING_HEADS)

    def names_a_place(self, word: str) -> bool:
        """A one-word "person" that names a place or institution (``MIN_OWNED_PLACE`` times) and is
        no first name, unless nearly always so written (:data:`FIRST_NAME_PLACE_SHARE`): A Tale of
        Two Cities' "Tellson's" (88 mentions, the bank), Jane Eyre's "Ferndean" (of "Ferndean
        Manor") and "Marsh" ("Marsh End"), David Copperfield's "Bench" (the King's Bench Prison),
        Tom Sawyer's "Jackson" (Jackson's Island), not Huckleberry Finn's "Jackson" (his alias
        George Jackson, beside the island). Whether the book also writes it as a person's name is
        the caller's to check."""
        male, female = _first_names()
        owned = self.owned_places.get(word, 0)
        if owned < MIN_OWNED_PLACE:
            return False
        return (word not in male and word not in female) or owned >= FIRST_NAME_PLACE_SHARE * self.capital.get(word, 0)

    @cached_property
    def after_the(self) -> Counter:
        """Capitalised words written after "the" ("the Republic"; not "the Jew's"), by key."""
        return _keyed(_THE_NAME.findall(self.text))

    @cached_property
    def spoken(self) -> Counter:
        """Capitalised words after "the" that say something ("said the Jew", "the Dodger replied")."""
        return _keyed(m.group(1) or m.group(2) for m in _SPOKEN.finditer(self.text))

    @cached_property
    def tagged_speakers(self) -> Counter:
        """Capitalised words that speak in a dialogue tag right after a closing quote ("…,” said
        Grantaire"), by key."""
        return _keyed(m.group(1) or m.group(2) for m in _TAGGED_SPEAKER.finditer(self.text))

    def thing_named(self, key: str, name_starts: Set[str] = frozenset()) -> bool:
        """A "person" of one to three words written "the X" in at least ``THE_SHARE`` of its
        (``MIN_THE`` or more) capitalised occurrences, whose head (the last word, or the word before
        "of") is no noun for a person or an animal, whose last word is no plural, that starts with no
        first name if of several words (if of one, it may be a first name that opens no person's name
        of the book, ``name_starts``) nor with such a noun before a first name, and that never speaks:
        a place, an institution or a thing ("the Republic", "the Bastille", "the Sacred Wafer", "the
        Island of Elba", Persuasion's "the Cobb"), not "the Jew", "the President", "the Minister of
        War", "the Mock Turtle", "the Archduke Ferdinand" or "the Vengeance" (who speaks)."""
        words = key.split()
        # a plural is a group, not a thing; French "-ais" is no plural ("the Marais", "the Palais")
        if not 1 <= len(words) <= 3 or (words[-1].endswith("s") and not words[-1].endswith(("ss", "ais"))):
            return False
        male, female = _first_names()
        head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]   # "the Minister of War"
        # a title and a first name: War and Peace's "the Archduke Ferdinand" is a person (not David
        # Copperfield's "the Inner Temple", though Temple is a first name, nor "the Lobster Quadrille");
        # one word that is a first name is a thing when written so (Persuasion's "the Cobb", Moby
        # Dick's ship "the Rachel", Anna Karenina's order "the Andrey"), unless it opens a person's
        # name of the book (``name_starts``: The Scarlet Pimpernel's "the Scarlet" cut from "the
        # Scarlet Pimpernel")
        first_name = words[0] in male or words[0] in female
        if head in _beings() or (first_name and (len(words) > 1 or key in name_starts)) or (
                len(words) > 1 and words[0] in _beings() and (words[-1] in male or words[-1] in female)):
            return False
        if len(words) == 1:
            cap, the, spoken = self.capital.get(key, 0), self.after_the.get(key, 0), self.spoken.get(key, 0)
        elif self.after_the.get(words[0], 0) < THE_SHARE * MIN_THE:   # most names: no text scan
            return False
        else:
            counts = self._phrase_counts(words)
            cap, the, spoken = counts.capitalised, counts.after_the, counts.spoken
        return cap >= MIN_THE and the >= THE_SHARE * cap and not spoken

    @cached_property
    def after_indefinite(self) -> Counter:
        """Capitalised words written after "a" or "an" ("a Giant", "an Insurer"), by key."""
        return _word_counts(_INDEFINITE, self.text)

    def common_noun(self, key: str) -> bool:
        """A "person" the book writes after "a" or "an" (and at most one word in lower case: "a
        young Insurer") in at least ``INDEFINITE_SHARE`` of its capitalised occurrences,
        ``MIN_INDEFINITE`` times or more, is a noun the author capitalised, not a name: Great
        Expectations' "an Insurer of Ships" and "a travelling Giant" (annotator version 48), David
        Copperfield's "a Middlesex Magistrate", Middlemarch's "a Churchman", "a Methodist"."""
        words = key.split()
        if self.after_indefinite.get(words[0], 0) < MIN_INDEFINITE:   # most names: no text scan
            return False
        if len(words) == 1:
            cap, indefinite = self.capital.get(key, 0), self.after_indefinite.get(key, 0)
        else:
            counts = self._phrase_counts(words)
            cap, indefinite = counts.capitalised, counts.indefinite
        return indefinite >= MIN_INDEFINITE and indefinite >= INDEFINITE_SHARE * cap

    def calendar_person(self, key: str) -> bool:
        """A month or weekday that is a dialogue tag's speaker at least ``MIN_CALENDAR_SPEAKER`` times
        ("…,” says Friday; "…,” said May) is a person's name in this book: Robinson Crusoe's Friday,
        The Age of Innocence's May Welland, The Man Who Was Thursday's Sunday. Of the 124 novels
        read, no other month or weekday speaks that often."""
        return key in CALENDAR_WORDS and self.tagged_speakers.get(key, 0) >= MIN_CALENDAR_SPEAKER

    def speaks(self, key: str) -> bool:
        """The name, written "the X", says something at least ``MIN_SPOKEN`` times ("said the
        Gryphon", "the Mock Turtle replied"), or a one-word name is a dialogue tag's speaker that
        often (Les Misérables' "said Grantaire", tagged GPE ×39): a being, whatever the tagger's
        label."""
        words = key.split()
        if len(words) == 1:
            return self.spoken.get(key, 0) + self.tagged_speakers.get(key, 0) >= MIN_SPOKEN
        if not 1 < len(words) <= 3 or self.after_the.get(words[0], 0) < MIN_SPOKEN:   # most names: no scan
            return False
        return self._phrase_counts(words).spoken >= MIN_SPOKEN

    def _phrase_counts(self, words: list[str]) -> PhraseCounts:
        """The capitalised occurrences of a name of several words and their contexts: one scan for
        the name itself, its context read around each."""
        body = r"\s+".join(_written_word(w) for w in words)
        text = self.text
        cap = the = spoken = placed = indefinite = 0
        for m in self._word_starts(rf"{body}\b(?![’']s\b)"):
            cap += 1
            placed += bool(_LOCATIVE_BEFORE.search(text, max(0, m.start() - 40), m.start()))
            indefinite += bool(_INDEFINITE_BEFORE.search(text, max(0, m.start() - 40), m.start()))
            if _THE_BEFORE.search(text, max(0, m.start() - 40), m.start()):
                the += 1
                spoken += bool(_SPEECH_BEFORE.search(text, max(0, m.start() - 40), m.start())
                               or _SPEECH_AFTER.match(text, m.end()))
        return PhraseCounts(cap, the, spoken, placed, indefinite)

    def place_named(self, key: str) -> bool:
        """Several words starting with a place word ("Castle Dracula", "Castle of Dracula", "Lake
        Maggiore"), or ending in one, not "X of Y" ("Bullock of Lombard Street" is a person), and
        not a first name unless the book puts the name after a locative preposition."""
        words = key.split()
        if len(words) >= 2 and words[0] in PLACE_FIRST_WORDS:
            return True
        if len(words) < 2 or words[-1] not in PLACE_HEADS or "of" in words:
            return False
        male, female = _first_names()
        if words[0] not in male and words[0] not in female:
            return True
        phrase = r"(?:the\s+)?" + r"\s+".join(re.escape(w) for w in words) + r"\b"
        return re.search(_LOCATIVE_PREPOSITION + phrase, self.text, re.IGNORECASE) is not None
