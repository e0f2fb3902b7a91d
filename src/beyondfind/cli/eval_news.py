"""``beyondfind eval news``: Table-1-style report, cross-validated over judged threads."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import BeyondfindError
from .common import add_nlp_option


def add_parser(sub) -> None:
    n = sub.add_parser("news", help="Table-1-style evaluation of news entity ranking")
    n.add_argument("--judgments", type=Path, required=True, help="e.g. ../shared/data/judgments/news")
    n.add_argument("--threads", type=Path, default=None, help="thread JSONL folder (default: ../../news/meantime)")
    n.add_argument("--output", type=Path, default=Path("reports"))
    n.add_argument("--write-params", action="store_true",
                   help="tune on all judged threads and write the shipped combination parameters")
    add_nlp_option(n)
    n.set_defaults(func=run_news)


def run_news(args) -> int:
    from ..evaluation import news as ev
    from ..news.combine import SHIPPED_PARAMS, Combination, tune
    from ..news.learned import SHIPPED as LEARNED_MODEL
    from ..nlp import load_pipeline

    judgments = ev.load_news_judgments(args.judgments)
    threads_dir = args.threads or args.judgments.resolve().parent.parent / "news" / "meantime"
    nlp = load_pipeline(args.nlp)
    threads = {}
    for name, labels in sorted(judgments.items()):
        path = threads_dir / f"{name}.jsonl"
        if not path.exists():
            raise BeyondfindError(f"judged thread {name} not found at {path}; pass --threads DIR")
        print(f"  annotating {name}", file=sys.stderr)
        threads[name] = ev.judged_articles(path, labels, nlp, use_gold=True)
    table = ev.cross_validate(threads)
    print("Gold entities; tuned rows are leave-one-thread-out (tuned on the other threads). "
          "P@k and MAP tie-aware, 'Related' not relevant.")
    print(ev.format_table(table))
    best, learned, fed, ties = (table[k]["mean"]["MAP"] for k in ("best (all nine, tuned)", ev.LEARNED, "F(e,d)",
                                                                    "all-ties"))
    print(f"\npaper's tuned combination MAP {best:.3f} = {best / fed:.3f}x F(e,d) ({fed:.3f}); "
          f"learned {learned:.3f} = {learned / fed:.3f}x; all-ties {ties:.3f}")
    best = max(best, learned)
    system = {name: ev.judged_articles(threads_dir / f"{name}.jsonl", labels, nlp, use_gold=False)
              for name, labels in sorted(judgments.items())}
    sys_table = ev.cross_validate(system, ("F(e,d)", "FirstSenPos(e,d)", "F(e,d) + FirstSenPos(e,d)",
                                           "best (all nine, tuned)", ev.LEARNED))
    print("\nThe product's own entities (unjudged ones count as not relevant; a judged entity the system "
          "misses counts 0; tuned rows leave-one-thread-out on system entities):")
    print(ev.format_table(sys_table))
    for name, arts in system.items():
        cands = [n for a in arts for n, _f in a.candidates]
        unjudged = sum(1 for n in cands if n.startswith("unjudged: "))
        found = sum(len({n for n, _f in a.candidates if a.labels.get(n) == ev.RELEVANT}) for a in arts)
        print(f"  {name}: {len(cands)} system entities, {unjudged} unjudged; "
              f"{found} of {sum(a.n_relevant for a in arts)} relevant judged entities found")
    sys_best = max(sys_table["best (all nine, tuned)"]["mean"]["MAP"], sys_table[ev.LEARNED]["mean"]["MAP"])
    print(f"system best MAP {sys_best:.3f} = {sys_best / best:.3f}x the gold-entity best ({best:.3f})")
    models = {t: tune([a.query() for u, xs in threads.items() if u != t for a in xs]) for t in threads}
    curves = {"best (CV)": ev.map_by_history(lambda t: models[t], threads),
              "F(e,d)": ev.map_by_history(lambda _t: Combination.single("F_d"), threads)}
    chart = ev.history_chart(curves, args.output / "news-map-by-history.png")
    print(f"chart: {chart}")
    if args.write_params:
        model = ev.tune_all(threads)
        SHIPPED_PARAMS.write_text(json.dumps({**model.to_json(), "tuned_on": sorted(threads)}, indent=1))
        learned = ev.train_learned([a for xs in threads.values() for a in xs])
        learned.save()
        print(f"combination parameters written to {SHIPPED_PARAMS}; learned model to {LEARNED_MODEL}")
    return 0
