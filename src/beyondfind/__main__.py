"""``python -m beyondfind``: the same command line as ``beyondfind``."""

import sys

from .cli.main import main

sys.exit(main())
