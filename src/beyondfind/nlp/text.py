"""Text helpers shared by the pipeline and the index: quotation masks and chunking long text."""

from __future__ import annotations

import re
from collections.abc import Iterator

OPEN_QUOTES = {"“", "‘‘"}
CLOSE_QUOTES = {"”", "’’"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def quote_mask(words: list[str]) -> list[bool]:
    """True for tokens inside quoted speech. Curly quotes open/close; straight ``"`` toggles.

    An unclosed quote ends at the end of the text unit (a paragraph, in novels' convention).
    """
    inside = False
    mask = []
    for w in words:
        if w in OPEN_QUOTES:
            inside = True
            mask.append(True)
        elif w in CLOSE_QUOTES:
            mask.append(True)
            inside = False
        elif w == '"':
            mask.append(True)
            inside = not inside
        else:
            mask.append(inside)
    return mask


def clean_for_nlp(text: str) -> str:
    """Replace control characters, line breaks and tabs by spaces, keeping length (so offsets are
    preserved). A passage is a paragraph, so a line break inside it is the file's hard wrap: left in,
    it becomes a token of its own and splits names ("Mr.⏎Heathcliff" was no name, and Heathcliff's
    Chapter 1 portrait lost him)."""
    return _CONTROL.sub(" ", text)


def chunks(text: str, max_chars: int = 20_000) -> Iterator[tuple[int, str]]:
    """Split ``text`` into pieces of at most ``max_chars``, at a sentence end or whitespace when
    possible; yields (offset, piece) with ``text[offset:offset+len(piece)] == piece``."""
    start = 0
    n = len(text)
    while start < n:
        end = min(n, start + max_chars)
        if end < n:
            window = text[start:end]
            cut = max(window.rfind(". "), window.rfind("! "), window.rfind("? "), window.rfind("\n"))
            if cut < max_chars // 2:
                cut = window.rfind(" ")
            if cut > 0:
                end = start + cut + 1
        yield start, text[start:end]
        start = end
