"""``beyondfind nlp train``, ``evaluate``, ``pronouns`` and ``gazetteer``."""

from __future__ import annotations

from pathlib import Path

from .common import add_nlp_option, add_processes_option, default_processes, positive_int

DEFAULT_DATA = Path("../shared/data")


def add_parsers(sub) -> None:
    p = sub.add_parser("nlp", help="train or evaluate the NLP pipeline")
    s = p.add_subparsers(dest="nlp_command", required=True)
    t = s.add_parser("train", help="rebuild the shipped pipeline from shared/data (~10 min on 2 cores)")
    t.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data directory")
    t.add_argument("--build", type=Path, default=Path("build/nlp"), help="working directory for corpora and logs")
    t.add_argument("--output", type=Path, default=None, help="where to write the pipeline (default: the package)")
    t.add_argument("--max-steps", type=positive_int, default=None,
                   help="training steps of each half (default: those of the shipped pipeline)")
    t.set_defaults(func=run_train)
    e = s.add_parser("evaluate", help="NER, POS/UAS/LAS and pronoun-resolution scores on held-out data")
    e.add_argument("--data", type=Path, default=DEFAULT_DATA)
    e.add_argument("--indexed", action="store_true",
                   help="also index the LitBank test novels' full texts as `beyondfind index` does and score "
                        "the stored mentions and pronoun links in the annotated excerpts (~3 min)")
    e.add_argument("--library", type=Path, default=None,
                   help="with --indexed: the library to index them into and reuse (default: a temporary one)")
    add_processes_option(e)
    add_nlp_option(e)
    e.set_defaults(func=run_evaluate)
    r = s.add_parser("pronouns", help="train the learned pronoun resolver on LitBank train files and compare it "
                                      "with the rules on the dev and test files")
    r.add_argument("--data", type=Path, default=DEFAULT_DATA)
    add_nlp_option(r)
    r.set_defaults(func=run_pronouns)
    g = s.add_parser("gazetteer", help="rebuild the shipped place-name list from WordNet (shared/data/nltk_data)")
    g.add_argument("--data", type=Path, default=DEFAULT_DATA)
    g.set_defaults(func=run_gazetteer)


def _check_data(data: Path, folder: str = "litbank") -> None:
    from .. import BeyondfindError

    if not (data / folder).is_dir():
        raise BeyondfindError(f"{data} has no {folder}/ folder; pass --data pointing at shared/data")


def run_train(args) -> int:
    from ..nlp.training.train import SHIPPED_MODEL_DIR, TrainSettings, train_pipeline

    _check_data(args.data)
    out = train_pipeline(TrainSettings(args.data, args.build, args.output or SHIPPED_MODEL_DIR,
                                       args.max_steps or TrainSettings.max_steps))
    print(f"pipeline written to {out}")
    return 0


def run_evaluate(args) -> int:
    from ..nlp import load_pipeline
    from ..nlp.evaluate import evaluate_all, format_report

    _check_data(args.data)
    nlp = load_pipeline(args.nlp)
    print(format_report(evaluate_all(nlp, args.data)))
    if args.indexed:
        print()
        print(_evaluate_indexed(args, nlp))
    return 0


def _evaluate_indexed(args, nlp) -> str:
    import tempfile

    from ..evaluation.litbank import evaluate_indexed, format_indexed
    from ..index import Library, index_document

    with tempfile.TemporaryDirectory() as tmp:
        library = Library(args.library or Path(tmp) / "litbank-test.sqlite")

        def load_book(path: Path):
            doc_id, _new = index_document(library, path, lambda: nlp, processes=args.processes or default_processes())
            return library.load(doc_id)

        return format_indexed(evaluate_indexed(args.data, load_book))


def run_pronouns(args) -> int:
    from ..nlp import load_pipeline
    from ..nlp.training.pronouns import compare_resolvers

    _check_data(args.data)
    report = compare_resolvers(load_pipeline(args.nlp), args.data)
    print("Pronoun → named antecedent accuracy (LitBank coreference; learned = LightGBM re-ranking the rules' "
          "candidates, trained on the train files)")
    for split, row in report.items():
        print(f"{split:5} rules {row['rules']:.3f}  learned {row['learned']:.3f}  ({row['pronouns']} pronouns)")
    return 0


def run_gazetteer(args) -> int:
    from ..nlp.training.gazetteer import SHIPPED, WORDNET, build_gazetteer

    _check_data(args.data, str(WORDNET))
    print(f"{build_gazetteer(args.data)} place names written to {SHIPPED}")
    return 0
