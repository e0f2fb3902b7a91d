"""JSON Lines reading shared by document tables and news threads: errors name file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator

from . import BeyondfindError


def iter_jsonl(text: str, name: str) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line; a malformed line raises before anything else
    is returned for it, naming ``name:line``."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BeyondfindError(f"{name}:{n}: malformed JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BeyondfindError(f"{name}:{n}: not a JSON object")
        yield n, row
