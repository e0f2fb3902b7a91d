"""The seed paper's baselines (Table 4), each ``f(book, query, ...) -> list[Scored]``."""

from __future__ import annotations

import math
import re

import numpy as np

from ..index.book import IndexedBook
from ..nlp.names import parse_name
from .ranking import Scored, sort_scored
from .terms import book_terms, term_counts, tokenize


def find(book: IndexedBook, query: str) -> list[Scored]:
    """Standard Find (Ctrl-F): passages containing the exact string, in book order."""
    hits = np.flatnonzero(exact_counts(book, query)).tolist()
    n = len(hits)
    return [Scored(i, float(n - k)) for k, i in enumerate(hits)]


def exact_counts(book: IndexedBook, query: str) -> np.ndarray:
    """Occurrences of the exact string in each passage, from one scan of the book's text."""
    starts, ends = book.passage_bounds
    hits = np.array([m.start() for m in re.finditer(re.escape(query), book.document.text)], dtype=np.int64) \
        if query else np.zeros(0, dtype=np.int64)
    where = np.searchsorted(starts, hits, side="right") - 1
    inside = (where >= 0) & (hits + len(query) <= ends[np.maximum(where, 0)])
    return np.bincount(where[inside], minlength=len(starts))


def occurs(book: IndexedBook, query: str) -> bool:
    """Whether :func:`find` finds anything, scanning only up to the first occurrence inside a passage."""
    if not query:
        return False
    starts, ends = book.passage_bounds
    for m in re.finditer(re.escape(query), book.document.text):
        where = int(np.searchsorted(starts, m.start(), side="right")) - 1
        if where >= 0 and m.end() <= ends[where]:
            return True
    return False


def entity_find(book: IndexedBook, query: str) -> list[Scored]:
    """Entity Find: passages with an NER name mention agreeing with the query, in book order."""
    q = parse_name(query)
    hits = [i for i, nms in enumerate(book.names_by_passage) if any(nm.name.agrees(q) for nm in nms)]
    n = len(hits)
    return [Scored(i, float(n - k)) for k, i in enumerate(hits)]


def bm25(book: IndexedBook, query: str, b: float = 0.75, k1: float = 1.5) -> list[Scored]:
    """BM25, Robertson's variant as bm25s computes it (Kamphuis et al. 2020), in numpy:
    score(p) = Σ_{t∈q} idf(t) · tf(t,p) / (k1 · (1 − b + b · |p| / avg|p|) + tf(t,p)),
    idf(t) = ln(max(1, (N − df(t) + 0.5) / (df(t) + 0.5))). Passages with no query term are dropped.
    (The tests check it against bm25s; computing it here keeps a query free of that import.)"""
    terms = book_terms(book)
    q = [t for t in tokenize(query) if t in terms.collection]
    if not q:
        return []
    lengths = book.cache.get("lengths")
    if lengths is None:
        lengths = book.cache["lengths"] = np.array([len(t) for t in terms.tokens], dtype=float)
    n = len(terms.tf)
    norm = k1 * ((1 - b) + b * lengths / max(lengths.mean(), 1e-9))
    scores = np.zeros(n)
    for t in q:
        rows = np.array([i for i, c in enumerate(terms.tf) if t in c])
        tf = np.array([terms.tf[i][t] for i in rows], dtype=float)
        idf = math.log(max(1.0, (n - len(rows) + 0.5) / (len(rows) + 0.5)))
        scores[rows] += idf * tf / (norm[rows] + tf)
    return sort_scored([Scored(int(i), float(scores[i])) for i in np.flatnonzero(scores > 0)])


def bm25_b0(book: IndexedBook, query: str, passages, k1: float = 1.5) -> dict[int, float]:
    """:func:`bm25` with ``b = 0`` (no length normalisation) for the given passages only, from
    :func:`~.terms.term_counts` instead of the whole book's bag of words (LDM's ``extra.bm25_b0``
    on a cold start). Equal to ``bm25(book, query, b=0)`` on those passages (a test checks it)."""
    n = len(book.passages)
    out = dict.fromkeys(passages, 0.0)
    for t in tokenize(query):
        counts = term_counts(book, t)
        if not counts:
            continue
        idf = math.log(max(1.0, (n - len(counts) + 0.5) / (len(counts) + 0.5)))
        for i in out:
            tf = counts.get(i, 0)
            if tf:
                out[i] += idf * tf / (k1 + tf)
    return out


def query_likelihood(book: IndexedBook, query: str, mu: float = 100.0) -> list[Scored]:
    """Query likelihood with Dirichlet prior (Zhai & Lafferty 2001):
    Σ_w log((tf(w,p) + μ·P(w|C)) / (|p| + μ)), over passages containing a query term."""
    terms = book_terms(book)
    q = [t for t in tokenize(query) if t in terms.collection]
    out = []
    for i, tf in enumerate(terms.tf):
        if not any(t in tf for t in q):
            continue
        n = len(terms.tokens[i])
        s = sum(math.log((tf.get(t, 0) + mu * terms.collection[t] / terms.total) / (n + mu)) for t in q)
        out.append(Scored(i, s))
    return sort_scored(out)


def positional_lm(book: IndexedBook, query: str, mu: float = 100.0, sigma: float = 25.0) -> list[Scored]:
    """Positional language model (Lv & Zhai 2009), Gaussian kernel, best-position scoring:
    score(p) = max_i Σ_w log((c'(w,i) + μ·P(w|C)) / (Z_i + μ)), c'(w,i) = Σ_j c(w,j)·k(i,j)."""
    terms = book_terms(book)
    q = [t for t in tokenize(query) if t in terms.collection]
    out = []
    for i, toks in enumerate(terms.tokens):
        if not any(t in terms.tf[i] for t in q):
            continue
        pos = np.arange(len(toks))
        best = -math.inf
        for c in {j for j, t in enumerate(toks) if t in q}:
            kern = np.exp(-((pos - c) ** 2) / (2 * sigma ** 2))
            z = kern.sum()
            s = 0.0
            for t in q:
                cw = kern[[j for j, x in enumerate(toks) if x == t]].sum() if t in terms.tf[i] else 0.0
                s += math.log((cw + mu * terms.collection[t] / terms.total) / (z + mu))
            best = max(best, s)
        out.append(Scored(i, best))
    return sort_scored(out)
