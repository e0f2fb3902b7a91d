"""Reading threads in the ``news/meantime`` JSONL form: one article per line with ``id``, ``date``,
``title``, ``text`` and optionally ``entities`` (gold annotations)."""

from __future__ import annotations

import sys
from datetime import date as Date
from pathlib import Path

from .. import BeyondfindError
from ..documents.readers import decode_text, read_input_file
from ..jsonl import iter_jsonl
from .model import Article


def parse_date(value) -> str | None:
    if not value:
        return None
    try:
        return Date.fromisoformat(str(value)[:10]).isoformat()
    except ValueError:
        return None


def article_from_json(row: dict, where: str) -> Article:
    if not isinstance(row, dict):
        raise BeyondfindError(f"{where}: not a JSON object")
    if not str(row.get("id") or "").strip():
        raise BeyondfindError(f"{where}: article has no 'id'")
    text = row.get("text")
    if not isinstance(text, str):
        raise BeyondfindError(f"{where}: article {row['id']!r} has no 'text' string")
    ents = row.get("entities") or []
    if not isinstance(ents, list):
        raise BeyondfindError(f"{where}: 'entities' must be a list of objects")
    for e in ents:
        if isinstance(e, dict) and not isinstance(e.get("mentions", []), list):
            raise BeyondfindError(f"{where}: 'mentions' of entity {e.get('name')!r} must be a list")
    names = tuple(e["name"] for e in ents if isinstance(e, dict) and e.get("name"))
    aliases = {e["name"]: tuple(m["text"] for m in e.get("mentions", []) if isinstance(m, dict) and m.get("text"))
               for e in ents if isinstance(e, dict) and e.get("name")}
    types = {e["name"]: e.get("type", "") for e in ents if isinstance(e, dict) and e.get("name")}
    return Article(str(row["id"]), parse_date(row.get("date")), str(row.get("title") or ""), text, names, aliases, types)


def read_thread(path: str | Path, warn=lambda msg: print(msg, file=sys.stderr)) -> list[Article]:
    """All articles of a JSONL thread file (file order). Bad JSON: an error naming the line."""
    p = Path(path)
    text = decode_text(read_input_file(p), str(p))
    articles, seen = [], set()
    for n, row in iter_jsonl(text, str(p)):
        a = article_from_json(row, f"{p}:{n}")
        if a.id in seen:
            raise BeyondfindError(f"{p}:{n}: duplicate article id {a.id!r}")
        seen.add(a.id)
        if a.date is None:
            warn(f"warning: {p}:{n}: article {a.id!r} has no usable date; kept in file order")
        articles.append(a)
    if not articles:
        raise BeyondfindError(f"{p}: no articles (the file is empty); give one JSON object per line")
    return articles


def history_order(articles: list[Article]) -> list[Article]:
    """Date order (stable: undated articles keep their place after the previous dated one)."""
    keyed, last = [], ""
    for i, a in enumerate(articles):
        last = a.date or last
        keyed.append(((last, i), a))
    return [a for _k, a in sorted(keyed, key=lambda x: x[0])]
