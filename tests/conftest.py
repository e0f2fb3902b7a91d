"""Shared fixtures: real data from ../shared, the shipped pipeline, a real indexed SQLite library."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BEYONDFIND_SHARED", ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"
HUCK = DATA / "books" / "76-huckleberry-finn.txt"


@pytest.fixture(scope="session")
def nlp():
    from beyondfind.nlp import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def huck_search(tmp_path_factory, nlp):
    """Adventures of Huckleberry Finn indexed once into a real SQLite library."""
    from beyondfind.books import BookSearch
    from beyondfind.index import Library

    lib = Library(tmp_path_factory.mktemp("lib") / "library.sqlite")
    search = BookSearch(lib)
    search._nlp = nlp
    search.index(HUCK)
    return search


@pytest.fixture(scope="session")
def huck(huck_search):
    return huck_search.book_for(HUCK)


@pytest.fixture(scope="session")
def pride_search(tmp_path_factory, nlp):
    """Pride and Prejudice indexed once (its family of Bennets, Bingleys, Darcys, Wickhams)."""
    from beyondfind.books import BookSearch
    from beyondfind.index import Library

    lib = Library(tmp_path_factory.mktemp("pride") / "library.sqlite")
    search = BookSearch(lib)
    search._nlp = nlp
    search.index(DATA / "books" / "1342-pride-and-prejudice.txt")
    return search


@pytest.fixture(scope="session")
def pride(pride_search):
    return pride_search.book_for(DATA / "books" / "1342-pride-and-prejudice.txt")
