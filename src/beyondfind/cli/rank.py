"""``beyondfind rank DOC --entity NAME`` and ``beyondfind demo``."""

from __future__ import annotations

from ..api import BUNDLED_BOOK, Book
from ..ranking.methods import DEFAULT_METHOD, METHODS, methods_help
from .common import (add_format_option, add_library_option, add_nlp_option, add_processes_option, open_search,
                     output_format, print_jsonl)

METHOD_HELP = "ranking method (default ldm). " + methods_help()
BEFORE_HELP = ("no spoilers: only passages ending before a character offset (1200), a percentage of the text "
               "(40%%) or the start of a chapter (ch:12)")


def add_parsers(sub) -> None:
    p = sub.add_parser("rank", help="rank a document's passages by how well they describe an entity")
    p.add_argument("document", help="document file (.txt .epub .html .md .csv .jsonl) or library id")
    p.add_argument("--entity", "-e", required=True, help="the name, as selected in the text")
    p.add_argument("--top", type=int, default=10, help="number of passages (default 10)")
    p.add_argument("--method", "-m", default=DEFAULT_METHOD, choices=list(METHODS), metavar="METHOD",
                   help=METHOD_HELP)
    p.add_argument("--before", default=None, metavar="POSITION", help=BEFORE_HELP)
    p.add_argument("--explain", action="store_true", help="show the evidence behind each score")
    add_format_option(p)
    add_library_option(p)
    add_nlp_option(p)
    add_processes_option(p)
    p.set_defaults(func=run_rank)

    d = sub.add_parser("demo", help="rank 'Mary Jane' in the bundled Adventures of Huckleberry Finn")
    d.add_argument("--entity", "-e", default="Mary Jane")
    d.add_argument("--top", type=int, default=5)
    d.add_argument("--method", "-m", default=DEFAULT_METHOD, choices=list(METHODS), metavar="METHOD",
                   help=METHOD_HELP)
    add_library_option(d)
    d.set_defaults(func=run_demo, explain=False, before=None, format="table", nlp=None)


def _check_top(top: int) -> None:
    from .. import BeyondfindError

    if top < 1:
        raise BeyondfindError(f"--top must be at least 1 (got {top})")


def run_rank(args) -> int:
    _check_top(args.top)
    search = open_search(args)
    book = Book(search.book_for(args.document), search)
    results = book.rank(args.entity, args.top, args.before, args.method, args.explain)
    if output_format(args) == "jsonl":
        print_jsonl(r.to_dict() for r in results)
    else:
        print(format_table(results, f"{args.entity} — {book.title} ({args.method})"))
    return 0


def run_demo(args) -> int:
    args.document = str(BUNDLED_BOOK)
    return run_rank(args)


def format_table(results, title: str) -> str:
    import shutil   # the table is for a terminal; JSON lines need neither
    import textwrap

    width = min(100, shutil.get_terminal_size((100, 20)).columns)
    lines = [title, "=" * min(width, len(title))]
    for r in results:
        head = f"#{r.rank}  score {r.score:.3f}  [{r.start}:{r.end}]" + (f"  {r.chapter[:40]}" if r.chapter else "")
        lines.append(head)
        body = " ".join(r.text.split())
        if len(body) > 600:
            body = body[:600] + " …"
        lines += textwrap.wrap(body, width=width, initial_indent="    ", subsequent_indent="    ")
        if r.explain:
            if r.why:
                lines.append("    why: " + "; ".join(r.why))
            facts = {k: v for k, v in r.explain.items() if k in ("EF", "CR", "g", "lrm")}
            lines.append("    " + ", ".join(f"{k}={v}" for k, v in facts.items()))
            if "fused_ranks" in r.explain:   # a place: LDM's order fused with Find's and BM25 b=0's
                ranks = ", ".join(f"{m} #{'–' if k is None else k}" for m, k in r.explain["fused_ranks"].items())
                lines.append(f"    fused ranks: {ranks}")
        lines.append("")
    if not results:
        lines.append("(no passages)")
    return "\n".join(lines)
