"""SQLite access shared by the library and the news store: one write transaction helper that turns
a lock held too long by another process into a clear :class:`~beyondfind.BusyError`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from . import BusyError

BUSY_TIMEOUT_S = 30.0


def connect(path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL journal, foreign keys on,
    waiting up to :data:`BUSY_TIMEOUT_S` for another writer."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    return conn


def _is_lock(exc: sqlite3.OperationalError) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


@contextmanager
def write_transaction(conn: sqlite3.Connection, where: str) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back on any error. Another process holding the
    write lock past the busy timeout raises :class:`BusyError` naming ``where``."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _is_lock(exc):
            raise BusyError(f"{where} is busy: another process is writing to it; try again in a moment") from None
        raise
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException as exc:
        conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.OperationalError) and _is_lock(exc):
            raise BusyError(f"{where} is busy: another process is writing to it; try again in a moment") from None
        raise
