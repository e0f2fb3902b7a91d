"""Dask scale-out: the same novels indexed with 1 and with 2 local Dask workers, each into a fresh
library; prints the speed-up (target >= 1.8x on 2 cores). ``--books N`` takes the N smallest novels
of shared/data/books (default: all 22, about 25 minutes per worker count on 2 cores)."""

import argparse
import tempfile
import time
from pathlib import Path

from common import shared_dir

from beyondfind.index import Library
from beyondfind.index.distributed import index_on_dask


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--books", type=int, default=None)
    args, _ = p.parse_known_args()
    books = sorted((f for f in (shared_dir() / "data" / "books").glob("*.txt") if "LICENSE" not in f.name),
                   key=lambda f: f.stat().st_size)
    books = books[: args.books] if args.books else books
    mb = sum(f.stat().st_size for f in books) / 1e6
    print(f"{len(books)} novels, {mb:.1f} MB")
    times = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            report = index_on_dask(Library(Path(tmp) / "lib.sqlite"), books, workers=workers)
            times[workers] = time.perf_counter() - t
            assert not report.failed, report.failed
        print(f"{workers} worker(s): {times[workers]:.1f} s ({mb / times[workers] * 60:.1f} MB/min)", flush=True)
    print(f"speed-up 1 -> 2 workers: {times[1] / times[2]:.2f}x (target >= 1.8x)")


if __name__ == "__main__":
    main()
