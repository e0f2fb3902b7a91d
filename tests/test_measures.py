import random

import ir_measures
import pytest
from ir_measures import P, Qrel, ScoredDoc, nDCG

from beyondfind.evaluation.measures import Measure, ndcg, precision
from beyondfind.news.measures import average_precision, precision_at


def test_measures_are_values():
    m = Measure.parse("nDCG@5")
    assert str(m) == "nDCG@5" and m == Measure("nDCG", 5) and {m: 1}[Measure.parse("nDCG@5")] == 1
    with pytest.raises(ValueError):
        Measure.parse("MRR@x")


def test_ndcg_and_precision_match_ir_measures():
    rng = random.Random(3)
    for trial in range(30):
        docs = [f"d{i}" for i in range(12)]
        gains = {d: rng.choice([0, 1, 2, 4]) for d in docs}
        judged = rng.sample(docs, 9)
        ranking = rng.sample(docs, 8)
        qrels = [Qrel("q", d, gains[d]) for d in judged]
        run = [ScoredDoc("q", d, 100 - i) for i, d in enumerate(ranking)]
        ours_gains = [gains[d] if d in judged else 0 for d in ranking]
        all_gains = [gains[d] for d in judged]
        for k in (1, 2, 3, 5):
            ref = ir_measures.calc_aggregate([nDCG @ k, P(rel=1) @ k], qrels, run)
            if not any(all_gains):
                continue
            assert ndcg(ours_gains, all_gains, k) == pytest.approx(ref[nDCG @ k], abs=1e-6)
            assert precision(ours_gains, k) == pytest.approx(ref[P(rel=1) @ k], abs=1e-6)


def test_tie_aware_worked_example():
    # two groups (t=2, r=1), (t=2, r=1): AP = 2/3, P@1 = 0.5, P@3 = 0.5 (DESIGN §2)
    ranking = [(2.0, True), (2.0, False), (1.0, True), (1.0, False)]
    assert average_precision(ranking) == pytest.approx(2 / 3)
    assert precision_at(ranking, 1) == pytest.approx(0.5)
    assert precision_at(ranking, 3) == pytest.approx(0.5)


def test_tie_aware_equals_plain_without_ties_and_expected_value_with_ties():
    from itertools import permutations

    ranking = [(5, True), (4, False), (3, True), (2, False)]
    assert average_precision(ranking) == pytest.approx((1 / 1 + 2 / 3) / 2)
    tied = [(1.0, True), (1.0, False), (1.0, True)]

    def plain_ap(order):
        hits, total = 0, 0.0
        for i, rel in enumerate(order, 1):
            if rel:
                hits += 1
                total += hits / i
        return total / 2

    perms = list(permutations([True, False, True]))
    expected = sum(plain_ap(p) for p in perms) / len(perms)
    assert average_precision(tied) == pytest.approx(expected)
