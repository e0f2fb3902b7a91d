"""SQLite access shared by the library and the news store: one write transaction helper that turns
a lock held too long by another process into a clear :class:`~beyondfind.BusyError`."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from . import BusyError

BUSY_TIMEOUT_S = 30.0


def connect(path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL journal, foreign keys on,
    waiting up to :data:`BUSY_TIMEOUT_S` for another writer."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    conn.execute("PRAGMA foreign_keys = ON")
    _retry_on_lock(lambda: _set_wal(conn))
    return conn


def _set_wal(conn: sqlite3.Connection) -> None:
    """SQLite refuses the switch to WAL under a competing lock by answering the old mode rather than
    raising; that refusal is turned into the "locked" error :func:`_retry_on_lock` retries."""
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() not in ("wal", "memory"):
        raise sqlite3.OperationalError(f"database is locked (journal mode stayed {mode})")


def _retry_on_lock(step, seconds: float = BUSY_TIMEOUT_S):
    """Run ``step`` again while SQLite answers "locked" without waiting itself (switching a new file
    to WAL while another process opens it), for up to ``seconds``; then the error stands."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            if not _is_lock(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def create_schema(conn: sqlite3.Connection, script: str) -> None:
    """Run the ``CREATE … IF NOT EXISTS`` statements of ``script`` under one write lock taken first
    (``BEGIN IMMEDIATE`` waits for other writers). Run statement by statement in autocommit mode, a
    ``CREATE`` reads the schema and then upgrades to a write lock, and SQLite fails that upgrade at
    once ("database is locked", no busy wait) when another process committed in between: the race
    several processes opening one new file at once ran into."""
    def run():
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nCOMMIT;")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    _retry_on_lock(run)


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
