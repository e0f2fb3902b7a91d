"""Annotation records stored in the library, one row per record (all offsets absolute).

The per-token records (sentences, mentions, pronouns, verbs, descriptions) are typed named tuples:
a novel has hundreds of thousands of them (a 5 MB text is annotated with ~400k), a tuple takes no
more memory than a slotted object, and one is built from a library row 4–5× faster than a frozen
dataclass (whose ``__init__`` sets each field through ``object.__setattr__``): loading Huckleberry
Finn's 40k records took 0.1 s of a cold query's time that way."""

from __future__ import annotations

from dataclasses import dataclass
from sys import intern   # labels, keys and lemmas repeat: one string object each
from typing import NamedTuple


class Sentence(NamedTuple):
    index: int
    passage: int
    start: int
    end: int


class Mention(NamedTuple):
    """An entity span. ``is_name``: a proper name (``key`` = its normalised name words), else a
    nominal or temporal expression. ``source``: "ner" (the pipeline) or "propagated" (a capitalised
    occurrence of a name the pipeline tagged elsewhere in the book)."""

    id: int
    passage: int
    sentence: int
    start: int
    end: int
    text: str
    label: str
    is_name: bool
    key: str
    honorific: str | None
    is_subject: bool
    in_quote: bool
    source: str = "ner"


class Pronoun(NamedTuple):
    """A personal pronoun; ``antecedent`` is a :class:`Mention` id (third person) and ``narrator``
    marks a first-person pronoun outside quotes linked to the document's narrator."""

    id: int
    passage: int
    sentence: int
    start: int
    end: int
    text: str
    person: int
    gender: str | None
    in_quote: bool
    antecedent: int | None = None
    narrator: bool = False


class Verb(NamedTuple):
    passage: int
    sentence: int
    lemma: str


class Description(NamedTuple):
    """The parse describes the mention or pronoun starting at ``start``: ``kinds`` is a set of
    :mod:`beyondfind.nlp.syntax` flags (predicate, modifier, possession)."""

    passage: int
    start: int
    kinds: int


@dataclass(frozen=True, slots=True)
class Annotations:
    sentences: tuple[Sentence, ...]
    mentions: tuple[Mention, ...]
    pronouns: tuple[Pronoun, ...]
    verbs: tuple[Verb, ...]
    narrator: str | None
    pipeline: str
    narrators: tuple[str, ...] = ()   # several narrators (letters, diaries, a frame story): no single one
    descriptions: tuple[Description, ...] = ()


# Columns of each record as the library and the indexing spool store them, and the records read back.
SENTENCE_COLUMNS = 'idx, passage, start, "end"'
MENTION_COLUMNS = 'id, passage, sentence, start, "end", text, label, is_name, key, honorific, is_subject, in_quote, source'
PRONOUN_COLUMNS = 'id, passage, sentence, start, "end", text, person, gender, in_quote, antecedent, narrator'
VERB_COLUMNS = "passage, sentence, lemma"
DESCRIPTION_COLUMNS = "passage, start, kinds"


def mention_row(m: Mention) -> tuple:
    return (m.id, m.passage, m.sentence, m.start, m.end, m.text, m.label, int(m.is_name), m.key, m.honorific,
            int(m.is_subject), int(m.in_quote), m.source)


def pronoun_row(p: Pronoun) -> tuple:
    return (p.id, p.passage, p.sentence, p.start, p.end, p.text, p.person, p.gender, int(p.in_quote),
            p.antecedent, int(p.narrator))


def mention_from_row(row) -> Mention:
    i, p, s, a, b, t, label, is_name, key, honorific, subject, quote, source = row
    return Mention(i, p, s, a, b, t, intern(label), bool(is_name), intern(key), honorific, bool(subject),
                   bool(quote), intern(source))


def pronoun_from_row(row) -> Pronoun:
    i, p, s, a, b, t, person, gender, quote, antecedent, narrator = row
    return Pronoun(i, p, s, a, b, intern(t), person, gender and intern(gender), bool(quote), antecedent,
                   bool(narrator))


def verb_from_row(row) -> Verb:
    return Verb(row[0], row[1], intern(row[2]))
