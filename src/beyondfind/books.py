"""Book search as plain functions: index a file, list its entities, rank passages for a name.

The CLI (:mod:`beyondfind.cli`) and the HTTP server (:mod:`beyondfind.server`) both call these.
"""

from __future__ import annotations

import gc
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import NotFoundError, validate
from .gctools import cyclic_gc_paused
from .index import IndexedBook, Library, index_document
from .index.entities import Entity, closest_names, list_entities
from .ranking import methods
from .retrieval import baselines, lrm
from .retrieval.lrm import LRMSettings
from .retrieval.query import EntityQuery
from .retrieval.ranking import Scored

METHODS: tuple[str, ...] = tuple(methods.METHODS)
DEFAULT_METHOD = methods.DEFAULT_METHOD


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

    @property
    def why(self) -> tuple[str, ...]:
        """The evidence in words (needs ``explain=True``): LDM's largest feature contributions, or
        LRM's entity frequency, coreference and pronoun counts."""
        if not self.explain:
            return ()
        if self.explain.get("reasons"):
            return tuple(r["description"] for r in self.explain["reasons"])
        out = []
        if "EF" in self.explain:
            out.append(f"entity frequency EF: {self.explain['EF']}")
        if self.explain.get("names"):
            out.append(f"name mentions: {len(self.explain['names'])}")
        if self.explain.get("pronouns"):
            out.append(f"pronouns resolved to it: {len(self.explain['pronouns'])}")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        d = {"rank": self.rank, "score": round(self.score, 6), "passage": self.passage, "start": self.start,
             "end": self.end, "chapter": self.chapter, "text": self.text}
        if self.explain is not None:
            d["explain"] = self.explain
        return d


def as_query(entity: str | EntityQuery) -> EntityQuery:
    return entity if isinstance(entity, EntityQuery) else EntityQuery.parse(entity)


def entity_occurs(book: IndexedBook, entity: str | EntityQuery) -> bool:
    """Whether ``entity`` is in the book at all: its exact string, a name mention agreeing with it,
    or a mention LRM matches to it. Decided once, the same for every method, so no method answers
    for a name another method calls absent."""
    q = as_query(entity)
    return bool(baselines.occurs(book, q.text) or baselines.entity_find(book, q.text)
                or lrm.rank(book, q.name, LRMSettings()))


def run_method(book: IndexedBook, entity: str | EntityQuery, method: str, settings: LRMSettings = LRMSettings(),
               explain: bool = False) -> list[Scored]:
    """Candidates of ``method`` for ``entity``, best first."""
    return methods.get_method(method).rank(book, as_query(entity), settings, explain)


def rank_passages(book: IndexedBook, entity: str | EntityQuery, method: str = DEFAULT_METHOD, top: int | None = 10,
                  before: int | None = None, explain: bool = False,
                  settings: LRMSettings = LRMSettings()) -> list[RankedPassage]:
    """The top passages describing ``entity``; ``before``: only passages ending at or before it."""
    q = as_query(entity).written_as_in(book.document.text)
    ranker = methods.get_method(method)
    top = validate.count(top, "top")
    before = validate.offset(before, "before")
    if not entity_occurs(book, q):
        suggestions = closest_names(book, q.text)
        raise NotFoundError(f"{q.text!r} does not occur in {book.document.name}; closest names: "
                            + (", ".join(suggestions) if suggestions else "(none)"))
    scored = ranker.rank(book, q, settings, explain)
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
    processes: int = 1   # annotation processes for long documents (index_document); 1 in servers
    # A process answering many queries (the server) sets this: each loaded book's objects are moved
    # out of the cyclic garbage collector's reach (``gc.freeze``), so Python's full collections
    # stop walking them (the slowest warm queries were those collections). A book holds no
    # reference cycles, so an evicted one is still freed, by reference counting (tested).
    freeze_loaded: bool = False
    _nlp: Any = field(default=None, init=False, repr=False)
    _books: OrderedDict = field(default_factory=OrderedDict, init=False, repr=False)

    def nlp(self):
        if self._nlp is None:
            from .nlp import load_pipeline

            self._nlp = load_pipeline(self.nlp_name)
        return self._nlp

    def index(self, path: str | Path) -> tuple[int, bool]:
        return index_document(self.library, path, self.nlp, self.progress_factory, self.processes)

    def index_bytes(self, data: bytes, filename: str) -> tuple[int, bool]:
        from .documents import parse_document

        return index_document(self.library, parse_document(data, filename), self.nlp, self.progress_factory,
                              self.processes)

    def book(self, doc_id: int) -> IndexedBook:
        if doc_id in self._books:
            self._books.move_to_end(doc_id)
            return self._books[doc_id]
        with cyclic_gc_paused():
            document, annotations = self.library.load(doc_id)
            book = IndexedBook(doc_id, document, annotations)
            book.characters   # every query and entity list needs the clusters
        self._books[doc_id] = book
        while len(self._books) > self.cache_size:
            self._books.popitem(last=False)
        if self.freeze_loaded:
            gc.collect(1)   # the young garbage goes first; what is frozen is never collected
            gc.freeze()
        return book

    def forget(self, doc_id: int) -> None:
        """Drop a deleted document from the cache."""
        self._books.pop(doc_id, None)

    def forget_all(self) -> None:
        """Drop every cached book (another process changed the library)."""
        self._books.clear()

    def book_for(self, ref: str | Path | int) -> IndexedBook:
        """A book by library id, or by file path (indexed first if needed)."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit() and not Path(ref).exists()):
            return self.book(validate.document_id(int(ref)))
        doc_id, _ = self.index(ref)
        return self.book(doc_id)

    def entities(self, ref) -> list[Entity]:
        return list_entities(self.book_for(ref))


def highlights(book: IndexedBook, entity: str, passage: int, settings: LRMSettings = LRMSettings()) -> dict[str, list]:
    """Offsets of the entity's name mentions and of pronouns resolved to it in one passage."""
    name = as_query(entity).name
    ev = lrm.evidence(book, passage, name, lrm.query_label(book, name), settings, {})
    return {"names": [[a, b] for a, b, _t, _e in ev.matched], "pronouns": [[a, b] for a, b, _t in ev.pronouns]}
