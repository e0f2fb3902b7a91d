"""Reading positions a reader can know: a character offset, a percentage, or a chapter.

The no-spoilers switch (``--before``, ``before=``) takes any of them; :func:`resolve_position`
turns it into the character offset the rankers filter on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import BeyondfindError
from .model import Document
from .segment import heading_title

PROSE_WORDS = 40
TOC_HEADINGS = 3   # a heading after this many headings in a row is an entry of a table of contents
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
    """The document's chapters in reading order (a new chapter starts where the passage title changes).

    A "chapter" without a paragraph of prose (``PROSE_WORDS`` words or more) — an entry of a table of
    contents, a list of illustrations, a BOOK heading straight followed by its first CHAPTER — is not
    counted, nor is the last entry of a table of contents (a heading after ``TOC_HEADINGS`` headings
    in a row), so ``ch:12`` is the twelfth chapter of the story."""
    runs: list[list] = []   # [title, start, end, first passage, has prose, after a list of headings]
    headings_in_a_row = 0
    for p in document.passages:
        if p.chapter is None:
            continue
        is_heading = heading_title(p.text) == p.chapter.split(" · ")[-1]
        prose = p.n_words >= PROSE_WORDS
        if runs and runs[-1][0] == p.chapter:
            runs[-1][2] = p.end
            runs[-1][4] = runs[-1][4] or prose
        else:
            runs.append([p.chapter, p.start, p.end, p.index, prose, headings_in_a_row >= TOC_HEADINGS])
        headings_in_a_row = headings_in_a_row + 1 if is_heading else 0
    # the last entry of a table of contents absorbs the front matter after it: not a chapter when
    # the same heading comes again later
    keys = [_heading_key(r[0]) for r in runs]
    kept = [r for i, r in enumerate(runs) if r[4] and not (r[5] and keys[i] in keys[i + 1:])]
    return [Chapter(k, title, start, end, first) for k, (title, start, end, first, *_) in enumerate(kept, 1)]


def _heading_key(title: str) -> str:
    """``CHAPTER THE LAST. Out of Bondage`` and ``CHAPTER THE LAST.`` → ``CHAPTER THE LAST``."""
    return " · ".join(re.split(r"[.:—]|--", part)[0].strip().upper() for part in title.split(" · "))


def resolve_position(document: Document, value: int | str | None) -> int | None:
    """``1200`` → 1200; ``"40%"`` → 40 % of the text; ``"ch:12"`` → where chapter 12 starts.

    >>> from beyondfind.documents.model import Document, Passage
    >>> prose = "word " * 99 + "word"
    >>> text = prose + " " + prose
    >>> doc = Document("d", "txt", text, (Passage(0, 0, 500, text, "I"), Passage(1, 501, 1001, text, "II")), "0")
    >>> resolve_position(doc, "40%"), resolve_position(doc, "ch:2"), resolve_position(doc, "300")
    (400, 501, 300)
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
