"""Phrases matched on the tokens' lower-case forms, as spaCy's ``PhraseMatcher(attr="LOWER")``
matches them, without a ``Doc`` per phrase.

The places gazetteer has ~4,000 names; building them as pattern docs created a lexeme for each of
their ~5,000 words (spaCy computes every lexical attribute of a new word), 0.3–0.4 s of every
pipeline load — a quarter of it. Here a phrase is a tuple of string hashes, indexed by its first
word; a document's tokens' ``LOWER`` hashes are looked up in that index, and only the tokens that
start a phrase are looked at further (a test compares the matches with spaCy's ``PhraseMatcher``
on real text). Matching costs ~0.3 ms per 1,000 tokens against the PhraseMatcher's ~0.07.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc

_PLAIN_WORDS = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)*")


def phrase_words(nlp: Language, phrases: Iterable[str]) -> list[tuple[str, ...]]:
    """Each phrase's tokens, lower-cased, as ``nlp``'s tokenizer splits it. A phrase of letters and
    single spaces, none of its words a tokenizer exception ("cannot"), is split at the spaces —
    where the tokenizer splits it, since no affix or infix rule applies to letters alone; the rest
    ("aix-la-chapelle", "d.c.") goes through the tokenizer."""
    exceptions = set(nlp.tokenizer.rules or ())
    out = []
    for phrase in phrases:
        words = phrase.split(" ")
        if _PLAIN_WORDS.fullmatch(phrase) and exceptions.isdisjoint(words):
            out.append(tuple(w.lower() for w in words))
        else:
            out.append(tuple(t.lower_ for t in nlp.tokenizer(phrase)))
    return out


class PhraseTable:
    """Find ``phrases`` in documents by their tokens' lower-case forms (all matches, overlapping
    ones and every length included, as :class:`spacy.matcher.PhraseMatcher` finds them)."""

    def __init__(self, nlp: Language, phrases: Iterable[str]) -> None:
        self._phrases = {tuple(map(get_string_id, words)) for words in phrase_words(nlp, phrases) if words}
        lengths: dict[int, set[int]] = {}
        for phrase in self._phrases:
            lengths.setdefault(phrase[0], set()).add(len(phrase))
        self._lengths = {first: tuple(sorted(ns)) for first, ns in lengths.items()}   # by first word

    def __len__(self) -> int:
        return len(self._phrases)

    def __call__(self, doc: Doc) -> list[tuple[int, int]]:
        """(start, end) token offsets of every match, by start then length."""
        lower = doc.to_array("LOWER").tolist() if len(doc) else []
        n, phrases, by_first, out = len(lower), self._phrases, self._lengths, []
        for i, first in enumerate(lower):
            for k in by_first.get(first, ()):
                if k == 1 or (i + k <= n and tuple(lower[i:i + k]) in phrases):
                    out.append((i, i + k))
        return out
