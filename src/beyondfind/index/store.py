"""The library: one SQLite file holding documents and their annotations, keyed by content sha256.

Writes happen in one transaction per document, so a crash or Ctrl-C mid-index leaves the library
as it was; the next run indexes the document again from the start.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from .. import BeyondfindError, NotFoundError, validate
from ..documents import Document, Passage
from ..sqlite import connect, create_schema, write_transaction
from . import columnar
from .migrations import DOCUMENTS_V2, migrate
from .records import Annotations

if TYPE_CHECKING:   # the spool (tempfile, shutil) is the indexer's; a query need not import it
    from .spool import SpooledAnnotations

SCHEMA_VERSION = 3   # 2: a document is its bytes *and* its format (the same bytes as .txt and .html differ);
                     # 3: annotation records in binary column chunks (:mod:`.columnar`), not one row each
NARRATOR_SEPARATOR = "|"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""" + DOCUMENTS_V2 + """;
CREATE TABLE IF NOT EXISTS passages (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    start INTEGER NOT NULL, "end" INTEGER NOT NULL, chapter TEXT, PRIMARY KEY (doc_id, idx));
CREATE TABLE IF NOT EXISTS records (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE, kind TEXT NOT NULL,
    chunk INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (doc_id, kind, chunk));
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

    def to_dict(self) -> dict:
        """The listing's row (``beyondfind documents --format jsonl``, ``GET /api/documents``)."""
        return {"id": self.id, "name": self.name, "title": self.title or self.name, "format": self.format,
                "passages": self.n_passages, "narrator": self.narrator, "added_at": self.added_at}


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
            elif int(row[0]) < SCHEMA_VERSION:
                migrate(self.conn, int(row[0]), SCHEMA_VERSION, str(self.path))
            elif int(row[0]) > SCHEMA_VERSION:
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
            for kind in columnar.LAYOUTS:
                write_records(c, doc_id, kind, getattr(ann, kind))
        return doc_id

    def load(self, doc_id: int) -> tuple[Document, Annotations]:
        """The stored document and annotations (the inverse of :meth:`store`)."""
        validate.document_id(doc_id)
        row = self.conn.execute("SELECT sha256, name, format, title, text, narrator, pipeline, narrators "
                                "FROM documents WHERE id = ?", (doc_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no document {doc_id} in library {self.path}")
        sha, name, fmt, title, text, narrator, pipeline, narrators = row
        passages = tuple(Passage(i, s, e, text, ch) for i, s, e, ch in self.conn.execute(
            'SELECT idx, start, "end", chapter FROM passages WHERE doc_id = ? ORDER BY idx', (doc_id,)))
        records = read_records(self.conn, doc_id)
        document = Document(name, fmt, text, passages, sha, title)
        return document, Annotations(records["sentences"], records["mentions"], records["pronouns"], records["verbs"],
                                     narrator, pipeline, tuple(n for n in narrators.split(NARRATOR_SEPARATOR) if n),
                                     records["descriptions"])


def write_records(conn: sqlite3.Connection, doc_id: int, kind: str, records, chunk: int = columnar.CHUNK) -> None:
    """Store a document's ``kind`` records (any iterable, consumed once) as binary chunks of
    ``chunk`` records."""
    conn.executemany("INSERT INTO records VALUES (?, ?, ?, ?)",
                     ((doc_id, kind, i, columnar.encode(kind, batch))
                      for i, batch in enumerate(columnar.chunks(records, chunk))))


def read_records(conn: sqlite3.Connection, doc_id: int) -> dict[str, tuple]:
    """Every record of a document, by kind (the inverse of :func:`write_records`)."""
    parts: dict[str, list[tuple]] = {kind: [] for kind in columnar.LAYOUTS}
    for kind, data in conn.execute("SELECT kind, data FROM records WHERE doc_id = ? ORDER BY kind, chunk", (doc_id,)):
        parts[kind].append(columnar.decode(kind, data))
    return {kind: chunks[0] if len(chunks) == 1 else tuple(chain.from_iterable(chunks)) for kind, chunks in parts.items()}


_INFO_SQL = ("SELECT d.id, d.sha256, d.name, d.format, d.title, "
             "(SELECT COUNT(*) FROM passages p WHERE p.doc_id = d.id), d.narrator, d.added_at, d.pipeline "
             "FROM documents d")
