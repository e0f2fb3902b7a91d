"""Bag-of-words view of a book for the term-based baselines (cached on the IndexedBook)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterator

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


_WORD_CHAR = re.compile(r"[^\W_]")


def _lowered(book: IndexedBook) -> str | None:
    """The book's text lower-cased, once per book; None when lower-casing changes its length (a
    dotted capital I), where offsets would no longer be the text's."""
    if "lowered_text" not in book.cache:
        low = book.document.text.lower()
        book.cache["lowered_text"] = low if len(low) == len(book.document.text) else None
    return book.cache["lowered_text"]


def _token_starts(text: str, term: str, ignore_case: bool) -> Iterator[re.Match]:
    """Matches of ``term`` as a whole token (:data:`_TOKEN`'s boundaries: no word character, or word
    character + apostrophe, before it; none, or apostrophe + word character, after it)."""
    body = "['’]".join(re.escape(part) for part in term.split("'"))
    if ignore_case:
        yield from re.finditer(rf"(?<![^\W_])(?<![^\W_]['’]){body}(?![^\W_])(?!['’][^\W_])", text, re.IGNORECASE)
        return
    # The lookbehinds, tried at every offset, made the scan 25× slower than this literal search
    # (22 ms → 0.8 ms on Huckleberry Finn); the text before a match is checked by hand.
    for m in re.finditer(rf"{body}(?![^\W_])(?!['’][^\W_])", text):
        s = m.start()
        if s and (_WORD_CHAR.match(text, s - 1) or (s > 1 and text[s - 1] in "'’" and _WORD_CHAR.match(text, s - 2))):
            continue
        yield m


def term_counts(book: IndexedBook, term: str) -> dict[int, int]:
    """passage → how often the token ``term`` (as :func:`tokenize` writes it) occurs in it, found by
    one scan of the whole (lower-cased) text: a query needs this for a few words, and tokenizing
    the whole book (:func:`book_terms`) costs a cold query about 0.1 s."""
    key = ("term_counts", term)
    if key not in book.cache:
        low = _lowered(book)
        text = book.document.text
        counts: Counter = Counter()
        for m in _token_starts(low if low is not None else text, term, ignore_case=low is None):
            i = book.passage_at(m.start())
            if i >= 0 and m.end() <= book.passages[i].end and text[m.start():m.end()].lower().replace("’", "'") == term:
                counts[i] += 1
        book.cache[key] = dict(counts)
    return book.cache[key]
