"""LDM: gradient-boosted trees (LightGBM) re-ranking LRM's candidates by descriptiveness.

Training pairs are (entity, judged candidate passage) with the judgment's gain as label (Perfect 4,
Good 2, Fair 1, Bad 0). Two objectives (:class:`Objective`): the shipped ``regression`` fits the
gain itself (least squares), so a passage's raw score is its expected gain; ``lambdarank`` is the
seed paper's LambdaMART (``label_gain`` = identity, so LightGBM optimises the same nDCG as
:mod:`beyondfind.evaluation.measures`). With the same trees and rounds, regression ranked the
first passage better leave-one-book-out (docs/evaluation.md). A model stores its feature names,
objective and format version; prediction selects features by name and refuses a model whose names
it cannot supply.

For a place or an institution LDM's order is fused (reciprocal rank fusion, :mod:`.fusion`) with
Find's (passages holding the exact name, in book order) and BM25 b=0's: with 11 judged places
against 112 characters the trees learn places poorly, and the two baselines are strong there
(docs/evaluation.md). The shown score stays a probability: a second Platt map, fitted on
held-out fused scores of judged places, turns the fused score into P(Good or Perfect).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import BeyondfindError
from ..features import FEATURE_NAMES, FeatureMatrix, extract_features
from ..features.descriptiveness import FEATURE_DESCRIPTIONS, marks_between
from ..features.text_signal import TextExample, TextModel, fit, fit_excluding
from ..index import IndexedBook
from ..nlp.names import Name, parse_name
from ..retrieval.lrm import LRMSettings, shown
from ..retrieval.ranking import Scored, sort_scored
from .calibration import Calibration
from .fusion import fused, ranks
from .objective import DEFAULT_OBJECTIVE, Objective
from .trees import TreeEnsemble

if TYPE_CHECKING:   # judgments are read by training and evaluation, not by a query
    from ..datasets.judgments import BookJudgments

FORMAT_VERSION = 1
SHIPPED_MODEL = Path(__file__).parent / "data" / "ldm"
DEFAULT_PARAMS = {
    # small trees: ~3,700 judged pairs; chosen by leave-one-book-out nDCG@5 with lambdarank (3 settings
    # tried) and kept for regression
    "learning_rate": 0.05, "num_leaves": 3, "min_data_in_leaf": 30, "feature_fraction": 0.8,
    "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1,
    "seed": 7, "deterministic": True, "num_threads": 2,
}
OBJECTIVE_PARAMS = {
    Objective.REGRESSION: {"objective": "regression", "metric": "l2"},
    Objective.LAMBDARANK: {"objective": "lambdarank", "metric": "ndcg", "ndcg_eval_at": [5],
                           "label_gain": [0, 1, 2, 3, 4], "lambdarank_truncation_level": 10},
}
NUM_ROUNDS = 150
# 11 judged places against 112 characters: without a weight the trees hardly look at places
# (chosen by leave-one-book-out nDCG@5 on places: 1 and 3 tried)
PLACE_WEIGHT = 3.0


def _lightgbm():
    try:
        import lightgbm
    except ImportError:
        raise BeyondfindError("LDM needs LightGBM: pip install lightgbm") from None
    return lightgbm


@dataclass
class LDMModel:
    """A trained LDM: the LightGBM model text, its feature names and metadata.

    Ranking evaluates the trees in numpy (:mod:`.trees`), so a query never imports LightGBM;
    contributions (``explain``) and importances load LightGBM's Booster on first use.
    """

    model_text: str
    feature_names: tuple[str, ...]
    meta: dict = field(default_factory=dict)
    _booster: object = field(default=None, repr=False)

    @classmethod
    def from_booster(cls, booster, feature_names: tuple[str, ...], meta: dict | None = None) -> "LDMModel":
        return cls(booster.model_to_string(), feature_names, meta or {}, booster)

    @cached_property
    def trees(self) -> TreeEnsemble:
        return TreeEnsemble.from_lightgbm_text(self.model_text)

    @property
    def booster(self):
        if self._booster is None:
            self._booster = _lightgbm().Booster(model_str=self.model_text)
        return self._booster

    def _columns(self, matrix: FeatureMatrix) -> np.ndarray:
        missing = [n for n in self.feature_names if n not in matrix.names]
        if missing:
            raise BeyondfindError(f"LDM model needs features this version does not compute: {', '.join(missing)}; "
                                  "retrain it with `beyondfind train ldm`")
        idx = [matrix.names.index(n) for n in self.feature_names]
        return matrix.values[:, idx]

    def predict(self, matrix: FeatureMatrix) -> np.ndarray:
        if not matrix.passages:
            return np.zeros(0)
        return self.trees.predict(self._columns(matrix))

    @cached_property
    def calibration(self) -> Calibration | None:
        """Raw score → P(Good or Perfect), fitted on leave-one-book-out scores (``meta["calibration"]``)."""
        return Calibration.from_dict(self.meta["calibration"]) if "calibration" in self.meta else None

    @cached_property
    def place_calibration(self) -> Calibration | None:
        """Fused place score → P(Good or Perfect), fitted like :attr:`calibration` (``meta["place_calibration"]``)."""
        return Calibration.from_dict(self.meta["place_calibration"]) if "place_calibration" in self.meta else None

    def contributions(self, matrix: FeatureMatrix) -> np.ndarray:
        """Per-feature contributions (LightGBM ``pred_contrib``); last column is the bias."""
        return self.booster.predict(self._columns(matrix), pred_contrib=True)

    def importance(self) -> dict[str, float]:
        gains = self.booster.feature_importance(importance_type="gain")
        return dict(zip(self.feature_names, map(float, gains)))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".txt").write_text(self.model_text)
        path.with_suffix(".json").write_text(json.dumps({"format_version": FORMAT_VERSION,
                                                          "feature_names": list(self.feature_names), **self.meta},
                                                         indent=1))

    @classmethod
    def load(cls, path: Path) -> "LDMModel":
        meta_path, model_path = path.with_suffix(".json"), path.with_suffix(".txt")
        if not meta_path.exists() or not model_path.exists():
            raise BeyondfindError(f"no LDM model at {path}(.json/.txt); train one with `beyondfind train ldm`")
        meta = json.loads(meta_path.read_text())
        if meta.get("format_version") != FORMAT_VERSION:
            raise BeyondfindError(f"LDM model {path} has format {meta.get('format_version')}, this beyondfind reads "
                                  f"{FORMAT_VERSION}; retrain it with `beyondfind train ldm`")
        names = tuple(meta.pop("feature_names"))
        meta.pop("format_version")
        model = cls(model_path.read_text(), names, meta)
        if model.trees.num_features != len(names):
            raise BeyondfindError(f"LDM model {path}: {model.trees.num_features} features in the model but "
                                  f"{len(names)} names in its metadata; retrain it")
        model._columns(FeatureMatrix((), FEATURE_NAMES, np.zeros((0, len(FEATURE_NAMES)))))  # check names now
        return model


@lru_cache(maxsize=4)
def load_model(path: Path = SHIPPED_MODEL) -> LDMModel:
    return LDMModel.load(path)


@dataclass(frozen=True)
class TrainingSet:
    X: np.ndarray
    y: np.ndarray
    groups: tuple[int, ...]
    names: tuple[str, ...]


def training_set(pairs: list[tuple[IndexedBook, BookJudgments]], settings: LRMSettings = LRMSettings(),
                 feature_names: tuple[str, ...] = FEATURE_NAMES,
                 text_models: dict[str, TextModel] | None = None) -> TrainingSet:
    """Judged candidates of every judged entity; unjudged candidates are left out. ``text_models``:
    per book, the text signal that never saw that book (cross-fitting)."""
    from ..datasets.judgments import judged_gain

    xs, ys, groups = [], [], []
    for book, bj in pairs:
        text_model = (text_models or {}).get(bj.book)
        for entity in bj.entities():
            fm = extract_features(book, parse_name(entity), entity, settings, text_model)
            cols = [fm.names.index(n) for n in feature_names]
            rows, labels = [], []
            for k, i in enumerate(fm.passages):
                p = book.passages[i]
                g = judged_gain(bj.by_entity[entity], p.start, p.end)
                if g is not None:
                    rows.append(fm.values[k, cols])
                    labels.append(g)
            if len(rows) >= 2:
                xs.append(np.array(rows))
                ys.extend(labels)
                groups.append(len(rows))
    return TrainingSet(np.vstack(xs), np.array(ys), tuple(groups), feature_names)


def train(ts: TrainingSet, rounds: int = NUM_ROUNDS, params: dict | None = None, meta: dict | None = None,
          objective: Objective = DEFAULT_OBJECTIVE) -> LDMModel:
    """Trees on ``ts`` fitting ``objective``; place queries' rows weigh :data:`PLACE_WEIGHT` (there
    are few of them). The objective is recorded in the model's ``meta``."""
    lgb = _lightgbm()
    weight = None
    if "query.place" in ts.names:
        weight = np.where(ts.X[:, ts.names.index("query.place")] > 0, PLACE_WEIGHT, 1.0)
    data = lgb.Dataset(ts.X, label=ts.y, group=list(ts.groups) if objective is Objective.LAMBDARANK else None,
                       weight=weight, feature_name=[n.replace(".", "_") for n in ts.names])
    booster = lgb.train({**DEFAULT_PARAMS, **OBJECTIVE_PARAMS[objective], **(params or {})}, data,
                        num_boost_round=rounds)
    return LDMModel.from_booster(booster, ts.names, {"objective": objective.value, **(meta or {})})


def is_place_query(fm: FeatureMatrix) -> bool:
    return bool(fm.passages) and fm.values[0, fm.names.index("query.place")] > 0


def place_rankings(fm: FeatureMatrix, raw: np.ndarray) -> dict[str, np.ndarray]:
    """The three rankings of a place query's candidates (rank 1 = best, ∞ = not in that ranking):
    LDM's, Find's (candidates holding the exact name, in book order) and BM25 b=0's, the last two
    read from the features (``extra.exact_count``, ``extra.bm25_b0``)."""
    has_name = fm.values[:, fm.names.index("extra.exact_count")] > 0
    return {"ldm": ranks(raw), "find": ranks(-np.asarray(fm.passages, dtype=float), present=has_name),
            "bm25_b0": ranks(fm.values[:, fm.names.index("extra.bm25_b0")])}


def ranking_scores(model: LDMModel, fm: FeatureMatrix,
                   raw: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray] | None]:
    """The scores candidates are sorted by, and a place query's rankings that were fused.

    A person: ``calibration(raw)``. A place: the normalised RRF of :func:`place_rankings`, through
    ``place_calibration``. Without a calibration (a model trained inside a fold) the uncalibrated
    value, which orders the same."""
    if not is_place_query(fm):
        return (model.calibration(raw) if model.calibration else raw), None
    rankings = place_rankings(fm, raw)
    agreement = fused(list(rankings.values()))
    return (model.place_calibration(agreement) if model.place_calibration else agreement), rankings


def rank_ldm(book: IndexedBook, query: Name, entity_text: str | None = None, settings: LRMSettings = LRMSettings(),
             explain: bool = False, model: LDMModel | None = None, text_model: TextModel | None = None) -> list[Scored]:
    """Candidates best first, none set as a title (:func:`~beyondfind.retrieval.lrm.shown`); a
    calibrated model's score is the probability that the passage is Good or Perfect (0–1),
    otherwise LambdaMART's raw score (a place: the fused score, 0–1)."""
    model = model or load_model()
    fm = extract_features(book, query, entity_text or " ".join(query.words), settings, text_model)
    if not fm.passages:
        return []
    raw = model.predict(fm)
    scores, rankings = ranking_scores(model, fm, raw)
    visible = set(shown(book, fm.passages))
    if not explain:   # sort_scored's order (score descending, ties in book order) without a Python sort
        order = np.lexsort((np.asarray(fm.passages), -scores))
        return [Scored(fm.passages[k], s) for k, s in zip(order.tolist(), scores[order].tolist())
                if fm.passages[k] in visible]
    contrib = model.contributions(fm)
    out = []
    for k, i in enumerate(fm.passages):
        if i not in visible:
            continue
        info = {**explanation(model, fm, contrib[k], k), "ldm_raw": round(float(raw[k]), 4)}
        if rankings is not None:
            info["fused_ranks"] = {m: (int(r[k]) if np.isfinite(r[k]) else None) for m, r in rankings.items()}
        out.append(Scored(i, float(scores[k]), info))
    return sort_scored(out)


def explanation(model: LDMModel, fm: FeatureMatrix, contrib: np.ndarray, row: int, top: int = 4) -> dict:
    """The largest feature contributions in words, e.g. "descriptive words (family, age, …): 3"."""
    order = np.argsort(-np.abs(contrib[:-1]))[:top]
    reasons = []
    for j in order:
        name = model.feature_names[j]
        value = fm.values[row, fm.names.index(name)]
        shown = int(value) if float(value).is_integer() else round(float(value), 2)
        reasons.append({"feature": name, "description": f"{FEATURE_DESCRIPTIONS.get(name, name)}: {shown}",
                        "value": float(value), "contribution": round(float(contrib[j]), 4)})
    values = dict(zip(fm.names, fm.values[row]))
    return {"reasons": reasons, "EF": round(values["lrm.ef"], 4), "CR": int(values["lrm.cr"]),
            "g": round(values["lrm.g"], 4), "lrm": round(values["lrm.score"], 4)}


def text_examples(judgments: list[BookJudgments], books_dir: Path,
                  load_book: Callable[[Path], IndexedBook]) -> list[TextExample]:
    """Every judged passage's text, gain and the entity's marked names and pronouns in it, for
    training the text signal."""
    out = []
    for bj in judgments:
        book = load_book(books_dir / bj.book)
        text = book.document.text
        for entity, js in bj.by_entity.items():
            query = parse_name(entity)
            out += [TextExample(bj.book, entity, text[j.start:j.end], j.gain, marks_between(book, query, j.start, j.end))
                    for j in js]
    return out


def train_final(judgments: list[BookJudgments], books_dir: Path, load_book: Callable[[Path], IndexedBook],
                meta: dict | None = None,
                objective: Objective = DEFAULT_OBJECTIVE) -> tuple[LDMModel, TextModel, TrainingSet]:
    """The shipped pair: LDM trained on every judged book (each scored by a text signal that never saw
    it) and the text signal trained on all of them, for books nobody judged."""
    examples = text_examples(judgments, books_dir, load_book)
    pairs = [(load_book(books_dir / bj.book), bj) for bj in judgments]
    ts = training_set(pairs, text_models={bj.book: fit_excluding(examples, {bj.book}) for bj in judgments})
    return train(ts, meta=meta, objective=objective), fit(examples), ts


def leave_one_book_out_runner(judgments: list[BookJudgments], books_dir: Path, load_book: Callable[[Path], IndexedBook],
                              fallback: Callable, feature_names: tuple[str, ...] = FEATURE_NAMES,
                              settings: LRMSettings = LRMSettings(), objective: Objective = DEFAULT_OBJECTIVE):
    """A ``(book, entity, method)`` runner whose "ldm" uses a model trained without that book.

    The text signal is cross-fitted inside each fold: a training book's passages are scored by a
    signal trained on neither that book nor the held-out one, the held-out book's by one trained on
    all the others, so no judgment of the held-out book reaches its scores.

    The runner's ``seed`` attribute (default: the shipped parameters' seed) picks LightGBM's seed;
    each fold's training set is built once and reused for every seed (``eval books --seeds``)."""
    sets: dict[str, tuple[TrainingSet, TextModel | None]] = {}
    models: dict[tuple[str, int], LDMModel] = {}
    uses_text = any(n.startswith("text.") for n in feature_names)
    examples = text_examples(judgments, books_dir, load_book) if uses_text else []

    def fold_set(test_book: str) -> tuple[TrainingSet, TextModel | None]:
        if test_book not in sets:
            parts = []
            for bj in judgments:
                if bj.book == test_book:
                    continue
                text = {bj.book: fit_excluding(examples, {bj.book, test_book})} if uses_text else None
                parts.append(training_set([(load_book(books_dir / bj.book), bj)], settings, feature_names, text))
            ts = TrainingSet(np.vstack([p.X for p in parts]), np.concatenate([p.y for p in parts]),
                             tuple(g for p in parts for g in p.groups), feature_names)
            sets[test_book] = (ts, fit_excluding(examples, {test_book}) if uses_text else None)
        return sets[test_book]

    def fold_model(test_book: str) -> tuple[LDMModel, TextModel | None]:
        ts, text_model = fold_set(test_book)
        key = (test_book, run.seed)
        if key not in models:
            models[key] = train(ts, params={"seed": run.seed}, objective=objective)
        return models[key], text_model

    def run(book: IndexedBook, entity: str, method: str):
        if method != "ldm":
            return fallback(book, entity, method)
        model, text_model = fold_model(book.document.name)
        return rank_ldm(book, parse_name(entity), entity, settings, model=model, text_model=text_model)

    run.seed = DEFAULT_PARAMS["seed"]  # type: ignore[attr-defined]
    run.fold_model = fold_model  # type: ignore[attr-defined]
    return run


@dataclass(frozen=True)
class HeldOutScores:
    """Every judged candidate scored by the fold model that never saw its book: LDM's raw score,
    the fused score (places only, NaN for persons), the judged gain and whether the query is a place."""

    raw: np.ndarray
    fused: np.ndarray
    gains: np.ndarray
    place: np.ndarray


def held_out_scores(judgments: list[BookJudgments], books_dir: Path, load_book: Callable[[Path], IndexedBook],
                    runner, settings: LRMSettings = LRMSettings()) -> HeldOutScores:
    """The sample for calibration (``runner`` from :func:`leave_one_book_out_runner`)."""
    from ..datasets.judgments import judged_gain

    raw_all, fused_all, gains, place = [], [], [], []
    for bj in judgments:
        book = load_book(books_dir / bj.book)
        model, text_model = runner.fold_model(bj.book)
        for entity in bj.entities():
            fm = extract_features(book, parse_name(entity), entity, settings, text_model)
            if not fm.passages:
                continue
            raw = model.predict(fm)
            is_place = is_place_query(fm)
            agreement = fused(list(place_rankings(fm, raw).values())) if is_place \
                else np.full(len(raw), np.nan)
            for k, i in enumerate(fm.passages):
                p = book.passages[i]
                g = judged_gain(bj.by_entity[entity], p.start, p.end)
                if g is not None:
                    raw_all.append(raw[k])
                    fused_all.append(agreement[k])
                    gains.append(g)
                    place.append(is_place)
    return HeldOutScores(np.array(raw_all, dtype=float), np.array(fused_all, dtype=float), np.array(gains),
                         np.array(place, dtype=bool))
