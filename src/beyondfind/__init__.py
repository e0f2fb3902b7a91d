"""beyondfind: entity-centric search.

Two products share one NLP pipeline and one SQLite library:

* book search ("who is this?"): :mod:`beyondfind.documents` → :mod:`beyondfind.index` →
  :mod:`beyondfind.retrieval` (LRM and baselines) → :mod:`beyondfind.features` →
  :mod:`beyondfind.ranking` (LDM);
* news entity summarization ("who matters here?"): :mod:`beyondfind.news`.

:mod:`beyondfind.evaluation` measures both against :mod:`beyondfind.datasets`; :mod:`beyondfind.cli`
and :mod:`beyondfind.server` are thin shells over the same functions.

Python API (lazy: importing beyondfind loads no NLP)::

    import beyondfind
    book = beyondfind.open("novel.epub")          # indexed into the library on first use
    for p in book.rank("Mary Jane", top=5, before="40%"):
        print(p.rank, p.chapter, p.text[:80])
    book.entities(); book.narrator; book.chapters

    thread = beyondfind.news.Thread("boeing")      # a news thread in the news store
    for row in thread.add(article): print(row.rank, row.entity)
"""

from __future__ import annotations

__version__ = "0.2.0"

_API = frozenset({"open", "Book", "Chapter", "Entity", "EntityQuery", "RankedPassage", "BUNDLED_BOOK"})


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "news":
        import importlib

        return importlib.import_module(".news", __name__)
    raise AttributeError(f"module 'beyondfind' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _API)


class BeyondfindError(Exception):
    """An error a user can act on: the message names what is wrong and what to do.
    ``status``: the HTTP status the server answers with (the CLI exits with 2)."""

    status = 400


class NotFoundError(BeyondfindError):
    """A document, thread, article or entity that is not there."""

    status = 404


class BusyError(BeyondfindError):
    """The library is held by another writer for longer than the wait allows; try again."""

    status = 503
