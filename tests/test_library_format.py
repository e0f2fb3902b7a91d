"""The library's binary record chunks (schema 3) and the upgrade of a schema-2 library file."""

import sqlite3

import pytest

from beyondfind import BeyondfindError
from beyondfind.cli.main import main
from beyondfind.index import Library, up_to_date
from beyondfind.index import columnar
from beyondfind.index import migrations
from beyondfind.index.migrations import DOCUMENTS_V2, RECORD_TABLES_V2, UNREADABLE
from beyondfind.index.records import mention_row, pronoun_row
from beyondfind.index.store import read_records, write_records

KINDS = ("sentences", "mentions", "pronouns", "verbs", "descriptions")


def _typed(records):
    """Records with each field's type, so 1 and True (or 0 and None) are told apart."""
    return [tuple((type(v), v) for v in r) for r in records]


def test_chunks_give_back_the_records_field_for_field(huck_search, tmp_path):
    lib = huck_search.library
    _doc, ann = lib.load(lib.documents()[0].id)
    assert any(p.antecedent is None for p in ann.pronouns) and any(m.honorific for m in ann.mentions)
    conn = sqlite3.connect(tmp_path / "chunks.sqlite")
    conn.execute("CREATE TABLE records (doc_id INTEGER, kind TEXT, chunk INTEGER, data BLOB)")
    for kind in KINDS:   # small chunks: each kind spans several; the mentions' last holds a single record
        records = getattr(ann, kind)
        write_records(conn, 7, kind, iter(records), chunk=len(records) - 1 if kind == "mentions" else len(records) // 3)
    counts = dict(conn.execute("SELECT kind, COUNT(*) FROM records GROUP BY kind"))
    assert counts["mentions"] == 2 and counts["pronouns"] >= 3
    back = read_records(conn, 7)
    for kind in KINDS:
        assert _typed(back[kind]) == _typed(getattr(ann, kind)), kind
    assert read_records(conn, 8) == {kind: () for kind in KINDS}


def test_a_damaged_chunk_is_a_clear_error(huck):
    data = columnar.encode("mentions", list(huck.annotations.mentions[:50]))
    assert len(columnar.decode("mentions", data)) == 50
    for bad in (data[:-3], data[:10], b"", data + b"x"):
        with pytest.raises(BeyondfindError, match="stored mentions are damaged"):
            columnar.decode("mentions", bad)
    with pytest.raises(BeyondfindError, match="damaged"):
        columnar.decode("pronouns", data)


def test_a_damaged_library_is_a_one_line_error_on_the_command_line(huck_search, tmp_path, capsys):
    path = tmp_path / "damaged.sqlite"
    huck_search.library.conn.backup(conn := sqlite3.connect(path))
    doc_id = conn.execute("SELECT id FROM documents").fetchone()[0]
    conn.execute("UPDATE records SET data = substr(data, 1, 100) WHERE kind = 'pronouns'")
    conn.commit()
    conn.close()
    assert main(["rank", str(doc_id), "--entity", "Jim", "--library", str(path)]) == 2
    err = capsys.readouterr().err
    assert "stored pronouns are damaged" in err and "index the document again" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def _schema_2_library(path, document, ann, pipeline, drop=None):
    """A library file as beyondfind 0.2's schema 2 wrote it: one row per record."""
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n" + DOCUMENTS_V2 + ";\n"
                       'CREATE TABLE passages (doc_id INTEGER NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL, '
                       '"end" INTEGER NOT NULL, chapter TEXT, PRIMARY KEY (doc_id, idx));' + RECORD_TABLES_V2)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    conn.execute("INSERT INTO documents (id, sha256, name, format, title, text, narrator, pipeline, narrators) "
                 "VALUES (3, ?, ?, ?, ?, ?, ?, ?, ?)", (document.sha256, document.name, document.format, document.title,
                                                       document.text, ann.narrator, pipeline, "|".join(ann.narrators)))
    conn.executemany("INSERT INTO passages VALUES (3, ?, ?, ?, ?)",
                     [(p.index, p.start, p.end, p.chapter) for p in document.passages])
    conn.executemany("INSERT INTO sentences VALUES (3, ?, ?, ?, ?)", ann.sentences)
    conn.executemany(f"INSERT INTO mentions VALUES (3{', ?' * 13})", map(mention_row, ann.mentions))
    conn.executemany(f"INSERT INTO pronouns VALUES (3{', ?' * 11})", map(pronoun_row, ann.pronouns))
    conn.executemany("INSERT INTO verbs VALUES (3, ?, ?, ?)", ann.verbs)
    conn.executemany("INSERT INTO descriptions VALUES (3, ?, ?, ?)", ann.descriptions)
    if drop:
        conn.execute(f"DROP TABLE {drop}")
    conn.commit()
    conn.close()


def test_a_schema_2_library_is_upgraded_in_place(huck_search, tmp_path):
    lib = huck_search.library
    info = lib.documents()[0]
    document, ann = lib.load(info.id)
    path = tmp_path / "old.sqlite"
    _schema_2_library(path, document, ann, info.pipeline)
    with Library(path) as upgraded:
        doc2, ann2 = upgraded.load(3)
        tables = {r[0] for r in upgraded.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = upgraded.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        assert up_to_date(upgraded.get(3))
    assert version == "3" and "records" in tables and not tables & set(KINDS)
    assert doc2 == document
    for kind in KINDS:
        assert _typed(getattr(ann2, kind)) == _typed(getattr(ann, kind)), kind
    with Library(path) as again:   # opening it again changes nothing
        assert again.load(3)[1] == ann2
        # a second process that read schema 2 before the first upgraded it runs the step late: a no-op
        migrations.migrate(again.conn, 2, 3, str(path))
        assert up_to_date(again.get(3)) and again.load(3)[1] == ann2

    # a document whose old records cannot be read keeps its text and is annotated again when indexed
    broken = tmp_path / "broken.sqlite"
    _schema_2_library(broken, document, ann, info.pipeline, drop="descriptions")
    with Library(broken) as upgraded:
        assert upgraded.get(3).pipeline == info.pipeline + UNREADABLE and not up_to_date(upgraded.get(3))
        assert upgraded.load(3)[0].text == document.text
