"""Bag-of-words view of a book for the term-based baselines (cached on the IndexedBook)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..index.book import IndexedBook

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def tokenize(text: str) -> list[str]:
    return [t.lower().replace("’", "'") for t in _TOKEN.findall(text)]


@dataclass
class BookTerms:
    tokens: list[list[str]]
    tf: list[Counter]
    collection: Counter
    total: int


def book_terms(book: IndexedBook) -> BookTerms:
    if "terms" not in book.cache:
        tokens = [tokenize(p.text) for p in book.passages]
        tf = [Counter(t) for t in tokens]
        coll = Counter()
        for c in tf:
            coll.update(c)
        book.cache["terms"] = BookTerms(tokens, tf, coll, sum(coll.values()))
    return book.cache["terms"]
