"""The record every retrieval method returns: a scored candidate passage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Scored:
    passage: int
    score: float
    explain: dict[str, Any] | None = None


def sort_scored(items: list[Scored]) -> list[Scored]:
    """Descending score; ties in book order."""
    return sorted(items, key=lambda s: (-s.score, s.passage))
