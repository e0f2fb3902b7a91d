"""Options and helpers shared by the commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..books import BookSearch
from ..index import Library


def add_library_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--library", type=Path, default=None,
                   help="SQLite library file (default: beyondfind/library.sqlite in the user data directory)")


def add_nlp_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nlp", default=None,
                   help="spaCy pipeline: installed name, path, or 'blank' (default: the shipped pipeline)")


def progress_factory(total: int, name: str):
    from tqdm import tqdm

    bar = tqdm(total=total, desc=f"indexing {name}", unit="passage", file=sys.stderr, leave=False,
               disable=not sys.stderr.isatty())

    def update(n: int) -> None:
        bar.update(n)
        if bar.n >= total:
            bar.close()

    return update


def open_search(args) -> BookSearch:
    return BookSearch(Library(args.library), nlp_name=getattr(args, "nlp", None), progress_factory=progress_factory)


def print_jsonl(rows) -> None:
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
