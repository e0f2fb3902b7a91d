"""The server under load: 50 concurrent clients ask rank and list while a novel is being indexed
(issue #12 target: p95 <= 100 ms, 0 errors).

For 1 and 2 server processes (`beyondfind serve --workers N`, a real subprocess on 127.0.0.1) over
a library holding Huckleberry Finn:
- baseline: the same 50 clients on GET /api/methods (no library, no ranking), no upload running;
- then Pride and Prejudice is uploaded and, while its indexing job runs, every client sends
  REQUESTS requests: rank of a character of Huck Finn (8 names x 10 `top` values, methods ldm and
  lrm) or, one in four, the document list.
Prints p50/p95/p99 per endpoint, errors, the p95 ratio to the baseline, and how far the indexing job
got (so "during an upload" is checked, not assumed). The clients run on the same 2 cores.
"""

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from common import p95_ms, p99_ms, shared_dir

from beyondfind.books import BookSearch
from beyondfind.index import Library

CLIENTS, REQUESTS = 50, 100
NAMES = ["Mary Jane", "Jim", "Tom Sawyer", "Huck", "Aunt Sally", "Miss Watson", "Pap", "Buck"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Connection:
    """A keep-alive HTTP/1.1 connection with just enough parsing for uvicorn's answers: a load
    generator far lighter than a full client, so the clients' own CPU time stays out of the latency."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def load(port: int, path_for) -> dict[str, list]:
    """CLIENTS clients, each on its own connection sending REQUESTS requests one after another;
    latencies by endpoint (first request of each connection included)."""
    out: dict[str, list] = {}
    errors = 0

    async def client(c: int) -> None:
        nonlocal errors
        conn = Connection("127.0.0.1", port)
        try:
            for k in range(REQUESTS):
                kind, path = path_for(c, k)
                t = time.perf_counter()
                status, _body = await conn.get(path)
                out.setdefault(kind, []).append(time.perf_counter() - t)
                errors += status != 200
        finally:
            conn.close()

    await asyncio.gather(*(client(c) for c in range(CLIENTS)))
    out["errors"] = [errors]
    return out


def rank_or_list(doc_id: int):
    def path_for(c: int, k: int) -> tuple[str, str]:
        if (c + k) % 4 == 0:
            return "list", "/api/documents"
        name, top, method = NAMES[(c * 7 + k) % len(NAMES)], 1 + (c + 3 * k) % 10, ("ldm", "lrm")[k % 2]
        return "rank", f"/api/documents/{doc_id}/rank?entity={name.replace(' ', '%20')}&top={top}&method={method}"
    return path_for


def summary(times: list[float]) -> str:
    s = sorted(times)
    return f"p50 {s[len(s) // 2] * 1000:.1f} ms, p95 {p95_ms(s):.1f} ms, p99 {p99_ms(s):.1f} ms (n={len(s)})"


def run(workers: int, library: Path, doc_id: int, upload: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "beyondfind", "serve", "--port", str(port), "--library",
                               str(library), "--workers", str(workers)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/api/methods", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        for _ in range(4 * workers):   # every server process loads the book once (not timed)
            httpx.get(f"{base}/api/documents/{doc_id}/rank", params={"entity": "Jim"}, timeout=120)
        baseline = asyncio.run(load(port, lambda c, k: ("methods", "/api/methods")))
        job = httpx.post(base + "/api/documents", files={"file": (upload.name, upload.read_bytes(), "text/plain")},
                         timeout=60).json()["job"]
        while httpx.get(f"{base}/api/jobs/{job['id']}").json()["done"] == 0:   # annotation under way
            time.sleep(0.1)
        loaded = asyncio.run(load(port, rank_or_list(doc_id)))
        after = httpx.get(f"{base}/api/jobs/{job['id']}").json()
        p95_base = p95_ms(baseline["methods"])
        print(f"--workers {workers}: baseline GET /api/methods, no upload: {summary(baseline['methods'])}")
        for kind in ("rank", "list"):
            print(f"--workers {workers}: {kind} during the upload: {summary(loaded[kind])}; "
                  f"p95 / baseline p95 = {p95_ms(loaded[kind]) / p95_base:.1f}x (target p95 <= 100 ms)")
        print(f"--workers {workers}: errors {loaded['errors'][0] + baseline['errors'][0]} (target 0); indexing job "
              f"{after['state']} at {after['done']}/{after['total']} passages when the load ended")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    books = shared_dir() / "data" / "books"
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "lib.sqlite"
        with Library(library) as lib:
            doc_id, _ = BookSearch(lib).index(books / "76-huckleberry-finn.txt")
        for workers in (1, 2):
            lib = Path(tmp) / f"lib{workers}.sqlite"   # a fresh copy: the upload is new each time
            _copy(library, lib)
            run(workers, lib, doc_id, books / "1342-pride-and-prejudice.txt")


def _copy(src: Path, dst: Path) -> None:
    import sqlite3

    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
