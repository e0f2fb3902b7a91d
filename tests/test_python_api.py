"""The public Python API (``beyondfind.open``, ``beyondfind.news.Thread``): the documented examples
run as written, and the objects give what the CLI prints."""

from __future__ import annotations

import doctest
import importlib
import json
import subprocess
import sys

import pytest

from .conftest import HUCK

DOCUMENTED = ["beyondfind.api", "beyondfind.news.thread", "beyondfind.documents.positions",
              "beyondfind.documents.segment", "beyondfind.retrieval.query"]


@pytest.mark.parametrize("module", DOCUMENTED)
def test_docstring_examples_run(module, huck_search, tmp_path):
    mod = importlib.import_module(module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(mod):
        test.globs.update(library=huck_search.library.path, tmp_path=tmp_path)
        runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


def test_import_is_lazy_and_open_matches_the_cli(huck_search):
    code = "import sys, beyondfind; print(any(m.startswith(('spacy', 'lightgbm', 'fastapi')) for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"

    import beyondfind

    book = beyondfind.open(HUCK, library=huck_search.library.path)
    assert book.id == huck_search.book_for(HUCK).doc_id
    api_rows = [p.to_dict() for p in book.rank("Mary Jane", top=5)]
    cli = subprocess.run([sys.executable, "-m", "beyondfind.cli.main", "rank", str(HUCK), "-e", "Mary Jane", "--top", "5",
                          "--library", str(huck_search.library.path)], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert [json.loads(line) for line in cli.stdout.splitlines()] == api_rows   # piped → JSON lines

    explained = book.rank("Mary Jane", top=2, explain=True)
    assert all(p.why for p in explained) and not book.rank("Mary Jane", top=1)[0].why
    narrator_row = [e for e in book.entities() if e.narrator]
    assert len(narrator_row) == 1 and narrator_row[0].name.startswith("Huck")
    assert book.chapters[0].number == 1 and all(a.start < b.start for a, b in zip(book.chapters, book.chapters[1:]))


def test_positions_and_accents(huck_search):
    import beyondfind
    from beyondfind import BeyondfindError, NotFoundError

    book = beyondfind.open(HUCK, library=huck_search.library.path)
    ch10 = book.chapters[9]
    assert all(p.end <= ch10.start for p in book.rank("Jim", top=30, before="ch:10"))
    assert [p.text for p in book.rank("Jím", top=3, method="lrm")] == [p.text for p in book.rank("Jim", top=3, method="lrm")]
    for bad in ("-1", "101%", "ch:0", f"ch:{len(book.chapters) + 1}", "soon"):
        with pytest.raises(BeyondfindError):
            book.rank("Jim", before=bad)
    with pytest.raises(NotFoundError, match="closest names: .*Tom"):
        book.rank("Tóm Sawyerr")
    with pytest.raises(BeyondfindError, match="unknown method"):
        book.rank("Jim", method="grep")


def test_a_frozen_book_is_freed_when_dropped(huck_search):
    """``freeze_loaded`` (the server's setting) hides a loaded book from the cyclic GC; that must
    not leak it: a book and what queries cache on it hold no reference cycles, so dropping it
    frees it by reference counting alone (the collector is off during the test)."""
    import gc
    import weakref

    from beyondfind.books import BookSearch, rank_passages

    search = BookSearch(huck_search.library, freeze_loaded=True)
    doc_id = huck_search.library.documents()[0].id
    gc.disable()
    try:
        book = search.book(doc_id)
        assert gc.get_freeze_count() > 0
        for method in ("ldm", "lrm", "bm25"):
            assert rank_passages(book, "Jim", method)   # per-book indexes and caches built
        freed = weakref.ref(book)
        arena = weakref.ref(book.cache["text_arena"])
        del book
        search.forget(doc_id)
        assert freed() is None and arena() is None
    finally:
        gc.enable()
        gc.unfreeze()
