"""Namesakes: a family's surname that becomes a younger person's first name part-way through a book.

Wuthering Heights writes ``Linton`` for Edgar Linton (``Mr. Linton``, ``Edgar``, ``Mrs. Linton``
his wife) until Isabella's son arrives; from then on the bare ``Linton`` is nearly always the boy,
``Linton Heathcliff``, while Edgar is ``Mr. Linton`` or ``Edgar``. A form is one person for
:mod:`~beyondfind.index.characters`, so the boy's 160 mentions were Edgar's and a query for Linton
Heathcliff found three. :func:`late_namesakes` finds such a word by the change in how the book writes
it: in the bare word's and the family's titled or full-name forms, read in order, the one point
where the bare word's share jumps (two Bernoulli rates, the split of highest likelihood), with the
family forms the rule before it and the bare word after, and a full name with the word first (the
namesake) written only after that point. :class:`~beyondfind.index.book.IndexedBook` then reads the
bare word after the point as the namesake's full name.

Of the 68 texts read (the 22 novels and 46 LitBank full texts), only Wuthering Heights has one; the
rule was found on it, a judged book, so its score there is no test of the rule. A surname that stays
the family's (Emma's ``Churchill``), a first name of the lists (The Moonstone's ``Godfrey``), a
full name met before the change (Vanity Fair's ``Rebecca Sharp``), or a bare word already the rule
before it (Les Misérables' ``Thénardier``, whose ``Thénardier-Jondrette`` comes late) is not one.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

from ..nlp.names import Name, _first_names
from .characters import SURNAME_HONORIFICS, FormKey

MIN_USES = 20          # the bare word and the family's other forms are each written this often
MIN_GAIN = 20.0        # log-likelihood gain of the split over one rate
BEFORE_ODDS = 1.0      # before the split the bare word is written less often than the family forms ...
AFTER_ODDS = 2.0       # ... after it at least twice as often
MIN_FATHER = 20        # the namesake's last word is a person of the book written alone this often


def _log_likelihood(ones: int, n: int) -> float:
    if ones in (0, n):
        return 0.0
    p = ones / n
    return ones * math.log(p) + (n - ones) * math.log(1 - p)


def change_point(seq: Sequence[int]) -> tuple[float, int | None]:
    """The split ``k`` of a 0/1 sequence into ``seq[:k]`` and ``seq[k:]`` whose two rates of ones
    explain it best, the second rate the higher, and its log-likelihood gain over one rate."""
    n, total = len(seq), sum(seq)
    base = _log_likelihood(total, n)
    best: tuple[float, int | None] = (0.0, None)
    ones = 0
    for k in range(1, n):
        ones += seq[k - 1]
        gain = _log_likelihood(ones, k) + _log_likelihood(total - ones, n - k) - base
        if gain > best[0] and (total - ones) * k > ones * (n - k):
            best = (gain, k)
    return best


def late_namesakes(mentions: Sequence[tuple[int, FormKey]]) -> dict[str, tuple[int, Name]]:
    """``mentions``: the book's person name mentions as (offset, form), in any order. Returns,
    for each bare word that a namesake takes over, the offset from which its bare mentions are the
    namesake's and the namesake's full name."""
    counts = Counter(form for _offset, form in mentions)
    male, female = _first_names()
    bare = {key: n for (h, key), n in counts.items() if h is None and " " not in key}
    by_first: dict[str, list[FormKey]] = defaultdict(list)   # "linton heathcliff" under linton
    by_last: dict[str, list[FormKey]] = defaultdict(list)    # "mr linton", "edgar linton" under linton
    for form in counts:
        words = form[1].split()
        if form[0] is None and len(words) == 2:
            by_first[words[0]].append(form)
        if words and "of" not in words:
            by_last[words[-1]].append(form)
    out: dict[str, tuple[int, Name]] = {}
    for word, n in bare.items():
        if n < MIN_USES or word in male or word in female or word not in by_first:
            continue
        namesakes = [f for f in by_first[word] if bare.get(f[1].split()[1], 0) >= MIN_FATHER]
        family = {f for f in by_last[word] if f != (None, word) and (f[0] in SURNAME_HONORIFICS or " " in f[1])}
        if not namesakes or sum(counts[f] for f in family) < MIN_USES:
            continue
        written = sorted((offset, form == (None, word)) for offset, form in mentions
                         if form == (None, word) or form in family)
        offsets, seq = [o for o, _bare in written], [int(b) for _o, b in written]
        gain, k = change_point(seq)
        if k is None or gain < MIN_GAIN:
            continue
        before, after = sum(seq[:k]), sum(seq[k:])
        if not (before < BEFORE_ODDS * (k - before) and after >= AFTER_ODDS * (len(seq) - k - after)
                and after >= MIN_USES):
            continue
        start = offsets[k]
        late = [f for f in namesakes if all(o >= start for o, form in mentions if form == f)]
        if late:
            key = max(late, key=lambda f: counts[f])[1]
            out[word] = (start, Name(None, tuple(key.split())))
    return out
