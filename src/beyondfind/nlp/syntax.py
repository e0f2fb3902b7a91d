"""Syntactic roles read off a dependency parse (no spaCy import: works on any parsed tokens)."""

from __future__ import annotations

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj"})


def is_subject(span) -> bool:
    """Whether any token of ``span`` (a spaCy Span or token sequence) is a grammatical subject."""
    return any(t.dep_ in SUBJECT_DEPS for t in span)
