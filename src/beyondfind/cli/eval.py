"""``beyondfind eval books``, ``beyondfind eval news`` and ``beyondfind eval salience``."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import BeyondfindError
from .common import (add_library_option, add_nlp_option, add_objective_option, add_processes_option, open_search,
                     positive_int)

DEFAULT_BOOK_METHODS = "find,entity-find,bm25,bm25-b0,lm,plm,semantic,lrm-ef,lrm-dl,lrm,ldm"


def add_parsers(sub) -> None:
    p = sub.add_parser("eval", help="evaluate against judgments")
    s = p.add_subparsers(dest="eval_command", required=True)
    b = s.add_parser("books", help="Table-4-style evaluation of book search on judged novels")
    b.add_argument("--judgments", type=Path, required=True, action="append",
                   help="a judgments folder, e.g. ../shared/data/judgments/books; repeat it to report several "
                        "(characters and places): each gets its own table, LDM trains on all of them")
    b.add_argument("--books", type=Path, default=None, help="folder with the novels (default: ../../books from the judgments)")
    b.add_argument("--methods", default=DEFAULT_BOOK_METHODS)
    b.add_argument("--output", type=Path, default=Path("reports"), help="folder for the PNG chart and JSON results")
    b.add_argument("--sensitivity", action="store_true", help="also report LRM's condensed nDCG@5 over a k1 x r grid")
    b.add_argument("--seeds", type=positive_int, default=None, metavar="N",
                   help="also retrain LDM with N LightGBM seeds (one training set per fold) and report the "
                        "mean and spread of its condensed nDCG@5 and nDCG@1: one seed's difference is often noise")
    add_objective_option(b)
    add_library_option(b)
    add_nlp_option(b)
    add_processes_option(b)
    b.set_defaults(func=run_books)
    try:
        from . import eval_news

        eval_news.add_parser(s)
    except ImportError:  # pragma: no cover
        pass
    g = s.add_parser("salience", help="single-document entity salience on GUM (summary-based grades): "
                                       "nDCG@5 and Spearman of F(e,d), first-sentence position, the paper's "
                                       "combination and a leave-one-document-out LambdaMART")
    g.add_argument("--data", type=Path, default=Path("../shared/data"), help="the shared data folder (with gum-ud/)")
    g.add_argument("--no-learned", dest="learned", action="store_false", help="skip the learned model (faster)")
    g.set_defaults(func=run_salience)


def run_salience(args) -> int:
    from ..datasets.gum import gum_documents
    from ..evaluation.salience import salience_report

    if not (args.data / "gum-ud" / "dep").is_dir():
        raise BeyondfindError(f"{args.data} has no gum-ud/dep folder; pass --data pointing at shared/data")
    docs = gum_documents(args.data)
    rows = salience_report(docs, learned=args.learned)
    print(f"GUM salience ({len(docs)} documents; gain = summaries mentioning the entity, 0-5)")
    print(f"{'scorer':54} {'nDCG@5':>7} {'Spearman':>9}")
    for name, v in rows.items():
        print(f"{name:54} {v['nDCG@5']:7.3f} {v['Spearman']:9.3f}")
    base = rows["F(e,d)"]["nDCG@5"]
    best = max(rows, key=lambda k: rows[k]["nDCG@5"])
    print(f"best: {best}, nDCG@5 {rows[best]['nDCG@5'] / base:.2f}x F(e,d)")
    return 0


def run_books(args) -> int:
    from ..books import METHODS, run_method
    from ..datasets.judgments import merge_judgments

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise BeyondfindError(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}")
    from ..evaluation import books as ev

    folders = args.judgments
    sets = [ev.load_judgments(f) for f in folders]
    books_dir = args.books or folders[0].resolve().parent.parent / "books"
    search = open_search(args)
    runner = run_method
    if "ldm" in methods:
        from ..ranking.ldm import leave_one_book_out_runner

        runner = leave_one_book_out_runner(merge_judgments(*sets), books_dir, search.book_for, run_method,
                                           objective=args.objective)
        print(f"ldm: leave-one-book-out ({args.objective.value}; trained on the other books' judgments of every "
              "folder)", file=sys.stderr)
    for folder, judgments in zip(folders, sets):
        if len(folders) > 1:
            print(f"# {folder.name}\n")
        report_books(judgments, books_dir, search, methods, runner, args.output / folder.name)
    if args.seeds and "ldm" in methods:
        print_seed_spread(folders, sets, books_dir, search, runner, args.seeds)
    if args.sensitivity:
        print_sensitivity(sets[0], books_dir, search)
    return 0


def print_seed_spread(folders, sets, books_dir: Path, search, runner, seeds: int) -> None:
    """LDM's condensed nDCG@5 / nDCG@1 per judgments folder over LightGBM seeds 0..N-1."""
    import numpy as np

    from ..evaluation import books as ev

    print(f"\n## LDM over {seeds} seeds (leave-one-book-out; condensed lists): mean, sd, min, max")
    scores: dict[str, dict[str, list[float]]] = {f.name: {"nDCG@5/c": [], "nDCG@1/c": []} for f in folders}
    for seed in range(seeds):
        runner.seed = seed
        for folder, judgments in zip(folders, sets):
            results = ev.evaluate_books(judgments, books_dir, search.book_for, ["ldm"], runner)
            for measure, values in scores[folder.name].items():
                values.append(float(np.mean([r.values[measure] for r in results])))
        print(f"  seed {seed} done", file=sys.stderr)
    for name, measures in scores.items():
        for measure, values in measures.items():
            v = np.array(values)
            print(f"{name:10} {measure.replace('/c', ''):7} mean {v.mean():.3f}  sd {v.std(ddof=1) if len(v) > 1 else 0:.3f}"
                  f"  min {v.min():.3f}  max {v.max():.3f}")


def report_books(judgments, books_dir: Path, search, methods: list[str], runner, output: Path) -> None:
    """Per-book and mean tables (full and condensed lists), paired t-tests, chart and JSON results."""
    import json

    from ..evaluation import books as ev

    results = ev.evaluate_books(judgments, books_dir, search.book_for, methods, runner,
                                progress=lambda s: print(f"  {s}", file=sys.stderr))
    table = ev.mean_table(results)
    books = [bj.book for bj in judgments]
    print(ev.format_table(table, methods, books, condensed=False))
    print()
    print(ev.format_table(table, methods, books, condensed=True))
    print()
    print("## paired t-tests over entities (condensed nDCG@5): t, p")
    for (method, base), (t, p) in sorted(ev.paired_t_tests(results, "nDCG@5/c").items()):
        print(f"{method:12} vs {base:6}  t={t:+6.2f}  p={p:.4f}")
    mean = {m: table[("mean", m)]["nDCG@5/c"] for m in methods}
    for m in ("lrm", "ldm"):
        if m in mean:
            ratios = ", ".join(f"{mean[m] / mean[b]:.2f}x {b}" for b in ("find", "bm25", "bm25-b0", "lrm")
                               if b in mean and b != m and mean[b])
            print(f"{m}: condensed nDCG@5 {mean[m]:.3f} ({ratios})")
    output.mkdir(parents=True, exist_ok=True)
    chart = ev.bar_chart(table, methods, output / "books-ndcg5.png")
    (output / "books-results.json").write_text(json.dumps(
        [{"book": r.book, "entity": r.entity, "method": r.method, **r.values, "unjudged@5": r.unjudged_top5}
         for r in results], indent=1))
    run = output / "books-run.tsv"
    run.write_text("\n".join(ev.run_lines(results)) + "\n")
    print(f"chart: {chart}\nrankings (top {ev.RUN_DEPTH}, TREC run format against the judgments' qrels.txt): {run}\n")


def print_sensitivity(judgments, books_dir, search) -> None:
    """LRM's sensitivity to k1 and r (a report, not tuning: the shipped defaults are the paper's)."""
    from ..books import run_method
    from ..evaluation import books as ev
    from ..retrieval.lrm import LRMSettings

    ks, rs = (1.0, 1.5, 2.0), (0.0, 0.3, 0.5, 1.0)
    print("\n## LRM sensitivity: mean condensed nDCG@5 (rows k1, columns r)")
    print("k1\\r " + " ".join(f"{r:>6}" for r in rs))
    for k1 in ks:
        row = []
        for r in rs:
            settings = LRMSettings(k1=k1, r=r)
            res = ev.evaluate_books(judgments, books_dir, search.book_for, ["lrm"],
                                    lambda b, e, m, s=settings: run_method(b, e, m, s))
            row.append(ev.mean_table(res)[("mean", "lrm")]["nDCG@5/c"])
        print(f"{k1:5} " + " ".join(f"{v:6.3f}" for v in row))
