"""The public Python API: open a document, ask who someone is.

>>> import beyondfind
>>> book = beyondfind.open(beyondfind.BUNDLED_BOOK, library=library)   # library: a path, or None for the default
>>> book.title
'Adventures of Huckleberry Finn, Complete'
>>> book.narrator
'Huckleberry Finn'
>>> top = book.rank("Mary Jane", top=3, before="60%")
>>> [p.rank for p in top], all(p.end <= 0.6 * len(book.text) for p in top)
([1, 2, 3], True)
>>> "Mary Jane" in top[0].text or "she" in top[0].text.lower()
True
>>> book.entities()[0].name
'Jim'

The CLI and the HTTP server are thin shells over the same objects: ``beyondfind rank`` is
``beyondfind.open(path).rank(name)`` printed as a table or JSON lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .books import DEFAULT_METHOD, BookSearch, RankedPassage, highlights, rank_passages
from .documents.positions import Chapter, chapters, resolve_position
from .index import IndexedBook, Library
from .index.entities import Entity, list_entities
from .retrieval.query import EntityQuery

BUNDLED_BOOK = Path(__file__).parent / "datasets" / "bundled" / "76-huckleberry-finn.txt"

__all__ = ["BUNDLED_BOOK", "Book", "Chapter", "Entity", "EntityQuery", "RankedPassage", "open"]


@dataclass
class Book:
    """An indexed document: its text, chapters, entities, narrator, and passages ranked for a name."""

    indexed: IndexedBook = field(repr=False)
    search: BookSearch = field(repr=False)

    @property
    def id(self) -> int:
        """The document's id in its library (``beyondfind rank ID``, ``/api/documents/ID``)."""
        return self.indexed.doc_id

    @property
    def title(self) -> str:
        return self.indexed.document.title or self.indexed.document.name

    @property
    def text(self) -> str:
        return self.indexed.document.text

    @property
    def chapters(self) -> list[Chapter]:
        return chapters(self.indexed.document)

    @property
    def narrator(self) -> str | None:
        """The first-person narrator's name as the text writes it, or None (third person, or several
        narrators: see :attr:`narrators`)."""
        return self.indexed.annotations.narrator

    @property
    def narrators(self) -> tuple[str, ...]:
        """Every narrator when the book has several (letters, diaries, a frame story)."""
        return self.indexed.annotations.narrators

    def entities(self, min_mentions: int = 2) -> list[Entity]:
        """Characters, places and organisations, most mentioned first, with their aliases."""
        return list_entities(self.indexed, min_mentions)

    def rank(self, entity: str, top: int | None = 10, before: int | str | None = None,
             method: str = DEFAULT_METHOD, explain: bool = False) -> list[RankedPassage]:
        """The passages that best describe ``entity``, best first.

        ``before``: no spoilers — only passages ending before a character offset (``1200``), a
        percentage of the text (``"40%"``) or the start of a chapter (``"ch:12"``).
        ``method``: one of :data:`beyondfind.ranking.methods.METHODS`. ``explain``: fill ``why``.
        """
        limit = resolve_position(self.indexed.document, before)
        return rank_passages(self.indexed, entity, method, top, limit, explain)

    def highlights(self, entity: str, passage: int) -> dict[str, list]:
        """Offsets of the entity's name mentions and resolved pronouns in one passage."""
        return highlights(self.indexed, entity, passage)


def open(source: str | Path | int, *, library: str | Path | Library | None = None, nlp: str | None = None,
         progress: Callable[[int, str], Callable[[int], None]] | None = None) -> Book:
    """A document by path (indexed on first use, ~5–30 s for a novel) or by library id.

    ``library``: the SQLite library file (default: ``library.sqlite`` in the user data directory);
    ``nlp``: a spaCy pipeline name or path (default: the shipped pipeline);
    ``progress``: ``progress(total, name)`` returning ``update(n)``, called while indexing.
    """
    lib = library if isinstance(library, Library) else Library(library)
    search = BookSearch(lib, nlp_name=nlp, progress_factory=progress)
    ref: Any = source if isinstance(source, int) else str(source)
    return Book(search.book_for(ref), search)
