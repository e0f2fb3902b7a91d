"""Book search as plain functions: index a file, list its entities, rank passages for a name.

The CLI (:mod:`beyondfind.cli`) and the HTTP server (:mod:`beyondfind.server`) both call these.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import BeyondfindError, NotFoundError, validate
from .index import Book, Library, index_document
from .index.entities import Entity, closest_names, list_entities
from .nlp.names import parse_name
from .retrieval import baselines, lrm
from .retrieval.lrm import LRMSettings
from .retrieval.ranking import Scored

MAX_NAME_CHARS = 200
METHODS: tuple[str, ...] = ("ldm", "lrm", "find", "entity-find", "bm25", "bm25-b0", "lm", "plm", "semantic",
                            "lrm-ef", "lrm-dl")
DEFAULT_METHOD = "ldm"


@dataclass(frozen=True)
class RankedPassage:
    rank: int
    score: float
    passage: int
    start: int
    end: int
    chapter: str | None
    text: str
    explain: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"rank": self.rank, "score": round(self.score, 6), "passage": self.passage, "start": self.start,
             "end": self.end, "chapter": self.chapter, "text": self.text}
        if self.explain is not None:
            d["explain"] = self.explain
        return d


def check_entity_name(entity: str) -> str:
    """The name as given, or a :class:`BeyondfindError` saying why it cannot be searched."""
    if entity is None or not entity.strip():
        raise BeyondfindError("empty entity name; give the name of a character, e.g. --entity 'Mary Jane'")
    if len(entity) > MAX_NAME_CHARS:
        raise BeyondfindError(f"entity name is {len(entity)} characters long; names are at most {MAX_NAME_CHARS}")
    if not parse_name(entity).words:
        raise BeyondfindError(f"entity name {entity!r} has no letters; give a name such as 'Mary Jane'")
    return entity.strip()


def entity_occurs(book: Book, entity: str) -> bool:
    """Whether ``entity`` is in the book at all: its exact string, a name mention agreeing with it,
    or a mention LRM matches to it. Decided once, the same for every method, so no method answers
    for a name another method calls absent."""
    return bool(baselines.find(book, entity) or baselines.entity_find(book, entity)
                or lrm.rank(book, parse_name(entity), LRMSettings()))


def run_method(book: Book, entity: str, method: str, settings: LRMSettings = LRMSettings(),
               explain: bool = False) -> list[Scored]:
    """Candidates of ``method`` for ``entity``, best first."""
    query = parse_name(entity)
    if method == "lrm":
        return lrm.rank(book, query, settings, explain)
    if method == "lrm-ef":
        return lrm.rank(book, query, replace(settings, entity_frequency=False), explain)
    if method == "lrm-dl":
        return lrm.rank(book, query, replace(settings, length_reward=False), explain)
    if method == "semantic":
        return lrm.semantic(book, query, settings, explain)
    if method == "find":
        return baselines.find(book, entity)
    if method == "entity-find":
        return baselines.entity_find(book, entity)
    if method == "bm25":
        return baselines.bm25(book, entity, b=0.75)
    if method == "bm25-b0":
        return baselines.bm25(book, entity, b=0.0)
    if method == "lm":
        return baselines.query_likelihood(book, entity)
    if method == "plm":
        return baselines.positional_lm(book, entity)
    if method == "ldm":
        from .ranking.ldm import rank_ldm

        return rank_ldm(book, query, entity, settings=settings, explain=explain)
    raise BeyondfindError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")


def rank_passages(book: Book, entity: str, method: str = DEFAULT_METHOD, top: int | None = 10,
                  before: int | None = None, explain: bool = False,
                  settings: LRMSettings = LRMSettings()) -> list[RankedPassage]:
    """The top passages describing ``entity``; ``before``: only passages ending at or before it."""
    entity = check_entity_name(entity)
    top = validate.count(top, "top")
    before = validate.offset(before, "before")
    if not entity_occurs(book, entity):
        suggestions = closest_names(book, entity)
        raise NotFoundError(f"{entity!r} does not occur in {book.document.name}; closest names: "
                            + (", ".join(suggestions) if suggestions else "(none)"))
    scored = run_method(book, entity, method, settings, explain)
    if before is not None:
        scored = [s for s in scored if book.passages[s.passage].end <= before]
    if top is not None:
        scored = scored[:top]
    out = []
    for k, s in enumerate(scored, 1):
        p = book.passages[s.passage]
        out.append(RankedPassage(k, s.score, p.index, p.start, p.end, p.chapter, p.text, s.explain))
    return out


@dataclass
class BookSearch:
    """A library plus a lazily loaded NLP pipeline and a small cache of loaded books."""

    library: Library
    nlp_name: str | None = None
    cache_size: int = 4
    progress_factory: Callable | None = None
    _nlp: Any = field(default=None, init=False, repr=False)
    _books: OrderedDict = field(default_factory=OrderedDict, init=False, repr=False)

    def nlp(self):
        if self._nlp is None:
            from .nlp import load_pipeline

            self._nlp = load_pipeline(self.nlp_name)
        return self._nlp

    def index(self, path: str | Path) -> tuple[int, bool]:
        return index_document(self.library, path, self.nlp, self.progress_factory)

    def index_bytes(self, data: bytes, filename: str) -> tuple[int, bool]:
        from .documents import parse_document

        return index_document(self.library, parse_document(data, filename), self.nlp, self.progress_factory)

    def book(self, doc_id: int) -> Book:
        if doc_id in self._books:
            self._books.move_to_end(doc_id)
            return self._books[doc_id]
        document, annotations = self.library.load(doc_id)
        book = Book(doc_id, document, annotations)
        self._books[doc_id] = book
        while len(self._books) > self.cache_size:
            self._books.popitem(last=False)
        return book

    def book_for(self, ref: str | Path | int) -> Book:
        """A book by library id, or by file path (indexed first if needed)."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit() and not Path(ref).exists()):
            return self.book(validate.document_id(int(ref)))
        doc_id, _ = self.index(ref)
        return self.book(doc_id)

    def entities(self, ref) -> list[Entity]:
        return list_entities(self.book_for(ref))


def highlights(book: Book, entity: str, passage: int, settings: LRMSettings = LRMSettings()) -> dict[str, list]:
    """Offsets of the entity's name mentions and of pronouns resolved to it in one passage."""
    query = parse_name(check_entity_name(entity))
    ev = lrm.evidence(book, passage, query, lrm.query_label(book, query), settings, {})
    return {"names": [[a, b] for a, b, _t, _e in ev.matched], "pronouns": [[a, b] for a, b, _t in ev.pronouns]}
