"""The indexing worker: a process of its own that runs queued index jobs one after another.

The server process only parses and queues uploads (:class:`beyondfind.index.jobs.JobQueue`); NLP
runs here, in a separate process, so no request ever waits on another request's indexing and the
event loop never holds the GIL for annotation. A worker that dies (e.g. killed for memory) fails
its job with a message and is replaced for the next one.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from ..index import Library
from ..index.jobs import JobQueue, run_job


class IndexWorker:
    """One worker process (started on the first job) for the library at ``library_path``."""

    def __init__(self, library_path: str | Path, nlp_name: str | None) -> None:
        self.library_path = str(library_path)
        self.nlp_name = nlp_name
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server process has threads (uvicorn, the thread pool)
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def submit(self, job_id: int) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("the indexing worker is closed")
            future = self._executor().submit(run_job, self.library_path, self.nlp_name, job_id)
        future.add_done_callback(lambda f: self._after(job_id, f))
        return future

    def resume(self) -> list[int]:
        """Submit the library's unfinished jobs (queued, or running when the server stopped)."""
        with Library(self.library_path) as library:
            pending = JobQueue(library).unfinished()
        for job_id in pending:
            self.submit(job_id)
        return pending

    def _after(self, job_id: int, future: Future) -> None:
        if future.cancelled() or future.exception() is None:
            return
        with self._lock:   # the process died: record it on the job, start a fresh pool next time
            self._pool = None
        with Library(self.library_path) as library:
            JobQueue(library).fail(job_id, "the indexing worker stopped unexpectedly (out of memory?); "
                                           "try a smaller document or upload again")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
