"""Ranking: LDM, the learned descriptiveness model (LambdaMART over named features)."""
