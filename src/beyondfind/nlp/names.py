"""Person names: honorifics, normalisation and gender cues.

A name is split into an honorific ("Mr.", "Aunt", "Colonel") and its name words ("Darcy").
Two names *agree* when their name words are equal and their honorifics do not conflict
("Mr. Darcy" = "Darcy", but "Mrs. Bennet" ≠ "Mr. Bennet"), the normalisation LRM's matching asks for
with the gender distinction the judged data needs.
"""

from __future__ import annotations

import json
from collections import Counter
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

# a rural calling before a surname, as Hardy writes it ("Farmer Boldwood", "Shepherd Oak", "Dairyman Crick");
# after a personal title it is the surname ("Mr Shepherd", Persuasion's lawyer)
CALLINGS = frozenset({"farmer", "shepherd", "dairyman"})
MALE_HONORIFICS = frozenset({
    "mr", "mister", "sir", "lord", "master", "uncle", "father", "brother", "king", "prince", "duke",
    "count", "baron", "colonel", "col", "captain", "capt", "general", "major", "lieutenant", "sergeant",
    "reverend", "rev", "dr", "doctor", "judge", "professor", "prof", "monsieur", "herr", "signor", "don",
    "marse", "mars", "squire", "parson", "deacon", "earl", "emperor", "pap", "st", "saint",
    # French titles of the translated novels ("M. de Villefort", "Citizen Defarge", "Comte de Morcerf")
    "m", "citizen", "duc", "comte", "marquis", "vicomte", "viscount", "abbe", "abbé",
    # the anarchists of The Man Who Was Thursday ("Comrade Syme") and The Secret Agent ("Comrade Ossipon")
    "comrade",
    # The Mysteries of Udolpho's "Mons. Quesnel" (×64, Monsieur abridged); Desert Gold's "Senor Gale"
    "mons", "senor", "lieut", "sgt",
}) | CALLINGS
FEMALE_HONORIFICS = frozenset({
    "mrs", "miss", "ms", "madam", "madame", "mme", "mlle", "mademoiselle", "lady", "aunt", "sister",
    "mother", "queen", "princess", "duchess", "countess", "baroness", "dame", "widow", "mistress",
    "signora", "frau", "fraulein", "empress",
    "citizeness", "comtesse", "marquise", "vicomtesse", "mamselle", "ma'amselle", "mam'selle",
    "senora", "senorita",
})
# titles of an office or a rank written before a surname ("Inspector Heat", "Admiral Croft",
# "Governor Bellingham"): the capitalised word after one is a name, as after an honorific, but the
# title stays a word of the name (a full name "Governor Bellingham", whose first word "the
# Governor" writes alone), so it implies no gender and no other title conflicts with it
OFFICE_TITLES = frozenset({
    "inspector", "superintendent", "commissioner", "constable", "sheriff", "marshal", "admiral", "commodore",
    "commander", "ensign", "corporal", "governor", "senator", "president", "mayor", "alderman", "chancellor",
    "cardinal", "bishop", "archbishop",
})
# words that grade the title of office after them ("Chief Inspector Heat", "the Assistant Commissioner")
TITLE_GRADES = frozenset({"chief", "assistant", "deputy", "vice"})
# honorifics of a family's members: the plural of a surname written after one names the family
# ("Mrs. Elton" → "the Eltons", "Princess Shtcherbatsky" → "the Shtcherbatskys"); religious,
# military and territorial titles ("Father Élysée", "Lord Wellington") are not
FAMILY_HONORIFICS = frozenset({"mr", "mrs", "miss", "ms", "master", "madam", "madame", "mme", "mademoiselle", "mlle",
                               "monsieur", "m", "herr", "frau", "fraulein", "signor", "signora",
                               "prince", "princess", "count", "countess", "baron", "baroness"})
# titles that do not imply a gender in this use
NEUTRAL_HONORIFICS = frozenset({"old", "young", "little", "poor", "dear", "cousin", "granny", "grandma", "grandpa"})
# plural honorifics: "the Misses Eshton" are two people, not a name
GROUP_HONORIFICS = frozenset({"misses", "messrs", "mesdames", "mmes", "mlles", "messieurs", "signors", "signori"})
# "pap" and "st" are name-like in the books; only these are stripped as honorifics:
SAINT_WORDS = frozenset({"st", "saint"})   # part of the name after them ("St. John"), never stripped
STRIP_HONORIFICS = (MALE_HONORIFICS | FEMALE_HONORIFICS) - SAINT_WORDS - {"pap", "old", "young", "little"}
# honorifics written short, with a period ("Mrs.", "Dr.", "M."), the others are whole words
ABBREVIATED_HONORIFICS = frozenset({"mr", "mrs", "ms", "dr", "m", "mme", "mlle", "rev", "prof", "capt", "col", "mons",
                                    "lieut", "sgt"})

MALE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
THIRD_PERSON_PRONOUNS = MALE_PRONOUNS | FEMALE_PRONOUNS
FIRST_PERSON_PRONOUNS = frozenset({"i", "me", "my", "mine", "myself"})

# words that never start or make up a name on their own (checked lower-cased)
NAME_PARTICLES = frozenset({"de", "des", "del", "della", "di", "van", "von", "der", "la", "le", "du", "of", "d'"})
NOT_NAMES = frozenset({
    "the", "a", "an", "his", "her", "my", "our", "your", "their", "its", "this", "that", "these",
    "those", "i", "he", "she", "it", "we", "they", "you", "chapter", "book", "volume", "part", "oh",
    "o", "ah", "yes", "no", "well", "but", "and", "or", "so", "then", "now", "there", "here", "what",
    "why", "how", "when", "where", "who", "god", "lord", "heaven", "sir", "madam", "ma'am", "mr", "mrs",
    "miss", "mr.", "mrs.", "dr.", "st.",
    # words the tagger puts before a name: "Friend John" (Van Helsing's Dr. Seward), "Dearest Jane"
    "friend", "dearest", "neither", "nor",
    # sentence adverbs the tagger reads as a name's first word: "Meantime Arthur" (Sons and Lovers),
    # "Meanwhile Rachel" (The Tenant of Wildfell Hall), "'Tis Cain Ball" (Far from the Madding Crowd)
    "meantime", "meanwhile", "'tis", "’tis", "tis",
})

_WORD = re.compile(r"[^\W\d_](?:[\w'’\-]*\w)?", re.UNICODE)


def fold_accents(text: str) -> str:
    """``Natásha`` → ``Natasha``: letters without their combining marks (readers type names plainly)."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _norm_word(w: str) -> str:
    w = fold_accents(w).lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    return w.strip(".'")


@dataclass(frozen=True)
class Name:
    """A normalised person name: honorific (lower-case, no dot) and name words (lower-case)."""

    honorific: str | None
    words: tuple[str, ...]
    # written with "the" ("the Bastille"): a place, building or institution, not a person
    definite: bool = field(default=False, compare=False, repr=False)

    @cached_property   # read ~10⁴ times while a book loads and per query (a frozen instance may cache)
    def key(self) -> str:
        """Name words only, the unit of bag-of-words matching ("mr. darcy" → "darcy")."""
        return " ".join(self.words)

    @property
    def display_key(self) -> str:
        return f"{self.honorific} {self.key}" if self.honorific else self.key

    def agrees(self, other: "Name") -> bool:
        """Same name words and no conflicting honorific."""
        return self.words == other.words and not self.honorific_conflict(other)

    def honorific_conflict(self, other: "Name") -> bool:
        return bool(self.honorific and other.honorific and self.honorific != other.honorific)

    def part_of(self, other: "Name") -> bool:
        """Word-based part: every name word of ``self`` is in ``other`` and ``other`` is longer."""
        return len(self.words) < len(other.words) and set(self.words) <= set(other.words)

    def shares_word(self, other: "Name") -> bool:
        return bool(set(self.words) & set(other.words))


def elided_particle_name(text: str) -> bool:
    """"d’Avrigny", "D'Artagnan", "l’Épée": a name word with an elided "de"/"le" written onto it;
    and the Irish and Scottish "O’Connor", "M’Coy" (the tagger, trained on straight apostrophes,
    reads Dubliners' curly "O’Connor" ×45 as anything but a proper noun; not a heading's "FOUR O'CLOCK")."""
    return len(text) > 3 and (text[0] in "dDlL" or (text[0] in "OM" and not text.isupper())) and text[1] in "'’" \
        and text[2].isupper() and text[2:].isalpha()


def capitalised_name_word(text: str) -> bool:
    """A word that can be part of a name whatever its tag: capitalised letters and no function
    word ("Stubb", "Château"), or a word behind an elided particle ("d’Avrigny")."""
    return (text[:1].isupper() and text.isalpha() and text.lower() not in NOT_NAMES) or elided_particle_name(text)


def honorific_token(text: str) -> bool:
    """A capitalised honorific that :func:`capitalised_name_word` does not take for a name word —
    "Mr", "Miss", "Sir", or a short one written with its period, which the tokenizer keeps in the
    token ("Mrs.", "Dr.", "M."; "Miss." ends a sentence): the start of the name after it."""
    if text[-1:] == ".":
        return text[:1].isupper() and text[:-1].lower() in ABBREVIATED_HONORIFICS
    return text[:1].isupper() and text.lower() in STRIP_HONORIFICS and not capitalised_name_word(text)


def parse_name(text: str) -> Name:
    """``"Mr. Darcy"`` → ``Name("mr", ("darcy",))``; possessives and dots dropped; a leading "the"
    is not a name word but marks the name as definite (``"the Bastille"``)."""
    words = [_norm_word(m.group()) for m in _WORD.finditer(text)]
    words = [w for w in words if w]
    definite = len(words) > 1 and words[0] == "the"
    if definite:
        words = words[1:]
    honorific = None
    while len(words) > 1:
        title = words[0] if words[0] in STRIP_HONORIFICS else _compound_honorific(words[0])
        if title is None:
            break
        honorific = honorific or canonical_honorific(title)
        words = words[1:]
    return Name(honorific, tuple(words), definite)


def _compound_honorific(word: str) -> str | None:
    """The last honorific of one written with hyphens: ``"lieutenant-colonel"`` → ``"colonel"``,
    ``"major-general"`` → ``"general"``; None for any other word."""
    parts = word.split("-")
    return parts[-1] if len(parts) > 1 and all(p in STRIP_HONORIFICS for p in parts) else None


def name_like(text: str) -> bool:
    """A word that can be or open a name: a capitalised name word (:func:`capitalised_name_word`) or an
    honorific before one (:func:`honorific_token`) — where propagation looks for missed names."""
    return capitalised_name_word(text) or honorific_token(text)


def after_office_title(key: str) -> str | None:
    """The name a title of office stands before in a name key: ``"chief inspector heat"`` →
    ``"heat"``; None when the key opens with no such title or is nothing but titles."""
    words = key.split()
    i = 0
    while i < len(words) and (words[i] in OFFICE_TITLES or (words[i] in TITLE_GRADES and i + 1 < len(words)
                                                            and words[i + 1] in OFFICE_TITLES)):
        i += 1
    return " ".join(words[i:]) if 0 < i < len(words) and words[i - 1] in OFFICE_TITLES else None


def canonical_honorific(word: str) -> str:
    """One spelling per honorific: ``doctor`` → ``dr``, ``mister`` → ``mr``."""
    return {"mister": "mr", "col": "colonel", "capt": "captain", "rev": "reverend", "doctor": "dr",
            "prof": "professor", "madame": "madam", "mme": "madam", "m": "monsieur", "mons": "monsieur",
            "lieut": "lieutenant", "sgt": "sergeant", "mlle": "mademoiselle",
            "mamselle": "mademoiselle",
            "ma'amselle": "mademoiselle", "mam'selle": "mademoiselle"}.get(word, word)


@lru_cache(maxsize=1)
def _first_names() -> tuple[frozenset[str], frozenset[str]]:
    data = json.loads((Path(__file__).parent / "data" / "names.json").read_text(encoding="utf-8"))
    female = frozenset(n.lower() for n in data["female"])
    male = frozenset(n.lower() for n in data["male"])
    return male, female


# pet names the nickname list lacks, as nineteenth-century novels write them
EXTRA_NICKNAMES = {"janet": ("jane",), "kitty": ("catherine", "katherine", "kathleen"),
                   "nelly": ("ellen", "helen", "eleanor"), "jo": ("josephine",),
                   "tony": ("antony",),   # the older spelling: The Scarlet Pimpernel's Lord Antony Dewhurst
                   "nance": ("nancy", "ann", "anne")}   # Oliver Twist's Sikes calls Nancy "Nance"
# nicknames as long as the name they are short for (so the list's pair reads as noise), trusted only
# on the evidence of nearness (characters._join_nicknames), never to join two full names: The
# Picture of Dorian Gray's "Harry" ×178 is Lord Henry, but Sense and Sensibility's little "Harry
# Dashwood" is not his grandfather "Mr. Henry Dashwood"
NICKNAMES_ON_EVIDENCE = {"harry": ("henry",)}


# a word with this many nicknames of its own is a given name, never read as a nickname ("mary" of
# "marion", "john" of "jonathan": 6 and 7); "joe", "tom", "will", "beth" have at most four, "bill" five
GIVEN_NAME_NICKNAMES = 6


@lru_cache(maxsize=2)
def nicknames(on_evidence: bool = False) -> dict[str, frozenset[str]]:
    """nickname → the given names it is short for (``lizzy`` → {``elizabeth``}), from the vendored
    list (``data/nicknames.csv``, see its README) plus :data:`EXTRA_NICKNAMES`; the spellings -ie,
    -y and -ey of a nickname are one (``kittie`` / ``kitty``). The list holds both directions of many
    pairs (``tom`` has nickname ``thomas`` and ``thomas`` has ``tom``) and noise (``wilma`` has
    ``william``), so a word the list gives nicknames of (``catherine``, ``joe``) is a nickname only
    of longer names (``joe`` of ``joseph``, ``tom`` of ``thomas``, ``beth`` of ``elizabeth``; never
    ``catherine`` of ``cathy`` or ``william`` of ``wilma``), and not at all when it has
    :data:`GIVEN_NAME_NICKNAMES` of its own, as a primary given name does (``mary``, ``john``), unless
    :data:`EXTRA_NICKNAMES` says so (``janet``). ``on_evidence``: also :data:`NICKNAMES_ON_EVIDENCE`,
    for joins that the text's nearness supports."""
    pairs: list[tuple[str, str]] = []
    lines = (Path(__file__).parent / "data" / "nicknames.csv").read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        name, relation, nickname = line.split(",")
        if relation == "has_nickname":
            pairs.append((name, nickname))
    own = Counter(name for name, _ in pairs)   # how many nicknames each word has itself
    formal: dict[str, set[str]] = {}
    for name, nickname in pairs:
        for spelling in _diminutive_spellings(nickname):
            if not own[spelling] or (len(spelling) < len(name) and own[spelling] < GIVEN_NAME_NICKNAMES):
                formal.setdefault(spelling, set()).add(name)
    out = {n: frozenset(fs) for n, fs in formal.items()}
    for n, fs in (EXTRA_NICKNAMES | (NICKNAMES_ON_EVIDENCE if on_evidence else {})).items():
        out[n] = out.get(n, frozenset()) | frozenset(fs)
    return out


# a pet form's stem that is only the beginning of the name needs this many letters ("Dunsey" of
# Dunstan; "Mary" is no pet form of Marius)
PET_PREFIX_LETTERS = 4


def pet_form_stems(word: str) -> tuple[str, ...]:
    """The stems of a word shaped like a pet name, -y, -ie or -ey after at least three letters: the
    word without its ending and, after a doubled consonant, without one of the two ("tommy" → "tomm",
    "tom"; "laddy" → "ladd", "lad"); none for any other word."""
    for ending in ("ie", "ey", "y"):
        if word.endswith(ending) and len(word) >= len(ending) + 3:
            stem = word[: -len(ending)]
            doubled = len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiou"
            return (stem, stem[:-1]) if doubled else (stem,)
    return ()


def is_pet_form(word: str, name: str, prefix: bool = False) -> bool:
    """Whether ``word`` is a pet name made from ``name`` by an ending the nickname list need not
    know: The Adventures of Tom Sawyer's "Hucky" of Huck, Tess's "Tessy", Little Women's "Bethy",
    Desert Gold's "Laddy" of Ladd; with ``prefix``, also from the name's beginning (Silas Marner's
    "Dunsey" of Dunstan, Main Street's "Raymie" of Raymond)."""
    return word != name and any(stem_of(stem, name, prefix) for stem in pet_form_stems(word))


def stem_of(stem: str, name: str, prefix: bool = False) -> bool:
    """Whether a pet form's ``stem`` (:func:`pet_form_stems`) is made from ``name``: is the name, or
    with ``prefix`` its beginning of :data:`PET_PREFIX_LETTERS` letters or more."""
    return stem == name or (prefix and len(stem) >= PET_PREFIX_LETTERS and name.startswith(stem))


def _diminutive_spellings(nickname: str) -> set[str]:
    for ending in ("ie", "ey", "y"):
        if nickname.endswith(ending) and len(nickname) > len(ending) + 1:
            stem = nickname[: -len(ending)]
            return {stem + e for e in ("ie", "ey", "y")}
    return {nickname}


def name_gender(name: Name) -> str | None:
    """"male", "female" or None (unknown or ambiguous), from the honorific, then the first name."""
    if name.honorific in MALE_HONORIFICS:
        return "male"
    if name.honorific in FEMALE_HONORIFICS:
        return "female"
    if not name.words:
        return None
    male, female = _first_names()
    first = name.words[0]
    if first in male and first not in female:
        return "male"
    if first in female and first not in male:
        return "female"
    return None


# a Russian patronymic as English translations spell it: -ovitch / -evich (a son's), -ovna / -evna /
# -ichna (a daughter's): Anna Karenina's "Alexey Alexandrovitch", War and Peace's "Anna Pávlovna"
_PATRONYMIC = re.compile(r"[a-z'-]{2,}(?:(?:ov|ev)(?:itch|ich)|(?:ov|ev)na|ichna)")


def patronymic_gender(word: str) -> str | None:
    """"male" or "female" for a word shaped like a patronymic (accents aside: "Pávlovna" is a
    daughter's, "Vasílyevich" a son's), None for any other word."""
    w = fold_accents(word).lower()
    if not _PATRONYMIC.fullmatch(w):
        return None
    return "female" if w.endswith("na") else "male"


def pronoun_gender(word: str) -> str | None:
    w = word.lower()
    if w in MALE_PRONOUNS:
        return "male"
    if w in FEMALE_PRONOUNS:
        return "female"
    return None
