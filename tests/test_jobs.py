"""Index jobs with a real worker process: resumed after a restart, failed (not hung) when the
worker is killed, claimed by one worker only."""

import os
import signal
import subprocess
import sys
import time

from beyondfind.documents import parse_document
from beyondfind.index import Library
from beyondfind.index.jobs import JobQueue, JobState
from beyondfind.server.worker import IndexWorker

from .conftest import DATA


def _queue_book(library, name, size):
    data = (DATA / "books" / name).read_bytes()[:size]
    job, new = JobQueue(library).submit(parse_document(data, name), data)
    assert new and job.state is JobState.QUEUED
    return job


def _wait(queue, job_id, states, timeout=180):
    deadline = time.time() + timeout
    while (job := queue.get(job_id)).state not in states:
        assert time.time() < deadline, job
        time.sleep(0.2)
    return job


def test_job_left_running_by_a_dead_worker_is_resumed(tmp_path):
    with Library(tmp_path / "lib.sqlite") as library:
        queue = JobQueue(library)
        job = _queue_book(library, "11-alice-in-wonderland.txt", 30_000)
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout.strip()
        assert queue.claim(int(gone)) == job.id        # "running" in a process that no longer exists
        assert queue.submit(parse_document(queue.data(job.id), job.name), queue.data(job.id))[1] is False
        worker = IndexWorker(library.path, "blank")
        try:
            assert worker.resume() == [job.id]
            done = _wait(queue, job.id, {JobState.DONE, JobState.FAILED})
        finally:
            worker.close()
        assert done.state is JobState.DONE and done.document_id and done.done == done.total
        assert library.get(done.document_id).name == "11-alice-in-wonderland.txt"


def test_killed_worker_fails_its_job_and_the_next_job_still_runs(tmp_path):
    with Library(tmp_path / "lib.sqlite") as library:
        queue = JobQueue(library)
        big = _queue_book(library, "2600-war-and-peace.txt", 600_000)
        small = _queue_book(library, "84-frankenstein.txt", 20_000)
        worker = IndexWorker(library.path, None)
        try:
            worker.wake()
            _wait(queue, big.id, {JobState.RUNNING})
            pid = library.conn.execute("SELECT worker FROM index_jobs WHERE id = ?", (big.id,)).fetchone()[0]
            os.kill(pid, signal.SIGKILL)
            failed = _wait(queue, big.id, {JobState.FAILED, JobState.DONE})
            after = _wait(queue, small.id, {JobState.DONE, JobState.FAILED})
        finally:
            worker.close()
        assert failed.state is JobState.FAILED and "stopped unexpectedly" in failed.error
        assert after.state is JobState.DONE


def test_two_workers_never_claim_the_same_job(tmp_path):
    with Library(tmp_path / "lib.sqlite") as library:
        queue = JobQueue(library)
        for k in range(6):
            data = f"Mary Jane number {k} lived by the river.\n\nMary Jane smiled.\n".encode()
            queue.submit(parse_document(data, f"mj{k}.txt"), data)
        claims = [queue.claim(1), queue.claim(2), queue.claim(1), queue.claim(2), queue.claim(1), queue.claim(2)]
        assert sorted(claims) == sorted(set(claims)) and None not in claims and queue.claim(3) is None
