"""Single-document entity salience on GUM (``beyondfind eval salience``).

Gold: GUM-SAGE's graded salience, the number of five human summaries that mention an entity
(0–5). For every document, its entities are ranked by a scorer and compared with the gold grades:
``nDCG@5`` (gain = grade, ideal from all the document's entities) and Spearman's ρ between score and
grade over the document's entities (average ranks for ties); both averaged over documents.

Scorers:

* ``F(e,d)``: mentions of the entity (names, nominals and pronouns, GUM's coreference);
* ``FirstSenPos(e,d)``: earlier first mention ranks higher;
* ``paper``: the news model's tuned saturating combination over the features a single article has
  (F, Fsubj, FirstSenLen, FirstSenPos; history features are 0) — weights from the news threads;
* ``learned``: LambdaMART over :data:`FEATURES`, trained **leave-one-document-out** (the model
  scoring a document never saw it).

Ties are broken by first mention (earlier first), the same for every scorer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..datasets.gum import GumDocument
from .measures import ndcg

SUBJECT_DEPS = ("nsubj", "nsubj:pass", "csubj")
ETYPES = ("person", "place", "organization", "object", "abstract", "event", "time")
FEATURES: tuple[str, ...] = (
    "F_d", "Fsubj_d", "FirstSenLen", "FirstSenPos", "first_position", "in_first_sentence", "in_first_three",
    "spread", "pronoun_share", "proper", *(f"type.{t}" for t in ETYPES))


@dataclass(frozen=True)
class SalienceItem:
    document: str
    genre: str
    entity: str
    grade: int                      # summaries (of 5) mentioning it
    features: dict[str, float]


def document_items(doc: GumDocument) -> list[SalienceItem]:
    """One item per entity of the document, with the single-document features by name."""
    by_entity = defaultdict(list)
    for m in doc.mentions:
        by_entity[m.entity].append(m)
    n_sent = max(len(doc.sentences), 1)
    offsets = np.cumsum([0] + [len(s) for s in doc.sentences])
    n_tokens = max(int(offsets[-1]), 1)
    items = []
    for eid, ms in by_entity.items():
        ms.sort(key=lambda m: (m.sentence, m.start))
        first = ms[0]
        rows = [doc.sentences[m.sentence][m.start:m.end] for m in ms]
        subj = sum(1 for m, toks in zip(ms, rows) if _is_subject(toks, m))
        pronouns = sum(1 for toks in rows if len(toks) == 1 and toks[0][3] == "PRON")
        proper = float(any(t[3] == "PROPN" for toks in rows for t in toks))
        f = {
            "F_d": float(len(ms)), "Fsubj_d": float(subj),
            "FirstSenLen": float(len(doc.sentences[first.sentence])), "FirstSenPos": float(first.sentence),
            "first_position": (offsets[first.sentence] + first.start) / n_tokens,
            "in_first_sentence": float(first.sentence == 0),
            "in_first_three": float(sum(1 for m in ms if m.sentence < 3)),
            "spread": (ms[-1].sentence - first.sentence) / n_sent,
            "pronoun_share": pronouns / len(ms), "proper": proper,
            **{f"type.{t}": float(first.etype == t) for t in ETYPES},
        }
        items.append(SalienceItem(doc.name, doc.genre, eid, max(m.salience for m in ms), f))
    return items


def _is_subject(tokens, mention) -> bool:
    """A token of the mention is a subject whose head lies outside the mention."""
    first_id = mention.start + 1
    last_id = mention.end
    return any(t[7] in SUBJECT_DEPS and not first_id <= int(t[6]) <= last_id for t in tokens)


Scorer = Callable[[dict[str, float]], float]


def rank_items(items: Sequence[SalienceItem], scores: Sequence[float]) -> list[SalienceItem]:
    """Best first; ties broken by first mention."""
    order = sorted(range(len(items)), key=lambda i: (-scores[i], items[i].features["first_position"]))
    return [items[i] for i in order]


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's ρ with average ranks for ties (Pearson correlation of the ranks); 0 if a side is constant."""
    rx, ry = _average_ranks(x), _average_ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def _average_ranks(values: Sequence[float]) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    order = np.argsort(v, kind="mergesort")
    ranks = np.empty(len(v))
    sorted_v = v[order]
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def evaluate_scores(items: Sequence[SalienceItem], scores: Sequence[float]) -> dict[str, float]:
    """Mean nDCG@5 and Spearman over the documents of ``items``."""
    by_doc = defaultdict(list)
    for item, s in zip(items, scores):
        by_doc[item.document].append((item, s))
    ndcgs, rhos = [], []
    for pairs in by_doc.values():
        its = [p[0] for p in pairs]
        ss = [p[1] for p in pairs]
        ranked = rank_items(its, ss)
        ndcgs.append(ndcg([i.grade for i in ranked], [i.grade for i in its], 5))
        rhos.append(spearman(ss, [i.grade for i in its]))
    return {"nDCG@5": float(np.mean(ndcgs)), "Spearman": float(np.mean(rhos)), "documents": len(by_doc)}


def baseline_scores(items: Sequence[SalienceItem], scorer: Scorer) -> list[float]:
    return [scorer(i.features) for i in items]


def paper_scorer() -> Scorer:
    """The news model's shipped combination on the features one article has (history = 0)."""
    from ..news.combine import load_shipped
    from ..news.model import FEATURES as NEWS_FEATURES

    combination = load_shipped()

    def score(f: dict[str, float]) -> float:
        return combination.score({n: f.get(n, 0.0) for n in NEWS_FEATURES})

    return score


def leave_one_document_out(items: Sequence[SalienceItem], rounds: int = 100) -> list[float]:
    """LambdaMART scores for every item from a model trained on the other documents."""
    import lightgbm as lgb

    docs = sorted({i.document for i in items})
    X = np.array([[i.features[n] for n in FEATURES] for i in items])
    y = np.array([i.grade for i in items])
    doc_of = np.array([docs.index(i.document) for i in items])
    params = {"objective": "lambdarank", "label_gain": [0, 1, 2, 3, 4, 5], "learning_rate": 0.05,
              "num_leaves": 7, "min_data_in_leaf": 20, "verbose": -1, "seed": 7, "deterministic": True,
              "num_threads": 2, "lambdarank_truncation_level": 10}
    scores = np.zeros(len(items))
    for d in range(len(docs)):
        train = np.flatnonzero(doc_of != d)
        order = train[np.argsort(doc_of[train], kind="mergesort")]
        groups = np.bincount(doc_of[order])
        groups = groups[groups > 0]
        booster = lgb.train(params, lgb.Dataset(X[order], label=y[order], group=groups), num_boost_round=rounds)
        test = np.flatnonzero(doc_of == d)
        scores[test] = booster.predict(X[test])
    return scores.tolist()


def salience_report(docs: Sequence[GumDocument], learned: bool = True) -> dict[str, dict[str, float]]:
    items = [i for d in docs for i in document_items(d)]
    rows = {
        "F(e,d)": evaluate_scores(items, baseline_scores(items, lambda f: f["F_d"])),
        "FirstSenPos(e,d)": evaluate_scores(items, baseline_scores(items, lambda f: -f["FirstSenPos"])),
        "paper (news combination)": evaluate_scores(items, baseline_scores(items, paper_scorer())),
    }
    if learned:
        rows["learned (LambdaMART, leave-one-document-out)"] = evaluate_scores(items, leave_one_document_out(items))
    return rows
