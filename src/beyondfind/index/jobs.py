"""Indexing as a job: an upload is queued in the library file and annotated by a worker process.

The HTTP server never runs NLP on a request: ``POST /api/documents`` parses the upload (cheap),
queues it with :meth:`JobQueue.submit` and answers ``202`` with the job; a worker process runs
:func:`run_job`, which reports progress into the same table and stores the document. Because the
queue lives in the library file, a job survives a server restart (:meth:`JobQueue.unfinished`
lists what to resume), and any process reading the library sees its state.

States: ``queued`` → ``running`` → ``done`` (with ``document_id``) or ``failed`` (with ``error``).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import BeyondfindError, NotFoundError, validate
from ..documents import Document, parse_document

PROGRESS_INTERVAL_S = 0.5
"""Progress is written at most this often (each write is a small transaction)."""


class JobState(str, Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class Job:
    id: int
    name: str
    format: str
    state: JobState
    done: int
    total: int
    document_id: int | None
    error: str | None
    created_at: str
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "state": self.state.value}


_COLUMNS = "id, name, format, state, done, total, document_id, error, created_at, updated_at"


def _job(row) -> Job:
    return Job(row[0], row[1], row[2], JobState(row[3]), *row[4:])


class JobQueue:
    """The ``index_jobs`` table of a library (see :mod:`beyondfind.index.store` for its schema)."""

    def __init__(self, library) -> None:
        self.library = library
        self.conn = library.conn

    def submit(self, document: Document, data: bytes) -> tuple[Job, bool]:
        """Queue ``data`` (already parsed as ``document``, so it is known to be readable); returns
        the job and whether it is new. The same bytes and format already queued or running give
        that job instead of a second one."""
        with self.library.transaction() as c:
            row = c.execute(f"SELECT {_COLUMNS} FROM index_jobs WHERE sha256 = ? AND format = ? AND state IN (?, ?)",
                            (document.sha256, document.format, JobState.QUEUED.value,
                             JobState.RUNNING.value)).fetchone()
            if row:
                return _job(row), False
            job_id = c.execute("INSERT INTO index_jobs (name, format, sha256, data, state, total) VALUES (?, ?, ?, ?, ?, ?)",
                               (document.name, document.format, document.sha256, data, JobState.QUEUED.value,
                                len(document.passages))).lastrowid
        return self.get(job_id), True

    def get(self, job_id: int) -> Job:
        validate.document_id(job_id, "indexing job")
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM index_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no indexing job {job_id}; list them with GET /api/jobs")
        return _job(row)

    def recent(self, limit: int = 20) -> list[Job]:
        return [_job(r) for r in self.conn.execute(f"SELECT {_COLUMNS} FROM index_jobs ORDER BY id DESC LIMIT ?",
                                                   (limit,))]

    def unfinished(self) -> list[int]:
        """Jobs queued or interrupted while running (e.g. by a restart), oldest first."""
        return [r[0] for r in self.conn.execute("SELECT id FROM index_jobs WHERE state IN (?, ?) ORDER BY id",
                                                (JobState.QUEUED.value, JobState.RUNNING.value))]

    def _set(self, job_id: int, **values) -> None:
        sets = ", ".join(f"{k} = ?" for k in values)
        with self.library.transaction() as c:
            c.execute(f"UPDATE index_jobs SET {sets}, updated_at = CURRENT_TIMESTAMP WHERE id = ?",
                      (*values.values(), job_id))

    def start(self, job_id: int) -> bytes:
        """Mark the job running and return its bytes."""
        row = self.conn.execute("SELECT data FROM index_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None or row[0] is None:
            raise NotFoundError(f"indexing job {job_id} has no data to index")
        self._set(job_id, state=JobState.RUNNING.value, done=0)
        return row[0]

    def progress(self, job_id: int, done: int) -> None:
        self._set(job_id, done=done)

    def finish(self, job_id: int, document_id: int) -> None:
        """Done: the bytes are dropped, the library holds the document now."""
        self._set(job_id, state=JobState.DONE.value, document_id=document_id, data=None)
        self.conn.execute("UPDATE index_jobs SET done = total WHERE id = ?", (job_id,))

    def fail(self, job_id: int, error: str) -> None:
        self._set(job_id, state=JobState.FAILED.value, error=error, data=None)


@lru_cache(maxsize=2)
def _pipeline(nlp_name: str | None):
    """One pipeline per worker process, loaded on its first job."""
    from ..nlp import load_pipeline

    return load_pipeline(nlp_name)


def run_job(library_path: str | Path, nlp_name: str | None, job_id: int) -> int | None:
    """Worker entry point: index job ``job_id`` of the library at ``library_path``.

    Returns the document id, or None when the job failed (its ``error`` says why). Errors never
    escape: a worker process keeps serving the next job.
    """
    from . import index_document
    from .store import Library

    with Library(library_path) as library:
        queue = JobQueue(library)
        try:
            job = queue.get(job_id)
            data = queue.start(job_id)
            document = parse_document(data, job.name)
            done, last = 0, 0.0

            def progress(n: int) -> None:
                nonlocal done, last
                done += n
                if time.monotonic() - last >= PROGRESS_INTERVAL_S:
                    last = time.monotonic()
                    queue.progress(job_id, done)

            doc_id, _new = index_document(library, document, lambda: _pipeline(nlp_name),
                                          lambda _total, _name: progress)
            queue.finish(job_id, doc_id)
            return doc_id
        except BeyondfindError as exc:
            queue.fail(job_id, str(exc))
        except Exception as exc:  # a bug or resource error: recorded on the job, never lost silently
            queue.fail(job_id, f"indexing failed: {type(exc).__name__}: {exc}")
    return None
