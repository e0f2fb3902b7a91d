"""The book ranking methods behind one protocol, by name.

Every method is a :class:`Ranker`: ``(book, query, settings, explain) -> list[Scored]``, best first.
:data:`METHODS` maps the names the CLI, the HTTP API and the evaluation use to a :class:`Method`
(its ranker and a one-line description for ``--help`` and ``GET /api/methods``). Adding a method is
one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .. import BeyondfindError
from ..index.book import IndexedBook
from ..retrieval import baselines, lrm
from ..retrieval.lrm import LRMSettings
from ..retrieval.query import EntityQuery
from ..retrieval.ranking import Scored


class Ranker(Protocol):
    def __call__(self, book: IndexedBook, query: EntityQuery, settings: LRMSettings,
                 explain: bool) -> list[Scored]: ...


@dataclass(frozen=True)
class Method:
    name: str
    description: str
    rank: Ranker


def _ldm(book, query, settings, explain):
    from .ldm import rank_ldm  # LightGBM is imported only when LDM runs

    return rank_ldm(book, query.name, query.text, settings=settings, explain=explain)


_ALL = (
    Method("ldm", "learned descriptiveness model: boosted trees over LRM's candidates", _ldm),
    Method("lrm", "the paper's retrieval model: entity frequency, coreference, pronouns, length reward",
           lambda b, q, s, e: lrm.rank(b, q.name, s, e)),
    Method("find", "Ctrl-F: passages containing the exact string, in book order",
           lambda b, q, s, e: baselines.find(b, q.text)),
    Method("entity-find", "passages where NER found a name agreeing with the query, in book order",
           lambda b, q, s, e: baselines.entity_find(b, q.text)),
    Method("bm25", "BM25 (k1 1.5, b 0.75) over the passage words",
           lambda b, q, s, e: baselines.bm25(b, q.text, b=0.75)),
    Method("bm25-b0", "BM25 without length normalisation (b 0), which favours long passages",
           lambda b, q, s, e: baselines.bm25(b, q.text, b=0.0)),
    Method("lm", "query likelihood with Dirichlet smoothing",
           lambda b, q, s, e: baselines.query_likelihood(b, q.text)),
    Method("plm", "positional language model (Lv & Zhai 2009): query words close together count more",
           lambda b, q, s, e: baselines.positional_lm(b, q.text)),
    Method("semantic", "semantic match: entity frequency with coreference and pronouns, unsaturated, no length reward",
           lambda b, q, s, e: lrm.semantic(b, q.name, s, e)),
    Method("lrm-ef", "LRM without entity frequency (ablation)",
           lambda b, q, s, e: lrm.rank(b, q.name, replace(s, entity_frequency=False), e)),
    Method("lrm-dl", "LRM without the length reward (ablation)",
           lambda b, q, s, e: lrm.rank(b, q.name, replace(s, length_reward=False), e)),
)
METHODS: dict[str, Method] = {m.name: m for m in _ALL}
DEFAULT_METHOD = "ldm"


def get_method(name: str) -> Method:
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise BeyondfindError(f"unknown method {name!r}; choose one of {', '.join(METHODS)}") from None


def methods_help() -> str:
    """The methods as ``name: description`` lines, for ``--help``."""
    return "; ".join(f"{m.name}: {m.description}" for m in _ALL)
