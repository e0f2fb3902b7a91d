"""Reproducible training of the shipped pipeline (``beyondfind nlp train``)."""
