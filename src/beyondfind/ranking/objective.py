"""What LDM's trees fit (no heavy imports: the CLI builds its options from it)."""

from __future__ import annotations

from enum import Enum


class Objective(str, Enum):
    """``regression``: the judged gain itself (least squares; shipped, the raw score is an expected
    gain). ``lambdarank``: nDCG, as the seed paper's LambdaMART."""

    REGRESSION = "regression"
    LAMBDARANK = "lambdarank"


DEFAULT_OBJECTIVE = Objective.REGRESSION
