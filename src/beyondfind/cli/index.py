"""``beyondfind index FILE...``, ``beyondfind documents``, ``beyondfind entities DOC``."""

from __future__ import annotations

from .common import (add_format_option, add_library_option, add_nlp_option, add_processes_option, open_search,
                     output_format, print_jsonl)


def add_parsers(sub) -> None:
    p = sub.add_parser("index", help="annotate documents once and store them in the library")
    p.add_argument("files", nargs="+", metavar="PATH", help="document files, or folders of them")
    p.add_argument("--dask", action="store_true",
                   help="annotate on a Dask cluster (a local one by default); resumable: indexed documents are skipped")
    p.add_argument("--workers", type=int, default=None, help="local Dask worker processes (default 2)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786, instead of a local cluster")
    add_library_option(p)
    add_nlp_option(p)
    add_processes_option(p)
    p.set_defaults(func=run_index)

    d = sub.add_parser("documents", help="list the library's documents")
    add_format_option(d)
    add_library_option(d)
    d.set_defaults(func=run_documents)

    e = sub.add_parser("entities", help="a document's entities with mention counts and aliases")
    e.add_argument("document")
    add_format_option(e)
    e.add_argument("--min-mentions", type=int, default=2)
    add_library_option(e)
    add_nlp_option(e)
    add_processes_option(e)
    e.set_defaults(func=run_entities)


def run_index(args) -> int:
    if args.dask or args.workers is not None or args.scheduler:
        return run_index_dask(args)
    from ..index.distributed import document_paths

    search = open_search(args)
    for f in document_paths(args.files):
        doc_id, new = search.index(f)
        info = search.library.get(doc_id)
        print(f"{'indexed' if new else 'unchanged'}\t{doc_id}\t{info.n_passages} passages\t{f}")
    return 0


def run_index_dask(args) -> int:
    import sys

    from .. import BeyondfindError
    from ..index import Library
    from ..index.distributed import index_on_dask

    if args.workers is not None and args.scheduler:
        raise BeyondfindError("give --workers (a local cluster) or --scheduler (a running one), not both")

    def progress(path: str, done: int, total: int) -> None:
        print(f"[{done}/{total}] {path}", file=sys.stderr, flush=True)

    report = index_on_dask(Library(args.library), args.files, args.nlp, workers=args.workers,
                           scheduler=args.scheduler, progress=progress)
    for path, doc_id in report.indexed:
        print(f"indexed\t{doc_id}\t{path}")
    for path, doc_id in report.skipped:
        print(f"unchanged\t{doc_id}\t{path}")
    for path, reason in report.failed:
        print(f"failed\t-\t{path}\t{reason}")
    if report.failed:
        print(f"beyondfind: {len(report.failed)} of {len(report.failed) + len(report.indexed) + len(report.skipped)} "
              "documents failed (reasons above); the others are indexed, and running the same command again "
              "retries only the failed ones", file=sys.stderr)
        return 2
    return 0


def run_documents(args) -> int:
    search = open_search(args)
    docs = search.library.documents()
    if output_format(args) == "jsonl":
        print_jsonl(d.to_dict() for d in docs)
    else:
        for d in docs:
            print(f"{d.id:4}  {d.n_passages:6} passages  {d.title or d.name}  ({d.name})")
    return 0


def run_entities(args) -> int:
    from ..index.entities import list_entities

    search = open_search(args)
    book = search.book_for(args.document)
    ents = list_entities(book, args.min_mentions)
    if output_format(args) == "jsonl":
        print_jsonl(e.to_dict() for e in ents)
    else:
        narrators = book.annotations.narrators
        if len(narrators) > 1 and not book.annotations.narrator:
            whose = ("each journal's, letter's or narrative's \"I\" counts for its writer" if book.sections
                     else "their \"I\" counts for none of them")
            print(f"told by several narrators: {' / '.join(narrators)} ({whose})")
        for e in ents:
            note = "  [narrator]" if e.narrator else f"  [may be: {' / '.join(e.ambiguous[:4])}]" if e.ambiguous else ""
            print(f"{e.mentions:6}  {e.label:4}  {e.name}" + (f"  ({' / '.join(e.aliases[:6])})" if e.aliases else "")
                  + note)
    return 0
