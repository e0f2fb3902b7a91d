"""A learned descriptiveness signal from the words of a passage (LDM feature ``text.descriptive``).

Judged passages teach which words describe a person ("tall", "handsome", "years old", "his
fortune") whoever the person is: every capitalised word is masked to ``NAME`` so no book's names
are learned, the rest is lower-cased; features are unigrams and bigrams hashed (CRC-32, stable
across processes) into ``BUCKETS`` columns, ``log(1 + count)`` scaled to unit length per passage.
The target is the judged gain minus the mean gain of the entity's judged passages (what makes a
passage better than the entity's other passages). Ridge regression, solved by conjugate gradients
on the sparse matrix in numpy.

Cross-fitting: the signal used to score a book never saw that book's judgments
(:func:`fit_excluding`); the LDM's leave-one-book-out evaluation excludes the test book as well.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

BUCKETS = 1 << 17
RIDGE = 1.0
SHIPPED = Path(__file__).parent / "data" / "text_signal.npy"
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lower-cased words with capitalised words masked as ``NAME``."""
    return ["NAME" if t[:1].isupper() else t.lower() for t in _TOKEN.findall(text)]


def hashed(text: str) -> tuple[np.ndarray, np.ndarray]:
    """(column indices, values) of a passage: unigrams and bigrams, log counts, unit length."""
    toks = tokens(text)
    grams = Counter(toks)
    grams.update(f"{a} {b}" for a, b in zip(toks, toks[1:]))
    if not grams:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    cols: Counter = Counter()
    for g, c in grams.items():
        cols[zlib.crc32(g.encode("utf-8")) % BUCKETS] += c
    idx = np.fromiter(cols.keys(), dtype=np.int64, count=len(cols))
    val = np.log1p(np.fromiter(cols.values(), dtype=float, count=len(cols)))
    return idx, val / np.linalg.norm(val)


@dataclass(frozen=True)
class TextExample:
    book: str
    entity: str
    text: str
    gain: float


@dataclass(frozen=True)
class TextModel:
    weights: np.ndarray   # (BUCKETS,)

    def score(self, text: str) -> float:
        return self.score_hashed(hashed(text))

    def score_hashed(self, vector: tuple[np.ndarray, np.ndarray]) -> float:
        """The score of a passage already :func:`hashed` (a book caches its passages' vectors)."""
        idx, val = vector
        return float(val @ self.weights[idx]) if len(idx) else 0.0

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, self.weights.astype(np.float32))


def fit(examples: Sequence[TextExample], ridge: float = RIDGE, iterations: int = 200) -> TextModel:
    """Ridge regression of the entity-centred gain on the hashed words (conjugate gradients)."""
    by_entity: dict[tuple[str, str], list[float]] = {}
    for e in examples:
        by_entity.setdefault((e.book, e.entity), []).append(e.gain)
    means = {k: float(np.mean(v)) for k, v in by_entity.items()}
    y = np.array([e.gain - means[(e.book, e.entity)] for e in examples])
    rows = [hashed(e.text) for e in examples]
    lengths = np.array([len(i) for i, _v in rows])
    indices = np.concatenate([i for i, _v in rows]) if rows else np.zeros(0, dtype=np.int64)
    data = np.concatenate([v for _i, v in rows]) if rows else np.zeros(0)
    row_of = np.repeat(np.arange(len(rows)), lengths)

    def xw(w):
        return np.bincount(row_of, weights=data * w[indices], minlength=len(rows))

    def xtr(r):
        return np.bincount(indices, weights=data * r[row_of], minlength=BUCKETS)

    b = xtr(y)
    w = np.zeros(BUCKETS)
    r = b - (xtr(xw(w)) + ridge * w)
    p = r.copy()
    rs = r @ r
    for _ in range(iterations):
        ap = xtr(xw(p)) + ridge * p
        alpha = rs / (p @ ap)
        w += alpha * p
        r -= alpha * ap
        new = r @ r
        if new < 1e-10:
            break
        p = r + (new / rs) * p
        rs = new
    return TextModel(w)


def fit_excluding(examples: Sequence[TextExample], books: Iterable[str]) -> TextModel:
    """The signal for scoring ``books``: trained on every other book's judgments."""
    skip = set(books)
    return fit([e for e in examples if e.book not in skip])


@lru_cache(maxsize=1)
def shipped() -> TextModel | None:
    return TextModel(np.load(SHIPPED).astype(float)) if SHIPPED.exists() else None
