"""The learned news model: LambdaMART over the nine features of the paper (``--model learned``).

Trained on judged articles (one ranking query per article, "Relevant" = 1, everything else 0) and
cross-validated leave-one-thread-out by ``beyondfind eval news``, where it is compared with the
paper's saturating combination (``--model paper``). Stored in LightGBM's text format and evaluated
with numpy trees (:mod:`beyondfind.ranking.trees`), so ranking never imports LightGBM.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .model import FEATURES

SHIPPED = Path(__file__).parent / "data" / "learned.txt"
PARAMS = {"objective": "lambdarank", "learning_rate": 0.05, "num_leaves": 4, "min_data_in_leaf": 20, "verbose": -1,
          "seed": 7, "deterministic": True, "num_threads": 2, "lambdarank_truncation_level": 10}
ROUNDS = 100


@dataclass(frozen=True)
class LearnedModel:
    model_text: str

    @property
    def trees(self):
        return _parse(self.model_text)

    def score(self, features: dict) -> float:
        """The same interface as :class:`~beyondfind.news.combine.Combination`."""
        return float(self.trees.predict(np.array([[float(features[n]) for n in FEATURES]]))[0])

    def save(self, path: Path = SHIPPED) -> None:
        path.write_text(self.model_text)

    @classmethod
    def train(cls, queries) -> "LearnedModel":
        """``queries``: per article, (feature dict, relevant) per candidate entity."""
        import lightgbm as lgb

        xs, ys, groups = [], [], []
        for q in queries:
            if len(q) < 2 or not any(r for _f, r in q):
                continue
            xs += [[float(f[n]) for n in FEATURES] for f, _r in q]
            ys += [int(r) for _f, r in q]
            groups.append(len(q))
        booster = lgb.train(PARAMS, lgb.Dataset(np.array(xs), label=np.array(ys), group=groups), num_boost_round=ROUNDS)
        return cls(booster.model_to_string())


@lru_cache(maxsize=4)
def _parse(text: str):
    from ..ranking.trees import TreeEnsemble

    return TreeEnsemble.from_lightgbm_text(text)


def load_shipped() -> LearnedModel | None:
    return LearnedModel(SHIPPED.read_text()) if SHIPPED.exists() else None
