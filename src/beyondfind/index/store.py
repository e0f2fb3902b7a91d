"""The library: one SQLite file holding documents and their annotations, keyed by content sha256.

Writes happen in one transaction per document, so a crash or Ctrl-C mid-index leaves the library
as it was; the next run indexes the document again from the start.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .. import BeyondfindError, NotFoundError, validate
from ..documents import Document, Passage
from ..sqlite import connect, create_schema, write_transaction
from .records import (DESCRIPTION_COLUMNS, MENTION_COLUMNS, PRONOUN_COLUMNS, SENTENCE_COLUMNS, VERB_COLUMNS,
                      Annotations, Description, Sentence, mention_from_row, mention_row, pronoun_from_row,
                      pronoun_row, verb_from_row)
from .spool import SpooledAnnotations

SCHEMA_VERSION = 2   # 2: a document is its bytes *and* its format (the same bytes as .txt and .html differ)
NARRATOR_SEPARATOR = "|"

_DOCUMENTS_V2 = """CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, name TEXT NOT NULL, format TEXT NOT NULL,
    title TEXT, text TEXT NOT NULL, narrator TEXT, pipeline TEXT NOT NULL,
    added_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, narrators TEXT NOT NULL DEFAULT '', UNIQUE (sha256, format))"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""" + _DOCUMENTS_V2 + """;
CREATE TABLE IF NOT EXISTS passages (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    start INTEGER NOT NULL, "end" INTEGER NOT NULL, chapter TEXT, PRIMARY KEY (doc_id, idx));
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
CREATE INDEX IF NOT EXISTS verbs_doc ON verbs(doc_id);
CREATE TABLE IF NOT EXISTS descriptions (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    passage INTEGER NOT NULL, start INTEGER NOT NULL, kinds INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS descriptions_doc ON descriptions(doc_id);
CREATE TABLE IF NOT EXISTS index_jobs (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT NOT NULL, sha256 TEXT NOT NULL, data BLOB,
    state TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 0, document_id INTEGER,
    error TEXT, worker INTEGER, created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
"""


@dataclass(frozen=True)
class DocumentInfo:
    id: int
    sha256: str
    name: str
    format: str
    title: str | None
    n_passages: int
    narrator: str | None
    added_at: str
    pipeline: str


def default_library_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("beyondfind")) / "library.sqlite"


def _next_generation(conn) -> None:
    conn.execute("INSERT INTO meta VALUES ('generation', '1') "
                 "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")


class Library:
    """A SQLite library file. Open with ``Library(path)``; use as a context manager to close."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_library_path()
        if self.path.is_dir():
            raise BeyondfindError(f"library {self.path} is a directory; give a file path with --library")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = connect(self.path)
            create_schema(self.conn, SCHEMA)
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) == 1:
                _migrate_1_to_2(self.conn, str(self.path))
            elif int(row[0]) != SCHEMA_VERSION:
                raise BeyondfindError(f"library {self.path} has schema {row[0]}, this beyondfind needs "
                                      f"{SCHEMA_VERSION}; upgrade beyondfind or choose another --library file")
        except sqlite3.DatabaseError as exc:
            raise BeyondfindError(f"library {self.path} is not a usable SQLite file ({exc}); "
                                  "choose another --library file") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def transaction(self):
        return write_transaction(self.conn, f"library {self.path}")

    # --- documents -------------------------------------------------------------------------
    def find(self, sha256: str, format: str) -> DocumentInfo | None:
        """The stored document read from these bytes (``sha256``) as ``format``, if any."""
        row = self.conn.execute(_INFO_SQL + " WHERE d.sha256 = ? AND d.format = ?", (sha256, format)).fetchone()
        return DocumentInfo(*row) if row else None

    def get(self, doc_id: int) -> DocumentInfo:
        validate.document_id(doc_id)
        row = self.conn.execute(_INFO_SQL + " WHERE d.id = ?", (doc_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no document {doc_id} in library {self.path}; list the library's documents for their ids")
        return DocumentInfo(*row)

    def documents(self) -> list[DocumentInfo]:
        return [DocumentInfo(*r) for r in self.conn.execute(_INFO_SQL + " ORDER BY d.id")]

    def delete(self, doc_id: int) -> None:
        validate.document_id(doc_id)
        with self.transaction() as c:
            c.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
            _next_generation(c)

    def generation(self, conn=None) -> int:
        """A number that changes whenever a stored document is deleted or replaced, so a process
        caching loaded books (a server process) knows when another process made them stale."""
        row = (conn or self.conn).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def store(self, document: Document, ann: Annotations | SpooledAnnotations) -> int:
        """Store ``document`` with its annotations in one transaction; returns its id. If another
        process stored the same content meanwhile, its copy is kept and its id returned. Rows are
        generated as SQLite takes them, never built as lists (a long book has ~10⁶ of them)."""
        with self.transaction() as c:
            row = c.execute("SELECT id, pipeline FROM documents WHERE sha256 = ? AND format = ?",
                            (document.sha256, document.format)).fetchone()
            if row and row[1] == ann.pipeline:
                return row[0]
            if row:   # annotated by an older beyondfind: replace it, keeping its id
                c.execute("DELETE FROM documents WHERE id = ?", (row[0],))
                _next_generation(c)
            cur = c.execute("INSERT INTO documents (id, sha256, name, format, title, text, narrator, pipeline, narrators) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (row[0] if row else None, document.sha256, document.name, document.format, document.title, document.text,
                             ann.narrator, ann.pipeline, NARRATOR_SEPARATOR.join(ann.narrators)))
            doc_id = cur.lastrowid
            c.executemany("INSERT INTO passages VALUES (?, ?, ?, ?, ?)",
                          ((doc_id, p.index, p.start, p.end, p.chapter) for p in document.passages))
            c.executemany("INSERT INTO sentences VALUES (?, ?, ?, ?, ?)",
                          ((doc_id, s.index, s.passage, s.start, s.end) for s in ann.sentences))
            c.executemany("INSERT INTO mentions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          ((doc_id, *mention_row(m)) for m in ann.mentions))
            c.executemany("INSERT INTO pronouns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          ((doc_id, *pronoun_row(p)) for p in ann.pronouns))
            c.executemany("INSERT INTO verbs VALUES (?, ?, ?, ?)",
                          ((doc_id, v.passage, v.sentence, v.lemma) for v in ann.verbs))
            c.executemany("INSERT INTO descriptions VALUES (?, ?, ?, ?)",
                          ((doc_id, d.passage, d.start, d.kinds) for d in ann.descriptions))
        return doc_id

    def load(self, doc_id: int) -> tuple[Document, Annotations]:
        """The stored document and annotations (the inverse of :meth:`store`)."""
        validate.document_id(doc_id)
        row = self.conn.execute("SELECT sha256, name, format, title, text, narrator, pipeline, narrators "
                                "FROM documents WHERE id = ?", (doc_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no document {doc_id} in library {self.path}")
        sha, name, fmt, title, text, narrator, pipeline, narrators = row
        q = self.conn.execute
        passages = tuple(Passage(i, s, e, text, ch) for i, s, e, ch in
                         q('SELECT idx, start, "end", chapter FROM passages WHERE doc_id = ? ORDER BY idx', (doc_id,)))
        sentences = tuple(map(Sentence._make,
                              q(f"SELECT {SENTENCE_COLUMNS} FROM sentences WHERE doc_id = ? ORDER BY idx", (doc_id,))))
        mentions = tuple(map(mention_from_row, q(f"SELECT {MENTION_COLUMNS} FROM mentions WHERE doc_id = ? "
                                                 "ORDER BY id", (doc_id,))))
        pronouns = tuple(map(pronoun_from_row, q(f"SELECT {PRONOUN_COLUMNS} FROM pronouns WHERE doc_id = ? "
                                                 "ORDER BY id", (doc_id,))))
        verbs = tuple(map(verb_from_row, q(f"SELECT {VERB_COLUMNS} FROM verbs WHERE doc_id = ? ORDER BY rowid",
                                           (doc_id,))))
        descriptions = tuple(map(Description._make, q(f"SELECT {DESCRIPTION_COLUMNS} FROM descriptions "
                                                      "WHERE doc_id = ? ORDER BY rowid", (doc_id,))))
        document = Document(name, fmt, text, passages, sha, title)
        return document, Annotations(sentences, mentions, pronouns, verbs, narrator, pipeline,
                                     tuple(n for n in narrators.split(NARRATOR_SEPARATOR) if n), descriptions)


def _migrate_1_to_2(conn: sqlite3.Connection, where: str) -> None:
    """Schema 1 → 2: documents are unique by (sha256, format), not sha256 alone; 0.1 libraries
    also lack the ``narrators`` column. SQLite cannot drop a constraint, so the table is rebuilt
    (foreign keys off, so the passages and annotations that reference it are kept)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(documents)")}
    narrators = "narrators" if "narrators" in columns else "''"
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        with write_transaction(conn, f"library {where}"):
            conn.execute(_DOCUMENTS_V2.replace("CREATE TABLE IF NOT EXISTS documents", "CREATE TABLE documents_v2"))
            conn.execute("INSERT INTO documents_v2 (id, sha256, name, format, title, text, narrator, pipeline, added_at, "
                         f"narrators) SELECT id, sha256, name, format, title, text, narrator, pipeline, added_at, "
                         f"{narrators} FROM documents")
            conn.execute("DROP TABLE documents")
            conn.execute("ALTER TABLE documents_v2 RENAME TO documents")
            conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


_INFO_SQL = ("SELECT d.id, d.sha256, d.name, d.format, d.title, "
             "(SELECT COUNT(*) FROM passages p WHERE p.doc_id = d.id), d.narrator, d.added_at, d.pipeline "
             "FROM documents d")
