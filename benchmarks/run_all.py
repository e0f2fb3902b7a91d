"""Run every benchmark (``make bench``)."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
for script in ("nlp_speed.py", "indexing.py", "book_search.py", "news_store.py", "server_load.py", "dask_index.py",
               "large_documents.py"):
    print(f"\n=== {script}", flush=True)
    subprocess.run([sys.executable, str(HERE / script), *sys.argv[1:]], cwd=HERE, check=False)
