"""A stored news thread as a Python object: add articles, rank an article's entities.

>>> from beyondfind.news import Thread
>>> thread = Thread("demo", library=tmp_path / "news.sqlite")
>>> rows = thread.add({"id": "a1", "date": "2024-01-02", "title": "Boeing recalls jets",
...                    "text": "Boeing said on Monday that Boeing will inspect jets. Airbus declined to comment."})
>>> rows[0].entity, rows[0].rank
('Boeing', 1)
>>> [a.id for a in thread.articles()]
['a1']
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from .. import validate
from .io import article_from_json
from .model import Article, StoredArticle


class Thread:
    """A named thread in a news store (by default the library file).

    ``nlp`` names the spaCy pipeline used to annotate added articles (loaded on first ``add``).
    """

    def __init__(self, name: str, *, library: str | Path | None = None, nlp: str | None = None) -> None:
        from ..index import Library
        from .store import ThreadStore

        self.name = validate.thread_name(name)
        self.store = ThreadStore(Library(library).conn)
        self.nlp_name = nlp

    @cached_property
    def nlp(self):
        from ..nlp import load_pipeline

        return load_pipeline(self.nlp_name)

    def add(self, article: Article | dict[str, Any], replace: bool = False, use_gold: bool = False,
            model: str = "best"):
        """Annotate and store ``article`` (an :class:`Article` or a dict with id, date, title, text);
        returns its entities ranked against the thread's earlier articles."""
        from . import add_article, combination_for

        if not isinstance(article, Article):
            article = article_from_json(article, "article")
        return add_article(self.store, self.name, article, self.nlp, replace=replace, use_gold=use_gold,
                           model=combination_for(model))

    def rank(self, article_id: str, model: str = "best"):
        """A stored article's entities ranked against the history before it (no NLP)."""
        from . import combination_for, show_article

        return show_article(self.store, self.name, article_id, combination_for(model))

    def articles(self) -> list[StoredArticle]:
        return self.store.articles(self.store.thread_id(self.name))
