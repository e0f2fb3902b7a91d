"""A document's records while it is being annotated, spooled to a temporary SQLite file.

A long document has about 100k records per MB of text (sentences, mentions, pronouns, verbs,
capitalised tokens, descriptions); as Python objects they took ~12 MB per MB of text in the
process that collects them, which ruled out indexing a 50 MB text in memory proportional to its
size. The collecting process appends each annotated batch here instead, the book-level passes of
:mod:`beyondfind.index.annotate` read and update the records with SQL and one-pass streams, and
:class:`SpooledAnnotations` hands them to :meth:`~beyondfind.index.store.Library.store` one row at
a time — or builds the in-memory :class:`~beyondfind.index.records.Annotations` for callers that
want them (tests, Dask workers sending a document's annotations back).

The spool is a private scratch file (no journal, no fsync): a crash loses it and nothing else,
and indexing then starts again from the document. A process killed outright (``SIGKILL``, the
out-of-memory killer) cannot delete its spool, so each spool directory holds a lock file its owner
keeps locked; the next spool created in the same place removes the directories whose lock nobody
holds any more (:func:`remove_abandoned`).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .records import (DESCRIPTION_COLUMNS, MENTION_COLUMNS, PRONOUN_COLUMNS, SENTENCE_COLUMNS, VERB_COLUMNS,
                      Annotations, Description, Mention, Pronoun, Sentence, Verb, mention_from_row, mention_row,
                      pronoun_from_row, pronoun_row, verb_from_row)
from .titles import THE_TITLE_LIKE

_MENTIONS = """CREATE TABLE {name} (id INTEGER PRIMARY KEY, passage INTEGER, sentence INTEGER, start INTEGER,
    "end" INTEGER, text TEXT, label TEXT, is_name INTEGER, key TEXT, honorific TEXT, is_subject INTEGER,
    in_quote INTEGER, source TEXT)"""
_SCHEMA = f"""
CREATE TABLE sentences (idx INTEGER PRIMARY KEY, passage INTEGER, start INTEGER, "end" INTEGER);
{_MENTIONS.format(name="mentions")};
CREATE TABLE pronouns (id INTEGER PRIMARY KEY, passage INTEGER, sentence INTEGER, start INTEGER, "end" INTEGER,
    text TEXT, person INTEGER, gender TEXT, in_quote INTEGER, antecedent INTEGER, narrator INTEGER);
CREATE TABLE verbs (passage INTEGER, sentence INTEGER, lemma TEXT);
CREATE TABLE descriptions (passage INTEGER, start INTEGER, kinds INTEGER);
CREATE TABLE candidates (passage INTEGER, sentence INTEGER, start INTEGER, "end" INTEGER, text TEXT,
    sent_start INTEGER, is_subject INTEGER, in_quote INTEGER);
CREATE TABLE links (id INTEGER PRIMARY KEY, antecedent INTEGER);
"""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A capitalised token not inside a name: a place where a known name may have been missed."""

    passage: int
    sentence: int
    start: int
    end: int
    text: str
    sent_start: bool
    is_subject: bool
    in_quote: bool


@dataclass
class Batch:
    """The records of one annotated batch, ids and sentence numbers counted from 0 within it."""

    sentences: list[Sentence]
    mentions: list[Mention]
    pronouns: list[Pronoun]
    verbs: list[Verb]
    candidates: list[Candidate]
    descriptions: list[Description]

    @classmethod
    def empty(cls) -> "Batch":
        return cls([], [], [], [], [], [])


SPOOL_PREFIX = "beyondfind-spool-"
_OWNER_LOCK = "owner.lock"
# a directory younger than this is never removed: its owner may not have taken its lock yet
_GRACE_SECONDS = 60.0


def _lock(path: Path):
    """The open lock file, locked exclusively (released by the OS when its holders exit), or None
    where the platform has no ``flock`` or another process holds it."""
    try:
        import fcntl
    except ImportError:   # Windows: abandoned spools stay in the temporary directory
        return None
    handle = open(path, "a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def remove_abandoned(directory: str | Path | None = None, *, grace: float = _GRACE_SECONDS) -> list[Path]:
    """Delete the spool directories in ``directory`` whose owner died without cleaning up (its lock
    file is no longer locked); returns what was removed."""
    removed = []
    now = time.time()
    for path in Path(directory or tempfile.gettempdir()).glob(SPOOL_PREFIX + "*"):
        try:
            if not path.is_dir() or now - path.stat().st_mtime < grace or not (path / _OWNER_LOCK).exists():
                continue
        except OSError:
            continue
        handle = _lock(path / _OWNER_LOCK)
        if handle is None:
            continue
        with handle:
            shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


class RecordSpool:
    """Records appended batch by batch, read back in order. Use as a context manager: the scratch
    file is deleted on exit. ``directory``: where the scratch file goes (the system's temporary
    directory by default); spools abandoned there by killed processes are removed first."""

    def __init__(self, directory: str | Path | None = None) -> None:
        remove_abandoned(directory)
        self._dir = tempfile.mkdtemp(prefix=SPOOL_PREFIX, dir=directory)
        self._owner = _lock(Path(self._dir) / _OWNER_LOCK)
        self.conn = sqlite3.connect(Path(self._dir) / "records.sqlite", isolation_level=None)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -8000"):
            self.conn.execute(f"PRAGMA {pragma}")
        self.conn.executescript(_SCHEMA)
        self.sentences = self.mentions = self.pronouns = 0   # records so far (the next batch's id offsets)

    def close(self) -> None:
        self.conn.close()
        shutil.rmtree(self._dir, ignore_errors=True)
        if self._owner is not None:
            self._owner.close()

    def __enter__(self) -> "RecordSpool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing -----------------------------------------------------------------------------
    def add(self, batch: Batch) -> None:
        """Append a batch, shifting its sentence, mention and pronoun ids past the records so far."""
        s0, m0, p0 = self.sentences, self.mentions, self.pronouns
        c = self.conn
        c.execute("BEGIN")
        c.executemany("INSERT INTO sentences VALUES (?, ?, ?, ?)",
                      ((s.index + s0, s.passage, s.start, s.end) for s in batch.sentences))
        c.executemany("INSERT INTO mentions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      ((m.id + m0, m.passage, m.sentence + s0, *mention_row(m)[3:]) for m in batch.mentions))
        c.executemany("INSERT INTO pronouns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      ((p.id + p0, p.passage, p.sentence + s0, *pronoun_row(p)[3:]) for p in batch.pronouns))
        c.executemany("INSERT INTO verbs VALUES (?, ?, ?)",
                      ((v.passage, v.sentence + s0, v.lemma) for v in batch.verbs))
        c.executemany("INSERT INTO candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      ((k.passage, k.sentence + s0, k.start, k.end, k.text, k.sent_start, k.is_subject, k.in_quote)
                       for k in batch.candidates))
        c.executemany("INSERT INTO descriptions VALUES (?, ?, ?)",
                      ((d.passage, d.start, d.kinds) for d in batch.descriptions))
        c.execute("COMMIT")
        self.sentences += len(batch.sentences)
        self.mentions += len(batch.mentions)
        self.pronouns += len(batch.pronouns)

    def insert_mentions(self, mentions: list[Mention]) -> None:
        """Add mentions found after the pipeline (their ids are ignored) and number all mentions
        again in reading order: by start, longer first, earlier-added first."""
        c = self.conn
        c.execute("BEGIN")
        c.executemany("INSERT INTO mentions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      ((self.mentions + k, *mention_row(m)[1:]) for k, m in enumerate(mentions)))
        self._renumber()
        c.execute("COMMIT")
        self.mentions += len(mentions)

    def join_names(self, rows: Iterable[tuple[int, str, str, str | None, bool, int, int]]) -> None:
        """Name mentions ``(end, text, key, honorific, is_subject, id, next id)`` take in the name
        mention ``next id`` after them ("Nelly" + "Dean" → "Nelly Dean"), which goes, and are persons';
        the mentions are numbered again (before pronouns are linked to them)."""
        rows = list(rows)
        self._rewrite(('UPDATE mentions SET "end" = ?, text = ?, key = ?, honorific = ?, is_subject = ?, '
                       "label = 'PER' WHERE id = ? AND is_name = 1", [row[:6] for row in rows]),
                      ("DELETE FROM mentions WHERE id = ?", [(row[6],) for row in rows]))
        self.mentions -= len(rows)

    def _rewrite(self, *statements: tuple[str, list[tuple]]) -> None:
        """Run each ``(sql, rows)`` and number the mentions again, in one transaction (nothing to do
        without rows)."""
        if not any(rows for _sql, rows in statements):
            return
        c = self.conn
        c.execute("BEGIN")
        for sql, rows in statements:
            c.executemany(sql, rows)
        self._renumber()
        c.execute("COMMIT")

    def _renumber(self) -> None:
        """Number all mentions again in reading order: by start, longer first, earlier-added first."""
        c = self.conn
        c.execute(_MENTIONS.format(name="mentions_ordered"))
        c.execute(f'INSERT INTO mentions_ordered SELECT row_number() OVER (ORDER BY start, "end" DESC, id) - 1, '
                  f'{MENTION_COLUMNS.split(", ", 1)[1]} FROM mentions')
        c.execute("DROP TABLE mentions")
        c.execute("ALTER TABLE mentions_ordered RENAME TO mentions")

    def unname(self, forms: Iterable[tuple[str, bool, str]]) -> None:
        """Name mentions of these ``(key, has honorific, label)`` forms stop being names."""
        self._update("UPDATE mentions SET is_name = 0 WHERE is_name = 1 AND key = ? "
                     "AND (honorific IS NOT NULL) = ? AND label = ?", forms)

    def name_nominals(self, rows: Iterable[tuple[str, str, int]]) -> None:
        """Nominal mentions ``(name text, key, id)`` become person names written ``text``, their span
        cut to it ("Stubb’s" → "Stubb")."""
        self._update('UPDATE mentions SET is_name = 1, label = \'PER\', text = ?1, "end" = start + length(?1), '
                     "key = ?2 WHERE id = ?3 AND is_name = 0", rows)

    def rename(self, rows: Iterable[tuple[int, str, str, str | None, int]]) -> None:
        """Name mentions ``(start, text, key, honorific, id)`` get a later start and the name written
        from it ("Call Meg" → "Meg"); the end stays."""
        self._update("UPDATE mentions SET start = ?1, text = ?2, key = ?3, honorific = ?4 "
                     "WHERE id = ?5 AND is_name = 1", rows)

    def widen_names(self, rows: Iterable[tuple[int, str, str, str | None, str, int]]) -> None:
        """Name mentions ``(start, text, key, honorific, label, id)`` get an earlier start, the name
        written from it and its label ("York" → "New York", GPE); the end stays. The mentions are
        numbered again (before pronouns are linked to them)."""
        self._rewrite(("UPDATE mentions SET start = ?, text = ?, key = ?, honorific = ?, label = ? "
                       "WHERE id = ? AND is_name = 1", list(rows)))

    def name_persons(self, ids: Iterable[int]) -> None:
        """Mentions of these ids become person names (dates and unnamed "persons" alike)."""
        self._update("UPDATE mentions SET is_name = 1, label = 'PER' WHERE id = ?", ((i,) for i in ids))

    def relabel(self, forms: Iterable[tuple[str, bool, str]], label: str) -> None:
        """Name mentions of these ``(key, has honorific, label)`` forms get ``label``."""
        self._update("UPDATE mentions SET label = ? WHERE is_name = 1 AND key = ? "
                     "AND (honorific IS NOT NULL) = ? AND label = ?", ((label, *f) for f in forms))

    def _update(self, sql: str, rows: Iterable[tuple]) -> None:
        c = self.conn
        c.execute("BEGIN")
        c.execute("CREATE INDEX IF NOT EXISTS mentions_key ON mentions(key)")
        c.executemany(sql, rows)
        c.execute("COMMIT")

    def link_pronouns(self, links: Iterable[tuple[int, int]], narrator: bool) -> None:
        """Set third-person pronouns' antecedents from ``(pronoun id, mention id)`` pairs (read
        lazily: the pairs may be computed from this spool's own streams); with ``narrator``, mark
        first-person pronouns outside quotes as the narrator's."""
        c = self.conn
        c.execute("BEGIN")
        c.executemany("INSERT INTO links VALUES (?, ?)", links)
        c.execute("UPDATE pronouns SET antecedent = (SELECT antecedent FROM links WHERE links.id = pronouns.id) "
                  "WHERE id IN (SELECT id FROM links)")
        if narrator:
            c.execute("UPDATE pronouns SET narrator = 1 WHERE person = 1 AND in_quote = 0")
        c.execute("COMMIT")

    # --- reading -----------------------------------------------------------------------------
    def key_counts(self, per: bool, with_honorific: bool = False) -> Counter:
        """How often each name key is a PER name (``per``), or a name of another label; with
        ``with_honorific``, only mentions written after an honorific ("Mr. Renfield")."""
        op = "=" if per else "!="
        honorific = " AND honorific IS NOT NULL" if with_honorific else ""
        return Counter(dict(self.conn.execute(
            f"SELECT key, COUNT(*) FROM mentions WHERE is_name = 1 AND label {op} 'PER'{honorific} GROUP BY key")))

    def bare_mentions(self, keys: Iterable[str], labels: tuple[str, ...]) -> list[tuple[int, int, str]]:
        """``(id, start, text)`` of the mentions of these keys written without an honorific, with one of
        ``labels``, names or not."""
        keys, labels = list(keys), list(labels)
        return list(self.conn.execute(
            f"SELECT id, start, text FROM mentions WHERE key IN ({','.join('?' * len(keys))}) AND honorific IS NULL "
            f"AND label IN ({','.join('?' * len(labels))})", keys + labels))

    def surnames_after(self, honorifics: frozenset[str]) -> Counter:
        """Last words of the PER names written after one of ``honorifics`` ("Mrs. Elton" → elton),
        not of "X of Y" ("Mr. Lorry of Tellson's"), with their mentions."""
        marks = ",".join("?" * len(honorifics))
        out: Counter = Counter()
        for key, n in self.conn.execute(
                "SELECT key, COUNT(*) FROM mentions WHERE is_name = 1 AND label = 'PER' "
                f"AND honorific IN ({marks}) GROUP BY key", tuple(honorifics)):
            if key and "of" not in key.split():
                out[key.split()[-1]] += n
        return out

    def name_forms(self) -> list[tuple[str, bool, str]]:
        """The distinct ``(key, has honorific, label)`` of name mentions."""
        return [(k, bool(h), lab) for k, h, lab in self.conn.execute(
            "SELECT DISTINCT key, honorific IS NOT NULL, label FROM mentions WHERE is_name = 1")]

    def person_phrases(self) -> Iterator[tuple[int, int, int, str, str]]:
        """``(id, start, its sentence's start, text, key)`` of the PER names of several words
        written without an honorific, by key."""
        return self.conn.execute("SELECT m.id, m.start, s.start, m.text, m.key FROM mentions m JOIN sentences s "
                                 "ON s.idx = m.sentence WHERE m.is_name = 1 AND m.label = 'PER' "
                                 "AND m.honorific IS NULL AND m.key LIKE '% %' ORDER BY m.key, m.id")

    def name_spans(self) -> Iterator[tuple[int, int, int, str, str | None, bool, str, str]]:
        """``(id, start, end, text, honorific, is_subject, label, key)`` of name mentions, by start."""
        for i, a, b, t, h, sub, lab, k in self.conn.execute(
                'SELECT id, start, "end", text, honorific, is_subject, label, key FROM mentions '
                "WHERE is_name = 1 ORDER BY start, id"):
            yield i, a, b, t, h, bool(sub), lab, k

    def person_nominals(self) -> Iterator[tuple[int, int, int, str]]:
        """``(id, start, its sentence's start, text)`` of the PER mentions that are no names."""
        return self.conn.execute("SELECT m.id, m.start, s.start, m.text FROM mentions m JOIN sentences s "
                                 "ON s.idx = m.sentence WHERE m.is_name = 0 AND m.label = 'PER' ORDER BY m.id")

    def place_nominals(self) -> Iterator[tuple[int, int, int, str]]:
        """``(id, start, its sentence's start, text)`` of the place and organisation mentions that
        are no names."""
        return self.conn.execute("SELECT m.id, m.start, s.start, m.text FROM mentions m JOIN sentences s "
                                 "ON s.idx = m.sentence WHERE m.is_name = 0 AND m.label IN ('GPE', 'LOC', 'FAC', 'ORG') "
                                 "ORDER BY m.id")

    def candidates(self) -> Iterator[Candidate]:
        for row in self.conn.execute("SELECT * FROM candidates ORDER BY rowid"):
            yield Candidate(*row[:5], *map(bool, row[5:]))

    def person_name_texts(self) -> Iterator[tuple[str, int]]:
        """``(text, mentions)`` of each distinct text of PER name mentions."""
        return self.conn.execute("SELECT text, COUNT(*) FROM mentions WHERE is_name = 1 AND label = 'PER' "
                                 "GROUP BY text")

    def person_names(self, titles: bool = False) -> Iterator[tuple[int, int, int, str, bool, bool, bool]]:
        """``(id, start, sentence, text, is_subject, in_quote, is_name)`` of PER name mentions, in
        id order; with ``titles``, also the PER nominals written "the …" ("the Count"), which may
        stand for a name."""
        nominals = " OR (is_name = 0 AND text LIKE ?)" if titles else ""
        for i, a, s, t, sub, q, n in self.conn.execute(
                "SELECT id, start, sentence, text, is_subject, in_quote, is_name FROM mentions "
                f"WHERE label = 'PER' AND (is_name = 1{nominals}) ORDER BY id", (THE_TITLE_LIKE,) if titles else ()):
            yield i, a, s, t, bool(sub), bool(q), bool(n)

    def third_person_pronouns(self) -> Iterator[tuple[int, int, int, str, str, bool]]:
        """``(id, start, sentence, gender, text, in_quote)`` of third-person pronouns, in id order."""
        for i, a, s, g, t, q in self.conn.execute(
                "SELECT id, start, sentence, gender, text, in_quote FROM pronouns WHERE person = 3 ORDER BY id"):
            yield i, a, s, g, t, bool(q)

    def annotations(self, narrator: str | None, pipeline: str, narrators: tuple[str, ...]) -> "SpooledAnnotations":
        return SpooledAnnotations(self, narrator, pipeline, narrators)


@dataclass(frozen=True)
class SpooledAnnotations:
    """A document's annotations left in its spool: each record field is read from it when iterated
    (once, by :meth:`Library.store`), so storing a long document never holds its records.
    :meth:`materialise` builds the in-memory :class:`Annotations`."""

    spool: RecordSpool
    narrator: str | None
    pipeline: str
    narrators: tuple[str, ...] = ()

    def _read(self, sql: str) -> sqlite3.Cursor:
        return self.spool.conn.execute(sql)

    @property
    def sentences(self) -> Iterator[Sentence]:
        return (Sentence(*r) for r in self._read(f"SELECT {SENTENCE_COLUMNS} FROM sentences ORDER BY idx"))

    @property
    def mentions(self) -> Iterator[Mention]:
        return map(mention_from_row, self._read(f"SELECT {MENTION_COLUMNS} FROM mentions ORDER BY id"))

    @property
    def pronouns(self) -> Iterator[Pronoun]:
        return map(pronoun_from_row, self._read(f"SELECT {PRONOUN_COLUMNS} FROM pronouns ORDER BY id"))

    @property
    def verbs(self) -> Iterator[Verb]:
        return map(verb_from_row, self._read(f"SELECT {VERB_COLUMNS} FROM verbs ORDER BY rowid"))

    @property
    def descriptions(self) -> Iterator[Description]:
        return (Description(*r) for r in self._read(f"SELECT {DESCRIPTION_COLUMNS} FROM descriptions ORDER BY rowid"))

    def materialise(self) -> Annotations:
        return Annotations(tuple(self.sentences), tuple(self.mentions), tuple(self.pronouns), tuple(self.verbs),
                           self.narrator, self.pipeline, self.narrators, tuple(self.descriptions))
