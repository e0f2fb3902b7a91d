"""Thread store at scale, NLP excluded: a 1,000-article synthetic history; rank a new article
(target <= 20 ms warm) and add it (target <= 20 ms). Baseline in the same run: recomputing the
features from all stored per-article rows in Python (what a store without aggregates would do)."""

import random
import sqlite3
import tempfile
from pathlib import Path

from common import median_ms, timed

from beyondfind.news import combination_for, rank_annotation
from beyondfind.news.model import Article, ArticleAnnotation, EntityStats
from beyondfind.news.store import ThreadStore

rng = random.Random(1)
VOCAB = [f"Company{i}" for i in range(300)] + [f"Person{i} Name{i}" for i in range(200)] + ["GM", "General Motors"]


def synthetic(i: int) -> ArticleAnnotation:
    names = rng.sample(VOCAB, 12)
    stats = tuple(EntityStats(n, n.startswith("Person"), rng.randint(1, 6), rng.randint(0, 2), rng.randint(5, 40),
                              rng.randint(0, 20), frozenset(rng.sample(range(25), 3))) for n in names)
    day = 1 + i % 28
    return ArticleAnnotation(Article(f"a{i}", f"{2000 + i // 336:04d}-{1 + (i // 28) % 12:02d}-{day:02d}", "", ""), stats)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "news.sqlite"
        store = ThreadStore(sqlite3.connect(path, isolation_level=None))
        for i in range(1000):
            store.add("big", synthetic(i))
        size_1000 = path.stat().st_size
        model = combination_for("best")
        new = [synthetic(1000 + k) for k in range(20)]
        rank_annotation(store, "big", new[0], model)
        _, rank_times = timed(lambda: [rank_annotation(store, "big", a, model) for a in new[:1]], repeat=20)
        add_times = []
        for a in new:
            _, ts = timed(lambda a=a: store.add("big", a))
            add_times += ts
        print(f"rank a new article vs 1,000-article history: median {median_ms(rank_times):.2f} ms (target <= 20 ms)")
        print(f"add an article: median {median_ms(add_times):.2f} ms (target <= 20 ms)")

        def naive():
            rows = store.conn.execute("SELECT * FROM news_mentions").fetchall()
            cooc = store.conn.execute("SELECT * FROM news_cooc").fetchall()
            return len(rows) + len(cooc)

        _, naive_times = timed(naive, repeat=5)
        print(f"baseline full scan of stored rows: median {median_ms(naive_times):.1f} ms; "
              f"ratio rank/scan = {median_ms(rank_times) / median_ms(naive_times):.3f}")
        per_article = (path.stat().st_size - size_1000) / 20
        print(f"store: {size_1000 / 1e6:.1f} MB for 1,000 articles of 12 entities; +{per_article / 1e3:.1f} kB per "
              "article (no text in synthetic articles: growth is per entity row)")


if __name__ == "__main__":
    main()
