"""The indexing worker: a process of its own that runs the library's queued index jobs.

The server process only parses and queues uploads (:class:`beyondfind.index.jobs.JobQueue`); NLP
runs in a child process (``python -m beyondfind.server.worker``, looping over
:func:`beyondfind.index.jobs.work`), so no request waits on another request's indexing and the
server never holds the GIL for annotation. A plain subprocess rather than multiprocessing: it
does not re-import the program that started the server. The child exits when the server does;
if it dies on a document (e.g. killed for memory), that job is failed with a message and a fresh
worker takes the next one.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
from pathlib import Path

from ..index import Library
from ..index.jobs import JobQueue, pid_alive, work

WATCH_INTERVAL_S = 1.0
NICENESS = 10
"""The worker runs at lower CPU priority than the server, so a query waits less behind indexing."""


class IndexWorker:
    """Starts, watches and stops the worker process of the library at ``library_path``."""

    def __init__(self, library_path: str | Path, nlp_name: str | None, keep_running: bool = False) -> None:
        """``keep_running``: restart the worker whenever it is gone, not only when jobs wait (the
        serving command of several server processes: those only queue uploads, the worker polls)."""
        self.library_path = str(library_path)
        self.nlp_name = nlp_name
        self.keep_running = keep_running
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def wake(self) -> None:
        """Make sure a worker is running (a job was just queued)."""
        with self._lock:
            if self._stop.is_set():
                return
            if self._process is None or self._process.poll() is not None:
                cmd = [sys.executable, "-m", "beyondfind.server.worker", "--library", self.library_path,
                       "--parent", str(os.getpid())]
                if self.nlp_name:
                    cmd += ["--nlp", self.nlp_name]
                self._process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="beyondfind-index-watch", daemon=True)
                self._watcher.start()

    def resume(self) -> list[int]:
        """At server start: jobs left running by a worker that is gone go back to the queue, and a
        worker starts if anything is queued."""
        with Library(self.library_path) as library:
            queue = JobQueue(library)
            orphans = queue.orphaned(pid_alive)
            for job_id in orphans:
                queue.requeue(job_id)
            queued = queue.has_queued()
        if queued:
            self.wake()
        return orphans

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_INTERVAL_S):
            with self._lock:
                process = self._process
            if process is None or process.poll() is None:
                continue
            with Library(self.library_path) as library:   # it died: fail what it held, restart if more waits
                queue = JobQueue(library)
                for job_id in queue.orphaned(pid_alive):
                    queue.fail(job_id, f"the indexing worker stopped unexpectedly (exit {process.returncode}); "
                                       "try a smaller document or upload again")
                more = queue.has_queued()
            with self._lock:
                self._process = None
            if more or self.keep_running:
                self.wake()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m beyondfind.server.worker",
                                     description="run the queued index jobs of a library (started by the server)")
    parser.add_argument("--library", required=True)
    parser.add_argument("--nlp", default=None)
    parser.add_argument("--parent", type=int, default=None, help="exit when this process is gone")
    args = parser.parse_args(argv)
    if hasattr(os, "nice"):
        os.nice(NICENESS)   # indexing is background work: queries keep the CPU they need
    try:
        work(args.library, args.nlp, parent=args.parent)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
