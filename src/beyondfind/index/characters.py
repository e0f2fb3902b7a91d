"""Characters: a book's name forms grouped into entities, with constraints (alias clustering).

A *form* is a name as written, normalised to ``(honorific, name words)`` — ``("miss", "bingley")``,
``(None, "elizabeth bennet")``. :func:`cluster_names` groups forms into characters, in the spirit of
BookNLP's name clustering but with *cannot-link* constraints checked against every member of a
cluster (so transitivity never joins ``Mr. Eyre`` and ``Miss Eyre`` through a bare ``Eyre``):

* gender: honorific or first name must agree (``Mr. X`` ≠ ``Miss X``; ``Mrs. John Brooke`` ≠
  ``John Brooke``);
* ``Mrs.`` ≠ ``Miss`` (a married name is another person), and ``Mrs. X`` without a first name never
  joins a first-name form (``Mrs. Bennet`` ≠ ``Elizabeth Bennet``) unless the text also gives her
  first name a married title (Dracula's ``Madam Mina`` is ``Mina Harker`` and ``Mrs. Harker``);
* first names must agree (``Elizabeth Bennet`` ≠ ``Jane Bennet``), up to a prefix (``Huck`` /
  ``Huckleberry``) or a nickname (``Tommy Traddles`` / ``Thomas Traddles``); surnames must agree,
  and patronymics, which are no surnames (``Stepan Arkadyevitch`` is ``Prince Stepan Arkadyevitch
  Oblonsky``; ``Anna Pávlovna`` ≠ ``Anna Mikháylovna``);
* a man styled ``Sir`` or ``Lord`` is never ``Mr.`` with his surname nor styled the other way
  (Persuasion's ``Mr Elliot`` ≠ ``Sir Walter Elliot``), a sovereign nobody with another title
  (``Queen Elizabeth`` ≠ ``Lady Elizabeth Devereux``);
* in a book that tells an old Mr. X from a young one (:func:`elder_surnames`), ``Mr. X`` does not
  join the son known by his first name (Vanity Fair's ``Mr. Osborne`` ≠ ``George Osborne``), and
  a frequent ``Mr. X`` weighed again at the end never does (:func:`_known_by_first_name`: Great
  Expectations' ``Mr. Pocket`` ≠ ``Herbert Pocket``);
* a son's wife named by his first name is not the plain ``Mrs. X`` (:func:`_husbands_wife`:
  Persuasion's ``Mrs Charles Musgrove`` ≠ ``Mrs Musgrove``), nor ever that man.

Forms are attached from the most specific (full names with honorifics) to the least (one bare
word). A form joins the characters it could name (it is a word-based part of one of their forms,
or the same words without an honorific) when exactly one is compatible, or one holds at least
``dominant_share`` of their mentions. Otherwise it stays *ambiguous*: a family surname such as
``Bennet`` keeps its own row and its list of candidate characters, and retrieval resolves each of
its mentions by local/global coreference among those candidates (see :mod:`beyondfind.retrieval.lrm`).
Among candidates none dominates, a title with a first name (``Sir George``) joins the one whose full name
carries that title before that first name (``Sir George Yeardley``; :func:`_styled`).
Two parts of one longer full name agree though their first words differ (``Edward Rochester``,
``Fairfax Rochester``), and a frequent titled form that no candidate dominated when it was placed
is weighed again once every form is placed (:func:`_join_held_apart`: ``Mr. Rochester``).

Nicknames join on evidence (:func:`_join_nicknames`): a character named only by a nickname of a
given name (``Lizzy``; the vendored list in :func:`beyondfind.nlp.names.nicknames`) joins the one
character with that given name (``Elizabeth``) that the text keeps near it — most of the nickname's
mentions within ``window`` of the character's, several times as often as near any other such
character — and that is mentioned at least as often. A list alone would make ``Kitty`` Lady
Catherine in Pride and Prejudice (they are seldom near each other) and ``Aunt Polly`` Miss Mary
Jane in Huckleberry Finn (their honorifics differ), so without that evidence a nickname stays its
own character. A first name written only with honorifics (``Prince Murat``, ``Miss Nelly``) joins
the bare first name's character (:func:`_join_honorific_variants`).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..nlp.names import (CALLINGS, MALE_HONORIFICS, NAME_PARTICLES, NEUTRAL_HONORIFICS, SAINT_WORDS, Name, _first_names,
                         name_gender, nicknames, patronymic_gender, pet_form_stems, stem_of)

FormKey = tuple[str | None, str]   # (honorific, name words joined by spaces)
# a wife's titles: "Mrs. Bennet" is not "Elizabeth Bennet", nor The Scarlet Pimpernel's "Comtesse de
# Tournay" her daughter "Mlle. Suzanne de Tournay" (the English "Countess" not: War and Peace's
# "Countess Rostóva" then joined Natásha)
MARRIED = frozenset({"mrs", "lady", "madam", "madame", "mme", "widow", "frau", "signora",
                     "comtesse", "marquise", "vicomtesse"})
UNMARRIED = frozenset({"miss", "mlle", "mademoiselle", "fraulein"})
# titles that, written with a woman's first name, tell she is married (a princess may be born one)
MARRIED_WITH_FIRST_NAME = frozenset({"mrs", "madam", "countess", "duchess", "baroness", "marchioness",
                                     "viscountess"})
# honorifics followed by a first name rather than a surname ("Lady Catherine", "Aunt Polly")
FIRST_NAME_HONORIFICS = frozenset({"lady", "sir", "aunt", "uncle", "sister", "brother", "father", "mother",
                                   "prince", "princess", "king", "queen", "saint", "st", "cousin"})
# kinship titles: with a surname ("Aunt March") they name an elder of the family, not a relative
# the book knows by a first name (_kin_by_surname)
KIN_TITLES = frozenset({"aunt", "uncle", "cousin", "grandmother", "grandfather", "grandma", "grandpa", "granny"})
# an uncle or aunt written with a surname is the one "Mr." / "Mrs." of it (:func:`_join_kin_titles`)
KIN_FORMAL = {"uncle": "mr", "aunt": "mrs"}
KIN_SHARE = 0.3   # ... unless written this share as often as that title: then a character of its own
# a sovereign's title: "Queen Elizabeth" is no Lady Elizabeth (Dorian Gray's Devereux, Vanity Fair's
# Crawley), whatever else the name shares; a full name without a title may be the sovereign's own
# ("Napoleon Bonaparte", "Louis Philippe"), so Treasure Island's "King George" still joins George Merry
ROYAL = frozenset({"king", "queen", "emperor", "empress", "tsar", "czar", "tsarina", "czarina", "pope"})
# a man styled "Sir" or "Lord" is never "Mr." with his surname: Persuasion's "Mr Elliot" (the heir) is
# not "Sir Walter Elliot" (his cousin), Dorian Gray's "Lord Henry" no "Mr. Wotton"
STYLED = frozenset({"sir", "lord"})
SURNAME_HONORIFICS = frozenset({"mr", "mrs", "miss", "ms", "master", "dr", "madam", "madame", "mme", "monsieur",
                                "mlle", "mademoiselle", "colonel", "captain", "major", "general", "lieutenant",
                                "sergeant", "professor", "reverend", "judge", "squire", "herr", "frau",
                                "citizen", "citizeness", "comrade", "comte", "comtesse", "duc", "marquis", "marquise",
                                "vicomte", "vicomtesse", "abbe"}) | CALLINGS
RARE = 10              # full names seen fewer times absorb a bare word 3× as frequent only when they introduced it
                       # (a titled one-word form too when several characters compete for it: Middlemarch's
                       # "Mr. Lydgate" ×115 is not "Sir Godwin Lydgate", who arrives at 41 % of the book)
DOMINANT_SHARE = 0.8   # a form joins the candidate that holds this share of the candidates' mentions
FIRST_LEAD = 4                # "Mr. X" is a first name when full names use X first this many times as often as last
BOTH_ROLES_USES = 5    # a listed first name written first in one full name and last in another this often each ...
BOTH_ROLES_SHARE = 0.2  # ... the rarer role at least this share of the other: the bare word may be either
HONORIFIC_FIRST_EVIDENCE = 5  # mentions of full names using an unknown word first that make "Mr. X" a first name
OUTWEIGHED_BY = 3.0    # a bare surname's pronoun gender gives way to candidates this many times as frequent
OWN_SHARE = 3.0        # an ambiguous form this many times as frequent as its candidates is its own character
DISTINGUISHING_USES = 20  # "Mr. F X" this often marks a person other than a far more frequent "Mr. X"
DISTINGUISHING_SHARE = 0.1  # ... and, for a "Mr. X" weighed again at the end, this share of its uses
MADAM_USES = 2         # "Madam F" written this often tells F is a married woman's first name (_married_first_names)
WIFE_USES = 3          # "Mrs. F X" with a man's first name F this often is his wife, not a plain "Mrs. X" ...
WIFE_SHARE = 5.0       # ... written this many times as often as all that wife's forms
HUSBAND_USES = 10      # ... when F, no woman's name, is written this often without a title
NEAR_SHARE = 0.3       # a nickname joins a character when this share of its mentions is near the character's
NEAR_LEAD = 3.0        # ... and this many times the share near any other character with that given name
ON_EVIDENCE_SHARE = 0.2  # a nickname of NICKNAMES_ON_EVIDENCE is used this share as often as its character's
                         # forms: Dorian Gray's "Harry" ×178 (Lord Henry ×229); King Solomon's Mines' "Harry"
                         # ×10, the narrator's son, is near Sir Henry ×259 at every use
TITLED_DISPLAY = 2.0   # a titled form names the row unless the bare word is written this many times as often
FIRST_NAME_LEAD = 5.0  # ... or this many times as often as with the surname, when one such son is found
ELDER_EVIDENCE = 3     # "old Mr. X" / "young Mr. X" written this often: the book has two men called Mr. X
# "Mr" found first (a literal prefix the regex engine scans for), the age word then read before it
_MR = re.compile(r"Mr\.?\s+([A-Z][\w’'-]+)")
_AGE_BEFORE = re.compile(r"(?:\b[Oo]ld|\b[Yy]oung|\b[Tt]he elder|\b[Tt]he younger)\s+$")


@dataclass(frozen=True)
class FormStats:
    """What the book says about one form: mentions, labels, and gender evidence from pronouns
    resolved to it ("he" ×12, "she" ×1 → male)."""

    count: int
    label: str = "PER"
    pronoun_gender: str | None = None
    # where the form is used, in any unit that grows in reading order (character offset, token),
    # sorted; empty when not known
    positions: tuple[float, ...] = ()
    # every mention is in a title line (a heading, a table of contents, a byline): such a form
    # names no one in the story by itself ("Tom Astonishes the School", "By Jane Austen")
    titles_only: bool = False
    # every mention is broken off by a dash ("Silas Ph--"): see _cut_short
    broken_off: bool = False

    @classmethod
    def from_positions(cls, positions: list[float], label: str = "PER", pronoun_gender: str | None = None,
                       titles_only: bool = False, broken_off: bool = False) -> "FormStats":
        return cls(len(positions), label, pronoun_gender, tuple(sorted(positions)), titles_only, broken_off)

    @property
    def first(self) -> float | None:
        """The first mention's position."""
        return self.positions[0] if self.positions else None

    @property
    def first_quarter(self) -> float | None:
        """The position of the mention a quarter of the way through the form's uses."""
        return self.positions[len(self.positions) // 4] if self.positions else None


@dataclass(frozen=True)
class Character:
    """One entity of the book. ``candidates``: for an ambiguous form (a family surname), the
    characters it may name; empty for a resolved character."""

    id: int
    name: FormKey
    label: str
    forms: tuple[FormKey, ...]
    mentions: int
    gender: str | None
    candidates: tuple[int, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return bool(self.candidates)


@dataclass(frozen=True)
class CharacterIndex:
    characters: tuple[Character, ...]
    character_of: Mapping[FormKey, int]          # every form → the character row that holds it
    readings: Mapping[FormKey, tuple[int, ...]] = field(default_factory=dict)  # form → characters it may name

    def lookup(self, name: Name) -> Character | None:
        """The character a query name denotes: its form, else its words without the honorific, else
        the one character the book writes the query's one word for with an honorific (``Lockwood``
        → ``Mr. Lockwood``; ``Bennet`` stays unknown: Mr. and Mrs. Bennet), else the one character
        with a form of the same surname whose first name is a prefix of the query's or the other
        way round (``Huckleberry Finn`` → the ``Huck Finn`` character)."""
        for key in ((name.honorific, name.key), (None, name.key)):
            if key in self.character_of:
                return self.characters[self.character_of[key]]
        if len(name.words) == 1:
            titled = {cid for (h, key), cid in self.character_of.items() if key == name.key and h is not None}
            return self.characters[titled.pop()] if len(titled) == 1 else None
        if len(name.words) >= 2:
            first, surname = name.words[0], name.words[-1]
            found = set()
            for (_h, key), cid in self.character_of.items():
                words = key.split()
                if (len(words) == len(name.words) and words[-1] == surname
                        and (words[0].startswith(first) or first.startswith(words[0]))):
                    found.add(cid)
            if len(found) == 1:
                return self.characters[found.pop()]
            return self._by_given_name(name)
        return None

    def _by_given_name(self, name: Name) -> Character | None:
        """A full name the book never writes (``Elinor Dashwood``, where it says ``Elinor``): the one
        resolved character with a form that starts with the query's first word and whose words
        all belong to the query, and no full name with another surname (``John Smith`` is not Sir
        John Middleton because the book wrote ``John`` for him); of the right gender when the
        query's honorific gives one. Without it the first-name mentions would count for nothing
        (global coreference of a name the book never writes is 0)."""
        gender = name_gender(Name(name.honorific, ())) if name.honorific else None
        found = set()
        for (_h, key), cid in self.character_of.items():
            words = key.split()
            c = self.characters[cid]
            if (words[0] == name.words[0] and set(words) <= set(name.words) and not c.ambiguous
                    and c.label == "PER" and (gender is None or c.gender in (None, gender))
                    and all(len(k.split()) < 2 or k.split()[-1] in name.words for _h2, k in c.forms)):
                found.add(cid)
        return self.characters[found.pop()] if len(found) == 1 else None

    def possible(self, key: FormKey) -> tuple[int, ...]:
        """The characters a mention of ``key`` may name (one for a resolved form)."""
        return self.readings.get(key, ())


@dataclass
class _Form:
    key: FormKey
    honorific: str | None
    words: tuple[str, ...]
    stats: FormStats
    first: str | None = None
    surname: str | None = None
    gender: str | None = None
    outside: bool = False   # written only in title lines, with a word the story's own forms never use
    wife_of: bool = False   # "Mrs." with the name of a man the book titles (:func:`_wives_by_husbands_names`)
    both_roles: bool = False   # a bare word that is one person's first name and another's surname (:func:`_roles`)
    apart: frozenset[FormKey] = frozenset()   # forms known to name someone else (cluster_names' ``apart``)
    patronymic: str | None = None   # a word after the first that is one ("alexandrovitch": :func:`_patronymic`)


def _patronymic(form: _Form) -> str | None:
    """The word after the first that is a patronymic ("alexandrovitch" of "Alexey Alexandrovitch
    Karenin"), if any."""
    if form.stats.label != "PER":
        return None
    return next((w for w in form.words[1:] if patronymic_gender(w)), None)


def form_words(key: str) -> tuple[str, ...]:
    """A form's name words, a saint's name one word: "St. John Rivers" is first name "st john" and
    surname "rivers", and "St. John" (Jane Eyre, ×127) is his first name, not a "Mr. St" or a
    surname "John" that John Reed's "John" would join. Persons only: a place's bare word is the
    place ("Antoine" of A Tale of Two Cities' "Saint Antoine")."""
    words = key.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] in SAINT_WORDS and i + 1 < len(words):
            out.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


SAINT_ABBREVIATIONS = {"st": "saint", "ste": "sainte"}


def place_words(key: str) -> tuple[str, ...]:
    """A place's name words, a saint's title written out: "St. Antoine" and "Saint Antoine" (A Tale
    of Two Cities, ×2 and ×30) are one place."""
    return tuple(SAINT_ABBREVIATIONS.get(w, w) for w in key.split())


def _gender(form: _Form) -> str | None:
    """From the honorific or the first name (:func:`name_gender`), a patronymic, else from resolved
    pronouns."""
    known = name_gender(Name(form.honorific, (form.first,) if form.first else ()))
    if not known and form.patronymic:
        known = patronymic_gender(form.patronymic)
    return known or (form.stats.pronoun_gender if form.stats.label == "PER" else None)


def _gender_from_first_name(forms: list[_Form]) -> None:
    """A full name of unknown gender takes the gender of its first name written alone, when the
    book resolves pronouns to that bare name more often than it writes the full name: Little
    Women's ``Jo March`` (×2; "Jo" is a man's and a woman's name) is a woman because ``Jo`` (×1,181)
    is "she" — so ``Mr. March``, the father, is not taken for her. Only names the lists give both
    genders: an unlisted first name's pronouns are fewer and less sure (Vanity Fair's ``Bute
    Crawley`` is the Reverend, ``Mrs. Bute`` his wife)."""
    male, female = _first_names()
    bare = {f.words[0]: f for f in forms if f.honorific is None and len(f.words) == 1 and f.first is not None}
    for f in forms:
        if (f.gender is None and f.honorific is None and len(f.words) > 1 and f.first in bare
                and f.first in male and f.first in female):
            alone = bare[f.first]
            if alone.stats.pronoun_gender is not None and alone.stats.count > f.stats.count:
                f.gender = alone.stats.pronoun_gender


def _gender_from_lists(form: _Form) -> bool:
    """The form's gender is the resolved pronouns' and it is a bare surname that the first-name
    lists give that gender: the pronoun resolver took the gender from the lists (Jane Eyre's maid
    ``Abbot``, a man's first name there, drew 15 "he" and no "she"), so it is weak evidence."""
    return (form.gender is not None and form.honorific is None and form.surname is not None
            and len(form.words) == 1 and name_gender(Name(None, form.words)) == form.gender)


def _outweighed_gender(form: _Form, cands: list[int], members: list[list[_Form]]) -> bool:
    """A bare surname whose gender only the resolved pronouns give, while candidates of the other
    gender hold :data:`DOMINANT_SHARE` of the candidates' mentions: David Copperfield's ``Barkis``
    ×38 drew Peggotty's "she" (the carrier's message "Barkis is willin'" is hers to answer), but
    the book writes ``Mr. Barkis`` ×117 and ``Mrs. Barkis`` ×3. The form must be used at most
    1/:data:`OUTWEIGHED_BY` as often as those candidates: the nurse ``Peggotty`` ×432 ("she") is
    not her brother ``Mr. Peggotty`` ×328."""
    if (form.gender is None or form.honorific is not None or len(form.words) != 1 or form.surname is None
            or name_gender(Name(None, form.words)) is not None):
        return False
    counts: Counter = Counter()
    for c in cands:
        genders = {m.gender for m in members[c] if m.gender}
        counts[genders.pop() if len(genders) == 1 else None] += sum(m.stats.count for m in members[c])
    other = "female" if form.gender == "male" else "male"
    return (counts[other] >= DOMINANT_SHARE * sum(counts.values())
            and form.stats.count * OUTWEIGHED_BY <= counts[other])


def _roles(forms: list[_Form], first_names: frozenset[str]) -> None:
    """First name / surname of each form. A lone word is a surname when the book uses it as the
    last word of longer names (or after Mr./Mrs./Miss) more than as a first word. A bare first name
    of the lists that persons' full names use both first and last, each at least
    :data:`BOTH_ROLES_USES` times and the rarer way :data:`BOTH_ROLES_SHARE` as often as the other,
    may be either (``both_roles``): Tom Sawyer's ``Joe`` is ``Joe Harper`` (×18) on the island and
    ``Injun Joe`` (×56) in the graveyard, so it may name both (:func:`_fits`).

    A word after a surname honorific is a first name when full names of persons use it first
    :data:`FIRST_LEAD` times as often as last, not counting those that start with an adjective
    ("Little Hareton"), and it is a known first name or full names use it often enough: "Mrs.
    Rachel" beside "Mrs. Rachel Lynde"; "Mr. Hareton" beside "Hareton Earnshaw", a servant's way to
    name the son of the house."""
    as_first, as_last = Counter(), Counter()
    first_in_full, last_in_full = Counter(), Counter()   # positions in full names of persons
    for f in forms:
        n = f.stats.count
        if len(f.words) > 1 and not _described(f):
            as_first[f.words[0]] += n
            as_last[f.words[-1]] += n
            if f.stats.label == "PER" and f.words[0] not in NEUTRAL_HONORIFICS:
                first_in_full[f.words[0]] += n
                last_in_full[f.words[-1]] += n

    def honorific_first(f: _Form) -> bool:
        w = f.words[0]
        return (f.honorific in SURNAME_HONORIFICS and first_in_full[w] > FIRST_LEAD * last_in_full[w]
                and (w in first_names or first_in_full[w] >= HONORIFIC_FIRST_EVIDENCE))

    for f in forms:
        if len(f.words) == 1 and (f.honorific in FIRST_NAME_HONORIFICS or honorific_first(f)):
            as_first[f.words[0]] += f.stats.count
        elif len(f.words) == 1 and f.honorific in SURNAME_HONORIFICS:
            as_last[f.words[0]] += f.stats.count
    for f in forms:
        if len(f.words) > 1 and not _described(f):   # "de Villefort": a particle, no first name
            f.first, f.surname = (None if f.words[0] in NAME_PARTICLES else f.words[0]), f.words[-1]
            if f.patronymic == f.words[-1]:   # "Alexey Alexandrovitch": first name and father's, no surname
                f.surname = None
            continue
        w = f.words[-1]
        if as_first[w] > as_last[w] or (as_first[w] == as_last[w] and w in first_names) or honorific_first(f):
            f.first = w
        else:
            f.surname = w
        rarer, commoner = sorted((first_in_full[w], last_in_full[w]))
        f.both_roles = (f.honorific is None and len(f.words) == 1 and w in first_names
                        and rarer >= BOTH_ROLES_USES and rarer >= BOTH_ROLES_SHARE * commoner)


def _described(form: _Form) -> bool:
    """A name of two words whose first is an adjective the text puts before a name ("Young Jerry",
    "Little Rawdon", "Old Boggs"): the second word's role is that of the word alone. Counted as a
    full name, A Tale of Two Cities' "Young Jerry" ×10 made "Jerry" a surname, so the bare "Jerry"
    ×94 could not join "Jerry Cruncher" and his father's row was split in two."""
    return len(form.words) == 2 and form.words[0] in NEUTRAL_HONORIFICS


def _first_names_agree(a: str, b: str) -> bool:
    """The same first name, one a prefix of the other (``Huck`` / ``Huckleberry``), an initial of
    the other (David Copperfield's schoolboy carving ``J. Steerforth`` / ``James Steerforth``, Great
    Expectations' ``Mrs. J. Gargery`` / ``Mrs. Joe Gargery``), or one a nickname of the other
    (``Tommy`` / ``Thomas``)."""
    if a == b or (min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a))):
        return True
    if (len(a) == 1) != (len(b) == 1) and a[0] == b[0]:
        return True
    table = nicknames()
    return a in table.get(b, ()) or b in table.get(a, ())


def _initialled(form: _Form) -> bool:
    """The form gives its first name as an initial (``J. Steerforth``)."""
    return form.first is not None and len(form.first) == 1


def _given_names_agree(a: _Form, b: _Form) -> bool:
    """First names agree, or one agrees with a middle name of the other ("Fairfax Rochester" /
    "Edward Fairfax Rochester"; The Beautiful and Damned's "Dick Caramel" / "Harvard Crimson
    Richard Caramel", a newspaper's name taken into the span)."""
    if _first_names_agree(a.first, b.first):
        return True
    return (any(_first_names_agree(a.first, w) for w in b.words[1:-1])
            or any(_first_names_agree(b.first, w) for w in a.words[1:-1]))


def _married_first_names(forms: list[_Form], female: frozenset[str]) -> frozenset[str]:
    """Women's first names the text writes with a married title ("Madam Mina", "Mrs. Rachel") or a
    peer's wife's ("Countess Ellen": The Age of Innocence's `Madame Olenska` ×158 is `Ellen
    Olenska`), not a husband's ("Mrs. Bute", "Mrs. Linton Heathcliff"), nor a courtesy's: Tom Jones'
    servants say "Madam Sophia Western" to the "Miss Sophia Western" she is, and her first name let
    "Sophia Western" be the aunt's "Mrs Western" (Sophia ×876 and Miss Western ×41 were two rows)."""
    # "Madam" and a first name alone is also an address and an irony: written once, it tells no
    # marriage (Charlotte Temple's "so there's an end of Madam Charlotte's" made her mother's "Mrs.
    # Temple" ×23 hers; Monte Cristo's one "Madame Héloïse de Villefort" is a full married name)
    married = {f.first for f in forms if f.honorific in MARRIED_WITH_FIRST_NAME and f.first in female
               and (f.honorific != "madam" or len(f.words) > 1 or f.stats.count >= MADAM_USES)}
    # "Madam Sophia Western" beside "Miss Sophia Western" (Tom Jones): a courtesy, no marriage
    unmarried = {(f.first, f.surname) for f in forms if f.honorific in UNMARRIED and len(f.words) > 1}
    courtesy = {f.first for f in forms if f.honorific in MARRIED_WITH_FIRST_NAME and len(f.words) > 1
                and (f.first, f.surname) in unmarried}
    return frozenset(married - courtesy)


def _wives_by_husbands_names(forms: list[_Form], female: frozenset[str], story_men: frozenset[str]) -> None:
    """Mark ``Mrs.`` forms that carry a man's name: a first name that is no woman's, written
    elsewhere after a man's title. Vanity Fair's "Mrs. Rawdon Crawley" and "Mrs. Rawdon" (Becky)
    beside "Captain Rawdon Crawley", "Captain Rawdon"; "Mrs. Bute Crawley" beside "Reverend Bute
    Crawley". Such a wife is not the bare "Rawdon Crawley" or "Rawdon" (:func:`compatible`). A
    name no man is titled with stays as it was unless it is a man of the story's first name
    (``story_men``, :func:`_men_of_the_story`: The Age of Innocence's "Mrs. Newland Archer" is May,
    "Newland" ×163 her husband): Wuthering Heights' one "Linton Heathcliff" (a letter's
    signature) has no "Mr." to tell it from young Catherine's "Mrs. Linton Heathcliff"."""
    men = {f.key[1] for f in forms if f.honorific in MALE_HONORIFICS}
    for f in forms:
        f.wife_of = (f.honorific == "mrs" and f.first is not None and f.first not in female
                     and (f.key[1] in men or f.first in story_men))


def _fits(form: _Form, members: list[_Form], married_first: frozenset[str]) -> bool:
    """``form`` is compatible with every member of a character (see :func:`compatible`). A woman
    whose first name the text writes with a married title (``married_first``) may be the ``Mrs.``
    of her surname: Dracula's ``Mrs. Harker`` is ``Mina Harker``, called ``Madam Mina``. A kinship
    title with a surname (``Aunt March``, the girls' great-aunt) is only a character's who is also
    written with that surname and a title or alone: not Little Women's ``Jo March``, whom the book
    otherwise calls ``Jo`` and ``Miss Jo``. A bare word of two roles (:func:`_roles`) fits in either;
    a form known to name someone else than a member (``apart``) does not fit."""
    married = any(m.first in married_first for m in (form, *members))
    if any(m.key in form.apart or form.key in m.apart for m in members):
        return False
    if _kin_by_surname(form) and not any(_formally_surnamed(m, form.surname) for m in members):
        return False
    readings = (form, replace(form, first=form.surname, surname=form.first)) if form.both_roles else (form,)
    return any(all(compatible(f, m, married_known=married, one_full_name=_parts_of_one_name(f, m, members))
                   for m in members) for f in readings)


def _kin_by_surname(form: _Form) -> bool:
    """A kinship title with a surname: Little Women's ``Aunt March``, Jane Eyre's ``Uncle Reed``."""
    return form.honorific in KIN_TITLES and len(form.words) == 1 and form.surname is not None


def _formally_surnamed(member: _Form, surname: str) -> bool:
    """``member`` is the surname alone, titled or not (``Mr. Pumblechook``, ``Malvintseva``), not a
    full name (Jane Eyre's ``Aunt Reed`` is not ``Miss Jane Reed``) nor under a young person's
    title (The Moonstone's ``Aunt Verinder``, Lady Verinder, is not ``Miss Verinder``, Rachel)."""
    return member.words == (surname,) and member.honorific not in UNMARRIED | {"master"}


def _parts_of_one_name(a: _Form, b: _Form, members: list[_Form]) -> bool:
    """``a`` and ``b``, one of several words, are both written with words of one member's longer
    full name: Jane Eyre's ``Edward Rochester`` and ``Fairfax Rochester`` are parts of the
    ``Edward Fairfax Rochester`` whose character they join, though their first names differ. Two
    bare given names are not (Middlemarch's "George" and "Henry" beside one "George Henry Lewes")."""
    longest = max(len(a.words), len(b.words))
    words = set(a.words) | set(b.words)
    return longest > 1 and any(len(m.words) > longest and words <= set(m.words) for m in members)


def compatible(a: _Form, b: _Form, married_known: bool = False, one_full_name: bool = False) -> bool:
    """No constraint forbids ``a`` and ``b`` naming one person. ``married_known``: the woman ``b``
    belongs to is known by a married title with her first name, so ``Mrs. X`` may be her;
    ``one_full_name``: both are parts of one full name, so their first words may be two of its
    given names."""
    if a.stats.label != b.stats.label:
        return False
    if a.stats.label != "PER":
        return True
    if a.gender and b.gender and a.gender != b.gender:
        return False
    ha, hb = a.honorific, b.honorific
    if (ha in MARRIED and hb in UNMARRIED) or (hb in MARRIED and ha in UNMARRIED):
        return False
    for x, y in ((a, b), (b, a)):   # "Mrs. Bennet" is never "Elizabeth Bennet"
        if (x.honorific in MARRIED and x.first is None and y.first is not None and y.honorific not in MARRIED
                and not married_known):
            return False
        if x.wife_of and y.honorific not in MARRIED and y.first and _first_names_agree(x.first, y.first):
            return False   # "Mrs. Rawdon Crawley" is not "Rawdon Crawley"
    for x, y in ((a, b), (b, a)):
        if x.honorific in ROYAL and y.honorific and y.honorific != x.honorific:
            return False   # "Queen Elizabeth" is not "Lady Elizabeth Devereux"
        if x.honorific in STYLED and ((y.honorific == "mr" and y.first is None)
                                      or (y.honorific in STYLED and y.honorific != x.honorific)):
            return False   # "Sir Walter Elliot" is not "Mr Elliot", "Lord Henry" not "Sir Henry Ashton"
    if a.first and b.first and not one_full_name and not _given_names_agree(a, b):
        return False
    if a.surname and b.surname and a.surname != b.surname:
        return False
    if a.patronymic and b.patronymic and a.patronymic != b.patronymic:
        return False   # "Alexey Alexandrovitch" (Karenin) is not "Alexey Kirillovitch Vronsky"
    return True


def _specificity(f: _Form) -> tuple:
    """The order forms are attached in: the story's forms first — a form :attr:`_Form.outside` the
    story comes last, so it may join a character but is never a candidate that keeps a story's
    name from joining one (the contents' "Tom Astonishes" and "Tom Swims" left Tom Sawyer's bare
    "Tom" ×709 a row of its own, the byline's "Jane Austen" Pride and Prejudice's "Jane" ×288) —
    then full names before parts, with an honorific before without, frequent first."""
    return (f.outside, -len(f.words), f.honorific is None, -f.stats.count, f.key)


def _may_name(short: _Form, long: _Form) -> bool:
    """``short`` can be a shorter way to write ``long``: the same words without an honorific, a
    word-based part ("Bingley" of "Caroline Bingley"; "Young Anthony" of "Anthony Patch": the
    adjective aside), or a first-name prefix with the same surname."""
    if short is long:
        return False
    if _described(short) and not _described(long):   # "Young Anthony" of "Anthony Patch"
        return set(short.words[1:]) <= set(long.words)
    if short.words == long.words:   # a full name under two titles: "M. Albert de Morcerf", "Vicomte Albert …"
        return (short.honorific is None and long.honorific is not None) or (
            len(short.words) > 1 and short.honorific is not None and long.honorific is not None) or (
            short.stats.label != "PER")   # a place written two ways: "St. Antoine", "Saint Antoine"
    if len(short.words) < len(long.words) and set(short.words) <= set(long.words):
        return True
    return (len(short.words) == len(long.words) > 1 and short.words[1:] == long.words[1:]
            and short.words[0] != long.words[0] and _first_names_agree(short.words[0], long.words[0]))


def _introduced(members: list[_Form], bare: _Form) -> bool:
    """The character's full name comes before three quarters of the bare word's uses: it
    introduced the person ("Marilla Cuthbert" once, then "Marilla" ×40). A full name that turns up
    late, after the bare word is long established ("Mary" ×39 from chapter 2, "Mary King" ×2 from
    chapter 26), names someone else."""
    firsts = [m.stats.first for m in members if m.stats.first is not None]
    return bool(firsts) and bare.stats.first_quarter is not None and min(firsts) <= bare.stats.first_quarter


def _distinguished(form: _Form, members: list[_Form], own_share: float, men: frozenset[str]) -> bool:
    """``Mr. X`` is someone else than a character written ``Mr. F X`` (the same honorific with a
    first name) at least :data:`DISTINGUISHING_USES` times when ``Mr. X`` is used ``own_share``
    times as often as all that character's forms: the first name, written again and again, is
    how the text tells that person from the plain ``Mr. X`` — Emma's ``Mr. John Knightley`` ×30
    (the brother) beside ``Mr. Knightley`` ×298; Sense and Sensibility's ``Mrs. John Dashwood``
    ×25 (Fanny) beside ``Mrs. Dashwood`` ×121 (Elinor's mother). An introduction's few uses do
    not count: ``Mr. Jarvis Lorry`` ×10 is ``Mr. Lorry``, ``Mr. William Sikes`` ×4 ``Mr. Sikes``
    (on the 22 novels every such pair with ≤ 12 uses was one person)."""
    if form.honorific not in SURNAME_HONORIFICS or len(form.words) != 1:
        return False
    titled_first = [m for m in members   # "Mrs. Bute Crawley" does not tell "Mrs. Bute" apart
                    if m.honorific == form.honorific and m.first is not None and len(m.words) > 1
                    and m.words[-1] == form.words[0]]
    with_first = sum(m.stats.count for m in titled_first)
    total = sum(m.stats.count for m in members)
    if with_first >= DISTINGUISHING_USES and form.stats.count >= own_share * total:
        return True
    return _husbands_wife(form, members, titled_first, men) and form.stats.count >= WIFE_SHARE * total


def _husbands_wife(form: _Form, members: list[_Form], titled_first: list[_Form], men: frozenset[str]) -> bool:
    """``Mrs. X`` beside a character written ``Mrs. F X`` (and ``Mrs. F``) at least :data:`WIFE_USES`
    times, F the first name of a man of the story (``men``, :func:`_men_of_the_story`): the way to
    name a son's wife apart from his mother, the plain ``Mrs. X`` — Persuasion's ``Mrs Charles
    Musgrove`` (Mary) beside ``Mrs Musgrove`` ×63, The Age of Innocence's ``Mrs. Newland Archer``
    (May) beside ``Mrs. Archer`` ×100 (Newland's mother). Anne of Green Gables' ``Mrs. Alexander
    Spencer`` is ``Mrs. Spencer``: no Alexander is in the story."""
    if form.honorific != "mrs":
        return False
    husbands = {m.first for m in titled_first if m.first in men}
    uses = sum(m.stats.count for m in members if m.honorific == form.honorific and m.first in husbands)
    return bool(husbands) and uses >= WIFE_USES


def _men_of_the_story(forms: list[_Form], female: frozenset[str]) -> frozenset[str]:
    """First names no woman's that the text writes without a title, alone or as a full name, at
    least :data:`HUSBAND_USES` times: men of the story ("Charles" ×166 in Persuasion)."""
    uses: Counter = Counter()
    for f in forms:
        if f.honorific is None and f.first and f.first not in female and f.gender != "female":
            uses[f.first] += f.stats.count
    return frozenset(w for w, n in uses.items() if n >= HUSBAND_USES)


def _ambiguous(cid: int, members: list[_Form], readings: Mapping[FormKey, tuple[int, ...]]) -> bool:
    """A cluster of one form that may name several characters (a family surname)."""
    return len(members) == 1 and readings[members[0].key] != (cid,)


def _near_share(positions: list[float], others: list[float], window: float) -> float:
    """The share of ``positions`` with one of ``others`` (sorted) within ``window``."""
    if not positions or not others:
        return 0.0
    near = 0
    for p in positions:
        i = bisect.bisect_left(others, p)
        near += (i < len(others) and others[i] - p <= window) or (i > 0 and p - others[i - 1] <= window)
    return near / len(positions)


def _join_nicknames(members: list[list[_Form]], readings: Mapping[FormKey, tuple[int, ...]],
                    window: float, also_near: Mapping[FormKey, Sequence[float]]) -> dict[int, int]:
    """Nickname characters that join a character with their given name: {nickname cluster: target}.

    A nickname cluster is a resolved person whose forms are all one word that is a nickname (with
    or without an honorific: ``Lizzy``, ``Miss Eliza``) or shaped like a pet name (``Hucky``). Its
    targets are the resolved persons of the same gender with a form whose first name the nickname is
    short for, or of which it is a pet form (:func:`_pet_form_of`); the one whose mentions are
    near at least ``NEAR_SHARE`` of the nickname's (and ``NEAR_LEAD`` times as many as any other
    target's), that is mentioned at least as often, and whose honorifics agree (a nickname written
    with one needs a target written with the same or with none) is joined. ``also_near``: more
    positions that count as a form's presence for this evidence only (the narrator's "I" for the
    narrator's name: "Davy" is said to the narrator, near his "I", seldom near his name)."""
    table, listed_table = nicknames(on_evidence=True), nicknames()
    persons = [cid for cid, ms in enumerate(members)
               if ms[0].stats.label == "PER" and not _ambiguous(cid, ms, readings)]
    positions = {cid: sorted(p for m in members[cid] for p in m.stats.positions) for cid in persons}
    present = {cid: sorted(positions[cid] + [p for m in members[cid] for p in also_near.get(m.key, ())])
               for cid in persons}
    genders = {cid: {m.gender for m in members[cid] if m.gender} for cid in persons}
    alone = {cid: frozenset(m.words[0] for m in members[cid] if len(m.words) == 1) for cid in persons}
    # a bare listed first name is a first name here, whatever role the book's few full names gave it:
    # Oliver Twist's "Nancy" (written "Miss Nancy", never with a surname) is who "Nance" is short for
    male, female = _first_names()
    firsts = {cid: frozenset(m.first for m in members[cid] if m.first)
              | frozenset(w for w in alone[cid] if w in male or w in female) for cid in persons}
    joins = {}
    for cid in persons:
        ms = members[cid]
        words = {m.words[0] for m in ms}
        if cid in joins.values() or any(len(m.words) != 1 for m in ms) \
                or not all(w in table or pet_form_stems(w) for w in words):
            continue
        given = frozenset().union(*(table.get(w, ()) for w in words))
        stems = frozenset(s for w in words for s in pet_form_stems(w))
        honorifics = {m.honorific for m in ms if m.honorific}
        gender = _nickname_gender(ms, given) or genders[cid]
        near = []
        for t in persons:
            if t == cid or t in joins or len(gender | genders[t]) > 1:
                continue
            if given.isdisjoint(firsts[t]) and not _pet_form_of(stems, words, firsts[t], alone[t], prefix=True):
                continue
            near.append((_near_share(positions[cid], present[t], window), t))
        near.sort(reverse=True)
        if not near or near[0][0] < NEAR_SHARE or (len(near) > 1 and near[0][0] < NEAR_LEAD * near[1][0]):
            continue
        target = near[0][1]
        target_honorifics = {m.honorific for m in members[target] if m.honorific}
        listed = frozenset().union(*(listed_table.get(m.words[0], ()) for m in ms))
        # a pair neither the list nor a pet form's stem gives: the nickname must be a usual name of the target's
        if listed.isdisjoint(firsts[target]) and not _pet_form_of(stems, words, firsts[target], alone[target]) \
                and len(positions[cid]) < ON_EVIDENCE_SHARE * len(positions[target]):
            continue
        if len(positions[cid]) <= len(positions[target]) and (not target_honorifics
                                                               or honorifics <= target_honorifics):
            joins[cid] = target
    return joins


# titles written before a surname, hardly ever a first name ("Mr. Weston"; not "Master Colin", "Miss Jemima")
_SURNAME_ONLY_TITLES = frozenset({"mr", "mrs", "ms", "dr", "doctor", "professor"})


def _join_late_full_names(members: list[list[_Form]], readings: Mapping[FormKey, tuple[int, ...]],
                          window: float, first_names: frozenset[str]) -> dict[int, int]:
    """Rare full names that join the bare first name they did not introduce: {full name's cluster:
    bare name's}. A full name seen fewer than :data:`RARE` times absorbs a first name written
    three times as often only when it came first (:func:`_introduced`); a protagonist's full name
    that turns up late, in a letter or a formal scene, stayed a row of its own beside her: Sons and
    Lovers' "Miriam Leivers" ×4 beside "Miriam" ×411, The Good Soldier's "Miss Florence Hurlbird" ×8
    beside "Florence" ×286. It joins when it is the book's only full name with that first
    name (the bare name's own cluster holds none), their genders agree, the bare name is used
    :data:`OWN_SHARE` times as often, and at least :data:`NEAR_SHARE` of the full name's mentions lie
    within ``window`` of the bare name's. Pride and Prejudice's "Mary King" (chapter 26) is never
    near Mary Bennet's "Mary", nor Huckleberry Finn's "Buck Harkness" near Buck Grangerford."""
    persons = [cid for cid, ms in enumerate(members)
               if ms[0].stats.label == "PER" and not _ambiguous(cid, ms, readings)]
    bare: dict[str, int] = {}
    full: dict[str, list[int]] = defaultdict(list)
    for cid in persons:
        ms = members[cid]
        for w in {m.words[0] for m in ms if m.honorific is None and len(m.words) == 1 and m.words[0] in first_names}:
            bare[w] = cid
        for w in {m.first for m in ms if len(m.words) > 1 and m.first and m.surname}:
            full[w].append(cid)
    joins: dict[int, int] = {}
    for word, target in bare.items():
        cands = [c for c in full.get(word, []) if c != target]
        own = members[target]
        # the bare word is the target's first name, not a surname it writes after "Mr." (Emma's "Mr.
        # Weston" is no "Weston Churchill")
        if len(cands) != 1 or target in full.get(word, []) \
                or any(m.words == (word,) and m.honorific in _SURNAME_ONLY_TITLES for m in own):
            continue
        cid = cands[0]
        ms = members[cid]
        count, own_count = sum(m.stats.count for m in ms), sum(m.stats.count for m in own)
        firsts = {m.first for m in ms if len(m.words) > 1}
        genders = {m.gender for m in (*ms, *own) if m.gender}
        # a full name written only in titles ("Aunt Polly Decides"), "X of Y" ("Henry of Navarre"), or
        # with a surname some other person of its gender bears alone (David Copperfield's "Clara
        # Peggotty" is Peggotty, not David's mother Clara; "Letty Garth" is no "Garth", her father)
        # stays where it is
        if firsts != {word} or any(m.honorific is None and len(m.words) == 1 for m in ms) \
                or all(m.stats.titles_only for m in ms) or any("of" in m.words for m in ms) \
                or count >= RARE or own_count < OWN_SHARE * count or len(genders) > 1 \
                or cid in joins or cid in joins.values() or target in joins:
            continue
        surnames = {m.surname for m in ms if len(m.words) > 1}
        if genders and any(c != target and {m.gender for m in members[c] if m.gender} == genders
                           and any(m.honorific is None and len(m.words) == 1 and m.words[0] in surnames
                                   for m in members[c]) for c in persons):
            continue
        positions = sorted(p for m in ms for p in m.stats.positions)
        others = sorted(p for m in own for p in m.stats.positions)
        if _near_share(positions, others, window) >= NEAR_SHARE:
            joins[cid] = target
    return joins


def _nickname_gender(forms: list[_Form], given: frozenset[str]) -> set[str]:
    """The gender a nickname's forms tell by their titles or the first-name lists, else the one
    gender the given names it is short for (``given``) all have in the lists; an empty set when
    neither tells. Its resolved pronouns do not count here: Tom Jones' "Sophy" ×48, Squire
    Western's word for his daughter, drew his "he" in the scenes where he says it."""
    told = {g for m in forms if (g := name_gender(Name(m.honorific, m.words)))}
    if told:
        return told
    listed = {name_gender(Name(None, (n,))) for n in given}
    return listed if len(listed) == 1 and None not in listed else set()


def _pet_form_of(stems: frozenset[str], words: set[str], firsts: frozenset[str], alone: frozenset[str],
                 prefix: bool = False) -> bool:
    """Whether one of ``words`` is a pet form (:func:`~beyondfind.nlp.names.is_pet_form`; ``stems``:
    their stems) of a character's first name (``firsts``) or of a word it is written with alone
    (``alone``): "Hucky" of Huck, "Laddy" of Ladd; with ``prefix``, also made from a first name's
    beginning ("Dunsey" of Dunstan)."""
    if not stems:
        return False
    if not stems.isdisjoint((firsts | alone) - words):
        return True
    return prefix and any(stem_of(s, name, prefix=True) for s in stems for name in firsts - words)


def _join_kin_titles(members: list[list[_Form]]) -> dict[int, int]:
    """Clusters of an uncle or aunt written with a surname that join the one character written
    ``Mr.`` (``Mrs.``) with it: {kin cluster: target}.

    Great Expectations' ``Uncle Pumblechook`` ×21 is ``Mr. Pumblechook`` ×91, Jane Eyre's ``Aunt
    Reed`` ×6 ``Mrs. Reed`` ×36: no word tells the kinship title from the formal one, so the main
    pass keeps them apart. They join when exactly one character is written with the formal title
    and the kinship form is used at most :data:`KIN_SHARE` times as often — Little Women's ``Aunt
    March`` ×85, the girls' great-aunt, stays apart from their mother ``Mrs. March`` ×152, and
    with her the ``Uncle March`` who was her husband."""
    formal: dict[tuple[str, str], set[int]] = defaultdict(set)
    uses: Counter = Counter()
    for cid, ms in enumerate(members):
        for m in ms:
            if m.stats.label == "PER" and m.honorific in KIN_FORMAL.values() and len(m.words) == 1:
                formal[(m.honorific, m.words[0])].add(cid)
                uses[(m.honorific, m.words[0])] += m.stats.count
    joins, apart = {}, set()
    for cid, ms in enumerate(members):
        if ms[0].stats.label != "PER" or len({(m.honorific, m.words) for m in ms}) != 1:
            continue
        kin = ms[0]
        if kin.honorific not in KIN_FORMAL or len(kin.words) != 1:
            continue
        key = (KIN_FORMAL[kin.honorific], kin.words[0])
        targets = formal.get(key, set()) - {cid}
        if len(targets) == 1 and sum(m.stats.count for m in ms) <= KIN_SHARE * uses[key]:
            joins[cid] = next(iter(targets))
        else:
            apart.add(kin.words[0])
    # an aunt of her own makes her uncle her husband, not the "Mr." of the name: Little Women's
    # "Uncle March" ×2 (dead, the great-aunt's) is not the girls' father
    return {cid: t for cid, t in joins.items() if members[cid][0].words[0] not in apart}


def _join_titled_variants(members: list[list[_Form]], readings: Mapping[FormKey, tuple[int, ...]],
                          married_first: frozenset[str]) -> dict[int, int]:
    """Clusters of one word written only with titles (:func:`_titled_word`: with a titled full name
    ending in it and that name's first name, too) that join the character of the bare word:
    {titled cluster: target}.

    Titled forms are placed before the bare word, so a few of them can keep a far more frequent
    bare word from joining any: Great Expectations' ``Mr. Provis`` ×2 (the bare ``Provis`` ×67
    came too late to be introduced by it), War and Peace's ``Count Bennigsen`` ×8 and ``General
    Bennigsen`` ×4 (neither dominates the other, so ``Bennigsen`` ×65 stood alone), ``Colonel
    Berg``, Moby Dick's ``Mr. Queequeg``. The titled cluster joins when the bare word's character
    is resolved, every titled form fits its members (:func:`_fits`: Emma's ``Mrs. Bates`` is not
    ``Miss Bates``; a married woman's title joins only a bare word known to be hers: a bare surname
    of unknown gender names her husband more often), no gender conflicts with any other character
    written with the word — when the titled forms and the bare word share a known gender, characters of
    the other gender (a man's wife: Far from the Madding Crowd's "Mrs. Troy" beside "Sergeant
    Troy" and "Troy") are left out, unless the title is a boy's "Master" (Wuthering Heights' "Master
    Heathcliff" is his son) — and it holds :data:`DOMINANT_SHARE` of those characters' mentions:
    Les Misérables' ``Monsieur Fauchelevent`` ×46 (mostly Jean Valjean under that name) stays
    apart from the old gardener's ``Fauchelevent`` ×214."""
    bare_of: dict[str, int] = {}
    with_word: dict[str, set[int]] = defaultdict(set)
    for cid, ms in enumerate(members):
        if ms[0].stats.label != "PER":
            continue
        for m in ms:
            for w in m.words:
                with_word[w].add(cid)
            if m.honorific is None and len(m.words) == 1 and not _ambiguous(cid, ms, readings):
                bare_of[m.words[0]] = cid
    size = [sum(m.stats.count for m in ms) for ms in members]
    genders = [{m.gender for m in ms if m.gender} for ms in members]
    joins = {}
    for cid, ms in enumerate(members):
        word = _titled_word(ms)
        if ms[0].stats.label != "PER" or _ambiguous(cid, ms, readings) or word is None:
            continue
        target = bare_of.get(word)
        if target is None or target == cid or not all(_fits(m, members[target], married_first) for m in ms):
            continue
        if not genders[target] and any(m.honorific in MARRIED for m in ms):   # a bare surname of no known
            continue                      # gender is a man's more often than his wife's ("Mrs. Lindsay")
        others = with_word[word] - {cid, target}
        known = genders[cid] | genders[target]
        if genders[target] and genders[target] == genders[cid] and not any(m.honorific == "master" for m in ms):
            # a man and his wife ("Sergeant Troy", "Troy" / "Mrs. Troy") weigh apart; not a boy: Wuthering
            # Heights' "Master Heathcliff" is his son Linton, whom "Mrs. Heathcliff" kept from Heathcliff
            others = {o for o in others if not genders[o] or genders[o] == known}
        if any(len(genders[o] | known) > 1 for o in others):
            continue
        if size[target] >= DOMINANT_SHARE * sum(size[c] for c in others | {cid, target}):
            joins[cid] = target
    return {cid: t for cid, t in joins.items() if cid not in joins.values()}


def _titled_word(ms: list[_Form]) -> str | None:
    """The one word a character is written with after a title (``Mr. Provis``, ``Uncle Provis``),
    when every form of it has that word and a title, or is a full name with it written with a
    title, or that full name's first name: Sister Carrie's ``Mr. Drouet``, ``Mr. Charles Drouet``
    and ``Charles``. None for any other character."""
    titled = {m.words[0] for m in ms if m.honorific is not None and len(m.words) == 1}
    if len(titled) != 1:
        return None
    word = titled.pop()
    full = [m for m in ms if m.honorific is not None and len(m.words) > 1 and m.words[-1] == word]
    firsts = {m.first for m in full}
    for m in ms:
        if not (m.honorific is not None and m.words[-1] == word) and not (
                m.honorific is None and len(m.words) == 1 and m.words[0] in firsts):
            return None
    return word


def _join_honorific_variants(members: list[list[_Form]], readings: Mapping[FormKey, tuple[int, ...]],
                             first_names: frozenset[str]) -> dict[int, int]:
    """Clusters of a first name written only with honorifics that join the character the bare
    first name names: {variant cluster: target}.

    ``Miss Jo`` ×5 and ``Sister Jo`` ×1 are Jo ×1180 of Little Women, but they come before the bare
    word (more specific forms first) and the bare word, far more frequent, does not join either (it
    would join a rare *full* name only if that introduced it). A variant joins when the bare word
    is a person's first name — its role in the book (:func:`_roles`), or a known first name that
    no longer name of the book ends in ("Miss Jo" counts as surname use when no full name shows
    otherwise) — its character is resolved and more frequent, and no gender conflicts: with the
    target's members, and among the variants, where one gender must hold :data:`DOMINANT_SHARE`
    of the variants' mentions (``Miss Jo`` and ``Sister Jo`` against one ``Dr. Jo``; ``Uncle X``
    and ``Aunt X`` are a couple). A bare word that is a surname is left alone (``Mrs. Reed`` is not
    the ``Reed`` of John Reed)."""
    surnames = {m.words[-1] for ms in members for m in ms if len(m.words) > 1}
    target_of: dict[str, int] = {}
    for cid, ms in enumerate(members):
        for m in ms:
            if (m.honorific is None and len(m.words) == 1 and m.stats.label == "PER"
                    and (m.first or (m.words[0] in first_names and m.words[0] not in surnames))
                    and not _ambiguous(cid, ms, readings)):
                target_of[m.words[0]] = cid
    variants: dict[int, list[int]] = defaultdict(list)
    for cid, ms in enumerate(members):
        word = ms[0].words[0]
        if (ms[0].stats.label == "PER" and word in target_of and target_of[word] != cid
                and not _ambiguous(cid, ms, readings)
                and all(m.honorific is not None and m.words == (word,) for m in ms)):
            variants[target_of[word]].append(cid)
    joins = {}
    for target, cids in variants.items():
        target_genders = {m.gender for m in members[target] if m.gender}
        by_gender: Counter = Counter()
        for cid in cids:
            for m in members[cid]:
                by_gender[m.gender] += m.stats.count
        gender, n = by_gender.most_common(1)[0]
        if len(target_genders | ({gender} - {None})) > 1 or n < DOMINANT_SHARE * sum(by_gender.values()):
            continue
        size = sum(m.stats.count for m in members[target])
        for cid in cids:
            genders = {m.gender for m in members[cid] if m.gender}
            if genders <= {gender} - {None} and size > sum(m.stats.count for m in members[cid]):
                joins[cid] = target
    return joins


def _join_held_apart(members: list[list[_Form]], cluster_of: Mapping[FormKey, int],
                     held_apart: list[tuple[_Form, list[int]]], married_first: frozenset[str],
                     dominant_share: float, own_share: float, men: frozenset[str],
                     alone_uses: Mapping[str, int]) -> dict[int, int]:
    """Frequent titled forms (``Mr. X``) that became characters of their own because none of their
    candidates dominated while those were still small, weighed again once every form is placed:
    {own cluster: target}.

    Jane Eyre's ``Mr. Rochester`` ×331 is placed before ``Mr. Edward`` ×10, which gives the full
    name ``Edward Fairfax Rochester`` its weight among the candidates (``Mr. Rowland Rochester``,
    ``Damer de Rochester``). The weight is that of the forms written with a title or as a full
    name — the formal ways to name someone, as ``Mr. X`` is — not of a bare word. A son the book
    calls by his first name more often than it writes ``Mr. X`` is no candidate (Great
    Expectations' ``Mr. Pocket`` ×52 is Matthew Pocket — ``Mr. Matthew Pocket``, ``Mr. Matthew`` —
    not Herbert, whom the narrator calls ``Herbert`` ×302 and ``Mr. Herbert``/``Herbert Pocket`` 11
    times; The House of the Seven Gables' ``Judge Pyncheon`` is Jaffrey, not Clifford), and once
    one is found, neither is a candidate whose first name is written alone
    :data:`FIRST_NAME_LEAD` times as often as his names with the surname (Howards End's ``Mr.
    Wilcox`` ×171 is Henry, whom no full name links to it, not ``Paul Wilcox`` ×2, "Paul" ×74).
    A candidate with :data:`DOMINANT_SHARE` of that weight takes the form when

    * its gender is known and the title's (Les Misérables' ``Monsieur Thénardier`` is not the one
      ``Eponine Thénardier``, whose name tells no gender), and
    * the text does not tell the two apart by writing the candidate with the same title and a
      first name alone — :data:`DISTINGUISHING_SHARE` of the form's uses, or :func:`_distinguished`:
      Pride and Prejudice's ``Miss Elizabeth`` (×15 against ``Miss Bennet`` ×65, who is Jane),
      The Count of Monte Cristo's ``Monsieur Noirtier`` (the father of ``Monsieur de Villefort``).
      Jane Eyre's servants' ``Mr. Edward`` is 3 % of ``Mr. Rochester``'s uses; a titled full
      name introduces rather than tells apart (Great Expectations' ``Mr. Matthew Pocket`` ×7)."""
    joins: dict[int, int] = {}
    for f, cands in held_apart:   # each form is the first member of a cluster of its own
        own = cluster_of[f.key]
        cands = [c for c in cands if c not in joins and all(_fits(m, members[c], married_first) for m in members[own])]
        sons = [c for c in cands if _known_by_first_name(f, members[c], alone_uses, f.stats.count)]
        if sons:   # then every candidate known by the first name far more than by the surname is a son too
            cands = [c for c in cands if c not in sons and not _known_by_first_name(
                f, members[c], alone_uses, FIRST_NAME_LEAD * _formal_uses(members[c], f.words[0]))]
        if not cands or f.gender is None:
            continue
        formal = {c: sum(m.stats.count for m in members[c] if m.honorific is not None or len(m.words) > 1)
                  for c in cands}
        best = _dominant(cands, [formal], dominant_share)
        if best is None or {m.gender for m in members[best] if m.gender} != {f.gender}:
            continue
        titled_first = sum(m.stats.count for m in members[best] if m.honorific == f.honorific and m.first
                           and len(m.words) == 1)
        if titled_first < DISTINGUISHING_SHARE * f.stats.count and not _distinguished(f, members[best], own_share, men):
            joins[own] = best
    return joins


def _known_by_first_name(form: _Form, members: list[_Form], bare: Mapping[str, int], more_than: float) -> bool:
    """The character holds a full name with ``form``'s surname (not a wife's "Mrs. Edward X") whose
    first name the book writes alone (``bare``: uses of one-word forms) more than ``more_than``
    times."""
    return len(form.words) == 1 and any(
        m.first and m.surname == form.words[0] and len(m.words) > 1 and m.honorific not in MARRIED
        and bare.get(m.first, 0) > more_than for m in members)


def _formal_uses(members: list[_Form], surname: str) -> int:
    """Uses of the character's names with ``surname`` and another word or a title."""
    return sum(m.stats.count for m in members if surname in m.words and (len(m.words) > 1 or m.honorific))


def _styled(form: _Form, cands: list[int], members: list[list[_Form]]) -> int | None:
    """Among candidates none dominates, the one whose full name has the form's title before the
    form's word: To Have and to Hold's "Sir George" ×14 is "Sir George Yeardley" (×3, met later), not
    George Thorpe or George Sandys; War and Peace's "Count Peter" is "Count Peter Kirílovich"."""
    styled = [c for c in cands if any(m.honorific == form.honorific and len(m.words) > 1
                                      and m.words[0] == form.words[0] for m in members[c])]
    return styled[0] if len(styled) == 1 else None


def _dominant(cands: list[int], weighings: list[Mapping[int, int]], share: float) -> int | None:
    """The candidate holding ``share`` of the weight under the first weighing where one does."""
    for weight in weighings:
        best = max(cands, key=lambda c: weight[c])
        if weight[best] >= share * sum(weight.values()):
            return best
    return None


def elder_surnames(text: str) -> frozenset[str]:
    """Surnames the text writes as "old Mr. X", "young Mr. X", "the elder Mr. X" at least
    ``ELDER_EVIDENCE`` times: the book tells two men called Mr. X apart by age, a father and his son
    (Vanity Fair's "old Mr. Osborne", Tess's "old Mr Clare", A Room with a View's "old Mr. Emerson")."""
    found = Counter(m.group(1).lower() for m in _MR.finditer(text)
                    if _AGE_BEFORE.search(text, max(0, m.start() - 14), m.start()))
    return frozenset(w for w, n in found.items() if n >= ELDER_EVIDENCE)


def _fathers_name(form: _Form, members: list[_Form], elders: frozenset[str], alone_uses: Mapping[str, int]) -> bool:
    """``form`` is "Mr. X" of a book with two men called so (:func:`elder_surnames`) and the character
    holds a full name "F X" whose F the book writes alone more often than "Mr. X": the son, known by
    his first name (George ×517), while "Mr. X" (×129) is mostly the father. Vanity Fair's "Mr.
    Osborne" joined George Osborne, Tess's "Mr Clare" Angel Clare, A Room with a View's "Mr.
    Emerson" George Emerson. ``alone_uses``: uses of each one-word form without a title."""
    return (form.honorific == "mr" and len(form.words) == 1 and form.words[0] in elders
            and _known_by_first_name(form, members, alone_uses, form.stats.count))


def cluster_names(forms: Mapping[FormKey, FormStats], dominant_share: float = DOMINANT_SHARE,
                  own_share: float = OWN_SHARE, window: float | None = None,
                  also_near: Mapping[FormKey, Sequence[float]] | None = None,
                  elders: frozenset[str] = frozenset(),
                  apart: frozenset[frozenset[FormKey]] = frozenset(),
                  narrator: FormKey | None = None) -> CharacterIndex:
    """Group name forms into characters (see the module docstring for the constraints). ``window``:
    how near (in the forms' position unit) a nickname's mentions must be to its character's for
    the two to join, None leaving nicknames their own characters; ``also_near``: positions that
    count as a form's presence in that evidence only (see :func:`_join_nicknames`); ``elders``:
    surnames two men share, a father and a son (:func:`elder_surnames`); ``apart``: pairs of forms
    known to name two people (a namesake and the person whose name he carries:
    :mod:`~beyondfind.index.namesakes`), never in one character; ``narrator``: the form that names
    the book's narrator, whose character a surname or title takes when no candidate holds the
    :data:`DOMINANT_SHARE` of its mentions (the narrator's own mentions are the "I" the counts
    miss: King Solomon's Mines' "Mr. Quatermain" ×18 is Allan Quatermain ×4, not his nickname
    "Hunter Quatermain" ×2)."""
    male, female = _first_names()
    items = [_Form(k, k[0], form_words(k[1]) if s.label == "PER" else place_words(k[1]), s)
             for k, s in forms.items() if k[1]]
    cut_short = _cut_short(items)
    items = [f for f in items if all(f is not cut for cut, _whole in cut_short)]
    for f in items:
        f.apart = frozenset(k for pair in apart if f.key in pair for k in pair if k != f.key)
        f.patronymic = _patronymic(f)
    _roles(items, male | female)
    story_words = {w for f in items if not f.stats.titles_only for w in f.words}
    for f in items:
        f.gender = _gender(f)
        # a title's "Huckleberry Finn" still introduces the story's "Huckleberry"
        f.outside = f.stats.titles_only and not story_words.issuperset(f.words)
    _gender_from_first_name(items)
    men = _men_of_the_story(items, female)
    _wives_by_husbands_names(items, female, men)
    items.sort(key=_specificity)
    married_first = _married_first_names(items, female)
    alone_uses = {f.words[0]: f.stats.count for f in items if f.honorific is None and len(f.words) == 1}
    by_word: dict[str, list[_Form]] = defaultdict(list)
    for f in items:
        for w in set(f.words):
            by_word[w].append(f)

    cluster_of: dict[FormKey, int] = {}
    members: list[list[_Form]] = []
    readings: dict[FormKey, tuple[int, ...]] = {}
    held_apart: list[tuple[_Form, list[int]]] = []   # frequent forms kept from candidates seen rarely so far
    for f in items:
        longer = {id(g): g for w in f.words for g in by_word[w]
                  if g.key in cluster_of and len(readings[g.key]) == 1 and _may_name(f, g)}
        cands = sorted({cluster_of[g.key] for g in longer.values()})
        fitting = [c for c in cands if _fits(f, members[c], married_first)]
        if cands and ((not fitting and _gender_from_lists(f)) or _outweighed_gender(f, cands, members)):
            # every candidate has the other gender: the lists' gender gives way ("Abbot" → "Miss Abbot"),
            # or nearly every mention of them does: the pronouns' gender gives way ("Barkis")
            f.gender = None
            fitting = [c for c in cands if _fits(f, members[c], married_first)]
        cands = [c for c in fitting if not _fathers_name(f, members[c], elders, alone_uses)]
        total = {c: sum(m.stats.count for m in members[c]) for c in cands}
        bare = f.honorific is None and len(f.words) == 1
        # a bare surname is weighed by how often each candidate is written with it: "Spenlow" is
        # Mr. Spenlow's (×119) though Dora Spenlow's character is named 500 times, nearly all "Dora".
        # A bare first name by the candidates' mentions, else by those written with it: Emma's
        # "Jane" is Jane Fairfax's, not Miss Bates's, whose mother was once "Miss Jane Bates"
        surname = bare and f.words[0] not in male and f.words[0] not in female
        weighings = [total]
        if bare:
            with_word = {c: sum(m.stats.count for m in members[c] if f.words[0] in m.words) for c in cands}
            weighings = [with_word] if surname else [total, with_word]
        chosen = None
        pool = sum(total.values())
        if cands:
            best = _dominant(cands, weighings, dominant_share)
            if best is None and narrator in cluster_of and cluster_of[narrator] in cands \
                    and len(readings[narrator]) == 1:
                best = cluster_of[narrator]
            titled = f.honorific is not None and len(f.words) == 1 and len(cands) > 1
            styled = _styled(f, cands, members) if best is None and titled else None
            best = styled if styled is not None else best
            rare_full_name = (bare or titled) and pool < RARE and f.stats.count >= own_share * pool
            if (best is not None
                    and (styled is not None or not rare_full_name or _introduced(members[best], f))
                    and not _distinguished(f, members[best], own_share, men)):
                chosen = best
            elif f.stats.count >= own_share * pool:
                if best is None and f.honorific is not None:
                    held_apart.append((f, cands))
                cands = []   # "Mr. Rochester" ×338 is a character, not an alias of full names seen 12 times
        if chosen is not None:
            members[chosen].append(f)
            cluster_of[f.key] = chosen
            readings[f.key] = tuple(cands) if len(cands) > 1 else (chosen,)
        else:
            cluster_of[f.key] = len(members)
            members.append([f])
            readings[f.key] = tuple(cands) if cands else (len(members) - 1,)

    joins = _join_held_apart(members, cluster_of, held_apart, married_first, dominant_share, own_share,
                             men, alone_uses)
    members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    if window is not None:
        joins = _join_nicknames(members, readings, window, also_near or {})
        members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    joins = _join_honorific_variants(members, readings, male | female)
    members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    joins = _join_kin_titles(members)
    members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    joins = _join_titled_variants(members, readings, married_first)
    members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    joins = _join_narrators_first_name(members, cluster_of, readings, narrator)
    members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    if window is not None:
        joins = _join_late_full_names(members, readings, window, male | female)
        members, cluster_of, readings = _merge(members, cluster_of, readings, joins)
    for f, whole in cut_short:
        cluster_of[f.key] = cluster_of[whole.key]
        readings[f.key] = readings[whole.key]
        members[cluster_of[f.key]].append(f)

    characters = []
    for cid, ms in enumerate(members):
        count = sum(m.stats.count for m in ms)
        top = max(m.stats.count for m in ms)
        display = max(ms, key=lambda m: (m.stats.count >= 0.2 * top, not _initialled(m), len(m.words),
                                         m.stats.count * (TITLED_DISPLAY if m.honorific else 1.0),
                                         m.honorific is not None))
        genders = {m.gender for m in ms if m.gender}
        ambiguous = _ambiguous(cid, ms, readings)
        characters.append(Character(cid, display.key, ms[0].stats.label, tuple(m.key for m in ms), count,
                                    genders.pop() if len(genders) == 1 else None,
                                    readings[ms[0].key] if ambiguous else ()))
    return CharacterIndex(tuple(characters), cluster_of, readings)


def _join_narrators_first_name(members: list[list[_Form]], cluster_of: Mapping[FormKey, int],
                               readings: Mapping[FormKey, tuple[int, ...]], narrator: FormKey | None) -> dict[int, int]:
    """The narrator's full name, written fewer than :data:`RARE` times, joins the character of its
    first name written alone: Robinson Crusoe tells "I was called Robinson Kreutznaer" once and is
    "Robinson" and "Robinson Crusoe" after, so his every "I" went to a row of one mention that no
    query for him reached. {narrator's cluster: the first name's}."""
    if narrator is None or narrator not in cluster_of or len(readings[narrator]) != 1:
        return {}
    words = form_words(narrator[1])
    own = cluster_of[narrator]
    first = (None, words[0]) if len(words) > 1 else None
    others = set(readings.get(first, ())) - {own}   # the bare first name may be read as the narrator's too
    if len(others) != 1 or sum(m.stats.count for m in members[own]) >= RARE:
        return {}
    target = others.pop()
    return {own: target} if sum(m.stats.count for m in members[target]) >= RARE else {}


def _cut_short(items: Sequence[_Form]) -> list[tuple[_Form, _Form]]:
    """A person's form broken off by a dash every time it is written (Huckleberry Finn stammers
    "Silas Ph--") is the one form it begins: the same honorific and words, the last cut short (at
    least two letters of it kept). It takes no part in the clustering — as a full name of its own it
    tied with "Silas Phelps" (once each), so "Uncle Silas" ×19 and the bare "Silas" joined neither
    and a query for Silas Phelps counted one mention — and joins that form's character at the end.
    Returns (the broken-off form, the form it begins) pairs."""
    out = []
    for f in items:
        if not f.stats.broken_off or f.stats.label != "PER" or len(f.words[-1]) < 2:
            continue
        wholes = [g for g in items if g is not f and g.honorific == f.honorific and g.stats.label == "PER"
                  and len(g.words) == len(f.words) and g.words[:-1] == f.words[:-1]
                  and len(g.words[-1]) > len(f.words[-1]) and g.words[-1].startswith(f.words[-1])]
        if len(wholes) == 1:
            out.append((f, wholes[0]))
    return out


def _merge(members: list[list[_Form]], cluster_of: dict[FormKey, int], readings: dict[FormKey, tuple[int, ...]],
           joins: Mapping[int, int]) -> tuple[list[list[_Form]], dict[FormKey, int], dict[FormKey, tuple[int, ...]]]:
    """Move the forms of each cluster ``joins`` names into its target, drop the joined clusters and
    number the rest from 0 again."""
    if not joins:
        return members, cluster_of, readings
    for cid, target in joins.items():
        members[target].extend(members[cid])
    new_id = {}
    for cid in range(len(members)):
        if cid not in joins:
            new_id[cid] = len(new_id)
    for cid, target in joins.items():
        new_id[cid] = new_id[target]
    kept = [ms for cid, ms in enumerate(members) if cid not in joins]
    remapped = {k: tuple(dict.fromkeys(new_id[c] for c in cs)) for k, cs in readings.items()}
    return kept, {k: new_id[c] for k, c in cluster_of.items()}, remapped
