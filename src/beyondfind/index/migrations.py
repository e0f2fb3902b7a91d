"""Upgrades of an older library file in place, run when :class:`~beyondfind.index.store.Library`
opens it: each step is one transaction, so a failed or interrupted upgrade leaves the file as it
was, and the next open tries again.

- 1 → 2: documents are unique by (sha256, format), not sha256 alone (0.1 libraries).
- 2 → 3: annotation records move from one SQLite row each to binary column chunks
  (:mod:`beyondfind.index.columnar`); the per-record tables are dropped (their pages are reused by
  later writes; ``VACUUM`` the file to give them back to the disk).
"""

from __future__ import annotations

import sqlite3

from ..sqlite import write_transaction
from . import columnar
from .records import (DESCRIPTION_COLUMNS, MENTION_COLUMNS, PRONOUN_COLUMNS, SENTENCE_COLUMNS, VERB_COLUMNS,
                      Description, Sentence, mention_from_row, pronoun_from_row, verb_from_row)

DOCUMENTS_V2 = """CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, name TEXT NOT NULL, format TEXT NOT NULL,
    title TEXT, text TEXT NOT NULL, narrator TEXT, pipeline TEXT NOT NULL,
    added_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, narrators TEXT NOT NULL DEFAULT '', UNIQUE (sha256, format))"""
"""The documents table since schema 2."""

RECORD_TABLES_V2 = """
CREATE TABLE IF NOT EXISTS sentences (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    passage INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, PRIMARY KEY (doc_id, idx));
CREATE TABLE IF NOT EXISTS mentions (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, id INTEGER NOT NULL,
    passage INTEGER NOT NULL, sentence INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
    text TEXT NOT NULL, label TEXT NOT NULL, is_name INTEGER NOT NULL, key TEXT NOT NULL, honorific TEXT,
    is_subject INTEGER NOT NULL, in_quote INTEGER NOT NULL, source TEXT NOT NULL, PRIMARY KEY (doc_id, id));
CREATE TABLE IF NOT EXISTS pronouns (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, id INTEGER NOT NULL,
    passage INTEGER NOT NULL, sentence INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
    text TEXT NOT NULL, person INTEGER NOT NULL, gender TEXT, in_quote INTEGER NOT NULL,
    antecedent INTEGER, narrator INTEGER NOT NULL, PRIMARY KEY (doc_id, id));
CREATE TABLE IF NOT EXISTS verbs (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    passage INTEGER NOT NULL, sentence INTEGER NOT NULL, lemma TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS descriptions (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    passage INTEGER NOT NULL, start INTEGER NOT NULL, kinds INTEGER NOT NULL);
"""
"""Schema 2's annotation tables, one row per record (kept to read and upgrade such a library)."""

_V2_READERS = {
    "sentences": (f"SELECT {SENTENCE_COLUMNS} FROM sentences WHERE doc_id = ? ORDER BY idx", Sentence._make),
    "mentions": (f"SELECT {MENTION_COLUMNS} FROM mentions WHERE doc_id = ? ORDER BY id", mention_from_row),
    "pronouns": (f"SELECT {PRONOUN_COLUMNS} FROM pronouns WHERE doc_id = ? ORDER BY id", pronoun_from_row),
    "verbs": (f"SELECT {VERB_COLUMNS} FROM verbs WHERE doc_id = ? ORDER BY rowid", verb_from_row),
    "descriptions": (f"SELECT {DESCRIPTION_COLUMNS} FROM descriptions WHERE doc_id = ? ORDER BY rowid",
                     Description._make),
}
UNREADABLE = "+records-lost"
"""Appended to the pipeline of a document whose old records could not be read (a table or column
its version never had): it no longer counts as up to date, so indexing its file annotates it again."""


def migrate(conn: sqlite3.Connection, found: int, wanted: int, where: str) -> None:
    """Upgrade the library behind ``conn`` from schema ``found`` to ``wanted``, step by step. Several
    processes may open an old library at once (a server's workers): each step runs under the write
    lock and only if the file is still at its starting version when the lock is held."""
    steps = {1: _migrate_1_to_2, 2: _migrate_2_to_3}
    for version in range(found, wanted):
        steps[version](conn, where)


def _still_at(conn: sqlite3.Connection, version: int) -> bool:
    """Whether the library is at ``version`` (read inside the step's write transaction)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row is not None and int(row[0]) == version


def _migrate_1_to_2(conn: sqlite3.Connection, where: str) -> None:
    """Schema 1 → 2: documents are unique by (sha256, format), not sha256 alone; 0.1 libraries
    also lack the ``narrators`` column. SQLite cannot drop a constraint, so the table is rebuilt
    (foreign keys off, so the passages and annotations that reference it are kept)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(documents)")}
    narrators = "narrators" if "narrators" in columns else "''"
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        with write_transaction(conn, f"library {where}"):
            if not _still_at(conn, 1):   # another process upgraded it meanwhile
                return
            conn.execute(DOCUMENTS_V2.replace("CREATE TABLE IF NOT EXISTS documents", "CREATE TABLE documents_v2"))
            conn.execute("INSERT INTO documents_v2 (id, sha256, name, format, title, text, narrator, pipeline, added_at, "
                         f"narrators) SELECT id, sha256, name, format, title, text, narrator, pipeline, added_at, "
                         f"{narrators} FROM documents")
            conn.execute("DROP TABLE documents")
            conn.execute("ALTER TABLE documents_v2 RENAME TO documents")
            conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


def _migrate_2_to_3(conn: sqlite3.Connection, where: str) -> None:
    """Schema 2 → 3: each document's rows of the five record tables become binary chunks in
    ``records`` (created by the current schema before this runs), and the tables are dropped."""
    from .store import write_records

    with write_transaction(conn, f"library {where}"):
        if not _still_at(conn, 2):   # another process upgraded it meanwhile
            return
        for doc_id, in conn.execute("SELECT id FROM documents ORDER BY id").fetchall():
            try:
                records = {kind: tuple(map(make, conn.execute(sql, (doc_id,))))
                           for kind, (sql, make) in _V2_READERS.items()}
            except sqlite3.OperationalError:   # a table or column this document's version never had
                conn.execute("UPDATE documents SET pipeline = pipeline || ? WHERE id = ?", (UNREADABLE, doc_id))
                continue
            for kind, rows in records.items():
                write_records(conn, doc_id, kind, rows)
        for table in _V2_READERS:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
