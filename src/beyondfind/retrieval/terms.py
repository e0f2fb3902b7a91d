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


def term_counts(book: IndexedBook, term: str) -> dict[int, int]:
    """passage → how often the token ``term`` (as :func:`tokenize` writes it) occurs in it, found by
    one regular expression over the whole text: a query needs this for a few words, and tokenizing
    the whole book (:func:`book_terms`) costs a cold query about 0.1 s."""
    key = ("term_counts", term)
    if key not in book.cache:
        # a whole token: no word character (or word + apostrophe) before it, none (or apostrophe +
        # word character) after it — the token boundaries of _TOKEN
        body = "['’]".join(re.escape(part) for part in term.split("'"))
        pattern = re.compile(rf"(?<![^\W_])(?<![^\W_]['’]){body}(?![^\W_])(?!['’][^\W_])", re.IGNORECASE)
        counts: Counter = Counter()
        for m in pattern.finditer(book.document.text):
            i = book.passage_at(m.start())
            if i >= 0 and m.end() <= book.passages[i].end and m.group().lower().replace("’", "'") == term:
                counts[i] += 1
        book.cache[key] = dict(counts)
    return book.cache[key]
