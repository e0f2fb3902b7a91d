"""An indexed book in memory, shaped for scoring: passages, name mentions and pronouns per passage,
and the book-wide name statistics that global coreference needs (c(name) counts)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from ..documents import Document
from ..nlp.names import Name, parse_name
from .records import Annotations, Mention, Pronoun


@dataclass(frozen=True)
class NameMention:
    """A name mention with its parsed :class:`Name` (the unit LRM scores)."""

    mention: Mention
    name: Name

    @property
    def label(self) -> str:
        return self.mention.label


@dataclass
class Book:
    doc_id: int
    document: Document
    annotations: Annotations
    names_by_passage: list[list[NameMention]] = field(init=False)
    pronouns_by_passage: list[list[Pronoun]] = field(init=False)
    mention_by_id: dict[int, NameMention] = field(init=False)
    cache: dict = field(default_factory=dict, repr=False, compare=False)  # per-book derived indexes

    def __post_init__(self) -> None:
        n = len(self.document.passages)
        self.names_by_passage = [[] for _ in range(n)]
        self.pronouns_by_passage = [[] for _ in range(n)]
        self.mention_by_id = {}
        for m in self.annotations.mentions:
            if m.is_name:
                nm = NameMention(m, parse_name(m.text))
                if nm.name.words:
                    self.names_by_passage[m.passage].append(nm)
                    self.mention_by_id[m.id] = nm
        for p in self.annotations.pronouns:
            self.pronouns_by_passage[p.passage].append(p)

    @property
    def passages(self):
        return self.document.passages

    @cached_property
    def name_counts(self) -> Counter:
        """c(key): PER name mentions in the whole book, by name words (honorifics dropped)."""
        return Counter(nm.name.key for nms in self.names_by_passage for nm in nms if nm.label == "PER")

    @cached_property
    def full_names_containing(self) -> dict[str, list[str]]:
        """word → PER name keys of two or more words containing it (the Q(e_i) of global coref)."""
        out: dict[str, list[str]] = defaultdict(list)
        for key in self.name_counts:
            words = key.split()
            if len(words) > 1:
                for w in set(words):
                    out[w].append(key)
        return out

    @cached_property
    def label_counts(self) -> dict[str, Counter]:
        """name key → Counter of entity labels over its mentions (for the query's type)."""
        out: dict[str, Counter] = defaultdict(Counter)
        for nms in self.names_by_passage:
            for nm in nms:
                out[nm.name.key][nm.label] += 1
        return out

    @cached_property
    def max_passage_words(self) -> int:
        return max((p.n_words for p in self.passages), default=1)

    @cached_property
    def narrator(self) -> Name | None:
        return parse_name(self.annotations.narrator) if self.annotations.narrator else None

    @cached_property
    def narrator_pronouns_by_passage(self) -> list[int]:
        counts = [0] * len(self.passages)
        for p in self.annotations.pronouns:
            if p.narrator:
                counts[p.passage] += 1
        return counts
