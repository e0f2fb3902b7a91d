"""Annotate an article: entity occurrences with sentence, subject role and counts.

Candidates are proper-name runs of the parse (:mod:`.entities`) or, with gold entities, the
annotated names and mention strings found in the text. Occurrences of one entity are grouped by
:func:`beyondfind.news.identity.normalize` within the article, then short forms join their full
name (:func:`.entities.merge_forms`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict

from ..nlp.syntax import SUBJECT_DEPS
from .entities import merge_forms, name_runs
from .identity import compact, normalize, words
from .model import Article, ArticleAnnotation, EntityStats

def _occurrences_gold(article: Article, text: str) -> list[tuple[str, int, int, bool]]:
    out = []
    for name in article.gold_entities:
        forms = {name, *article.gold_aliases.get(name, ())}
        forms = sorted({f for f in forms if f and f.strip()}, key=len, reverse=True)
        taken: list[tuple[int, int]] = []
        for f in forms:
            flags = 0 if f.isupper() else re.IGNORECASE
            for m in re.finditer(r"(?<!\w)" + re.escape(f) + r"(?!\w)", text, flags):
                if not any(a < m.end() and m.start() < b for a, b in taken):
                    taken.append((m.start(), m.end()))
                    out.append((name, m.start(), m.end(), article.gold_types.get(name) == "PER"))
    return out


def annotate_article(article: Article, nlp, use_gold: bool = False) -> ArticleAnnotation:
    text = article.text
    doc = nlp(text)
    sent_starts = [s.start_char for s in doc.sents]
    sent_lens = [sum(1 for t in s if not t.is_punct) for s in doc.sents]
    if use_gold:
        occ = _occurrences_gold(article, text)
    else:
        occ = [(m.text, m.start, m.end, m.is_person) for m in name_runs(doc)]
    groups: dict[str, list] = defaultdict(list)
    surfaces: dict[str, str] = {}
    forms: dict[str, set[str]] = defaultdict(set)
    persons: dict[str, bool] = defaultdict(bool)
    companies: dict[str, bool] = defaultdict(bool)
    by_compact: dict[str, str] = {}
    for surface, a, b, is_person in occ:
        key = normalize(surface) if not use_gold else surface
        if not key:
            continue
        if not use_gold and compact(key):   # "Daimler-Chrysler" joins an earlier "DaimlerChrysler"
            key = by_compact.setdefault(compact(key), key)
        span = doc.char_span(a, b, alignment_mode="expand")
        subj = span is not None and any(t.dep_ in SUBJECT_DEPS for t in span)
        sent = max(0, bisect_right(sent_starts, a) - 1)
        groups[key].append((sent, subj, is_person))
        surfaces.setdefault(key, surface)
        forms[key].add(surface)
        persons[key] |= is_person
        companies[key] |= len(words(surface)) > len(key.split())
    if not use_gold:   # "Jobs" counts for "Steve Jobs", "GM" for "General Motors"
        for form, owner in merge_forms({k: (surfaces[k], persons[k], companies[k]) for k in groups}).items():
            groups[owner] += groups.pop(form)
            forms[owner] |= forms.pop(form)
    stats = []
    for key, items in groups.items():
        first = min(s for s, _sub, _p in items)
        stats.append(EntityStats(surfaces[key] if not use_gold else key, any(p for _s, _sub, p in items), len(items),
                                 sum(1 for _s, sub, _p in items if sub), sent_lens[first] if sent_lens else 0, first,
                                 frozenset(s for s, _sub, _p in items), frozenset(forms[key])))
    if use_gold:  # annotated entities with no occurrence found still rank (with zero counts)
        for name in article.gold_entities:
            if name not in groups:
                stats.append(EntityStats(name, article.gold_types.get(name) == "PER", 0, 0, 0, len(sent_starts), frozenset()))
    return ArticleAnnotation(article, tuple(stats))
