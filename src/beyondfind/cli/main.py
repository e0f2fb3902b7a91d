"""``beyondfind``: the command-line entry point. Errors print one line and exit non-zero."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

from .. import BeyondfindError, __version__
from ..gctools import cyclic_gc_paused

# The module of this package that defines each command, in the order ``--help`` lists them. A
# command line that names one builds (and imports) only that module's parsers: a cold query does
# not pay for the evaluation, training and server commands (a test checks this table against the
# full parser).
COMMAND_MODULES: dict[str, str] = {
    "rank": "rank", "demo": "rank", "index": "index", "documents": "index", "entities": "index",
    "eval": "eval", "nlp": "nlp", "train": "train", "news": "news", "serve": "serve"}


# Commands that answer one query and exit. numpy's OpenBLAS starts a second thread at import that
# busy-waits: ~0.1 CPU-s and ~30 ms of a cold `beyondfind rank`, for matrix products that are tiny
# here. They run it single-threaded unless the user set OPENBLAS_NUM_THREADS (training and
# indexing keep the default).
QUERY_COMMANDS = frozenset({"rank", "demo", "entities", "documents"})


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser: every command's, or only ``command``'s when it is one."""
    modules = [COMMAND_MODULES[command]] if command in COMMAND_MODULES else dict.fromkeys(COMMAND_MODULES.values())
    parser = argparse.ArgumentParser(prog="beyondfind", description="Entity-centric search beyond Ctrl-F.")
    parser.add_argument("--version", action="version", version=f"beyondfind {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in modules:
        importlib.import_module(f".{name}", __package__).add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command line; ``argv`` None: this process's own (the ``beyondfind`` program), which
    exits right after."""
    as_program = argv is None
    argv = sys.argv[1:] if argv is None else argv
    if as_program and argv and argv[0] in QUERY_COMMANDS and "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        with cyclic_gc_paused():   # the command's imports: objects that live as long as the process
            parser = build_parser(argv[0] if argv else None)
        return _run(parser.parse_args(argv))
    finally:
        if as_program:
            # The interpreter's exit ends with a full collection walking every object (~20 ms
            # after a query); frozen objects are skipped, and the exit frees memory anyway.
            gc.freeze()


def _run(args) -> int:
    try:
        return args.func(args) or 0
    except BeyondfindError as exc:
        print(f"beyondfind: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("beyondfind: interrupted; the library is unchanged by the unfinished step", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where = getattr(exc, "filename", None)
        print(f"beyondfind: error: {exc.strerror or exc}" + (f": {where}" if where else ""), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
