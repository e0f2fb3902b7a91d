"""A learned descriptiveness signal from the words of a passage (LDM feature ``text.descriptive``).

Judged passages teach which words describe a person ("tall", "handsome", "years old", "his
fortune") whoever the person is: every capitalised word is masked to ``NAME`` so no book's names
are learned, the rest is lower-cased. The query's own mentions are marked: a run of words inside
one of its names becomes ``SELF``, a pronoun resolved to it ``SELFPRON``, so "SELF was a tall" and
"SELFPRON eyes" are learned apart from "NAME was a tall" (someone else described). Features are
unigrams and bigrams hashed (CRC-32, stable across processes) into ``BUCKETS`` columns,
``log(1 + count)`` scaled to unit length per passage. The target is the judged gain minus the
mean gain of the entity's judged passages (what makes a passage better than the entity's other
passages). Ridge regression, solved by conjugate gradients on the sparse matrix in numpy.

Word vectors (:mod:`.word_vectors`, trained on raw novels) carry what the n-grams learn to words no
judged passage uses: two dense groups join the hashed columns in the same regression — the mean
vector of the passage's lower-case words, and the mean vector of the words within ``NEAR`` words of
the entity's marks ("SELF was a *stalwart* …", "SELFPRON *brows*"). Each dense column is
standardised over the training passages and scaled by ``DENSE_SCALE / sqrt(columns)``, so the
vectors weigh about as much as a unit-length row of n-grams under the same penalty; the fitted
model folds the standardisation back into per-dimension weights and an offset, and keeps each
vocabulary word's vector projected on them (``TextModel.word_weights``): the mean of a group's
rows is that group's score, so a query reads the word list, never the vectors.

Speed: a passage's words and gram counts are taken once per book (:class:`PassageGrams`, kept in
the book's :class:`GramArena`); a query changes only the grams around its marks, and
:func:`score_parts` updates the score and the norm from those (no passage is hashed again per
query).

Cross-fitting: the signal used to score a book never saw that book's judgments
(:func:`fit_excluding`); the LDM's leave-one-book-out evaluation excludes the test book as well.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from . import word_vectors

BUCKETS = 1 << 17
# unit-length rows of 131k hashed grams against ~3,700 judged passages: a weak penalty memorises
# a book's own phrases; chosen by LDM's leave-one-book-out nDCG@5 over ten seeds (0.1, 1, 10, 30
# tried, 10 and 30 alike; docs/evaluation.md)
RIDGE = 10.0
# the dense part (word vectors): context window around the entity's marks, and the scale of the
# standardised vector columns against the hashed ones (LOBO, text signal alone: windows 3 and 6,
# scales 0.5, 1, 3 tried; docs/evaluation.md)
NEAR = 3
DENSE_SCALE = 1.0
SHIPPED = Path(__file__).parent / "data" / "text_signal.npy"
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


SELF, SELF_PRONOUN = "SELF", "SELFPRON"   # never a word's token (lower case or NAME)
Mark = tuple[int, int, str]   # (start, end, SELF or SELF_PRONOUN), character offsets


def _masked(word: str) -> str:
    """A word's token: lower-cased, or ``NAME`` when capitalised."""
    return "NAME" if word[:1].isupper() else word.lower()


MARKERS = {SELF: 1, SELF_PRONOUN: 2}


def _column(gram: str) -> int:
    return zlib.crc32(gram.encode("utf-8")) % BUCKETS


def _marker_bigram_columns(word_columns: np.ndarray, marker: np.ndarray, marker_first: bool) -> np.ndarray:
    """Columns of bigrams of a word and a marker, computed from the word's own column (so one query's
    candidates are updated with array operations): a multiplicative hash of (column, marker, side)."""
    salt = 2 * marker.astype(np.int64) + int(marker_first)
    return (word_columns.astype(np.int64) * 2654435761 + salt * 40503) % BUCKETS


def _bigram_column(a: str, b: str) -> int:
    if a in MARKERS and b in MARKERS or (a not in MARKERS and b not in MARKERS):
        return _column(f"{a} {b}")
    first = a in MARKERS
    word, marker = (b, a) if first else (a, b)
    return int(_marker_bigram_columns(np.array([_column(word)]), np.array([MARKERS[marker]]), first)[0])


_MARKER_COLUMNS = np.array([_column(x) for x in MARKERS], dtype=np.int64)
_MARKER_PAIR_COLUMNS = np.array([[_column(f"{x} {y}") for y in MARKERS] for x in MARKERS], dtype=np.int64)


def hashed_tokens(toks: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(column indices, values) of a token sequence: unigrams and bigrams, log counts, unit length."""
    cols: Counter = Counter(_column(t) for t in toks)
    cols.update(_bigram_column(a, b) for a, b in zip(toks, toks[1:]))
    if not cols:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    idx = np.fromiter(cols.keys(), dtype=np.int64, count=len(cols))
    val = np.log1p(np.fromiter(cols.values(), dtype=float, count=len(cols)))
    return idx, val / np.linalg.norm(val)


@dataclass(frozen=True)
class PassageGrams:
    """A passage's words with their offsets and its hashed gram counts (the words themselves are
    needed only by :func:`marked_tokens`, for training; a book's arena keeps the rest)."""
    tokens: tuple[str, ...]
    starts: np.ndarray      # character offset of each token (plus the passage's ``offset``), and its end
    ends: np.ndarray
    unigrams: np.ndarray    # column of token i
    bigrams: np.ndarray     # column of (token i, token i + 1); -1 for the last token
    columns: np.ndarray     # the passage's columns, sorted, with their counts
    counts: np.ndarray
    word_ids: np.ndarray    # row of token i in the shipped word vectors; -1 for a name or an unknown word


def _word_ids(toks: Sequence[str]) -> np.ndarray:
    vocabulary = word_vectors.shipped_vocabulary()
    if vocabulary is None:
        return np.full(len(toks), -1, dtype=np.int32)
    return vocabulary.ids(t.replace("’", "'") for t in toks)   # "NAME" is no lower-case word: -1


def passage_grams(text: str, offset: int = 0) -> PassageGrams:
    found = list(_TOKEN.finditer(text))
    toks = tuple(_masked(m.group()) for m in found)
    uni = np.array([_column(t) for t in toks], dtype=np.int64)
    bi = np.array([_column(f"{a} {b}") for a, b in zip(toks, toks[1:])] + ([-1] if toks else []), dtype=np.int64)
    columns, counts = np.unique(np.concatenate([uni, bi[:-1]]), return_counts=True)
    return PassageGrams(toks, np.array([m.start() + offset for m in found], dtype=np.int64),
                        np.array([m.end() + offset for m in found], dtype=np.int64), uni, bi, columns, counts,
                        _word_ids(toks))


def word_groups(grams: PassageGrams, marks: Sequence[Mark]) -> tuple[np.ndarray, np.ndarray]:
    """The word-vector rows of the passage's words, and of the words within :data:`NEAR` words of a
    marked run (the run itself left out); words without a vector left out."""
    ids = grams.word_ids
    near = np.zeros(len(ids), dtype=bool)
    inside = np.zeros(len(ids), dtype=bool)
    for lo, hi, _marker in _marked_runs(grams, marks):
        near[max(0, lo - NEAR):hi + NEAR] = True
        inside[lo:hi] = True
    return ids[ids >= 0], ids[near & ~inside & (ids >= 0)]


def dense_features(grams: PassageGrams, marks: Sequence[Mark], vectors: word_vectors.WordVectors) -> np.ndarray:
    """The passage's word-vector columns before scaling, for training: the mean vector of each of
    :func:`word_groups` (zeros for an empty group)."""
    return np.concatenate([vectors.vectors[rows].astype(float).mean(0) if len(rows) else np.zeros(vectors.dimensions)
                           for rows in word_groups(grams, marks)])


def _marked_runs(grams: PassageGrams, marks: Sequence[Mark]) -> list[tuple[int, int, str]]:
    """(first token, end token, marker) per mark that covers at least one token and overlaps no
    earlier mark, in order (the rule :func:`score_parts` applies with arrays)."""
    runs: list[tuple[int, int, str]] = []
    reach = 0
    for a, b, marker in sorted(marks):
        lo = int(np.searchsorted(grams.ends, a, side="right"))    # first token ending after a
        hi = int(np.searchsorted(grams.starts, b, side="left"))   # tokens starting before b
        if lo < hi and lo >= reach:
            runs.append((lo, hi, marker))
        reach = max(reach, hi)
    return runs


def marked_tokens(grams: PassageGrams, marks: Sequence[Mark]) -> list[str]:
    """The passage's tokens with each marked run of words replaced by its one marker."""
    out, pos = [], 0
    for lo, hi, marker in _marked_runs(grams, marks):
        out += grams.tokens[pos:lo]
        out.append(marker)
        pos = hi
    return out + list(grams.tokens[pos:])


@dataclass(frozen=True)
class GramArena:
    """Passages' grams laid end to end in text order (:func:`gram_arena`), so one query's marks are
    applied to all its candidates with array operations and nothing is concatenated per query. A
    book keeps one and :func:`merge_arenas` a new query's unseen passages into it; the words
    themselves are not kept (about 50 bytes a word: War and Peace's half held in 15 MB)."""
    passages: np.ndarray     # the passage ids held, ascending (text order)
    token_base: np.ndarray   # each held passage's first token, then the end
    key_base: np.ndarray     # each held passage's first key, then the end
    starts: np.ndarray       # every token's character offsets, unigram and bigram columns (as in PassageGrams)
    ends: np.ndarray
    unigrams: np.ndarray
    bigrams: np.ndarray
    token_owner: np.ndarray  # position (in ``passages``) of each token's passage
    keys: np.ndarray         # position * BUCKETS + column of every passage's grams, ascending
    counts: np.ndarray
    word_ids: np.ndarray     # every token's word-vector row (as in PassageGrams)

    def missing(self, ids: Iterable[int]) -> list[int]:
        """The passages of ``ids`` the arena does not hold."""
        ids = np.asarray(list(ids), dtype=np.int64)
        return ids[~sorted_find(self.passages, ids)[1]].tolist()

    def positions(self, ids: Sequence[int]) -> np.ndarray:
        return np.searchsorted(self.passages, ids)


def _arena(ids: np.ndarray, token_sizes: np.ndarray, key_sizes: np.ndarray, starts: np.ndarray, ends: np.ndarray,
           unigrams: np.ndarray, bigrams: np.ndarray, columns: np.ndarray, counts: np.ndarray,
           word_ids: np.ndarray) -> GramArena:
    if np.any(np.diff(starts) < 0):
        raise ValueError("passages overlap or are out of text order")
    n = len(ids)
    return GramArena(ids.astype(np.int64), np.concatenate([[0], np.cumsum(token_sizes)]).astype(np.int64),
                     np.concatenate([[0], np.cumsum(key_sizes)]).astype(np.int64), starts.astype(np.int64),
                     ends.astype(np.int64), unigrams.astype(np.int32), bigrams.astype(np.int32),
                     np.repeat(np.arange(n, dtype=np.int32), token_sizes),
                     np.repeat(np.arange(n, dtype=np.int64), key_sizes) * BUCKETS + columns, counts.astype(np.int32),
                     word_ids.astype(np.int32))


def gram_arena(grams: dict[int, PassageGrams]) -> GramArena:
    """The arena of passages ``{id: grams}``; ids must follow the text (offsets never go back)."""
    ids = sorted(grams)
    gs = [grams[i] for i in ids]

    def cat(arrays: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)

    return _arena(np.array(ids, dtype=np.int64), np.array([len(g.unigrams) for g in gs], dtype=np.int64),
                  np.array([len(g.columns) for g in gs], dtype=np.int64), cat([g.starts for g in gs]),
                  cat([g.ends for g in gs]), cat([g.unigrams for g in gs]), cat([g.bigrams for g in gs]),
                  cat([g.columns for g in gs]), cat([g.counts for g in gs]), cat([g.word_ids for g in gs]))


def sorted_find(keys: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``x`` stands in the ascending ``keys`` (clipped to the last position), and
    whether it is there; with no keys, nothing is."""
    if not len(keys):
        return np.zeros(len(x), dtype=np.intp), np.zeros(len(x), dtype=bool)
    at = np.minimum(np.searchsorted(keys, x), len(keys) - 1)
    return at, keys[at] == x


def index_ranges(begin: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The indices of the ranges ``[begin, begin + length)`` laid end to end."""
    ends = np.cumsum(length)
    return np.repeat(begin - (ends - length), length) + np.arange(int(ends[-1]) if len(ends) else 0)


def merge_arenas(a: GramArena, b: GramArena) -> GramArena:
    """One arena holding the passages of ``a`` and ``b`` (none in both), in text order."""
    ids = np.concatenate([a.passages, b.passages])
    if np.any(np.diff(np.sort(ids)) == 0):
        raise ValueError("the arenas hold a passage in common")
    order = np.argsort(ids, kind="stable")
    tok_len = np.concatenate([np.diff(a.token_base), np.diff(b.token_base)])[order]
    key_len = np.concatenate([np.diff(a.key_base), np.diff(b.key_base)])[order]
    t = index_ranges(np.concatenate([a.token_base[:-1], b.token_base[:-1] + len(a.starts)])[order], tok_len)
    k = index_ranges(np.concatenate([a.key_base[:-1], b.key_base[:-1] + len(a.keys)])[order], key_len)

    def both(name: str, at: np.ndarray) -> np.ndarray:
        return np.concatenate([getattr(a, name), getattr(b, name)])[at]

    return _arena(ids[order], tok_len, key_len, both("starts", t), both("ends", t), both("unigrams", t),
                  both("bigrams", t), both("keys", k) % BUCKETS, both("counts", k), both("word_ids", t))


@dataclass(frozen=True)
class Unmarked:
    """Per held passage of an arena, what no mark changes under one model (:func:`unmarked`)."""
    dot: np.ndarray       # the hashed row's dot product with the weights, before normalising
    sumsq: np.ndarray     # its squared norm
    static: np.ndarray    # the dense part of the passage's mean word vector
    near: np.ndarray      # per token: its vector's dense weight for the words near a mark (0 without a vector)
    has_vector: np.ndarray   # per token


def unmarked(model: TextModel, arena: GramArena) -> Unmarked:
    """Per held passage, the dot product with the weights and the squared norm of its ``log(1 +
    count)`` vector before any mark, and its mean word vector's score: what :func:`score_parts`
    corrects (cache it per model)."""
    owner, cols = arena.keys // BUCKETS, arena.keys % BUCKETS
    logs = np.log1p(arena.counts.astype(float))
    n = len(arena.passages)
    has = arena.word_ids >= 0
    static, near = np.zeros(n), np.zeros(len(has))
    if model.uses_vectors:
        proj = np.zeros((len(has), 2))
        proj[has] = model.checked_word_weights()[arena.word_ids[has]]
        words = np.bincount(arena.token_owner, weights=has, minlength=n)
        total = np.bincount(arena.token_owner, weights=proj[:, 0], minlength=n)
        static = np.divide(total, words, out=np.zeros(n), where=words > 0)
        near = proj[:, 1]
    return Unmarked(np.bincount(owner, weights=logs * model.weights[cols], minlength=n),
                    np.bincount(owner, weights=logs * logs, minlength=n), static, near, has)


def mark_rows(marks: Sequence[Sequence[Mark]]) -> np.ndarray:
    """``marks[k]`` (the marks of the k-th passage scored) as rows (start, end, marker code, k)."""
    flat = [v for k, ms in enumerate(marks) for a, b, mk in ms for v in (a, b, MARKERS[mk], k)]
    return np.array(flat, dtype=np.int64).reshape(-1, 4)


def score_parts(model: TextModel, arena: GramArena, ids: Sequence[int], marks: np.ndarray,
                base: Unmarked | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The hashed n-grams' and the word vectors' parts of ``model.score`` of passages ``ids`` (held by
    ``arena``) with the marks applied, for one query's candidates at once; ``marks``: rows (start,
    end, marker code, k) marking ``ids[k]`` (:func:`mark_rows`).

    From the arena: the unmarked dot product and squared norm of ``log(1 + count)`` (``base``, from
    :func:`unmarked`), corrected by the grams the marks change — the marked runs' unigrams and every
    bigram touching them go; each marker's unigram and its bigrams with the word or marker before
    and after it come. The words near the marks are the runs' windows, less the runs.
    Equal to scoring each marked passage anew (tested), without a Python loop over passages or
    marks."""
    pos = arena.positions(ids)
    base = base if base is not None else unmarked(model, arena)
    dot, sumsq = base.dot.copy(), base.sumsq.copy()
    near_total, near_words = np.zeros(len(dot)), np.zeros(len(dot))
    if len(marks) and len(arena.starts):
        w, uni, bi, base_tok = model.weights, arena.unigrams, arena.bigrams, arena.token_base
        m = marks[np.lexsort((marks[:, 2], marks[:, 1], marks[:, 0]))]   # text order (passages do not overlap)
        p_of = pos[m[:, 3]]
        lo = np.maximum(np.searchsorted(arena.ends, m[:, 0], side="right"), base_tok[p_of])
        hi = np.minimum(np.searchsorted(arena.starts, m[:, 1], side="left"), base_tok[p_of + 1])
        reach = np.maximum.accumulate(np.concatenate([[0], hi]))[:-1]
        keep = (lo < hi) & (lo >= reach)
        lo, hi, marker, p_of = lo[keep], hi[keep], m[keep, 2], p_of[keep]
        if len(lo):
            marked = index_ranges(lo, hi - lo)            # the runs do not overlap: tokens in text order
            touching = index_ranges(lo - 1, hi - lo + 1)   # bigram i joins tokens i and i + 1
            touching = touching[(touching >= 0) & np.concatenate([[True], touching[1:] != touching[:-1]])]
            touching = touching[bi[touching] >= 0]
            gone_p = np.concatenate([arena.token_owner[marked], arena.token_owner[touching]])
            gone_c = np.concatenate([uni[marked], bi[touching]])
            first_tok, end_tok = base_tok[p_of], base_tok[p_of + 1]
            after_prev = np.concatenate([[False], hi[:-1] == lo[1:]])        # the run right before is a marker
            before_next = np.concatenate([hi[:-1] == lo[1:], [False]])
            has_left = lo > first_tok
            has_right = (hi < end_tok) & ~before_next
            prev_marker = np.concatenate([[0], marker[:-1]])
            left_word = has_left & ~after_prev
            left_pair = has_left & after_prev
            come_p = np.concatenate([p_of, p_of[left_word], p_of[left_pair], p_of[has_right]])
            come_c = np.concatenate([
                _MARKER_COLUMNS[marker - 1],
                _marker_bigram_columns(uni[lo[left_word] - 1], marker[left_word], False),
                _MARKER_PAIR_COLUMNS[prev_marker[left_pair] - 1, marker[left_pair] - 1],
                _marker_bigram_columns(uni[np.minimum(hi[has_right], len(uni) - 1)], marker[has_right], True)])
            keys = np.concatenate([gone_p, come_p]) * BUCKETS + np.concatenate([gone_c, come_c])
            change = np.concatenate([-np.ones(len(gone_p)), np.ones(len(come_p))])
            order = np.argsort(keys)
            keys, change = keys[order], change[order]
            first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
            keys, change = keys[first], np.add.reduceat(change, first)
            keys, change = keys[change != 0], change[change != 0]
            kp, kc = keys // BUCKETS, keys % BUCKETS
            at, found = sorted_find(arena.keys, keys)
            before = np.where(found, arena.counts[at], 0)
            old, new = np.log1p(before), np.log1p(before + change)
            dot += np.bincount(kp, weights=(new - old) * w[kc], minlength=len(dot))
            sumsq += np.bincount(kp, weights=new * new - old * old, minlength=len(dot))
            if model.uses_vectors:
                window_lo = np.maximum(lo - NEAR, first_tok)
                window = index_ranges(window_lo, np.minimum(hi + NEAR, end_tok) - window_lo)
                # each token once, in order, the runs themselves left out (a mask over the arena's
                # tokens: cheaper than sorting the windows)
                in_window = np.zeros(len(arena.starts), dtype=bool)
                in_window[window] = True
                in_window[marked] = False
                near = np.flatnonzero(in_window & base.has_vector)
                owner = arena.token_owner[near]
                near_total = np.bincount(owner, weights=base.near[near], minlength=len(dot))
                near_words = np.bincount(owner, minlength=len(dot)).astype(float)
    dot, sumsq = dot[pos], sumsq[pos]
    hashed, dense = np.zeros(len(pos)), np.zeros(len(pos))
    ok = sumsq > 1e-12
    hashed[ok] = dot[ok] / np.sqrt(sumsq[ok])
    if model.uses_vectors:
        near_total, near_words = near_total[pos], near_words[pos]
        dense += base.static[pos] + model.offset
        dense += np.divide(near_total, near_words, out=np.zeros(len(pos)), where=near_words > 0)
    return hashed, dense


@dataclass(frozen=True)
class TextExample:
    book: str
    entity: str
    text: str
    gain: float
    marks: tuple[Mark, ...] = ()   # the entity's names and pronouns, offsets into ``text``

    @cached_property
    def grams(self) -> PassageGrams:   # read once: every fold's fit uses the example again
        return passage_grams(self.text)

    def tokens(self) -> list[str]:
        return marked_tokens(self.grams, self.marks)

    def dense(self, vectors: word_vectors.WordVectors) -> np.ndarray:
        return dense_features(self.grams, self.marks, vectors)


@dataclass(frozen=True)
class TextModel:
    weights: np.ndarray   # (BUCKETS,): the hashed n-grams
    word_weights: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    """(vocabulary, 2): each word's vector projected on the fitted weights of the passage's mean word
    vector and of the mean vector of the words near the marks — by linearity the mean of these rows
    is that part of the score, so scoring needs the shipped word list, never the vectors"""
    offset: float = 0.0

    @property
    def uses_vectors(self) -> bool:
        return len(self.word_weights) > 0

    def checked_word_weights(self) -> np.ndarray:
        vocabulary = word_vectors.shipped_vocabulary()
        if vocabulary is None or len(vocabulary.words) != len(self.word_weights):
            raise FileNotFoundError(f"the text signal needs the word vectors it was trained with "
                                    f"({len(self.word_weights)} words) at {word_vectors.SHIPPED}; "
                                    "run `beyondfind train vectors`, then `beyondfind train ldm`")
        return self.word_weights

    def score_parts(self, text: str, marks: Sequence[Mark] = ()) -> tuple[float, float]:
        """The hashed n-grams' and the word vectors' parts of the passage's score with ``marks``
        applied, from scratch: the reference that the arrays of :func:`score_parts` equal."""
        grams = passage_grams(text)
        idx, val = hashed_tokens(marked_tokens(grams, marks))
        hashed = float(val @ self.weights[idx]) if len(idx) else 0.0
        dense = 0.0
        if self.uses_vectors:
            ww = self.checked_word_weights()
            dense = self.offset + sum(float(ww[rows, k].astype(float).mean()) if len(rows) else 0.0
                                      for k, rows in enumerate(word_groups(grams, marks)))
        return hashed, dense

    def score(self, text: str, marks: Sequence[Mark] = ()) -> float:
        return sum(self.score_parts(text, marks))

    def to_array(self) -> np.ndarray:
        return np.concatenate([self.weights, self.word_weights.ravel(), [self.offset]])

    @classmethod
    def from_array(cls, values: np.ndarray) -> TextModel:
        """The model :meth:`to_array` wrote (a bare hashed model: ``BUCKETS`` values)."""
        values = values.astype(float)
        if len(values) == BUCKETS:
            return cls(values)
        return cls(values[:BUCKETS], values[BUCKETS:-1].reshape(-1, 2), float(values[-1]))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, self.to_array().astype(np.float32))


def fit(examples: Sequence[TextExample], ridge: float = RIDGE, iterations: int = 200) -> TextModel:
    """Ridge regression of the entity-centred gain on the hashed words and (when the word vectors
    are shipped) the scaled word-vector columns, by conjugate gradients."""
    by_entity: dict[tuple[str, str], list[float]] = {}
    for e in examples:
        by_entity.setdefault((e.book, e.entity), []).append(e.gain)
    means = {k: float(np.mean(v)) for k, v in by_entity.items()}
    y = np.array([e.gain - means[(e.book, e.entity)] for e in examples])
    rows = [hashed_tokens(e.tokens()) for e in examples]
    lengths = np.array([len(i) for i, _v in rows])
    indices = np.concatenate([i for i, _v in rows]) if rows else np.zeros(0, dtype=np.int64)
    data = np.concatenate([v for _i, v in rows]) if rows else np.zeros(0)
    row_of = np.repeat(np.arange(len(rows)), lengths)
    vectors = word_vectors.shipped() if examples else None
    raw = np.array([e.dense(vectors) for e in examples]) if vectors is not None else np.zeros((len(examples), 0))
    mean, sd = raw.mean(0), raw.std(0) + 1e-9
    scale = DENSE_SCALE / np.sqrt(max(1, raw.shape[1])) / sd
    z = (raw - mean) * scale

    def xw(w):
        return np.bincount(row_of, weights=data * w[indices], minlength=len(rows)) + z @ w[BUCKETS:]

    def xtr(r):
        return np.concatenate([np.bincount(indices, weights=data * r[row_of], minlength=BUCKETS), z.T @ r])

    b = xtr(y)
    w = np.zeros(BUCKETS + z.shape[1])
    r = b - (xtr(xw(w)) + ridge * w)
    p = r.copy()
    rs = r @ r
    for _ in range(iterations):
        ap = xtr(xw(p)) + ridge * p
        alpha = rs / (p @ ap)
        w += alpha * p
        r -= alpha * ap
        new = r @ r
        if new < 1e-10:
            break
        p = r + (new / rs) * p
        rs = new
    folded = w[BUCKETS:] * scale   # z @ v == raw @ (v * scale) - mean @ (v * scale)
    if vectors is None:
        return TextModel(w[:BUCKETS])
    return TextModel(w[:BUCKETS], project(vectors, folded.reshape(2, -1)), float(-(mean @ folded)))


def project(vectors: word_vectors.WordVectors, dense: np.ndarray) -> np.ndarray:
    """(vocabulary, 2): every word's vector on the two rows of per-dimension weights ``dense``, in
    float64 a slice at a time (the whole matrix in float64 is 24 MB)."""
    return np.concatenate([rows.astype(float) @ dense.T for rows in np.array_split(vectors.vectors, 16)])


def fit_excluding(examples: Sequence[TextExample], books: Iterable[str]) -> TextModel:
    """The signal for scoring ``books``: trained on every other book's judgments."""
    skip = set(books)
    return fit([e for e in examples if e.book not in skip])


@lru_cache(maxsize=1)
def shipped() -> TextModel | None:
    return TextModel.from_array(np.load(SHIPPED)) if SHIPPED.exists() else None
