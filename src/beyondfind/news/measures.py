"""Tie-aware P@k and AP (McSherry & Najork 2008), exactly as docs/models.md states them.

A ranking is a list of (score, relevant) pairs; equal scores form a tie group whose members are
credited with the expected value over all orderings of the group.
"""

from __future__ import annotations

from itertools import groupby


def _groups(ranking: list[tuple[float, bool]]) -> list[tuple[int, int]]:
    """(t_g, r_g) for each tie group in descending score."""
    ordered = sorted(ranking, key=lambda x: -x[0])
    return [(len(g), sum(1 for _s, rel in g if rel)) for g in
            (list(items) for _k, items in groupby(ordered, key=lambda x: x[0]))]


def precision_at(ranking: list[tuple[float, bool]], k: int) -> float:
    """P@k = [R_{j-1} + (k − c_{j-1}) · r_j / t_j] / k for the group j holding rank k."""
    c = R = 0
    for t, r in _groups(ranking):
        if c + t >= k:
            return (R + (k - c) * r / t) / k
        c += t
        R += r
    return R / k


def average_precision(ranking: list[tuple[float, bool]], n_relevant: int | None = None) -> float:
    """AP = (1/N_R) Σ_g (r_g/t_g) Σ_{i=c_{g-1}+1}^{c_g} [R_{g-1} + (i − c_{g-1} − 1)(r_g − 1)/(t_g − 1) + 1] / i.

    ``n_relevant``: N_R when the ranking does not hold every relevant item (system entities that
    miss judged ones: each missed item adds 0 precision, as trec_eval counts it)."""
    n_rel = sum(1 for _s, rel in ranking if rel) if n_relevant is None else n_relevant
    if n_rel == 0:
        return 0.0
    total = 0.0
    c = R = 0
    for t, r in _groups(ranking):
        if r:
            inner = 0.0
            for i in range(c + 1, c + t + 1):
                frac = (i - c - 1) * (r - 1) / (t - 1) if t > 1 else 0.0
                inner += (R + frac + 1) / i
            total += r / t * inner
        c += t
        R += r
    return total / n_rel
