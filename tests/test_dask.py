"""``beyondfind index PATH... --dask``: annotation on a real Dask LocalCluster (two worker processes),
one writer, resumable, failures reported without stopping the run."""

import subprocess
import sys

import pytest

from beyondfind.index import Library

from .conftest import DATA

pytest.importorskip("distributed")


def _rows(library, doc_id):
    with Library(library) as lib:
        _, ann = lib.load(doc_id)
    return ([(m.start, m.end, m.text, m.label, m.is_name) for m in ann.mentions],
            [(p.start, p.antecedent is not None) for p in ann.pronouns])


def _index(*args):
    return subprocess.run([sys.executable, "-m", "beyondfind.cli.main", "index", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def test_dask_index_equals_sequential_and_resumes(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    text = (DATA / "books" / "84-frankenstein.txt").read_text(encoding="utf-8")
    (docs / "part1.txt").write_text(text[:40_000])
    (docs / "part2.txt").write_text(text[40_000:80_000])
    (docs / "broken.epub").write_bytes(b"PK\x03\x04 not really a zip")
    lib = tmp_path / "dask.sqlite"
    run = _index(docs, "--dask", "--workers", "2", "--library", lib)
    assert run.returncode == 2 and "broken.epub" in run.stdout and "1 of 3 documents failed" in run.stderr
    indexed = {line.split("\t")[2]: int(line.split("\t")[1]) for line in run.stdout.splitlines()
               if line.startswith("indexed")}
    assert set(indexed) == {str(docs / "part1.txt"), str(docs / "part2.txt")}
    # the same documents indexed one after another in this process give the same annotations
    seq = tmp_path / "seq.sqlite"
    plain = _index(docs / "part1.txt", docs / "part2.txt", "--library", seq)
    assert plain.returncode == 0, plain.stderr
    seq_ids = {line.split("\t")[3]: int(line.split("\t")[1]) for line in plain.stdout.splitlines()}
    for path, doc_id in indexed.items():
        assert _rows(lib, doc_id) == _rows(seq, seq_ids[path]) and _rows(lib, doc_id)[0]
    # resumable: a second run indexes nothing again
    again = _index(docs / "part1.txt", docs / "part2.txt", "--dask", "--workers", "1", "--library", lib)
    assert again.returncode == 0 and again.stdout.count("unchanged") == 2 and "indexed" not in again.stdout


def test_dask_options_are_checked(tmp_path):
    run = _index(tmp_path, "--dask", "--workers", "0", "--library", tmp_path / "x.sqlite")
    assert run.returncode == 0 or run.returncode == 2   # an empty folder: nothing to do, or the bad count
    (tmp_path / "a.txt").write_text("Mary Jane smiled.")
    run = _index(tmp_path, "--dask", "--workers", "0", "--library", tmp_path / "x.sqlite")
    assert run.returncode == 2 and "--workers must be at least 1" in run.stderr and "Traceback" not in run.stderr
    run = _index(tmp_path, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", "--library", tmp_path / "x.sqlite")
    assert run.returncode == 2 and "not both" in run.stderr
