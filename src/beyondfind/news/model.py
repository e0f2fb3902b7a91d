"""News records: articles, their annotated entity occurrences, and per-entity features."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Article:
    id: str
    date: str | None      # ISO date (YYYY-MM-DD...) or None when missing/unparsable
    title: str
    text: str
    gold_entities: tuple[str, ...] = ()   # names, when the input carries annotated entities
    gold_aliases: dict = field(default_factory=dict, compare=False, hash=False)  # name → mention strings
    gold_types: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class EntityStats:
    """What one article says about one entity (stored per article; the history sums these)."""

    surface: str
    is_person: bool
    count: int            # F(e,d)
    subj_count: int       # Fsubj(e,d)
    first_sen_len: int    # FirstSenLen(e,d), tokens
    first_sen_pos: int    # FirstSenPos(e,d), 0-based sentence index
    sentences: frozenset[int]
    forms: frozenset[str] = frozenset()   # the surfaces counted for it in this article ("GM", "General Motors")


@dataclass(frozen=True)
class ArticleAnnotation:
    article: Article
    entities: tuple[EntityStats, ...]


FEATURES: tuple[str, ...] = ("F_d", "Fsubj_d", "FirstSenLen", "FirstSenPos", "F_H", "DF_H", "F_last", "F_first",
                             "CoOcc_H")
FEATURE_LABELS = {
    "F_d": "F(e,d)", "Fsubj_d": "Fsubj(e,d)", "FirstSenLen": "FirstSenLen(e,d)", "FirstSenPos": "FirstSenPos(e,d)",
    "F_H": "F(e,H)", "DF_H": "DF(e,H)", "F_last": "F(e,d_{e,-1})", "F_first": "F(e,d_{e,1})", "CoOcc_H": "CoOcc(e,H)",
}
FEATURE_DESCRIPTIONS = {
    "F_d": "mentions in this article",
    "Fsubj_d": "mentions as the subject of a sentence in this article",
    "FirstSenLen": "length in words of the first sentence that mentions it",
    "FirstSenPos": "number of the first sentence that mentions it (0 = the first sentence)",
    "F_H": "mentions in the thread's earlier articles",
    "DF_H": "earlier articles that mention it",
    "F_last": "mentions in the last earlier article that mentions it",
    "F_first": "mentions in the first thread article that mentions it",
    "CoOcc_H": "other entities it shared a sentence with in earlier articles",
}
@dataclass(frozen=True)
class StoredArticle:
    """An article as the thread store holds it; ``key`` orders the history (date, then arrival)."""

    id: str
    date: str | None
    title: str
    key: str
    text: str | None = None


# features where smaller is better are inverted, 1 / (1 + x), before combination
INVERTED = frozenset({"FirstSenPos"})
