"""Static word vectors learned from raw novels, so the text signal generalises across vocabularies.

The hashed n-grams of :mod:`.text_signal` know only the words the judged passages use: "stalwart"
teaches nothing if the judged books say "tall". Vectors trained on unlabelled fiction put such words
near each other, so a linear model over averaged vectors carries what it learned to words no judged
passage holds.

Method: positive pointwise mutual information over a symmetric window, factorised by a truncated SVD
(Levy, Goldberg & Dagan, "Improving Distributional Similarity with Lessons Learned from Word
Embeddings", TACL 2015): co-occurrences within ``WINDOW`` words weighted ``1/distance``, context
counts smoothed by ``** 0.75``, PPMI = ``max(0, log P(w,c) / (P(w) P_0.75(c)))``, vectors
``U·sqrt(S)`` of the top ``DIMENSIONS`` singular vectors, scaled to unit length. The vocabulary is the
``VOCABULARY`` most frequent lower-cased words (at least ``MIN_COUNT`` times).

Corpus: the novels of ``shared/data/books`` and LitBank's full texts (``litbank/original``), about
16M words; no judgment is used. Reproduce with ``beyondfind train vectors --data ../shared/data``
(about two minutes); the result ships as ``features/data/word_vectors.npz`` (float16).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

SHIPPED = Path(__file__).parent / "data" / "word_vectors.npz"
WINDOW = 4
DIMENSIONS = 100
VOCABULARY = 30_000
MIN_COUNT = 10
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Vocabulary:
    """The words that have vectors, in row order: all a query needs (the text signal ships each
    word's projection, :class:`~.text_signal.TextModel`), so it never loads the vectors."""
    words: tuple[str, ...]

    @cached_property
    def index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.words)}

    def ids(self, tokens: Iterable[str]) -> np.ndarray:
        """Each token's row, or -1 for a word outside the vocabulary (and for ``NAME``, a masked name)."""
        index = self.index
        return np.array([index.get(t, -1) for t in tokens], dtype=np.int32)


@dataclass(frozen=True)
class WordVectors:
    words: tuple[str, ...]
    vectors: np.ndarray   # (len(words), dimensions), unit rows

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.words)

    def save(self, path: Path) -> None:
        """``words`` as UTF-8 bytes (read in a millisecond, unlike a numpy unicode string) and the
        vectors in float16."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, words=np.frombuffer("\n".join(self.words).encode("utf-8"), dtype=np.uint8),
                 vectors=self.vectors.astype(np.float16))


def _words(text: str) -> list[str]:
    return [m.group().lower().replace("’", "'") for m in _WORD.finditer(text)]


def train(texts: Iterable[str], window: int = WINDOW, dimensions: int = DIMENSIONS,
          vocabulary: int = VOCABULARY, min_count: int = MIN_COUNT) -> WordVectors:
    """PPMI-SVD vectors of ``texts`` (see the module docstring)."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import svds

    docs = [_words(t) for t in texts]
    counts = Counter(w for d in docs for w in d)
    words = tuple(w for w, c in counts.most_common(vocabulary) if c >= min_count)
    if len(words) <= dimensions:
        raise ValueError(f"only {len(words)} words occur {min_count} times or more; give more text")
    index = {w: i for i, w in enumerate(words)}
    n = len(words)
    cooc = sp.csr_matrix((n, n))
    for d in docs:
        ids = np.array([index.get(w, -1) for w in d], dtype=np.int64)
        for gap in range(1, window + 1):
            a, b = ids[:-gap], ids[gap:]
            ok = (a >= 0) & (b >= 0)
            m = sp.coo_matrix((np.full(int(ok.sum()), 1.0 / gap), (a[ok], b[ok])), shape=(n, n)).tocsr()
            cooc = cooc + m + m.T
    cooc = cooc.tocoo()
    row_sums = np.asarray(cooc.sum(1)).ravel()
    context = np.asarray(cooc.sum(0)).ravel() ** 0.75
    pmi = np.log(cooc.data * context.sum() / (row_sums[cooc.row] * context[cooc.col]))
    keep = pmi > 0
    ppmi = sp.csr_matrix((pmi[keep], (cooc.row[keep], cooc.col[keep])), shape=(n, n))
    u, s, _vt = svds(ppmi, k=dimensions, v0=np.full(n, 1.0 / np.sqrt(n)))
    vectors = u * np.sqrt(s)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    return WordVectors(words, vectors.astype(np.float32))


def corpus_texts(data: Path) -> list[str]:
    """The raw novels the shipped vectors are trained on: ``books/`` and ``litbank/original/``."""
    files = sorted((data / "books").glob("*.txt")) + sorted((data / "litbank" / "original").glob("*.txt"))
    if not files:
        raise FileNotFoundError(f"no texts in {data / 'books'} or {data / 'litbank' / 'original'}")
    return [f.read_text(encoding="utf-8", errors="replace") for f in files]


def _stored_words(z) -> tuple[str, ...]:
    words = z["words"]   # UTF-8 bytes; a numpy unicode string in files of the first version
    return tuple((str(words) if words.dtype.kind == "U" else words.tobytes().decode("utf-8")).split("\n"))


def load_vocabulary(path: Path) -> Vocabulary:
    """The words of vectors :meth:`WordVectors.save` wrote, without reading the vectors."""
    with np.load(path) as z:
        return Vocabulary(_stored_words(z))


def load(path: Path) -> WordVectors:
    with np.load(path) as z:
        return WordVectors(_stored_words(z), z["vectors"].astype(np.float32))


@lru_cache(maxsize=1)
def shipped_vocabulary() -> Vocabulary | None:
    return load_vocabulary(SHIPPED) if SHIPPED.exists() else None


@lru_cache(maxsize=1)
def shipped() -> WordVectors | None:
    return load(SHIPPED) if SHIPPED.exists() else None
