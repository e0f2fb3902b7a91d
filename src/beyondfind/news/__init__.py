"""Time-aware entity summarization of news threads (docs/models.md, news) as plain functions.

Flow per article: annotate (:mod:`.annotate`) → features from the thread store (:mod:`.store`)
→ combination score (:mod:`.combine`) → ranking; then the article joins the history.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .. import BeyondfindError
from .annotate import annotate_article
from .combine import Combination, load_shipped
from .model import FEATURES, Article, ArticleAnnotation, EntityStats
from .store import ThreadStore

MODELS = ("best", "learned", "paper", "fed", "all-ties", *FEATURES)


@dataclass(frozen=True)
class RankedEntity:
    article_id: str
    entity: str
    score: float
    rank: int
    features: dict
    aliases: tuple[str, ...] = ()   # the article's other forms counted for this entity ("GM" for "General Motors")

    def to_dict(self) -> dict:
        return {"article_id": self.article_id, "entity": self.entity, "score": round(self.score, 6),
                "rank": self.rank, "features": self.features, "aliases": list(self.aliases)}


def combination_for(model: str):
    """The scorer for a model name: ``learned`` (LambdaMART), ``paper`` (the tuned saturating
    combination), ``best`` (the better of the two by leave-one-thread-out MAP: learned), ``fed``,
    ``all-ties`` or one feature alone. Every scorer has ``score(features) -> float``."""
    if model in ("best", "learned"):
        from .learned import load_shipped as load_learned

        learned = load_learned()
        if learned is not None:
            return learned
        if model == "learned":
            raise BeyondfindError("no learned news model is installed; train it with `beyondfind eval news "
                                  "--write-params`")
        return load_shipped()
    if model == "paper":
        return load_shipped()
    if model == "fed":
        return Combination.single("F_d")
    if model == "all-ties":
        return Combination.all_ties()
    if model in FEATURES:
        return Combination.single(model)
    raise BeyondfindError(f"unknown model {model!r}; choose one of {', '.join(MODELS)}")


def rank_annotation(store: ThreadStore, thread: str, ann: ArticleAnnotation, model: Combination,
                    before: str | None = None) -> list[RankedEntity]:
    scored = [(name, model.score(f), f, forms) for name, f, forms in store.features(thread, ann, before)]
    scored.sort(key=lambda x: (-x[1], x[0].lower()))
    return [RankedEntity(ann.article.id, n, s, k, f, tuple(sorted(forms - {n})))
            for k, (n, s, f, forms) in enumerate(scored, 1)]


def rank_thread(articles: list[Article], nlp, model: Combination, use_gold: bool = False,
                annotations: dict[str, ArticleAnnotation] | None = None) -> list[RankedEntity]:
    """Rank each article with only the articles before it (by date) as history; a throwaway
    in-memory store is used, so nothing persists."""
    from .io import history_order

    store = ThreadStore(sqlite3.connect(":memory:", isolation_level=None))
    out = []
    for a in history_order(articles):
        ann = annotations[a.id] if annotations and a.id in annotations else annotate_article(a, nlp, use_gold)
        out += rank_annotation(store, "thread", ann, model)
        store.add("thread", ann)
    return out


def add_article(store: ThreadStore, thread: str, article: Article, nlp, replace: bool = False,
                use_gold: bool = False, model: Combination | None = None) -> list[RankedEntity]:
    """Annotate and add an article; returns its ranking against the history before it."""
    ann = annotate_article(article, nlp, use_gold)
    key = store.add(thread, ann, replace=replace)
    return rank_annotation(store, thread, ann, model or load_shipped(), before=key)


def stored_annotation(store: ThreadStore, thread: str, article_id: str) -> tuple[ArticleAnnotation, str]:
    """The article's stored statistics as an annotation (no NLP) and its history key."""
    tid = store.thread_id(thread)
    stored = store.article(tid, article_id)
    rows = store.conn.execute("SELECT m.entity_id, m.surface, e.is_person, m.count, m.subj, m.first_sen_len, "
                              "m.first_sen_pos FROM news_mentions m JOIN news_entities e ON e.thread_id = m.thread_id "
                              "AND e.id = m.entity_id WHERE m.thread_id = ? AND m.article_id = ?", (tid, article_id))
    forms: dict[int, set[str]] = {}
    for eid, form in store.conn.execute("SELECT entity_id, form FROM news_forms WHERE thread_id = ? AND article_id = ?",
                                        (tid, article_id)):
        forms.setdefault(eid, set()).add(form)
    stats = tuple(EntityStats(s, bool(p), c, sub, fl, fp, frozenset(), frozenset(forms.get(eid, ())))
                  for eid, s, p, c, sub, fl, fp in rows)
    return ArticleAnnotation(Article(article_id, stored.date, stored.title, stored.text or ""), stats), stored.key


def show_article(store: ThreadStore, thread: str, article_id: str, model: Combination | None = None) -> list[RankedEntity]:
    ann, key = stored_annotation(store, thread, article_id)
    return rank_annotation(store, thread, ann, model or load_shipped(), before=key)


from .model import StoredArticle  # noqa: E402
from .thread import Thread  # noqa: E402  (the object API over the functions above)

__all__ = ["MODELS", "RankedEntity", "StoredArticle", "Thread", "add_article", "combination_for", "rank_annotation",
           "rank_thread", "show_article", "stored_annotation"]
