"""Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009, "Reciprocal rank fusion outperforms
Condorcet and individual rank learning methods", SIGIR):

    RRF(d) = Σ_m 1 / (k + r_m(d)),   k = 60 (the paper's constant, not tuned here)

where r_m(d) is d's rank (1 = best) in ranking m; a ranking that does not contain d adds nothing.
:func:`fused` divides by the largest possible value, M / (k + 1), so 1.0 means "first in every
ranking".
"""

from __future__ import annotations

import numpy as np

K = 60


def ranks(scores: np.ndarray, present: np.ndarray | None = None) -> np.ndarray:
    """Rank of each item by descending score (1 = best; ties keep the items' order); items not
    ``present`` get rank ∞."""
    scores = np.asarray(scores, dtype=float)
    keep = np.ones(len(scores), dtype=bool) if present is None else np.asarray(present, dtype=bool)
    out = np.full(len(scores), np.inf)
    idx = np.flatnonzero(keep)
    order = idx[np.argsort(-scores[idx], kind="stable")]
    out[order] = np.arange(1, len(order) + 1)
    return out


def fused(rankings: list[np.ndarray], k: int = K) -> np.ndarray:
    """Normalised RRF of several rank arrays over the same items, in [0, 1]."""
    if not rankings:
        raise ValueError("fusion needs at least one ranking")
    total = sum(1.0 / (k + np.asarray(r, dtype=float)) for r in rankings)
    return total * (k + 1) / len(rankings)
