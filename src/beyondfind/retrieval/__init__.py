"""Retrieval: LRM (:mod:`.lrm`) and the seed paper's baselines (:mod:`.baselines`)."""

from .lrm import LRMSettings
from .ranking import Scored

__all__ = ["LRMSettings", "Scored"]
