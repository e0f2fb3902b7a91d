"""Checks of user-supplied values, shared by the CLI, the HTTP API and the Python API, so each
bad value gets the same one-line error everywhere (exit 2 / HTTP 4xx)."""

from __future__ import annotations

from . import BeyondfindError, NotFoundError

MAX_SQL_INT = 2**63 - 1
MAX_TOP = 10_000
MAX_THREAD_NAME = 200


def count(value: int | None, what: str, maximum: int = MAX_TOP) -> int | None:
    """A result count such as ``top``: None (no limit) or 1..maximum."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise BeyondfindError(f"{what} must be a whole number from 1 to {maximum}, not {value!r}")
    return value


def offset(value: int | None, what: str) -> int | None:
    """A character offset into a document: None or 0..2^63-1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SQL_INT:
        raise BeyondfindError(f"{what} must be a character offset of 0 or more, not {value!r}")
    return value


def document_id(value: int, what: str = "document") -> int:
    """A library row id such as a document's or a job's (positive, within SQLite's integer range)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SQL_INT:
        raise NotFoundError(f"no {what} {value}: {what} ids are whole numbers from 1 to {MAX_SQL_INT}")
    return value


def thread_name(name: str) -> str:
    """A news thread name: 1..200 printable characters, no slash (names appear in URLs)."""
    if not isinstance(name, str) or not name.strip():
        raise BeyondfindError("empty thread name; give a name such as 'boeing'")
    name = name.strip()
    if len(name) > MAX_THREAD_NAME or "/" in name or not name.isprintable():
        raise BeyondfindError(f"thread name {name[:40]!r} must be at most {MAX_THREAD_NAME} printable characters "
                              "without '/'")
    return name
