"""Helpers for the benchmarks: timing and the shared data location."""

import argparse
import statistics
import time
from pathlib import Path


def shared_dir() -> Path:
    p = argparse.ArgumentParser()
    p.add_argument("--shared", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared")
    args, _ = p.parse_known_args()
    return args.shared


def timed(fn, repeat: int = 1):
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, times


def median_ms(times) -> float:
    return statistics.median(times) * 1000


def p95_ms(times) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(0.95 * len(s)))] * 1000


def p99_ms(times) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(0.99 * len(s)))] * 1000
