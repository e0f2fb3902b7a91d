"""p95 of the rank endpoint with 20 concurrent clients on an indexed novel (target <= 100 ms, 0 errors).
Traffic goes to 127.0.0.1 only; the run is bounded (20 clients x 25 requests).
Baseline in the same run: GET /api/documents (no ranking) under the same load."""

import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from common import p95_ms, shared_dir

from beyondfind.server.app import create_app, running

CLIENTS, REQUESTS = 20, 25
NAMES = ["Mary Jane", "Jim", "Tom Sawyer", "Huck", "Aunt Sally", "Miss Watson", "Pap", "Buck"]


def run_load(base: str, path_for) -> tuple[list[float], int]:
    times, errors = [], 0
    lock = threading.Lock()

    def client(c: int) -> None:
        nonlocal errors
        with httpx.Client(base_url=base, timeout=30) as http:
            for k in range(REQUESTS):
                t = time.perf_counter()
                r = http.get(path_for(c, k))
                dt = time.perf_counter() - t
                with lock:
                    times.append(dt)
                    errors += r.status_code != 200

    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(client, range(CLIENTS)))
    return times, errors


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "lib.sqlite")
        state = app.state.beyondfind
        doc_id, _ = state.search.index(shared_dir() / "data" / "books" / "76-huckleberry-finn.txt")
        with running(app) as base:
            httpx.get(f"{base}/api/documents/{doc_id}/rank", params={"entity": "Jim"}, timeout=60)
            base_times, base_err = run_load(base, lambda c, k: "/api/documents")
            rank_times, rank_err = run_load(
                base, lambda c, k: f"/api/documents/{doc_id}/rank?entity={NAMES[(c + k) % len(NAMES)]}&top={5 + k % 10}")
    print(f"baseline GET /api/documents: p95 {p95_ms(base_times):.1f} ms, errors {base_err}")
    print(f"rank endpoint, {CLIENTS} clients x {REQUESTS}: p95 {p95_ms(rank_times):.1f} ms (target <= 100 ms), "
          f"errors {rank_err}; ratio to baseline p95 {p95_ms(rank_times) / p95_ms(base_times):.1f}x")


if __name__ == "__main__":
    main()
