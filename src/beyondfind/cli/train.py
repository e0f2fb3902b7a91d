"""``beyondfind train ldm`` (leave-one-book-out report, then the final model),
``beyondfind train keywords`` (re-mine the informative keyword list) and ``beyondfind train
vectors`` (the word vectors the text signal uses; retrain ``ldm`` after it)."""

from __future__ import annotations

import sys
from pathlib import Path

from .common import add_library_option, add_nlp_option, add_objective_option, add_processes_option, open_search


def add_parsers(sub) -> None:
    p = sub.add_parser("train", help="train learned models")
    s = p.add_subparsers(dest="train_command", required=True)
    t = s.add_parser("ldm", help="learned ranker (LDM): leave-one-book-out report, then train on all judged books")
    t.add_argument("--judgments", type=Path, required=True, action="append",
                   help="a judgments folder (repeat for characters and places); trains on all of them")
    t.add_argument("--books", type=Path, default=None)
    t.add_argument("--output", type=Path, default=None, help="model path without suffix (default: the package's)")
    t.add_argument("--report", type=Path, default=Path("reports"), help="folder for the importance chart")
    t.add_argument("--ablation", action="store_true", help="also cross-validate without each feature group")
    add_objective_option(t)
    add_library_option(t)
    add_nlp_option(t)
    add_processes_option(t)
    t.set_defaults(func=run_ldm)
    k = s.add_parser("keywords", help="mine the informative keywords from LitBank (evaluation books excluded)")
    k.add_argument("--data", type=Path, default=Path("../shared/data"))
    k.set_defaults(func=run_keywords)
    v = s.add_parser("vectors", help="word vectors for the text signal from raw novels (PPMI-SVD, about two minutes)")
    v.add_argument("--data", type=Path, default=Path("../shared/data"),
                   help="the folder holding books/ and litbank/original/")
    v.add_argument("--output", type=Path, default=None, help="where to write (default: the package's)")
    v.set_defaults(func=run_vectors)


def run_ldm(args) -> int:
    from ..books import run_method
    from ..datasets.judgments import load_book_judgments, merge_judgments
    from ..features import text_signal
    from ..ranking import ldm, report
    from ..ranking.calibration import fit as fit_calibration
    from ..ranking.calibration import reliability

    judgments = merge_judgments(*(load_book_judgments(f) for f in args.judgments))
    books_dir = args.books or args.judgments[0].resolve().parent.parent / "books"
    search = open_search(args)
    print("leave-one-book-out (train on the other books, test on this one):")
    runner = ldm.leave_one_book_out_runner(judgments, books_dir, search.book_for, run_method, objective=args.objective)
    scores = report.lobo_scores(judgments, books_dir, search.book_for, run_method, runner=runner)
    print(f"{'held-out book':30} {'nDCG@5/c':>9} {'P@5/c':>7} {'nDCG@5':>7} {'unj@5':>6}")
    for book in [bj.book for bj in judgments] + ["mean"]:
        row = scores[book]
        print(f"{book:30} {row['nDCG@5/c']:9.3f} {row['P@5/c']:7.3f} {row['nDCG@5']:7.3f} {row['unjudged@5']:6.2f}")
    if args.ablation:
        print("\nfeature-group ablation (mean condensed nDCG@5, leave-one-book-out):")
        for name, value in report.group_ablation(judgments, books_dir, search.book_for, run_method,
                                                       args.objective).items():
            print(f"  {name:12} {value:.3f}")
    held = ldm.held_out_scores(judgments, books_dir, search.book_for, runner)
    calibrations = {}
    for key, label, values, rows in (("calibration", "persons (LDM score)", held.raw, ~held.place),
                                     ("place_calibration", "places (fused score)", held.fused, held.place)):
        if not rows.any():
            continue
        calibrations[key] = fit_calibration(values[rows], held.gains[rows])
        print(f"\ncalibration on held-out books, {label}, P(Good or Perfect): predicted vs observed (passages)")
        for low, predicted, observed, n in reliability(calibrations[key](values[rows]), held.gains[rows]):
            print(f"  p >= {low:.2f}: {predicted:.2f} vs {observed:.2f} ({n})")
    print("\ntraining the final model on all judged books …", file=sys.stderr)
    meta = {"trained_on": [bj.book for bj in judgments], "lobo_ndcg5_condensed": round(scores["mean"]["nDCG@5/c"], 4),
            **{key: c.to_dict() for key, c in calibrations.items()}}
    model, text_model, ts = ldm.train_final(judgments, books_dir, search.book_for, meta, args.objective)
    model.meta["pairs"] = int(len(ts.y))
    out = args.output or ldm.SHIPPED_MODEL
    model.save(out)
    text_out = out.with_name("text_signal.npy") if args.output else text_signal.SHIPPED
    text_model.save(text_out)
    chart = report.importance_chart(model, args.report / "ldm-importance.png")
    print(f"model: {out}.txt / {out}.json ({len(ts.y)} judged pairs); text signal: {text_out}\n"
          f"importance chart: {chart}")
    return 0


def run_keywords(args) -> int:
    from ..features.keywords import KEYWORDS_FILE, write_keywords

    mined = write_keywords(args.data)
    print(", ".join(w for w, _ in mined))
    print(f"written to {KEYWORDS_FILE}")
    return 0


def run_vectors(args) -> int:
    from ..features import word_vectors

    vectors = word_vectors.train(word_vectors.corpus_texts(args.data))
    out = args.output or word_vectors.SHIPPED
    vectors.save(out)
    print(f"{len(vectors.words)} words, {vectors.dimensions} dimensions: {out}\n"
          "the shipped text signal and LDM were trained with the old vectors: run `beyondfind train ldm`")
    return 0
