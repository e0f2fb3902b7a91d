"""Annotate an article: entity occurrences with sentence, subject role and counts.

Candidates are the pipeline's names (``doc._.names``) or, with gold entities, the annotated names
and mention strings found in the text. Occurrences of one entity are grouped by
:func:`beyondfind.news.identity.normalize` within the article.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict

from ..nlp.components import SUBJECT_DEPS
from ..nlp.names import name_gender
from .identity import normalize
from .model import Article, ArticleAnnotation, EntityStats

NEWS_LABELS = frozenset({"PER", "ORG", "GPE", "LOC", "FAC", "VEH"})


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


def _is_proper(tok) -> bool:
    text = tok.text
    if text.isupper() and 2 <= len(text) <= 6 and text.isalpha():
        return True  # acronyms: GM, IBM
    return tok.pos_ == "PROPN" and text[:1].isupper() and any(c.isalpha() for c in text)


def _proper_noun_runs(doc, taken: list[tuple[int, int]]) -> list[tuple[str, int, int, bool]]:
    """Runs of proper nouns the NER missed (the fiction-trained NER under-tags companies)."""
    out, i = [], 0
    while i < len(doc):
        if not _is_proper(doc[i]):
            i += 1
            continue
        j = i + 1
        while j < len(doc) and (_is_proper(doc[j]) or (doc[j].text[:1].isupper() and doc[j].is_alpha
                                                       and doc[j].pos_ in ("PROPN", "NOUN", "ADJ"))):
            j += 1
        span = doc[i:j]
        a, b = span.start_char, span.end_char
        if not any(x < b and a < y for x, y in taken):
            out.append((span.text, a, b, False))
        i = j
    return out


def annotate_article(article: Article, nlp, use_gold: bool = False) -> ArticleAnnotation:
    text = article.text
    doc = nlp(text)
    sent_starts = [s.start_char for s in doc.sents]
    sent_lens = [sum(1 for t in s if not t.is_punct) for s in doc.sents]
    if use_gold:
        occ = _occurrences_gold(article, text)
    else:
        # the fiction-trained NER over-uses PER on news: a person also needs a first name or a title
        occ = [(s.text, s.start_char, s.end_char, s.label_ == "PER" and name_gender(s._.name) is not None)
               for s in doc._.names if s.label_ in NEWS_LABELS]
        taken = [(a, b) for _t, a, b, _p in occ]
        for ent in doc.ents:  # capitalised entities without a PROPN core ("General Motors" tagged ADJ NOUN)
            if ent.label_ in NEWS_LABELS and all(t.text[:1].isupper() for t in ent if t.is_alpha) \
                    and not any(x < ent.end_char and ent.start_char < y for x, y in taken):
                occ.append((ent.text, ent.start_char, ent.end_char, False))
        occ += _proper_noun_runs(doc, [(a, b) for _t, a, b, _p in occ])
    groups: dict[str, list] = defaultdict(list)
    surfaces: dict[str, str] = {}
    for surface, a, b, is_person in occ:
        key = normalize(surface) if not use_gold else surface
        if not key:
            continue
        span = doc.char_span(a, b, alignment_mode="expand")
        subj = span is not None and any(t.dep_ in SUBJECT_DEPS for t in span)
        sent = max(0, bisect_right(sent_starts, a) - 1)
        groups[key].append((sent, subj, is_person))
        surfaces.setdefault(key, surface)
    stats = []
    for key, items in groups.items():
        first = min(s for s, _sub, _p in items)
        stats.append(EntityStats(surfaces[key] if not use_gold else key, any(p for _s, _sub, p in items), len(items),
                                 sum(1 for _s, sub, _p in items if sub), sent_lens[first] if sent_lens else 0, first,
                                 frozenset(s for s, _sub, _p in items)))
    if use_gold:  # annotated entities with no occurrence found still rank (with zero counts)
        for name in article.gold_entities:
            if name not in groups:
                stats.append(EntityStats(name, article.gold_types.get(name) == "PER", 0, 0, 0, len(sent_starts), frozenset()))
    return ArticleAnnotation(article, tuple(stats))
