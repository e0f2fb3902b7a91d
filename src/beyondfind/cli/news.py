"""``beyondfind news rank|add|show|threads``."""

from __future__ import annotations

import sys
from pathlib import Path

from .common import add_format_option, add_nlp_option, output_format, print_jsonl

MODEL_HELP = ("best (default: the learned model, best by leave-one-thread-out MAP), learned (LambdaMART over the "
              "nine features), paper (the paper's tuned saturating combination), fed (mentions in the article "
              "alone), all-ties, or one feature: F_d, Fsubj_d, FirstSenLen, FirstSenPos, F_H, DF_H, F_last, "
              "F_first, CoOcc_H")


def add_parsers(sub) -> None:
    p = sub.add_parser("news", help="rank the entities of news articles using the thread's history")
    s = p.add_subparsers(dest="news_command", required=True)
    r = s.add_parser("rank", help="rank each article of a thread file, history = earlier articles")
    r.add_argument("thread", type=Path, help="thread JSONL (id, date, title, text[, entities])")
    r.add_argument("--model", default="best", help=MODEL_HELP)
    r.add_argument("--gold-entities", action="store_true", help="rank the annotated entities of each article")
    r.add_argument("--top", type=int, default=None)
    add_format_option(r)
    add_nlp_option(r)
    r.set_defaults(func=run_rank)

    a = s.add_parser("add", help="add articles to a stored thread (prints each article's ranking)")
    a.add_argument("--thread", required=True)
    a.add_argument("file", type=Path, help="JSONL with one article per line")
    a.add_argument("--replace", action="store_true", help="replace articles whose id is already stored")
    a.add_argument("--gold-entities", action="store_true")
    _store_option(a)
    add_nlp_option(a)
    a.set_defaults(func=run_add)

    sh = s.add_parser("show", help="ranked entities of a stored article (no NLP: stored statistics only)")
    sh.add_argument("--thread", required=True)
    sh.add_argument("article_id", nargs="?", help="omit to list the thread's articles")
    sh.add_argument("--model", default="best", help=MODEL_HELP)
    add_format_option(sh)
    _store_option(sh)
    sh.set_defaults(func=run_show)

    t = s.add_parser("threads", help="list stored threads")
    _store_option(t)
    t.set_defaults(func=run_threads)


def _store_option(p) -> None:
    p.add_argument("--store", "--library", dest="store", type=Path, default=None,
                   help="SQLite file for threads (default: the library file)")


def open_store(args):
    from ..index import Library
    from ..news.store import ThreadStore

    return ThreadStore(Library(args.store).conn)


def _print(ranking, fmt: str, top: int | None = None) -> None:
    rows = [r for r in ranking if top is None or r.rank <= top]
    if fmt == "jsonl":
        print_jsonl(r.to_dict() for r in rows)
        return
    current = None
    for r in rows:
        if r.article_id != current:
            current = r.article_id
            print(f"\n{current}")
        print(f"  {r.rank:3}. {r.score:6.3f}  {r.entity}")


def run_rank(args) -> int:
    from ..news import combination_for, rank_thread
    from ..news.io import read_thread
    from ..nlp import load_pipeline

    from .. import validate

    validate.count(args.top, "--top")
    model = combination_for(args.model)
    articles = read_thread(args.thread)
    ranking = rank_thread(articles, load_pipeline(args.nlp), model, use_gold=args.gold_entities)
    _print(ranking, output_format(args), args.top)
    ranked = {r.article_id for r in ranking}
    for a in articles:
        if a.id not in ranked:   # said, not silently skipped
            print(f"note: article {a.id!r} has no entities to rank", file=sys.stderr)
    return 0


def run_add(args) -> int:
    from ..news import Thread
    from ..news.io import history_order, read_thread

    thread = Thread(args.thread, library=args.store, nlp=args.nlp)
    articles = history_order(read_thread(args.file))  # validated whole before anything is stored
    for a in articles:
        ranking = thread.add(a, replace=args.replace, use_gold=args.gold_entities)
        top = ", ".join(r.entity for r in ranking[:5])
        print(f"added {a.id} ({a.date or 'no date'}): {top}", file=sys.stderr)
    return 0


def run_show(args) -> int:
    from ..news import combination_for, show_article

    store = open_store(args)
    if not args.article_id:
        for a in store.articles(store.thread_id(args.thread)):
            print(f"{a.date or '----------'}  {a.id}  {a.title}")
        return 0
    _print(show_article(store, args.thread, args.article_id, combination_for(args.model)), output_format(args))
    return 0


def run_threads(args) -> int:
    for name, n in open_store(args).threads():
        print(f"{name}\t{n} articles")
    return 0
