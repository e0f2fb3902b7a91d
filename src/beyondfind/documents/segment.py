"""Passage segmentation: maximal blocks of non-blank lines (the judged data's passage convention, docs/evaluation.md)."""

from __future__ import annotations

import re

from .model import Passage

# A line that starts with a no-break space opens a new paragraph (Gutenberg's indented paragraphs).
_BLOCK = re.compile(r"[^\n]*\S[^\n]*(?:\n(?!\xa0)[^\n]*\S[^\n]*)*")
_CHAPTER = re.compile(r"^\s*(?:CHAPTER|Chapter|BOOK|Book|PART|Part|VOLUME|Volume|STAVE|Stave|LETTER|Letter)\b"
                      r"[\s.]*(?:[IVXLCDM]+|\d+|[A-Z][a-z]+)\b")


def blocks(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` of each maximal block of non-blank lines within ``text[start:end]``.

    Leading and trailing whitespace (no-break spaces included) is trimmed from each block; this
    reproduces the offsets of every judged passage in ``shared/data/judgments/books``.
    """
    end = len(text) if end is None else end
    out = []
    for m in _BLOCK.finditer(text, start, end):
        s, e = m.start(), m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return out


def passages_from_blocks(text: str, spans: list[tuple[int, int]],
                         chapters: list[str | None] | None = None) -> tuple[Passage, ...]:
    """Passages for the given spans; a block that looks like a chapter heading starts a chapter."""
    out = []
    chapter: str | None = None
    for i, (s, e) in enumerate(spans):
        body = text[s:e]
        if chapters is not None:
            chapter = chapters[i]
        elif _CHAPTER.match(body):
            chapter = " ".join(body.split())[:80]
        out.append(Passage(len(out), s, e, body, chapter))
    return tuple(out)
