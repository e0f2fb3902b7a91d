"""``beyondfind``: the command-line entry point. Errors print one line and exit non-zero."""

from __future__ import annotations

import argparse
import sys

from .. import BeyondfindError, __version__


def build_parser() -> argparse.ArgumentParser:
    from . import eval as eval_cmd
    from . import index, news, nlp, rank, serve, train

    parser = argparse.ArgumentParser(prog="beyondfind", description="Entity-centric search beyond Ctrl-F.")
    parser.add_argument("--version", action="version", version=f"beyondfind {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (rank, index, eval_cmd, nlp, train, news, serve):
        module.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
