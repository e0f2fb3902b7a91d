"""The character list: a book's named entities with mention counts, aliases clustered.

Aliases join when (a) one name is a word-based part of exactly one compatible longer name, or of
one that holds ≥ 70% of such mentions ("Huck" → "Huck Finn"); (b) two names agree after honorific
normalisation ("Mr. Darcy" / "Darcy"); (c) two multi-word names share their last word and one first
word is a prefix of the other ("Huck Finn" / "Huckleberry Finn"). Gender cues must not conflict.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from ..nlp.names import Name, name_gender, parse_name
from .book import Book

DOMINANT_SHARE = 0.7


@dataclass(frozen=True)
class Entity:
    name: str
    label: str
    mentions: int
    aliases: tuple[str, ...]


class _UnionFind:
    def __init__(self, items):
        self.parent = {i: i for i in items}

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def list_entities(book: Book, min_mentions: int = 2) -> list[Entity]:
    surface: dict[tuple[str | None, str], Counter] = defaultdict(Counter)  # (honorific, key) → surface forms
    labels: dict[tuple[str | None, str], Counter] = defaultdict(Counter)
    for nms in book.names_by_passage:
        for nm in nms:
            k = (nm.name.honorific, nm.name.key)
            surface[k][" ".join(nm.mention.text.split())] += 1
            labels[k][nm.label] += 1
    count = {k: sum(c.values()) for k, c in surface.items()}
    nodes = [k for k, c in count.items() if c >= min_mentions]
    names = {k: Name(k[0], tuple(k[1].split())) for k in nodes}
    label = {k: labels[k].most_common(1)[0][0] for k in nodes}
    gender = {k: name_gender(names[k]) for k in nodes}
    uf = _UnionFind(nodes)

    def compatible(a, b) -> bool:
        return label[a] == label[b] and not (gender[a] and gender[b] and gender[a] != gender[b]) \
            and not names[a].honorific_conflict(names[b])

    for a in nodes:
        na = names[a]
        same = [b for b in nodes if b != a and names[b].words == na.words and compatible(a, b)]
        if len(same) == 1 or (same and na.honorific is not None):
            for b in same:
                if names[b].honorific is None or na.honorific is None:
                    uf.union(a, b)
        longer = [b for b in nodes if na.part_of(names[b]) and compatible(a, b)]
        if longer:
            total = sum(count[b] for b in longer)
            top = max(longer, key=lambda b: count[b])
            if len(longer) == 1 or count[top] >= DOMINANT_SHARE * total:
                uf.union(a, top)
        if len(na.words) > 1:
            for b in nodes:
                nb = names[b]
                if b != a and len(nb.words) > 1 and nb.words[-1] == na.words[-1] and compatible(a, b):
                    fa, fb = na.words[0], nb.words[0]
                    if fa != fb and min(len(fa), len(fb)) >= 3 and (fa.startswith(fb) or fb.startswith(fa)):
                        uf.union(a, b)
    clusters: dict = defaultdict(list)
    for k in nodes:
        clusters[uf.find(k)].append(k)
    out = []
    for members in clusters.values():
        best = max(members, key=lambda k: (count[k] >= 0.2 * max(count[m] for m in members), len(k[1].split()),
                                           k[0] is not None, count[k]))
        forms = Counter()
        for k in members:
            forms.update(surface[k])
        display = surface[best].most_common(1)[0][0]
        aliases = tuple(f for f, _ in forms.most_common() if f != display)
        out.append(Entity(display, label[best], sum(count[k] for k in members), aliases))
    out.sort(key=lambda e: -e.mentions)
    return out


def closest_names(book: Book, query: str, n: int = 5) -> list[str]:
    import difflib

    q = parse_name(query)
    ents = list_entities(book)
    pool = {e.name: e for e in ents}
    for e in ents:
        for a in e.aliases:
            pool.setdefault(a, e)
    close = difflib.get_close_matches(query, list(pool), n=n * 2, cutoff=0.5)
    close += [e.name for e in ents if set(q.words) & set(parse_name(e.name).words)]
    seen, out = set(), []
    for c in close:
        name = pool[c].name if c in pool else c
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out[:n] or [e.name for e in ents[:n]]
