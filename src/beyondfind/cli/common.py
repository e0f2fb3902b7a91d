"""Options and helpers shared by the commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path



def add_library_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--library", type=Path, default=None,
                   help="SQLite library file (default: beyondfind/library.sqlite in the user data directory)")


def add_nlp_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nlp", default=None,
                   help="spaCy pipeline: installed name, path, or 'blank' (default: the shipped pipeline)")


def add_objective_option(p: argparse.ArgumentParser) -> None:
    from ..ranking.objective import DEFAULT_OBJECTIVE, Objective

    names = ", ".join(o.value for o in Objective)

    def objective(text: str) -> Objective:
        try:
            return Objective(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"unknown objective {text!r}; choose one of {names}") from None

    p.add_argument("--objective", type=objective, default=DEFAULT_OBJECTIVE,
                   metavar="{" + names.replace(", ", ",") + "}",
                   help=f"what LDM's trees fit: the judged gain (regression) or nDCG (lambdarank, the paper's "
                        f"LambdaMART); default {DEFAULT_OBJECTIVE.value}")


def add_processes_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--processes", type=positive_int, default=None, metavar="N",
                   help="processes annotating a long document (default: up to 2, one per core)")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def default_processes() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def add_format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("table", "jsonl"), default=None,
                   help="table on a terminal, JSON lines when the output is piped (default), or as asked")


def output_format(args) -> str:
    """``--format`` as given, else a table for a terminal and JSON lines for a pipe or file."""
    return args.format or ("table" if sys.stdout.isatty() else "jsonl")


def progress_factory(total: int, name: str):
    """A progress bar on a terminal; on a pipe or log file, a line every 10 % (long work is never silent)."""
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=total, desc=f"indexing {name}", unit="passage", file=sys.stderr, leave=False)

        def update(n: int) -> None:
            bar.update(n)
            if bar.n >= total:
                bar.close()

        return update

    done = [0, -1]

    def update_line(n: int) -> None:
        done[0] += n
        tenth = done[0] * 10 // max(total, 1)
        if tenth != done[1]:
            done[1] = tenth
            print(f"indexing {name}: {done[0] * 100 // max(total, 1)}% ({done[0]} of {total} passages)",
                  file=sys.stderr, flush=True)

    return update_line


def open_search(args):
    from ..books import BookSearch
    from ..index import Library

    processes = getattr(args, "processes", None) or default_processes()
    return BookSearch(Library(args.library), nlp_name=getattr(args, "nlp", None), progress_factory=progress_factory,
                      processes=processes)


def print_jsonl(rows) -> None:
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
