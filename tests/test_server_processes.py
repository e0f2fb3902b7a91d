"""Several server processes over one library: `beyondfind serve --workers 2` for real, and the
per-process caches that must notice what another process changed."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from beyondfind.books import rank_passages
from beyondfind.server.app import create_app


def _copy_library(huck_search, tmp_path: Path) -> Path:
    dst = tmp_path / "library.sqlite"
    with sqlite3.connect(huck_search.library.path) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    return dst


def _huck_id(client) -> int:
    return next(d["id"] for d in client.get("/api/documents").json()["documents"] if "Huckleberry" in d["title"])


def test_rank_answers_are_slices_of_one_ranking_and_forgotten_when_another_process_deletes(huck_search, tmp_path):
    library = _copy_library(huck_search, tmp_path)
    a = TestClient(create_app(library, index_jobs=False), base_url="http://127.0.0.1")
    b = TestClient(create_app(library, index_jobs=False), base_url="http://127.0.0.1")
    with a, b:
        doc_id = _huck_id(a)
        seven = a.get(f"/api/documents/{doc_id}/rank", params={"entity": "Jim", "top": 7}).json()["results"]
        three = a.get(f"/api/documents/{doc_id}/rank", params={"entity": "Jim", "top": 3}).json()["results"]
        direct = [r.to_dict() for r in rank_passages(huck_search.book(doc_id), "Jim", "ldm", 3)]
        assert three == seven[:3]
        assert [r["passage"] for r in three] == [r["passage"] for r in direct]
        assert [r["score"] for r in three] == [r["score"] for r in direct]
        # process B deletes the book; A has it cached (book and answers) and must not answer from the cache
        assert b.delete(f"/api/documents/{doc_id}").status_code == 200
        again = a.get(f"/api/documents/{doc_id}/rank", params={"entity": "Jim", "top": 3})
        assert again.status_code == 404 and "no document" in again.json()["error"]
        assert a.get(f"/api/documents/{doc_id}/entities").status_code == 404


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_using(path: Path) -> list[int]:
    """Pids whose command line names ``path`` (the server, its indexing worker)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(path).encode() in (entry / "cmdline").read_bytes():
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def test_serve_with_two_processes_answers_indexes_uploads_and_stops_cleanly(huck_search, tmp_path):
    library = _copy_library(huck_search, tmp_path)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "beyondfind", "serve", "--workers", "2", "--port", str(port),
                               "--library", str(library)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(base + "/api/documents", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.time() < deadline, server.stderr.read() if server.poll() else ""
            time.sleep(0.2)
        with httpx.Client(base_url=base, timeout=120) as http:
            doc_id = _huck_id(http)
            ranks = [http.get(f"/api/documents/{doc_id}/rank", params={"entity": "Mary Jane", "top": 3}).json()
                     for _ in range(4)]   # served by both processes, the same answer
            assert all(r == ranks[0] for r in ranks) and len(ranks[0]["results"]) == 3
            text = "A Short Tale\n\nNell Baxter walked home. Nell Baxter was a tall woman.\n\nShe smiled.\n"
            job = http.post("/api/documents", files={"file": ("short.txt", text.encode(), "text/plain")}).json()["job"]
            for _ in range(600):   # the serving command's one indexing worker takes it
                job = http.get(f"/api/jobs/{job['id']}").json()
                if job["state"] in ("done", "failed"):
                    break
                time.sleep(0.3)
            assert job["state"] == "done", job
            hits = http.get(f"/api/documents/{job['document_id']}/rank", params={"entity": "Nell Baxter"}).json()
            assert hits["results"] and "Nell Baxter" in hits["results"][0]["text"]
        assert len(_processes_using(library)) >= 2   # the serving command and its indexing worker
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    deadline = time.time() + 15
    while _processes_using(library) and time.time() < deadline:
        time.sleep(0.2)
    assert _processes_using(library) == [], "a server or indexing process outlived `beyondfind serve`"
    assert os.path.exists(library)
