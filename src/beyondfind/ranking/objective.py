"""What a learned ranker's trees fit: LDM's, and the GUM salience model's
(:mod:`beyondfind.evaluation.salience`). No heavy imports: the CLI builds its options from it."""

from __future__ import annotations

from enum import Enum


class Objective(str, Enum):
    """``regression``: the judged gain or grade itself (least squares; LDM's shipped objective, whose
    raw score is then an expected gain). ``lambdarank``: nDCG, as the seed paper's LambdaMART."""

    REGRESSION = "regression"
    LAMBDARANK = "lambdarank"


DEFAULT_OBJECTIVE = Objective.REGRESSION
