"""Measures are values: ``nDCG@5``, ``P@3``, ``AP`` parse from strings and are usable as keys.

* nDCG@k (Järvelin & Kekäläinen 2002): DCG = Σ_{i≤k} gain_i / log2(1 + i), ideal ranking from all
  judged passages of the entity; unjudged retrieved passages have gain 0.
* P@k: share of the top k that is relevant (Perfect, Good, Fair for books), k in the denominator.
* Tie-aware P@k and AP for news (McSherry & Najork 2008) are in :mod:`beyondfind.news.measures`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_MEASURE = re.compile(r"^(nDCG|P|AP)(?:@(\d+))?$")


@dataclass(frozen=True)
class Measure:
    name: str
    cutoff: int | None = None

    def __str__(self) -> str:
        return f"{self.name}@{self.cutoff}" if self.cutoff else self.name

    @classmethod
    def parse(cls, text: str) -> "Measure":
        m = _MEASURE.match(text.strip())
        if not m:
            raise ValueError(f"unknown measure {text!r}; e.g. nDCG@5, P@3, AP")
        return cls(m.group(1), int(m.group(2)) if m.group(2) else None)

    def compute(self, ranked_gains: list[float], all_gains: list[float], relevant_min_gain: float = 1) -> float:
        if self.name == "nDCG":
            return ndcg(ranked_gains, all_gains, self.cutoff)
        if self.name == "P":
            return precision(ranked_gains, self.cutoff, relevant_min_gain)
        raise ValueError(f"{self} is computed by the news evaluation")


def dcg(gains: list[float], k: int | None) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k] if k else gains))


def ndcg(ranked_gains: list[float], all_gains: list[float], k: int | None) -> float:
    ideal = dcg(sorted(all_gains, reverse=True), k)
    return dcg(ranked_gains, k) / ideal if ideal > 0 else 0.0


def precision(ranked_gains: list[float], k: int, relevant_min_gain: float = 1) -> float:
    return sum(1 for g in ranked_gains[:k] if g >= relevant_min_gain) / k


BOOK_MEASURES = tuple(Measure.parse(m) for m in ("nDCG@1", "nDCG@2", "nDCG@3", "nDCG@5", "P@1", "P@2", "P@3", "P@5"))
