"""JSON Lines reading shared by document tables and news threads: errors name file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator

from . import BeyondfindError


MAX_DEPTH = 32


def nesting_depth(text: str) -> int:
    """Deepest bracket nesting outside strings (checked before parsing, so deeply nested input is
    an error, never a RecursionError)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def iter_jsonl(text: str, name: str) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line; a malformed line raises before anything else
    is returned for it, naming ``name:line``."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if nesting_depth(line) > MAX_DEPTH:
            raise BeyondfindError(f"{name}:{n}: JSON nested deeper than {MAX_DEPTH} levels")
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BeyondfindError(f"{name}:{n}: malformed JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BeyondfindError(f"{name}:{n}: not a JSON object")
        yield n, row
