"""The thread store: per-article entity statistics in SQLite, aggregated on demand.

Adding an article writes one row per (article, entity) and one per co-occurring pair; ranking an
article runs four aggregate queries over the rows of articles *before* it (by date, then arrival),
so an article that arrives late is still placed by its date, and no history is re-annotated.
Article text is stored once, for display; the statistics grow with entities, not with text.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from .. import BeyondfindError, NotFoundError, validate
from ..sqlite import create_schema, write_transaction
from .identity import acronym, compact, is_acronym, normalize, words
from .model import FEATURES, ArticleAnnotation, EntityStats, StoredArticle

SCHEMA = """
CREATE TABLE IF NOT EXISTS news_threads (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS news_articles (
    thread_id INTEGER NOT NULL REFERENCES news_threads(id), article_id TEXT NOT NULL, sort_key TEXT NOT NULL,
    date TEXT, title TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (thread_id, article_id));
CREATE TABLE IF NOT EXISTS news_entities (
    thread_id INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, is_person INTEGER NOT NULL,
    PRIMARY KEY (thread_id, id));
CREATE UNIQUE INDEX IF NOT EXISTS news_entities_name ON news_entities(thread_id, name);
CREATE TABLE IF NOT EXISTS news_aliases (
    thread_id INTEGER NOT NULL, alias TEXT NOT NULL, entity_id INTEGER NOT NULL, PRIMARY KEY (thread_id, alias));
CREATE TABLE IF NOT EXISTS news_mentions (
    thread_id INTEGER NOT NULL, article_id TEXT NOT NULL, entity_id INTEGER NOT NULL, sort_key TEXT NOT NULL,
    surface TEXT NOT NULL, count INTEGER NOT NULL, subj INTEGER NOT NULL, first_sen_len INTEGER NOT NULL,
    first_sen_pos INTEGER NOT NULL, PRIMARY KEY (thread_id, article_id, entity_id));
CREATE INDEX IF NOT EXISTS news_mentions_hist ON news_mentions(thread_id, entity_id, sort_key);
CREATE TABLE IF NOT EXISTS news_cooc (
    thread_id INTEGER NOT NULL, article_id TEXT NOT NULL, entity_id INTEGER NOT NULL, partner_id INTEGER NOT NULL,
    sort_key TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS news_cooc_hist ON news_cooc(thread_id, entity_id, sort_key);
CREATE TABLE IF NOT EXISTS news_forms (
    thread_id INTEGER NOT NULL, article_id TEXT NOT NULL, entity_id INTEGER NOT NULL, form TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS news_forms_article ON news_forms(thread_id, article_id);
"""


def sort_key(date: str | None, seq: int) -> str:
    """History order: by date, then by arrival. Missing dates sort by arrival after dated ones of
    the same (carried-over) date; callers carry the previous date forward for undated articles."""
    return f"{date or '9999-12-31'}|{seq:09d}"


@dataclass
class _Aliases:
    """In-memory alias maps of one thread (loaded once, kept in step with writes)."""

    by_alias: dict[str, int] = field(default_factory=dict)
    by_acronym: dict[str, int] = field(default_factory=dict)
    by_compact: dict[str, int] = field(default_factory=dict)   # compact(alias key) → entity
    person_surname: dict[str, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    person: dict[int, bool] = field(default_factory=dict)

    def resolve(self, surface: str, is_person: bool = False) -> int | None:
        key = normalize(surface)
        if key in self.by_alias:
            return self.by_alias[key]
        spelling = compact(key)
        if spelling in self.by_compact:   # "Daimler Chrysler" for a known "DaimlerChrysler"
            return self.by_compact[spelling]
        if is_acronym(surface) and key in self.by_acronym:
            return self.by_acronym[key]
        acr = acronym(surface)
        if acr and acr in self.by_alias and is_acronym(self.names[self.by_alias[acr]]):
            return self.by_alias[acr]
        ws = key.split()
        stripped = len(ws) < len(words(surface))  # "Ford Motor" → "ford": a company, not a surname
        if len(ws) == 1 and not stripped and ws[0] in self.person_surname:  # "Jobs" ~ "Steve Jobs"
            return self.person_surname[ws[0]]
        return None

    def remember(self, key: str, entity_id: int) -> bool:
        """Map an alias key (and its spelling, :func:`compact`) to the entity unless already mapped;
        True when the key is new."""
        spelling = compact(key)
        if spelling:
            self.by_compact.setdefault(spelling, entity_id)
        if key in self.by_alias:
            return False
        self.by_alias[key] = entity_id
        return True

    def register(self, entity_id: int, surface: str, is_person: bool) -> list[str]:
        """Record a surface; returns the new alias keys to store."""
        key = normalize(surface)
        new = [key] if key and self.remember(key, entity_id) else []
        self.names.setdefault(entity_id, surface)
        self.person[entity_id] = self.person.get(entity_id, False) or is_person
        acr = acronym(surface)
        if acr:
            self.by_acronym.setdefault(acr, entity_id)
        ws = key.split()
        if len(ws) > 1 and is_person:
            self.person_surname.setdefault(ws[-1], entity_id)
        return new


class ThreadStore:
    """News threads in a SQLite file (the library file by default)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        try:
            create_schema(self.conn, SCHEMA)
        except sqlite3.IntegrityError:   # a store written concurrently by beyondfind 0.1
            raise BeyondfindError("this news store has duplicated entities (written by several beyondfind 0.1 "
                                  "processes at once); re-add its threads into a new --store file") from None
        self._aliases: dict[int, _Aliases] = {}

    # --- threads and articles --------------------------------------------------------------
    def thread_id(self, name: str, create: bool = False) -> int:
        name = validate.thread_name(name)
        row = self.conn.execute("SELECT id FROM news_threads WHERE name = ?", (name,)).fetchone()
        if row:
            return row[0]
        if not create:
            raise NotFoundError(f"no news thread {name!r}; a thread is created by adding its first article")
        return self.conn.execute("INSERT INTO news_threads (name) VALUES (?)", (name,)).lastrowid

    def threads(self) -> list[tuple[str, int]]:
        return list(self.conn.execute("SELECT t.name, (SELECT COUNT(*) FROM news_articles a WHERE a.thread_id = t.id) "
                                      "FROM news_threads t ORDER BY t.name"))

    def articles(self, thread: int) -> list[StoredArticle]:
        """The thread's articles in history order (without their text)."""
        return [StoredArticle(*row) for row in self.conn.execute(
            "SELECT article_id, date, title, sort_key FROM news_articles WHERE thread_id = ? ORDER BY sort_key",
            (thread,))]

    def article(self, thread: int, article_id: str) -> StoredArticle:
        row = self.conn.execute("SELECT article_id, date, title, sort_key, text FROM news_articles WHERE thread_id = ? "
                                "AND article_id = ?", (thread, article_id)).fetchone()
        if row is None:
            raise NotFoundError(f"no article {article_id!r} in this thread; list the thread's articles for their ids")
        return StoredArticle(*row)

    def has_article(self, thread: int, article_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM news_articles WHERE thread_id = ? AND article_id = ?",
                                 (thread, article_id)).fetchone() is not None

    def next_seq(self, thread: int) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM news_articles WHERE thread_id = ?", (thread,)).fetchone()[0]

    def last_date(self, thread: int) -> str | None:
        row = self.conn.execute("SELECT date FROM news_articles WHERE thread_id = ? AND date IS NOT NULL "
                                "ORDER BY sort_key DESC LIMIT 1", (thread,)).fetchone()
        return row[0] if row else None

    # --- entities ----------------------------------------------------------------------------
    def _alias_maps(self, thread: int) -> _Aliases:
        if thread not in self._aliases:
            maps = _Aliases()
            persons = dict(self.conn.execute("SELECT id, is_person FROM news_entities WHERE thread_id = ?", (thread,)))
            names = dict(self.conn.execute("SELECT id, name FROM news_entities WHERE thread_id = ?", (thread,)))
            for alias, eid in self.conn.execute("SELECT alias, entity_id FROM news_aliases WHERE thread_id = ? "
                                                "ORDER BY rowid", (thread,)):
                maps.remember(alias, eid)
            for eid, name in names.items():
                maps.register(eid, name, bool(persons[eid]))
            self._aliases[thread] = maps
        return self._aliases[thread]

    def _resolve(self, thread: int, ann: ArticleAnnotation, create: bool) -> dict[int, list[EntityStats]]:
        maps = self._alias_maps(thread)
        by_entity: dict[int, list[EntityStats]] = defaultdict(list)
        pending = []
        # longer names first, so "General Motors" exists before "GM" is resolved
        for st in sorted(ann.entities, key=lambda s: -len(s.surface)):
            eid = maps.resolve(st.surface, st.is_person)
            if eid is None:
                if not create:
                    eid = -1 - len(pending)  # unseen in the history: a temporary id
                    pending.append(st)
                    by_entity[eid].append(st)
                    continue
                eid = 1 + (self.conn.execute("SELECT MAX(id) FROM news_entities WHERE thread_id = ?",
                                             (thread,)).fetchone()[0] or 0)
                self.conn.execute("INSERT INTO news_entities VALUES (?, ?, ?, ?)", (thread, eid, st.surface,
                                                                                   int(st.is_person)))
            if create:
                for alias in maps.register(eid, st.surface, st.is_person):
                    self.conn.execute("INSERT OR IGNORE INTO news_aliases VALUES (?, ?, ?)", (thread, alias, eid))
            by_entity[eid].append(st)
        return by_entity

    @staticmethod
    def _merge(stats: list[EntityStats]) -> EntityStats:
        if len(stats) == 1:
            return stats[0]
        first = min(stats, key=lambda s: s.first_sen_pos)
        main = max(stats, key=lambda s: (s.count, len(s.surface)))
        return EntityStats(main.surface, any(s.is_person for s in stats), sum(s.count for s in stats),
                           sum(s.subj_count for s in stats), first.first_sen_len, first.first_sen_pos,
                           frozenset().union(*(s.sentences for s in stats)), frozenset().union(*(s.forms for s in stats)))

    def add(self, thread_name: str, ann: ArticleAnnotation, replace: bool = False) -> str:
        """Add an annotated article to the thread in one transaction; returns its sort key."""
        a = ann.article
        try:
            with write_transaction(self.conn, "news store"):
                self._aliases.clear()   # reloaded under the write lock: other processes may have added entities
                thread = self.thread_id(thread_name, create=True)
                if self.has_article(thread, a.id):
                    if not replace:
                        raise BeyondfindError(f"article {a.id!r} is already in thread {thread_name!r}; "
                                              "add it again with replace to replace it")
                    for table in ("news_articles", "news_mentions", "news_cooc", "news_forms"):
                        self.conn.execute(f"DELETE FROM {table} WHERE thread_id = ? AND article_id = ?", (thread, a.id))
                date = a.date or self.last_date(thread)
                key = sort_key(date, self.next_seq(thread))
                self.conn.execute("INSERT INTO news_articles VALUES (?, ?, ?, ?, ?, ?)",
                                  (thread, a.id, key, a.date, a.title, a.text))
                merged = {eid: self._merge(sts) for eid, sts in self._resolve(thread, ann, create=True).items()}
                self.conn.executemany("INSERT INTO news_mentions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                      [(thread, a.id, eid, key, s.surface, s.count, s.subj_count, s.first_sen_len,
                                        s.first_sen_pos) for eid, s in merged.items()])
                self.conn.executemany("INSERT INTO news_forms VALUES (?, ?, ?, ?)",
                                      [(thread, a.id, eid, form) for eid, st in merged.items() for form in sorted(st.forms)])
                pairs = set()
                for (e1, s1), (e2, s2) in combinations(merged.items(), 2):
                    if s1.sentences & s2.sentences:
                        pairs.add((e1, e2))
                        pairs.add((e2, e1))
                self.conn.executemany("INSERT INTO news_cooc VALUES (?, ?, ?, ?, ?)",
                                      [(thread, a.id, e1, e2, key) for e1, e2 in pairs])
        except BaseException:
            self._aliases.clear()  # the in-memory alias maps may hold rolled-back entities
            raise
        return key

    def _thread_exists(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM news_threads WHERE name = ?", (name,)).fetchone() is not None

    # --- features ------------------------------------------------------------------------------
    def features(self, thread_name: str, ann: ArticleAnnotation,
                 before: str | None = None) -> list[tuple[str, dict, frozenset[str]]]:
        """(entity name, the nine features, the article's forms of it) for each entity of ``ann``, with
        history = articles whose sort key is below ``before`` (default: the whole stored thread)."""
        if self._thread_exists(thread_name):
            thread = self.thread_id(thread_name)
            resolved = self._resolve(thread, ann, create=False)
        else:
            thread = -1
            resolved = {-1 - k: [s] for k, s in enumerate(ann.entities)}
        merged = {eid: self._merge(sts) for eid, sts in resolved.items()}
        known = [e for e in merged if e >= 0]
        hist: dict[int, dict] = defaultdict(dict)
        if known:
            marks = ",".join("?" * len(known))
            limit = before or "~"
            q = self.conn.execute
            args = (thread, *known, limit)
            for eid, total, df, first_count, _k in q(
                    f"SELECT entity_id, SUM(count), COUNT(*), count, MIN(sort_key) FROM news_mentions WHERE thread_id = ? "
                    f"AND entity_id IN ({marks}) AND sort_key < ? GROUP BY entity_id", args):
                hist[eid].update(F_H=total, DF_H=df, F_first=first_count)
            for eid, last_count, _k in q(
                    f"SELECT entity_id, count, MAX(sort_key) FROM news_mentions WHERE thread_id = ? "
                    f"AND entity_id IN ({marks}) AND sort_key < ? GROUP BY entity_id", args):
                hist[eid]["F_last"] = last_count
            for eid, n in q(f"SELECT entity_id, COUNT(DISTINCT partner_id) FROM news_cooc WHERE thread_id = ? "
                            f"AND entity_id IN ({marks}) AND sort_key < ? GROUP BY entity_id", args):
                hist[eid]["CoOcc_H"] = n
        out = []
        for eid, s in merged.items():
            h = hist.get(eid, {})
            f = {"F_d": s.count, "Fsubj_d": s.subj_count, "FirstSenLen": s.first_sen_len, "FirstSenPos": s.first_sen_pos,
                 "F_H": h.get("F_H", 0), "DF_H": h.get("DF_H", 0), "F_last": h.get("F_last", 0),
                 "F_first": h.get("F_first", 0), "CoOcc_H": h.get("CoOcc_H", 0)}
            assert tuple(f) == FEATURES
            if ann.article.gold_entities:  # gold names are judged by name: report each one
                out.extend((st.surface, f, st.forms) for st in resolved[eid])
            else:
                out.append((s.surface, f, s.forms))
        return out
