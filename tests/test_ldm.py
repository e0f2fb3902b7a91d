import json
import shutil

import numpy as np
import pytest

from beyondfind import BeyondfindError
from beyondfind.features import FEATURE_GROUPS, FEATURE_NAMES, extract_features
from beyondfind.features.keywords import keywords, mine_keywords
from beyondfind.nlp.names import parse_name
from beyondfind.ranking import ldm


def test_features_are_named_and_grouped(huck):
    fm = extract_features(huck, parse_name("Mary Jane"), "Mary Jane")
    assert fm.names == FEATURE_NAMES and fm.values.shape == (len(fm.passages), len(FEATURE_NAMES))
    assert set(FEATURE_GROUPS) >= {"lrm", "keywords", "entities", "actions", "position"}
    col = {n: fm.values[:, i] for i, n in enumerate(fm.names)}
    assert col["position.lifetime"].max() == 10 and col["position.book"].max() <= 10
    assert (col["keywords.count"] >= col["keywords.has"]).all()
    assert (col["actions.idf_max"] >= col["actions.idf_min"]).all()


def test_keywords_exclude_evaluation_books_and_are_sensible():
    kw = keywords()
    assert len(kw) == 50 and {"father", "mother", "wife"} <= kw
    mined = mine_keywords(["Tom was a young man. His father was old. The sky is blue. Tom, a boy, ran."] * 30,
                          set(), n=5, min_count=5)
    assert mined and mined[0][0] in {"young", "father", "old", "boy", "man"}


def test_shipped_model_ranks_and_explains(huck):
    model = ldm.load_model()
    assert model.feature_names == FEATURE_NAMES and model.meta["trained_on"]
    ranking = ldm.rank_ldm(huck, parse_name("Mary Jane"), "Mary Jane", explain=True)
    assert ranking and ranking[0].score >= ranking[-1].score
    assert ranking[0].explain["reasons"][0]["description"]


def test_numpy_trees_predict_exactly_what_lightgbm_predicts(huck):
    """Queries score with the numpy evaluator (no LightGBM import); it must equal LightGBM's own."""
    model = ldm.load_model()
    fm = extract_features(huck, parse_name("Mary Jane"), "Mary Jane")
    real = fm.values[:, [fm.names.index(n) for n in model.feature_names]]
    rng = np.random.default_rng(0)
    noisy = real[rng.integers(0, len(real), 500)] * rng.choice([0.0, 0.5, 1.0, 2.0], size=(500, real.shape[1]))
    for X in (real, noisy, np.zeros((3, real.shape[1]))):
        np.testing.assert_allclose(model.trees.predict(X), model.booster.predict(X), rtol=1e-9, atol=1e-12)


def test_model_with_unknown_features_is_refused(tmp_path):
    src = ldm.SHIPPED_MODEL
    for suffix in (".txt", ".json"):
        shutil.copy(src.with_suffix(suffix), tmp_path / f"m{suffix}")
    meta = json.loads((tmp_path / "m.json").read_text())
    meta["feature_names"][0] = "no.such_feature"
    (tmp_path / "m.json").write_text(json.dumps(meta))
    with pytest.raises(BeyondfindError, match="no.such_feature"):
        ldm.LDMModel.load(tmp_path / "m")
    meta["feature_names"][0] = FEATURE_NAMES[0]
    meta["format_version"] = 99
    (tmp_path / "m.json").write_text(json.dumps(meta))
    with pytest.raises(BeyondfindError, match="format"):
        ldm.LDMModel.load(tmp_path / "m")


def test_training_learns_from_labels(huck):
    """A tiny lambdarank fit on Huck Finn judgments beats a random order on its own training data."""
    from beyondfind.datasets.judgments import load_book_judgments
    from beyondfind.evaluation.books import evaluate_ranking

    from .conftest import DATA

    bj = next(b for b in load_book_judgments(DATA / "judgments" / "books") if b.book.startswith("76-"))
    ts = ldm.training_set([(huck, bj)])
    assert ts.X.shape[1] == len(FEATURE_NAMES) and len(ts.groups) >= 10
    model = ldm.train(ts, rounds=30)
    scores = []
    for entity in bj.entities()[:6]:
        ranking = ldm.rank_ldm(huck, parse_name(entity), entity, model=model)
        scores.append(evaluate_ranking(ranking, huck, bj.by_entity[entity])[0]["nDCG@5/c"])
    assert np.mean(scores) > 0.5


def test_text_signal_learned_on_other_books_prefers_descriptions(huck):
    """The word signal, trained without Huckleberry Finn, scores its Perfect passages above its Bad
    ones on average; names are masked, so no book's names are learned."""
    from beyondfind.datasets.judgments import load_book_judgments
    from beyondfind.features import text_signal

    from .conftest import DATA

    assert text_signal.tokens("Mr. Darcy was tall") == ["NAME", "NAME", "was", "tall"]
    judgments = load_book_judgments(DATA / "judgments" / "books")
    books = {bj.book: (DATA / "books" / bj.book).read_text(encoding="utf-8") for bj in judgments}
    examples = [text_signal.TextExample(bj.book, e, books[bj.book][j.start:j.end], j.gain)
                for bj in judgments for e, js in bj.by_entity.items() for j in js]
    model = text_signal.fit_excluding(examples, {"76-huckleberry-finn.txt"})
    held_out = [x for x in examples if x.book == "76-huckleberry-finn.txt"]
    perfect = np.mean([model.score(x.text) for x in held_out if x.gain == 4])
    bad = np.mean([model.score(x.text) for x in held_out if x.gain == 0])
    assert perfect > bad
    assert text_signal.shipped() is not None   # the shipped signal (all judged books) scores new books
