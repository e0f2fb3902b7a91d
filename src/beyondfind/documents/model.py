"""Document records: a document is its text plus passages with ``[start, end)`` offsets into it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Passage:
    """A paragraph (or table row) of a document; ``text == document.text[start:end]``."""

    index: int
    start: int
    end: int
    text: str
    chapter: str | None = None

    @cached_property
    def n_words(self) -> int:
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
