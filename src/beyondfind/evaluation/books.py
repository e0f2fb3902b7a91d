"""``beyondfind eval books``: the seed's Table 4 on the judged books.

For every book, entity and method: nDCG@1,2,3,5 and P@1,2,3,5, both with unjudged passages
counted as gain 0 and on the condensed list (judged passages only), plus the number of unjudged
passages in the top 5. Means per book and overall; paired t-tests over entities.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import BeyondfindError
from ..datasets.judgments import BookJudgments, judged_gain, load_book_judgments
from ..index import IndexedBook
from ..retrieval.ranking import Scored
from .measures import BOOK_MEASURES

Runner = Callable[[IndexedBook, str, str], list[Scored]]  # (book, entity, method) → ranking
RUN_DEPTH = 20   # passages per query kept for the run file


@dataclass(frozen=True)
class EntityResult:
    book: str
    entity: str
    method: str
    values: dict[str, float]      # "nDCG@5" (unjudged = 0) and "nDCG@5/c" (condensed)
    unjudged_top5: int
    top: tuple[tuple[int, int, float], ...] = ()   # (start, end, score) of the first RUN_DEPTH passages


def evaluate_ranking(ranking: list[Scored], book: IndexedBook, judgments) -> tuple[dict[str, float], int]:
    gains = [judged_gain(judgments, book.passages[s.passage].start, book.passages[s.passage].end) for s in ranking]
    all_gains = [j.gain for j in judgments]
    full = [g if g is not None else 0 for g in gains]
    condensed = [g for g in gains if g is not None]
    values = {}
    for m in BOOK_MEASURES:
        values[str(m)] = m.compute(full, all_gains)
        values[f"{m}/c"] = m.compute(condensed, all_gains)
    return values, sum(1 for g in gains[:5] if g is None)


def evaluate_books(judgments: list[BookJudgments], books_dir: Path, load_book: Callable[[Path], IndexedBook],
                   methods: list[str], runner: Runner,
                   progress: Callable[[str], None] | None = None) -> list[EntityResult]:
    results = []
    for bj in judgments:
        path = books_dir / bj.book
        if not path.exists():
            raise BeyondfindError(f"judged book {bj.book} not found in {books_dir}; pass --books DIR")
        book = load_book(path)
        for method in methods:
            if progress:
                progress(f"{bj.book} {method}")
            for entity in bj.entities():
                ranking = runner(book, entity, method)
                values, unjudged = evaluate_ranking(ranking, book, bj.by_entity[entity])
                top = tuple((book.passages[s.passage].start, book.passages[s.passage].end, s.score)
                            for s in ranking[:RUN_DEPTH])
                results.append(EntityResult(bj.book, entity, method, values, unjudged, top))
    return results


def run_lines(results: list[EntityResult]) -> list[str]:
    """The rankings as a run file in the judgments' ``qrels.txt`` convention, tab-separated:
    ``book::entity  Q0  start-end  rank  score  method`` (an entity name holds spaces), so any
    TREC tool can score them against the qrels."""
    return [f"{r.book}::{r.entity}\tQ0\t{start}-{end}\t{k}\t{score:.6f}\t{r.method}"
            for r in results for k, (start, end, score) in enumerate(r.top, 1)]


def mean_table(results: list[EntityResult]) -> dict[tuple[str, str], dict[str, float]]:
    """(book or "mean", method) → mean of each value over entities (and "unjudged@5")."""
    groups: dict[tuple[str, str], list[EntityResult]] = defaultdict(list)
    for r in results:
        groups[(r.book, r.method)].append(r)
        groups[("mean", r.method)].append(r)
    out = {}
    for key, rs in groups.items():
        keys = rs[0].values.keys()
        row = {k: sum(r.values[k] for r in rs) / len(rs) for k in keys}
        row["unjudged@5"] = sum(r.unjudged_top5 for r in rs) / len(rs)
        row["n"] = len(rs)
        out[key] = row
    return out


def paired_t_tests(results: list[EntityResult], measure: str, baselines=("find", "bm25", "lrm")) -> dict[tuple[str, str], tuple[float, float]]:
    """(method, baseline) → (t, p) of a paired t-test over entities on ``measure``."""
    from scipy.stats import ttest_rel

    by = defaultdict(dict)
    for r in results:
        by[r.method][(r.book, r.entity)] = r.values[measure]
    out = {}
    for base in baselines:
        if base not in by:
            continue
        for method, vals in by.items():
            if method == base:
                continue
            keys = sorted(set(vals) & set(by[base]))
            a = [vals[k] for k in keys]
            b = [by[base][k] for k in keys]
            if len(keys) < 2 or a == b:
                out[(method, base)] = (0.0, 1.0)
                continue
            t, p = ttest_rel(a, b)
            out[(method, base)] = (float(t), float(p))
    return out


def format_table(table, methods: list[str], books: list[str], condensed: bool) -> str:
    cols = ["nDCG@1", "nDCG@2", "nDCG@3", "nDCG@5", "P@1", "P@2", "P@3", "P@5"]
    suffix = "/c" if condensed else ""
    title = "condensed lists (judged passages only)" if condensed else "unjudged passages count as gain 0"
    lines = [f"## {title}", f"{'book':28} {'method':12} " + " ".join(f"{c:>7}" for c in cols) + "  unj@5"]
    for book in books + ["mean"]:
        for m in methods:
            row = table.get((book, m))
            if row is None:
                continue
            lines.append(f"{book[:28]:28} {m:12} " + " ".join(f"{row[c + suffix]:7.3f}" for c in cols)
                         + f"  {row['unjudged@5']:5.2f}")
    return "\n".join(lines)


def bar_chart(table, methods: list[str], path: Path, measure: str = "nDCG@5/c") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = [table[("mean", m)][measure] for m in methods]
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(methods, values, color=["#c44" if m in ("ldm", "lrm") else "#888" for m in methods])
    ax.set_ylabel(measure.replace("/c", " (condensed)"))
    ax.set_title("Descriptive passage ranking, mean over judged entities")
    for i, v in enumerate(values):
        ax.text(i, v + 0.01, f"{v:.3f}", ha="center", fontsize=8)
    plt.xticks(rotation=30)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def load_judgments(directory: str | Path) -> list[BookJudgments]:
    return load_book_judgments(directory)
