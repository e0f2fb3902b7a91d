"""Document records: a document is its text plus passages with ``[start, end)`` offsets into it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Passage:
    """A paragraph (or table row) of a document: ``text == source[start:end]``, where ``source``
    is the document's whole text.

    A passage refers to the document's text instead of holding a copy of its own: a long text
    (curly quotes keep it at 2 bytes a character in Python) was otherwise held twice, and with
    slots a passage is a fifth of a dict-backed object — 50 MB of text has ~190k passages."""

    index: int
    start: int
    end: int
    source: str = field(repr=False, compare=False)
    chapter: str | None = None

    @property
    def text(self) -> str:
        return self.source[self.start:self.end]

    @property
    def n_words(self) -> int:
        """Whitespace-separated words (counted on each call; a book keeps them in
        :attr:`~beyondfind.index.IndexedBook.passage_words`)."""
        return len(self.text.split())


@dataclass(frozen=True)
class Document:
    """``text`` is the file's decoded text (``.txt``/``.md``) or the extracted text (EPUB, HTML,
    tables); passage offsets index into it."""

    name: str
    format: str
    text: str
    passages: tuple[Passage, ...]
    sha256: str
    title: str | None = None
