"""Judged data: graded passage judgments for books, graded entity judgments for news threads."""
