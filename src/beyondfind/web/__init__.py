"""The reader web page: plain static files served by :mod:`beyondfind.server` (no build step)."""
