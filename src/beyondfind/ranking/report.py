"""Cross-validated LDM reports: leave-one-book-out folds, feature-group ablation, importance chart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..datasets.judgments import BookJudgments
from ..evaluation.books import evaluate_books, mean_table
from ..features import FEATURE_GROUPS, FEATURE_NAMES
from .ldm import LDMModel, leave_one_book_out_runner
from .objective import DEFAULT_OBJECTIVE, Objective


def lobo_scores(judgments: list[BookJudgments], books_dir: Path, load_book: Callable, fallback: Callable,
                feature_names: tuple[str, ...] = FEATURE_NAMES, runner=None,
                objective: Objective = DEFAULT_OBJECTIVE) -> dict[str, dict[str, float]]:
    """Per held-out book (and "mean"): the mean of every measure for ``ldm`` trained on the others."""
    runner = runner or leave_one_book_out_runner(judgments, books_dir, load_book, fallback, feature_names,
                                                 objective=objective)
    results = evaluate_books(judgments, books_dir, load_book, ["ldm"], runner)
    return {book: row for (book, _m), row in mean_table(results).items()}


def group_ablation(judgments, books_dir, load_book, fallback,
                   objective: Objective = DEFAULT_OBJECTIVE) -> dict[str, float]:
    """Mean condensed nDCG@5 with all features and without each group."""
    out = {"all": lobo_scores(judgments, books_dir, load_book, fallback, objective=objective)["mean"]["nDCG@5/c"]}
    for group, names in FEATURE_GROUPS.items():
        keep = tuple(n for n in FEATURE_NAMES if n not in names)
        out[f"-{group}"] = lobo_scores(judgments, books_dir, load_book, fallback, keep,
                                       objective=objective)["mean"]["nDCG@5/c"]
    return out


def importance_chart(model: LDMModel, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    imp = sorted(model.importance().items(), key=lambda kv: kv[1])
    total = sum(v for _k, v in imp) or 1.0
    fig, ax = plt.subplots(figsize=(7, 0.28 * len(imp) + 1))
    ax.barh([k for k, _v in imp], [v / total for _k, v in imp], color="#46a")
    ax.set_xlabel("share of total gain")
    ax.set_title("LDM feature importance (gain)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
