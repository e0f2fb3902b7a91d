"""Combination of the nine features: score(e) = Σ_i w_i · g(f_i, κ_i), g(x, κ) = x / (x + κ),
with w and κ tuned by greedy coordinate ascent maximising MAP (docs/models.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .measures import average_precision
from .model import FEATURES, INVERTED

SHIPPED_PARAMS = Path(__file__).parent / "data" / "combination.json"
WEIGHT_GRID = (-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 4.0)  # negative: the tuner may learn "smaller is better"
KAPPA_GRID = (0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0)


def saturate(x: float, kappa: float) -> float:
    return x / (x + kappa) if x > 0 else 0.0


def prepare(name: str, x: float) -> float:
    """Invert features where small is better: 1 / (1 + x)."""
    return 1.0 / (1.0 + x) if name in INVERTED else float(x)


@dataclass(frozen=True)
class Combination:
    weights: dict[str, float]
    kappas: dict[str, float]

    def score(self, features: dict[str, float]) -> float:
        return sum(w * saturate(prepare(n, features[n]), self.kappas.get(n, 1.0))
                   for n, w in self.weights.items() if w)

    def to_json(self) -> dict:
        return {"weights": self.weights, "kappas": self.kappas}

    @classmethod
    def from_json(cls, data: dict) -> "Combination":
        unknown = set(data["weights"]) - set(FEATURES)
        if unknown:
            from .. import BeyondfindError

            raise BeyondfindError(f"combination parameters name unknown features {sorted(unknown)}; "
                                  "re-tune with `beyondfind eval news`")
        return cls(dict(data["weights"]), dict(data["kappas"]))

    @classmethod
    def single(cls, feature: str) -> "Combination":
        return cls({feature: 1.0}, {feature: 1.0})

    @classmethod
    def all_ties(cls) -> "Combination":
        return cls({}, {})


def load_shipped() -> Combination:
    return Combination.from_json(json.loads(SHIPPED_PARAMS.read_text()))


# a judged article: list of (features, relevant) for its candidate entities
Query = list[tuple[dict[str, float], bool]]


def mean_ap(model: Combination, queries: list[Query]) -> float:
    aps = [average_precision([(model.score(f), rel) for f, rel in q]) for q in queries if any(r for _f, r in q)]
    return sum(aps) / len(aps) if aps else 0.0


def tune(queries: list[Query], features: tuple[str, ...] = FEATURES, rounds: int = 3,
         start: Combination | None = None) -> Combination:
    """Greedy coordinate ascent: for each feature in turn, try every (w, κ) on the grid with the
    others fixed and keep the best; repeat ``rounds`` times or until no change."""
    model = start or Combination({f: (1.0 if f == "F_d" and "F_d" in features else 0.0) for f in features},
                                 {f: 1.0 for f in features})
    best = mean_ap(model, queries)
    for _ in range(rounds):
        changed = False
        for f in features:
            for w in WEIGHT_GRID:
                for k in KAPPA_GRID if w else (1.0,):
                    cand = Combination({**model.weights, f: w}, {**model.kappas, f: k})
                    value = mean_ap(cand, queries)
                    if value > best + 1e-9:
                        model, best, changed = cand, value, True
        if not changed:
            break
    return model
