"""Several processes writing one SQLite store at once end with exactly the sequential result:
nothing lost, nothing duplicated, the same statistics and rankings."""

import json
import os
import sqlite3
import subprocess
import sys

from beyondfind.index import Library
from beyondfind.news import add_article, show_article
from beyondfind.news.io import read_thread
from beyondfind.news.store import ThreadStore
from beyondfind.nlp import load_pipeline
from beyondfind.sqlite import connect

from .conftest import DATA

PROCESSES = 4


def _spawn(*args):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.Popen([sys.executable, "-m", "beyondfind.cli.main", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _wait_all(procs):
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]


def _store_rows(path, thread):
    conn = sqlite3.connect(path)
    names = sorted(r[0] for r in conn.execute("SELECT name FROM news_entities"))
    aliases = sorted(conn.execute("SELECT a.alias, e.name FROM news_aliases a JOIN news_entities e ON "
                                  "e.thread_id = a.thread_id AND e.id = a.entity_id"))
    mentions = sorted(conn.execute("SELECT m.article_id, e.name, m.count, m.subj FROM news_mentions m JOIN news_entities e "
                                   "ON e.thread_id = m.thread_id AND e.id = m.entity_id"))
    order = [r[0] for r in conn.execute("SELECT article_id FROM news_articles ORDER BY "
                                        "substr(sort_key, instr(sort_key, '|') + 1)")]   # commit order
    conn.close()
    store = ThreadStore(connect(path))
    rankings = {a: [(r.entity, round(r.score, 9)) for r in show_article(store, thread, a)] for a in order}
    store.conn.close()
    return names, aliases, mentions, order, rankings


def test_concurrent_news_adds_equal_sequential_adds(tmp_path):
    lines = (DATA / "news" / "meantime" / "gm.jsonl").read_text().splitlines()
    parts = []
    for k in range(PROCESSES):
        part = tmp_path / f"part{k}.jsonl"
        part.write_text("\n".join(lines[k::PROCESSES]) + "\n")
        parts.append(part)
    store = tmp_path / "concurrent.sqlite"
    _wait_all([_spawn("news", "add", "--thread", "gm", "--store", str(store), "--nlp", "blank", str(p))
               for p in parts])
    names, aliases, mentions, order, rankings = _store_rows(store, "gm")
    assert len(order) == len(lines) == len(set(order))
    assert len(names) == len(set(names)), "an entity was created twice"

    # the same articles added one after another, in the order the concurrent run committed them
    by_id = {a.id: a for a in read_thread(DATA / "news" / "meantime" / "gm.jsonl", warn=lambda m: None)}
    seq_path = tmp_path / "sequential.sqlite"
    seq = ThreadStore(connect(seq_path))
    nlp = load_pipeline("blank")
    for article_id in order:
        add_article(seq, "gm", by_id[article_id], nlp)
    seq.conn.close()
    assert _store_rows(seq_path, "gm") == (names, aliases, mentions, order, rankings)


def test_concurrent_indexing_stores_each_document_once(tmp_path):
    texts = []
    for k, book in enumerate(("84-frankenstein.txt", "11-alice-in-wonderland.txt")):
        path = tmp_path / f"book{k}.txt"
        path.write_bytes((DATA / "books" / book).read_bytes()[:40_000])
        texts.append(path)
    library = tmp_path / "library.sqlite"
    # two processes index the same file, two others one file each
    jobs = [texts[0], texts[0], texts[1], texts[1]]
    _wait_all([_spawn("index", str(p), "--library", str(library), "--nlp", "blank") for p in jobs])
    sequential = tmp_path / "sequential.sqlite"
    _wait_all([_spawn("index", *map(str, texts), "--library", str(sequential), "--nlp", "blank")])

    def content(path):
        conn = sqlite3.connect(path)
        docs = sorted(conn.execute("SELECT sha256, name, format FROM documents"))
        passages = conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        conn.close()
        with Library(path) as lib:
            mentions = sorted((info.sha256, m.start, m.end, m.label, m.key) for info in lib.documents()
                              for m in lib.load(info.id)[1].mentions)
        return docs, mentions, passages

    docs, mentions, passages = content(library)
    assert len(docs) == 2 and content(sequential) == (docs, mentions, passages)
    listing = _spawn("documents", "--library", str(library))
    out, _ = listing.communicate(timeout=120)
    assert sorted(json.loads(line)["name"] for line in out.splitlines()) == ["book0.txt", "book1.txt"]   # piped: JSON lines
