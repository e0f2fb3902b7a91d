"""Prediction with a LightGBM model in plain numpy, so a query does not import LightGBM (and SciPy).

Reads LightGBM's text model format (``Booster.save_model``): per tree ``split_feature``,
``threshold``, ``decision_type``, ``left_child``, ``right_child`` and ``leaf_value``. A child index
``< 0`` is the leaf ``~child``. Numerical splits go left when ``x <= threshold``; ``decision_type``
bit 1 is "missing goes left", bits 2–3 the missing type (0 none, 1 zero, 2 NaN), as in LightGBM's
``Tree::NumericalDecision``. The raw score is the sum of the trees' leaf values (shrinkage is already
in them). Categorical splits are not used by beyondfind's models and are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ZERO_THRESHOLD = 1e-35   # LightGBM's kZeroThreshold


@dataclass(frozen=True)
class Tree:
    split_feature: np.ndarray
    threshold: np.ndarray
    default_left: np.ndarray
    missing_type: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf_value: np.ndarray

    def predict(self, X: np.ndarray) -> np.ndarray:
        if not len(self.split_feature):
            return np.full(len(X), self.leaf_value[0])
        node = np.zeros(len(X), dtype=np.int64)   # internal node per row; leaves are encoded as ~leaf
        active = np.ones(len(X), dtype=bool)
        out = np.zeros(len(X))
        while active.any():
            rows = np.flatnonzero(active)
            n = node[rows]
            x = X[rows, self.split_feature[n]]
            mtype = self.missing_type[n]
            x = np.where((mtype != 2) & np.isnan(x), 0.0, x)
            is_missing = ((mtype == 1) & (np.abs(x) <= ZERO_THRESHOLD)) | ((mtype == 2) & np.isnan(x))
            go_left = np.where(is_missing, self.default_left[n], x <= self.threshold[n])
            child = np.where(go_left, self.left[n], self.right[n])
            done = child < 0
            out[rows[done]] = self.leaf_value[~child[done]]
            active[rows[done]] = False
            node[rows[~done]] = child[~done]
        return out


@dataclass(frozen=True)
class TreeEnsemble:
    trees: tuple[Tree, ...]
    num_features: int

    @classmethod
    def from_lightgbm_text(cls, text: str) -> "TreeEnsemble":
        header, _, body = text.partition("\nTree=")
        fields = dict(line.split("=", 1) for line in header.splitlines() if "=" in line)
        num_features = int(fields["max_feature_idx"]) + 1
        trees = []
        for block in ("Tree=" + body).split("\nTree=")[0:]:
            block = block.split("end of trees")[0]
            kv = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
            if "leaf_value" not in kv:
                continue
            if int(kv.get("num_cat", "0")):
                raise ValueError("categorical splits are not supported")

            def arr(key, dtype=float, kv=kv):
                return np.array(kv[key].split(), dtype=dtype) if kv.get(key, "").strip() else np.zeros(0, dtype)

            dtype_bits = arr("decision_type", np.int64)
            trees.append(Tree(arr("split_feature", np.int64), arr("threshold"), (dtype_bits & 2) > 0,
                              (dtype_bits >> 2) & 3, arr("left_child", np.int64), arr("right_child", np.int64),
                              arr("leaf_value")))
        return cls(tuple(trees), num_features)

    def predict(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.num_features:
            raise ValueError(f"expected {self.num_features} feature columns, got shape {X.shape}")
        total = np.zeros(len(X))
        for tree in self.trees:
            total += tree.predict(X)
        return total
