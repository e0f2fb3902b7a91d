"""Indexing time and peak memory against document size (issue #12: time linear in size, memory
<= 10x the text size; sizes 1, 5, 20, 50 MB — pass e.g. `--sizes 1 5 20 50`; the default 1 and 5
keeps the run under ~5 minutes on 2 cores).

Each document is the novels of ../shared/data/books (their story text) concatenated (and repeated) to the size, indexed
by `beyondfind index` in a fresh process (2 annotation processes, the CLI default on 2 cores) into
a fresh library. Peak memory is the largest sum over that process and its children, sampled from /proc every
0.2 s, both resident (shared pages counted in every process) and proportional (PSS: shared pages
split among their processes). Prints seconds per MB, the ratio of peak memory to the
text size, and the least-squares fit time = a + b * MB with its largest relative residual.
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import shared_dir


def build_text(books: list[Path], megabytes: float) -> str:
    """Novels without their Project Gutenberg header and footer (with them, the reader would keep
    only the text between the first header and the first footer), joined up to the size."""
    from beyondfind.documents import load_document

    target = int(megabytes * 1_000_000)
    parts, size, k = [], 0, 0
    while size < target:
        doc = load_document(books[k % len(books)])
        text = doc.text[doc.passages[0].start:doc.passages[-1].end]
        parts.append(text)
        size += len(text.encode("utf-8"))
        k += 1
    return "\n\n".join(parts).encode("utf-8")[:target].decode("utf-8", errors="ignore")


def tree_memory_mb(pid: int) -> tuple[float, float]:
    """(resident, proportional) memory of ``pid`` and all its descendants (from /proc), in MB.
    Resident memory counts the pages a forked annotator shares with its parent once per process;
    proportional memory (PSS) splits each shared page among the processes sharing it, so its sum
    is what the machine actually holds."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = dict(line.split(":", 1) for line in (entry / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        children.setdefault(int(fields["PPid"]), []).append(int(entry.name))
    rss = pss = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, ()))
        try:
            rollup = dict(line.split(":", 1) for line in
                          Path(f"/proc/{p}/smaps_rollup").read_text().splitlines()[1:] if ":" in line)
        except OSError:   # the process ended meanwhile
            continue
        rss += int(rollup.get("Rss", "0 kB").split()[0])
        pss += int(rollup.get("Pss", "0 kB").split()[0])
    return rss / 1024, pss / 1024


def index_once(path: Path, library: Path) -> tuple[float, float, float]:
    """(seconds, peak resident MB, peak proportional MB of the whole indexing process tree,
    sampled every 0.2 s) for `beyondfind index path`."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "beyondfind", "index", str(path), "--library", str(library)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_rss = peak_pss = 0.0
    while proc.poll() is None:
        rss, pss = tree_memory_mb(proc.pid)
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        time.sleep(0.2)
    seconds = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"indexing {path} failed: {proc.stderr.read().decode()[-500:]}")
    return seconds, peak_rss, peak_pss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 5])
    args, _ = parser.parse_known_args()
    books = sorted(p for p in (shared_dir() / "data" / "books").glob("*.txt") if "LICENSE" not in p.name)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sorted(args.sizes):
            path = Path(tmp) / f"corpus-{mb:g}MB.txt"
            path.write_text(build_text(books, mb), encoding="utf-8")
            seconds, rss, pss = index_once(path, Path(tmp) / f"lib-{mb:g}.sqlite")
            rows.append((mb, seconds, rss, pss))
            print(f"{mb:5g} MB: {seconds:7.1f} s ({seconds / mb:5.1f} s/MB), peak memory resident {rss:6.0f} MB "
                  f"= {rss / mb:5.1f}x the text, proportional {pss:6.0f} MB = {pss / mb:5.1f}x "
                  "(target <= 10x; the pipeline's fixed cost included)", flush=True)
    if len(rows) >= 2:
        n = len(rows)
        mx = sum(r[0] for r in rows) / n
        my = sum(r[1] for r in rows) / n
        b = sum((r[0] - mx) * (r[1] - my) for r in rows) / sum((r[0] - mx) ** 2 for r in rows)
        a = my - b * mx
        worst = max(abs(r[1] - (a + b * r[0])) / r[1] for r in rows)
        print(f"fit: time = {a:.1f} s + {b:.1f} s/MB x size; largest relative residual {worst:.1%} "
              "(linear when small; with two sizes the fit is exact)")
        for (m0, _t0, r0, p0), (m1, _t1, r1, p1) in zip(rows, rows[1:]):
            print(f"memory per added MB of text, {m0:g} -> {m1:g} MB: resident {(r1 - r0) / (m1 - m0):.1f} MB, "
                  f"proportional {(p1 - p0) / (m1 - m0):.1f} MB (the size-dependent part, without the "
                  "pipeline's fixed cost)")


if __name__ == "__main__":
    main()
