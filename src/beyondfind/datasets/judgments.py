"""Book judgments (``judgments/books/*.jsonl``): relevance grades defined once, in code.

Each line: ``{"book", "entity", "start", "end", "label", "gain", "text"}``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import BeyondfindError

GAINS = {"Perfect": 4, "Good": 2, "Fair": 1, "Bad": 0}
RELEVANT_LABELS = frozenset({"Perfect", "Good", "Fair"})  # for P@k


@dataclass(frozen=True)
class Judgment:
    book: str
    entity: str
    start: int
    end: int
    label: str

    @property
    def gain(self) -> int:
        return GAINS[self.label]


@dataclass(frozen=True)
class BookJudgments:
    book: str                                   # file name, e.g. "76-huckleberry-finn.txt"
    by_entity: dict[str, tuple[Judgment, ...]]

    def entities(self) -> list[str]:
        return sorted(self.by_entity)


def load_book_judgments(directory: str | Path) -> list[BookJudgments]:
    d = Path(directory)
    files = sorted(d.glob("*.jsonl"))
    if not files:
        raise BeyondfindError(f"no judgment files (*.jsonl) in {d}")
    out = []
    for f in files:
        by_entity: dict[str, list[Judgment]] = defaultdict(list)
        book = None
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                j = Judgment(r["book"], r["entity"], int(r["start"]), int(r["end"]), r["label"])
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise BeyondfindError(f"{f}:{n}: not a judgment line ({exc})") from None
            if j.label not in GAINS:
                raise BeyondfindError(f"{f}:{n}: unknown label {j.label!r}; expected one of {', '.join(GAINS)}")
            book = j.book
            by_entity[j.entity].append(j)
        if book:
            out.append(BookJudgments(book, {e: tuple(js) for e, js in by_entity.items()}))
    return out


def judged_gain(judgments: tuple[Judgment, ...], start: int, end: int) -> int | None:
    """Gain of the judged passage overlapping ``[start, end)`` most, or None if unjudged."""
    best, best_overlap = None, 0
    for j in judgments:
        overlap = min(end, j.end) - max(start, j.start)
        if overlap > best_overlap:
            best, best_overlap = j, overlap
    return best.gain if best else None


def merge_judgments(*sets: list[BookJudgments]) -> list[BookJudgments]:
    """Several judgment folders (characters, places) as one list, one entry per book, for training
    on all of them; an entity judged in two folders keeps every judgment."""
    by_book: dict[str, dict[str, tuple[Judgment, ...]]] = defaultdict(dict)
    for judgments in sets:
        for bj in judgments:
            for entity, js in bj.by_entity.items():
                by_book[bj.book][entity] = by_book[bj.book].get(entity, ()) + js
    return [BookJudgments(book, by_entity) for book, by_entity in sorted(by_book.items())]
