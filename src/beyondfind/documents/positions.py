"""Reading positions a reader can know: a character offset, a percentage, or a chapter.

The no-spoilers switch (``--before``, ``before=``) takes any of them; :func:`resolve_position`
turns it into the character offset the rankers filter on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import BeyondfindError
from .model import Document

_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_CHAPTER = re.compile(r"^\s*(?:ch|chapter)\s*[: ]\s*(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Chapter:
    """A chapter as the document's passages carry it: 1-based number, title, ``[start, end)``."""

    number: int
    title: str
    start: int
    end: int
    first_passage: int


def chapters(document: Document) -> list[Chapter]:
    """The document's chapters in reading order (a new chapter starts where the passage title changes)."""
    out: list[Chapter] = []
    for p in document.passages:
        if p.chapter is None:
            continue
        if out and out[-1].title == p.chapter and out[-1].end <= p.start:
            last = out[-1]
            out[-1] = Chapter(last.number, last.title, last.start, p.end, last.first_passage)
        else:
            out.append(Chapter(len(out) + 1, p.chapter, p.start, p.end, p.index))
    return out


def resolve_position(document: Document, value: int | str | None) -> int | None:
    """``1200`` → 1200; ``"40%"`` → 40 % of the text; ``"ch:12"`` → where chapter 12 starts.

    >>> from beyondfind.documents.model import Document, Passage
    >>> doc = Document("d", "txt", "x" * 1000, (Passage(0, 0, 500, "x" * 500, "I"),
    ...                                         Passage(1, 500, 1000, "x" * 500, "II")), "0")
    >>> resolve_position(doc, "40%"), resolve_position(doc, "ch:2"), resolve_position(doc, "300")
    (400, 500, 300)
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise BeyondfindError(f"a position must be an offset, a percentage or a chapter, not {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise BeyondfindError(f"a position must be a character offset of 0 or more, not {value}")
        return value
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    m = _PERCENT.match(text)
    if m:
        pct = float(m.group(1))
        if pct > 100:
            raise BeyondfindError(f"a percentage position must be from 0% to 100%, not {text}")
        return round(len(document.text) * pct / 100)
    m = _CHAPTER.match(text)
    if m:
        number = int(m.group(1))
        chs = chapters(document)
        if not chs:
            raise BeyondfindError(f"{document.name} has no chapters; give an offset or a percentage such as 40%")
        if not 1 <= number <= len(chs):
            raise BeyondfindError(f"{document.name} has chapters 1 to {len(chs)}, not {number}")
        return chs[number - 1].start
    raise BeyondfindError(f"position {text!r} is not an offset (1200), a percentage (40%) or a chapter (ch:12)")
