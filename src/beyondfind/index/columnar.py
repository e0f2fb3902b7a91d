"""Annotation records stored column by column, in binary chunks (library schema 3).

A cold ``beyondfind rank`` reads a whole book's records: Huckleberry Finn has ~41k of them
(sentences, mentions, pronouns, verbs, descriptions), and fetching them as SQLite rows — one
Python object per field, then a record per row — took 0.09–0.18 s of the query. Here a chunk of
up to :data:`CHUNK` records of one kind is one BLOB: a JSON header (count, and the vocabulary of
each text column) and the columns as little-endian arrays (integers ``<i8``, flags ``u1``, text
as ``<i4`` codes into its vocabulary). Reading a chunk is a few NumPy views and one
``zip``/``_make`` over the rows: the same book loads in ~0.03 s. Nothing in the format is Python-
or platform-specific (no pickle: a library file may come from someone else), and chunks keep a
long document's writes streaming (its records are never all in memory while it is stored).

Each record type declares its columns in :data:`LAYOUTS`, in field order: the codec never
guesses a type from the data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import partial
from itertools import islice
from operator import itemgetter
from sys import intern   # labels, keys, lemmas: one string object each, as the records always had
from typing import NamedTuple

import numpy as np

from .. import BeyondfindError
from .records import Description, Mention, Pronoun, Sentence, Verb

CHUNK = 16_384   # records per BLOB (0.3–1 MB): what storing a document holds at once, ~3 MB of
                 # records; larger chunks load no faster (Huck Finn: 41k records, 6 chunks)

INT, FLAG, TEXT = "int", "flag", "text"
OPTIONAL_INT, OPTIONAL_TEXT = "int?", "text?"
_NONE = np.iinfo(np.int64).min   # an optional integer's None

LAYOUTS: dict[str, tuple[type, tuple[str, ...]]] = {
    "sentences": (Sentence, (INT, INT, INT, INT)),
    "mentions": (Mention, (INT, INT, INT, INT, INT, TEXT, TEXT, FLAG, TEXT, OPTIONAL_TEXT, FLAG, FLAG, TEXT)),
    "pronouns": (Pronoun, (INT, INT, INT, INT, INT, TEXT, INT, OPTIONAL_TEXT, FLAG, OPTIONAL_INT, FLAG)),
    "verbs": (Verb, (INT, INT, TEXT)),
    "descriptions": (Description, (INT, INT, INT)),
}
"""Record kind → (record type, one column type per field)."""

_DTYPES = {INT: "<i8", OPTIONAL_INT: "<i8", FLAG: "u1", TEXT: "<i4", OPTIONAL_TEXT: "<i4"}


def chunks(records: Iterable[NamedTuple], size: int = CHUNK) -> Iterator[list]:
    """``records`` in lists of at most ``size`` (the last may be shorter; none is empty)."""
    it = iter(records)
    while batch := list(islice(it, size)):
        yield batch


def encode(kind: str, records: list) -> bytes:
    """One chunk of ``kind`` records as bytes (see the module docstring)."""
    _cls, types = LAYOUTS[kind]
    columns = list(zip(*records)) if records else [() for _ in types]
    header: dict = {"kind": kind, "n": len(records), "vocabularies": []}
    arrays = []
    for values, typ in zip(columns, types):
        if typ in (TEXT, OPTIONAL_TEXT):
            vocabulary = list(dict.fromkeys(values))
            code = {v: i for i, v in enumerate(vocabulary)}
            header["vocabularies"].append(vocabulary)
            arrays.append(np.fromiter((code[v] for v in values), dtype=_DTYPES[typ], count=len(values)))
        elif typ == OPTIONAL_INT:
            arrays.append(np.array([_NONE if v is None else v for v in values], dtype=_DTYPES[typ]))
        else:
            arrays.append(np.array(values, dtype=_DTYPES[typ]))
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return len(head).to_bytes(4, "little") + head + b"".join(a.tobytes() for a in arrays)


def decode(kind: str, data: bytes) -> tuple:
    """The records of one chunk written by :func:`encode`."""
    cls, types = LAYOUTS[kind]
    try:
        size = int.from_bytes(data[:4], "little")
        header = json.loads(data[4:4 + size])
        if header["kind"] != kind:
            raise ValueError(f"a chunk of {header['kind']}")
        n, vocabularies = header["n"], iter(header["vocabularies"])
        offset, columns = 4 + size, []
        for typ in types:
            array = np.frombuffer(data, dtype=_DTYPES[typ], count=n, offset=offset)
            offset += array.nbytes
            if typ in (TEXT, OPTIONAL_TEXT):
                vocabulary = [intern(v) if v is not None else v for v in next(vocabularies)]
                columns.append(itemgetter(*array.tolist())(vocabulary) if n > 1 else [vocabulary[i] for i in array])
            elif typ == OPTIONAL_INT:
                columns.append([None if v == _NONE else v for v in array.tolist()])
            elif typ == FLAG:
                columns.append(array.astype(bool).tolist())
            else:
                columns.append(array.tolist())
        if offset != len(data):
            raise ValueError(f"{len(data) - offset} bytes left over")
    except (ValueError, KeyError, TypeError, StopIteration, json.JSONDecodeError) as exc:
        raise BeyondfindError(f"the library's stored {kind} are damaged ({exc}); index the document again") from None
    return tuple(map(partial(tuple.__new__, cls), zip(*columns)))   # cls._make without a Python call per record
