"""HTTP service (FastAPI) and the reader page: ``beyondfind serve``."""
