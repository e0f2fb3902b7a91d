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
from functools import cached_property

import numpy as np

ZERO_THRESHOLD = 1e-35   # LightGBM's kZeroThreshold
MAX_TABLE_SPLITS = 10    # a tree with more splits is walked instead of read from a 2**splits table


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
    """All trees, predicted together. The trees' nodes are laid end to end in flat arrays and every
    split is decided for every row at once. Small trees (≤ :data:`MAX_TABLE_SPLITS` splits, as LDM's
    three-leaf trees) then read their leaf from a table indexed by the bits of their splits' decisions;
    larger ones walk down, every (row, tree) pair one level per numpy step."""

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

    @cached_property
    def _flat(self) -> dict[str, np.ndarray | float]:
        """Internal nodes of every tree with a split, end to end; children re-indexed globally
        (an internal child ``>= 0``, a leaf ``~global_leaf``); stumps add a constant."""
        parts: dict[str, list] = {k: [] for k in ("feature", "threshold", "default_left", "missing_type", "left",
                                                  "right", "leaf_value", "roots")}
        constant, node_base, leaf_base = 0.0, 0, 0
        for t in self.trees:
            if not len(t.split_feature):
                constant += float(t.leaf_value[0])
                continue
            def glob(child: np.ndarray) -> np.ndarray:
                return np.where(child >= 0, child + node_base, ~(~child + leaf_base))
            parts["feature"].append(t.split_feature)
            parts["threshold"].append(t.threshold)
            parts["default_left"].append(t.default_left)
            parts["missing_type"].append(t.missing_type)
            parts["left"].append(glob(t.left))
            parts["right"].append(glob(t.right))
            parts["leaf_value"].append(t.leaf_value)
            parts["roots"].append(np.array([node_base]))
            node_base += len(t.split_feature)
            leaf_base += len(t.leaf_value)
        flat: dict[str, np.ndarray | float] = {
            k: np.concatenate(v) if v else np.zeros(0, dtype=np.int64) for k, v in parts.items()}
        flat["constant"] = constant
        flat["table_groups"] = self._leaf_tables()
        return flat

    def _leaf_tables(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
        """For trees of at most :data:`MAX_TABLE_SPLITS` splits: the leaf value for every pattern of
        their splits' decisions (bit ``j`` set: the tree's split ``j`` goes left). Trees are grouped by
        their number of splits ``k``; per group the global indices of their splits (trees × k), their
        tables end to end and each table's offset. None when some tree is larger."""
        split_trees = [t for t in self.trees if len(t.split_feature)]
        if not split_trees or max(len(t.split_feature) for t in split_trees) > MAX_TABLE_SPLITS:
            return None
        groups: dict[int, tuple[list, list]] = {}
        base = 0
        for t in split_trees:
            k = len(t.split_feature)
            table = np.empty(2 ** k)
            for code in range(2 ** k):
                node = 0
                while node >= 0:
                    node = t.left[node] if code >> node & 1 else t.right[node]
                table[code] = t.leaf_value[~node]
            nodes, tables = groups.setdefault(k, ([], []))
            nodes.append(np.arange(base, base + k))
            tables.append(table)
            base += k
        return [(np.array(nodes), np.concatenate(tables), np.arange(len(tables)) * 2 ** k)
                for k, (nodes, tables) in groups.items()]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The summed leaf values of every tree per row, as LightGBM's ``Tree::NumericalDecision``."""
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.num_features:
            raise ValueError(f"expected {self.num_features} feature columns, got shape {X.shape}")
        f = self._flat
        total = np.full(len(X), f["constant"])
        roots = f["roots"]
        if not len(roots) or not len(X):
            return total
        # every split decided for every row at once (internal nodes × rows: a node's row of
        # decisions is contiguous, which makes the table lookups below cheap)
        x = np.ascontiguousarray(X.T)[f["feature"]]
        mtype = f["missing_type"][:, None]
        nan = np.isnan(x)
        if nan.any():
            x = np.where((mtype != 2) & nan, 0.0, x)
        go_left = x <= f["threshold"][:, None]
        if mtype.any():   # some split treats zero or NaN as missing (LDM's models have none)
            is_missing = ((mtype == 1) & (np.abs(x) <= ZERO_THRESHOLD)) | ((mtype == 2) & nan)
            go_left = np.where(is_missing, f["default_left"][:, None], go_left)
        # glibc serves arrays this large by mmap: while ``x`` lives, each array allocated below is
        # a fresh mapping whose pages fault on first touch (3 ms instead of 0.5 for 800 rows)
        del x, nan
        if f["table_groups"] is not None:
            for nodes, table, offsets in f["table_groups"]:
                codes = go_left[nodes[:, 0]].astype(np.intp)   # (trees, rows); bit j: split j goes left
                for j in range(1, nodes.shape[1]):
                    codes += go_left[nodes[:, j]].astype(np.intp) << j
                total += table[offsets[:, None] + codes].sum(axis=0)
            return total
        node = np.broadcast_to(roots, (len(X), len(roots))).copy()   # (rows, trees)
        row = np.arange(len(X))[:, None]
        while True:
            active = node >= 0
            if not active.any():
                break
            n = np.where(active, node, 0)
            child = np.where(go_left[n, row], f["left"][n], f["right"][n])
            node = np.where(active, child, node)
        return total + f["leaf_value"][~node].sum(axis=1)
