"""Scores a reader can read: LDM's raw score (an expected gain, or LambdaMART's unscaled score) →
the probability that a judge would call the passage Good or Perfect.

Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines"):
P(gain ≥ 2 | s) = 1 / (1 + exp(−(a·s + b))), fitted by Newton's method on scores the model gave to
judged passages of books it was *not* trained on (leave-one-book-out), so the probabilities are
those of an unseen book. The map is monotonic: ranking by probability is ranking by raw score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GOOD = 2   # the gain of "Good" (datasets/judgments.py): the event is "Good or Perfect"


@dataclass(frozen=True)
class Calibration:
    a: float
    b: float

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(self.a * np.asarray(scores, dtype=float) + self.b)))

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "event": "judged Good or Perfect"}

    @classmethod
    def from_dict(cls, d: dict) -> "Calibration":
        return cls(float(d["a"]), float(d["b"]))


def fit(scores: np.ndarray, gains: np.ndarray, iterations: int = 50) -> Calibration:
    """Maximum-likelihood (a, b) for the event gain ≥ Good, with Platt's smoothed targets
    ((n₊+1)/(n₊+2) and 1/(n₋+2)) so a separable sample does not drive a to infinity."""
    s = np.asarray(scores, dtype=float)
    positive = np.asarray(gains) >= GOOD
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if not n_pos or not n_neg:
        raise ValueError("calibration needs judged passages both below and at least Good")
    t = np.where(positive, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    X = np.column_stack([s, np.ones_like(s)])
    w = np.zeros(2)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (p - t)
        hess = X.T @ (X * (p * (1 - p))[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return Calibration(float(w[0]), float(w[1]))


def reliability(probabilities: np.ndarray, gains: np.ndarray, bins: int = 4) -> list[tuple[float, float, float, int]]:
    """Per probability bin: (low, mean predicted, observed share Good or Perfect, passages)."""
    p = np.asarray(probabilities, dtype=float)
    hit = np.asarray(gains) >= GOOD
    out = []
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        sel = (p >= lo) & ((p < hi) if k < bins - 1 else (p <= hi))
        if sel.any():
            out.append((lo, float(p[sel].mean()), float(hit[sel].mean()), int(sel.sum())))
    return out
