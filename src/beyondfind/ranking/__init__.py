"""Ranking: LDM, the learned descriptiveness model (gradient-boosted trees over named features)."""
