"""Named descriptiveness features for LDM (:mod:`.descriptiveness`) and the keyword list they use."""

from .descriptiveness import FEATURE_GROUPS, FEATURE_NAMES, FeatureMatrix, extract_features

__all__ = ["FEATURE_GROUPS", "FEATURE_NAMES", "FeatureMatrix", "extract_features"]
