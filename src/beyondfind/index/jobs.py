"""Indexing as a job: an upload is queued in the library file and annotated by a worker process.

The HTTP server never runs NLP on a request: ``POST /api/documents`` parses the upload (cheap),
queues it with :meth:`JobQueue.submit` and answers ``202`` with the job; a worker process
(:func:`work`) claims queued jobs one at a time and runs :func:`run_job`, which reports progress
into the same table and stores the document. Because the queue lives in the library file, a job
survives a server restart, any process reading the library sees its state, and several workers
can share one queue (a claim is one write transaction).

States: ``queued`` → ``running`` (with the ``worker`` pid) → ``done`` (with ``document_id``) or
``failed`` (with ``error``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
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
            raise NotFoundError(f"no indexing job {job_id}; list the recent jobs for their ids")
        return _job(row)

    def recent(self, limit: int = 20) -> list[Job]:
        return [_job(r) for r in self.conn.execute(f"SELECT {_COLUMNS} FROM index_jobs ORDER BY id DESC LIMIT ?",
                                                   (limit,))]

    def has_queued(self) -> bool:
        return self.conn.execute("SELECT 1 FROM index_jobs WHERE state = ? LIMIT 1",
                                 (JobState.QUEUED.value,)).fetchone() is not None

    def claim(self, worker: int) -> int | None:
        """The oldest queued job, marked running by ``worker`` (a pid) in one write transaction,
        so two workers never take the same job; None when nothing is queued."""
        with self.library.transaction() as c:
            row = c.execute("SELECT id FROM index_jobs WHERE state = ? ORDER BY id LIMIT 1",
                            (JobState.QUEUED.value,)).fetchone()
            if row is None:
                return None
            c.execute("UPDATE index_jobs SET state = ?, worker = ?, done = 0, updated_at = CURRENT_TIMESTAMP "
                      "WHERE id = ?", (JobState.RUNNING.value, worker, row[0]))
        return row[0]

    def orphaned(self, alive: Callable[[int], bool]) -> list[int]:
        """Running jobs whose worker process is gone."""
        return [job_id for job_id, pid in self.conn.execute("SELECT id, worker FROM index_jobs WHERE state = ?",
                                                            (JobState.RUNNING.value,)) if not alive(pid)]

    def requeue(self, job_id: int) -> None:
        """Back to the queue (its worker stopped with the server, not because of the document)."""
        self._set(job_id, state=JobState.QUEUED.value, worker=None, done=0)

    def _set(self, job_id: int, **values) -> None:
        sets = ", ".join(f"{k} = ?" for k in values)
        with self.library.transaction() as c:
            c.execute(f"UPDATE index_jobs SET {sets}, updated_at = CURRENT_TIMESTAMP WHERE id = ?",
                      (*values.values(), job_id))

    def data(self, job_id: int) -> bytes:
        row = self.conn.execute("SELECT data FROM index_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None or row[0] is None:
            raise NotFoundError(f"indexing job {job_id} has no data to index")
        return row[0]

    def progress(self, job_id: int, done: int) -> None:
        self._set(job_id, done=done)

    def finish(self, job_id: int, document_id: int) -> None:
        """Done: the bytes are dropped, the library holds the document now."""
        with self.library.transaction() as c:
            c.execute("UPDATE index_jobs SET state = ?, document_id = ?, data = NULL, done = total, "
                      "updated_at = CURRENT_TIMESTAMP WHERE id = ?", (JobState.DONE.value, document_id, job_id))

    def fail(self, job_id: int, error: str) -> None:
        self._set(job_id, state=JobState.FAILED.value, error=error, data=None)


@lru_cache(maxsize=2)
def _pipeline(nlp_name: str | None):
    """One pipeline per worker process, loaded on its first job."""
    from ..nlp import load_pipeline

    return load_pipeline(nlp_name)


def run_job(library, nlp_name: str | None, job_id: int) -> int | None:
    """Index claimed job ``job_id`` of ``library`` (a :class:`~beyondfind.index.Library`).

    Returns the document id, or None when the job failed (its ``error`` says why). Errors never
    escape: a worker keeps serving the next job.
    """
    from . import index_document

    queue = JobQueue(library)
    try:
        job = queue.get(job_id)
        document = parse_document(queue.data(job_id), job.name)
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


def pid_alive(pid: int | None) -> bool:
    """Whether a process with this pid exists on this machine."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def work(library_path: str | Path, nlp_name: str | None, parent: int | None = None,
         poll_s: float = 0.5) -> None:
    """A worker's loop: claim and run queued jobs of the library, one at a time, until the
    ``parent`` process (the server) is gone. The pipeline is loaded on the first job."""
    from .store import Library

    me = os.getpid()
    with Library(library_path) as library:
        queue = JobQueue(library)
        while parent is None or (pid_alive(parent) and os.getppid() == parent):
            job_id = queue.claim(me) if queue.has_queued() else None   # read first: no write lock while idle
            if job_id is None:
                time.sleep(poll_s)
            else:
                run_job(library, nlp_name, job_id)
