"""Evaluation: measures as values (:mod:`.measures`), book and news evaluations."""
