"""``beyondfind eval news``: the seed's Table 1 on the judged threads.

Features are computed once per thread (each article against only the articles before it); every
configuration is then scored with tie-aware P@3, P@5 and MAP ("Relevant" only counts as relevant).
Tuned configurations are cross-validated leave-one-thread-out: tuned on the other judged threads,
tested on this one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import BeyondfindError
from ..news import rank_thread
from ..news.combine import Combination, Query, mean_ap, tune
from ..news.learned import LearnedModel
from ..news.identity import compact, is_acronym, normalize, same_entity, words
from ..news.io import read_thread
from ..news.measures import average_precision, precision_at
from ..news.model import FEATURE_LABELS, FEATURES


RELEVANT = "Relevant"


@dataclass(frozen=True)
class EntityJudgment:
    label: str                         # Relevant, Related, NotRelevant, NotAnEntity
    mentions: tuple[str, ...]          # the strings the judged entity is mentioned by


@dataclass(frozen=True)
class JudgedArticle:
    thread: str
    article_id: str
    position: int                      # |H|: articles before it
    candidates: tuple[tuple[str, dict], ...]
    labels: dict[str, str]             # judged entity name → label
    system: bool = False               # candidates are the product's own entities, not the judged ones

    @property
    def n_relevant(self) -> int:
        return sum(1 for label in self.labels.values() if label == RELEVANT)

    def query(self) -> Query:
        return [(f, self.labels.get(name) == RELEVANT) for name, f in self.candidates]

    def ranking(self, score) -> list[tuple[float, bool]]:
        """(score, relevant) per candidate. For system entities a judged entity counts once: the
        best-scored candidate matched to it; others, and unjudged candidates, are not relevant."""
        scored = sorted(((score(f), name) for name, f in self.candidates), key=lambda x: -x[0])
        seen: set[str] = set()
        out = []
        for s, name in scored:
            relevant = self.labels.get(name) == RELEVANT and name not in seen
            seen.add(name)
            out.append((s, relevant))
        return out

    def average_precision(self, score) -> float:
        return average_precision(self.ranking(score), self.n_relevant if self.system else None)


def load_news_judgments(directory: Path) -> dict[str, dict[str, dict[str, EntityJudgment]]]:
    """thread → article id → judged entity name → judgment."""
    files = sorted(Path(directory).glob("*.jsonl"))
    if not files:
        raise BeyondfindError(f"no news judgment files (*.jsonl) in {directory}")
    out: dict = defaultdict(lambda: defaultdict(dict))
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out[f.stem][r["article_id"]][r["entity"]] = EntityJudgment(r["label"], tuple(r.get("mentions") or ()))
    return out


def _name_core(form: str) -> str:
    """The name inside a mention: its words with a capital or a digit ("the recently announced
    iPhone 4" → "iphone 4"), possessives and case dropped."""
    return " ".join(w.lower() for w in words(form) if any(c.isupper() or c.isdigit() for c in w))


def _spelling(form: str) -> str | None:
    """The key spelling variants share ("DaimlerChrysler" ~ "Daimler Chrysler")."""
    return compact(normalize(form))


def judged_name(surface: str, judged: dict[str, EntityJudgment], aliases: tuple[str, ...] = ()) -> str | None:
    """The judged entity a system entity names: its normalised form (or, failing that, one of the
    article's other forms of it: "Papermaster" for "Mark Papermaster") equals the judged name's or
    one of its mention strings', or the names inside them are equal, or they are spelling variants
    (:func:`~beyondfind.news.identity.compact`), or one is the acronym of the other (GM ~ General
    Motors)."""
    for key_of in (normalize, _name_core, _spelling):   # the strictest comparison first
        for form_of_entity in (surface, *aliases):
            key = key_of(form_of_entity)
            for name, j in judged.items():
                if key and any(key_of(form) == key for form in (name, *j.mentions)):
                    return name
    for name, j in judged.items():
        if any(same_entity(surface, form) for form in (name, *j.mentions) if is_acronym(surface) or is_acronym(form)):
            return name
    return None


def judged_articles(thread_file: Path, judgments: dict[str, dict[str, EntityJudgment]], nlp,
                    use_gold: bool = True) -> list[JudgedArticle]:
    articles = read_thread(thread_file, warn=lambda _m: None)
    ranked = rank_thread(articles, nlp, Combination.all_ties(), use_gold=use_gold)
    by_article: dict[str, list] = defaultdict(list)
    for r in ranked:
        by_article[r.article_id].append((r.entity, r.features, r.aliases))
    out = []
    for pos, a in enumerate(sorted(articles, key=lambda a: (a.date or "", 0))):
        if a.id in judgments:
            judged = judgments[a.id]
            cands = [(n, f) for n, f, _aliases in by_article.get(a.id, [])]
            if not use_gold:
                cands = [(judged_name(n, judged, aliases) or f"unjudged: {n}", f)
                         for n, f, aliases in by_article.get(a.id, [])]
            out.append(JudgedArticle(thread_file.stem, a.id, pos, tuple(cands),
                                     {n: j.label for n, j in judged.items()}, system=not use_gold))
    return out


def measures(model: Combination, articles: list[JudgedArticle]) -> dict[str, float]:
    arts = [a for a in articles if a.n_relevant and (a.system or any(r for _f, r in a.query()))]
    if not arts:
        return {"P@3": 0.0, "P@5": 0.0, "MAP": 0.0, "n": 0}
    ranked = [a.ranking(model.score) for a in arts]
    return {"P@3": sum(precision_at(x, 3) for x in ranked) / len(ranked),
            "P@5": sum(precision_at(x, 5) for x in ranked) / len(ranked),
            "MAP": sum(a.average_precision(model.score) for a in arts) / len(arts), "n": len(arts)}


def configurations() -> dict[str, tuple[str, ...] | None]:
    """Name → features to tune (None: fixed). Every feature alone, each with F(e,d), all nine."""
    out: dict[str, tuple[str, ...] | None] = {"all-ties": None}
    for f in FEATURES:
        out[FEATURE_LABELS[f]] = None
    for f in FEATURES:
        if f != "F_d":
            out[f"F(e,d) + {FEATURE_LABELS[f]}"] = ("F_d", f)
    out["best (all nine, tuned)"] = FEATURES
    out[LEARNED] = FEATURES
    return out


LEARNED = "learned (LambdaMART, nine features)"


def train_learned(articles: list[JudgedArticle]) -> LearnedModel:
    """LambdaMART on judged articles: one query per article, Relevant = 1."""
    return LearnedModel.train([a.query() for a in articles])


def fixed_model(name: str) -> Combination:
    if name == "all-ties":
        return Combination.all_ties()
    feature = next(f for f, label in FEATURE_LABELS.items() if label == name)
    return Combination.single(feature)


def cross_validate(threads: dict[str, list[JudgedArticle]],
                   only: tuple[str, ...] | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """config → thread (and "mean") → measures; tuned configs: leave-one-thread-out."""
    table: dict[str, dict[str, dict[str, float]]] = {}
    for name, feats in configurations().items():
        if only is not None and name not in only:
            continue
        rows = {}
        for test, arts in threads.items():
            if feats is None:
                model = fixed_model(name)
            elif name == LEARNED:
                model = train_learned([a for t, xs in threads.items() if t != test for a in xs])
            else:
                train_q = [a.query() for t, xs in threads.items() if t != test for a in xs]
                model = tune(train_q, feats)
            rows[test] = measures(model, arts)
        rows["mean"] = {k: sum(r[k] for r in rows.values()) / len(rows) for k in ("P@3", "P@5", "MAP")}
        table[name] = rows
    return table


def tune_all(threads: dict[str, list[JudgedArticle]]) -> Combination:
    return tune([a.query() for xs in threads.values() for a in xs], FEATURES)


def map_by_history(model_for_thread, threads: dict[str, list[JudgedArticle]], bucket: int = 5) -> dict[int, float]:
    """Mean AP by history size bucket (0-4, 5-9, ...) over all judged threads."""
    aps: dict[int, list[float]] = defaultdict(list)
    for t, arts in threads.items():
        model = model_for_thread(t)
        for a in arts:
            q = a.query()
            if any(r for _f, r in q):
                aps[a.position // bucket * bucket].append(average_precision([(model.score(f), r) for f, r in q]))
    return {k: sum(v) / len(v) for k, v in sorted(aps.items())}


def history_chart(curves: dict[str, dict[int, float]], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name, curve in curves.items():
        ax.plot(list(curve), list(curve.values()), marker="o", label=name)
    ax.set_xlabel("history size |H| (articles before, bucket start)")
    ax.set_ylabel("MAP")
    ax.set_title("Entity ranking quality against thread history")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def format_table(table) -> str:
    threads = [t for t in next(iter(table.values())) if t != "mean"] + ["mean"]
    lines = [f"{'configuration':34} " + " ".join(f"{t[:6] + ' MAP':>11}" for t in threads[:-1])
             + f" {'P@3':>6} {'P@5':>6} {'MAP':>6}"]
    for name, rows in table.items():
        lines.append(f"{name:34} " + " ".join(f"{rows[t]['MAP']:11.3f}" for t in threads[:-1])
                     + f" {rows['mean']['P@3']:6.3f} {rows['mean']['P@5']:6.3f} {rows['mean']['MAP']:6.3f}")
    return "\n".join(lines)


__all__ = ["cross_validate", "format_table", "history_chart", "judged_articles", "load_news_judgments",
           "map_by_history", "mean_ap", "measures", "tune_all"]
