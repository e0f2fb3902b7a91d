"""Annotation records stored in the library, one row per record (all offsets absolute).

Records use ``__slots__``: a novel has hundreds of thousands of them, and a slotted record takes
about a third of the memory of one with a ``__dict__`` (a 5 MB text is annotated with ~400k)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sentence:
    index: int
    passage: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Mention:
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


@dataclass(frozen=True, slots=True)
class Pronoun:
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


@dataclass(frozen=True, slots=True)
class Verb:
    passage: int
    sentence: int
    lemma: str


@dataclass(frozen=True, slots=True)
class Description:
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
