"""LDM features for (entity, candidate passage) pairs, in the four groups of the paper (docs/models.md) plus extras.

Every feature has a name (``group.feature``); models store the names they were trained with and
refuse a matrix with different ones.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..index.book import IndexedBook
from ..nlp.names import Name
from ..nlp.syntax import MODIFIER, POSSESSION, PREDICATE
from ..retrieval import baselines
from ..retrieval.lrm import (LRMSettings, PassageEvidence, candidate_passages_lrm, evidence, evidences, length_reward,
                             query_label, saturate_all)
from ..retrieval.terms import tokenize
from .keywords import keywords
from .text_signal import (MARKERS, SELF, SELF_PRONOUN, GramArena, TextModel, Unmarked, gram_arena, merge_arenas,
                          index_ranges, passage_grams, score_parts, sorted_find, unmarked)
from .text_signal import shipped as shipped_text_model

FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "lrm": ("lrm.score", "lrm.ef", "lrm.cr", "lrm.g", "lrm.names", "lrm.words"),
    "keywords": ("keywords.has", "keywords.count"),
    "entities": ("entities.person", "entities.time", "entities.locorg", "entities.first_appearance"),
    "actions": ("actions.idf_avg", "actions.idf_max", "actions.idf_min"),
    "position": ("position.lifetime", "position.book", "position.at_start", "position.first_occurrence"),
    "extra": ("extra.subject", "extra.description", "extra.dialogue_share", "extra.bm25_b0",
              "extra.exact_count", "extra.best_match"),
    # where the text presents the entity: its first named passages, its first full name, a chapter
    # opening on it; and how much of the passage is about it rather than about others
    "intro": ("intro.first_named", "intro.named_rank", "intro.first_full_name", "intro.chapter_opening"),
    "focus": ("focus.name_share", "focus.sentence_share"),
    # description attached to the entity's mentions and pronouns by the parse (nlp/syntax.py)
    "describe": ("describe.predicate", "describe.modifier", "describe.possession"),
    # learned from judged passages of other books (text_signal.py): the whole signal, and its word-vector part
    "text": ("text.descriptive", "text.vectors"),
    "query": ("query.place",),       # the query names a place or an institution, not a person
    # each passage against the query's other candidates (a frequent character's counts are not a
    # rare one's, and the regression trees see one passage at a time): share of the best value, rank, pool size
    "relative": ("relative.score", "relative.ef", "relative.bm25_b0", "relative.text", "relative.score_rank",
                 "relative.candidates"),
}
FEATURE_NAMES: tuple[str, ...] = tuple(n for names in FEATURE_GROUPS.values() for n in names)

TIME_LABELS = frozenset({"DATE", "TIME"})
LOCORG_LABELS = frozenset({"LOC", "GPE", "FAC", "ORG"})
_DESCRIPTION_AFTER = re.compile(r"^(?:['’]s)?,? (?:who |whose |was |is |had been |became )?(?:a|an|the|very|his|her)\b")
_QUOTED = re.compile(r"“[^”]*”?|\"[^\"]*\"?")


@dataclass(frozen=True)
class FeatureMatrix:
    passages: tuple[int, ...]
    names: tuple[str, ...]
    values: np.ndarray  # shape (len(passages), len(names))


@dataclass
class _BookStats:
    verb_idf_columns: tuple[np.ndarray, ...]   # per sentence id: sum, count, max, min of its verbs' idfs
    first_passage_of_name: dict[str, int]
    entity_counts: np.ndarray              # per passage: person, time, place/organisation mentions
    chapter_position: np.ndarray           # passage's index within its chapter
    named_passages_of_character: dict[int, list[int]]   # character id → passages naming it, in order
    first_full_name_passage: dict[int, int]             # character id → first passage with a 2+ word form
    sentences_by_passage: np.ndarray
    first_appearance: frozenset[int]                    # passages where some name appears first


def _label_kind(label: str) -> int:
    """The column of :attr:`_BookStats.entity_counts` a mention's label counts in; 3: none."""
    return 0 if label == "PER" else 1 if label in TIME_LABELS else 2 if label in LOCORG_LABELS else 3


def _stats(book: IndexedBook) -> _BookStats:
    """Book-level statistics the features read, computed once per book (a cold query pays for them:
    array operations over the book's ~10⁴–10⁵ records, not a Python loop each)."""
    if "ldm_stats" not in book.cache:
        n = len(book.passages)
        ann = book.annotations
        verb_passages = np.fromiter((v.passage for v in ann.verbs), dtype=np.int64, count=len(ann.verbs))
        codes: dict[str, int] = {}
        lemma_codes = np.fromiter((codes.setdefault(v.lemma, len(codes)) for v in ann.verbs), dtype=np.int64,
                                  count=len(ann.verbs))
        # df: passages holding the lemma; idf = log(n / df)
        pairs = np.sort(lemma_codes * max(n, 1) + verb_passages)   # distinct (lemma, passage) pairs:
        pairs = pairs[np.diff(pairs, prepend=-1) != 0]                # (np.unique would import numpy.ma, ~20 ms cold)
        df = np.bincount(pairs // max(n, 1), minlength=len(codes))
        idf = np.log(n / np.maximum(df, 1))
        verb_idf = idf[lemma_codes]
        verb_sentences = np.fromiter((v.sentence for v in ann.verbs), dtype=np.int64, count=len(ann.verbs))

        first: dict[str, int] = {}
        for m in ann.mentions:
            if m.is_name and m.key not in first:
                first[m.key] = m.passage
        kinds = np.fromiter((_label_kind(m.label) for m in ann.mentions), dtype=np.int64, count=len(ann.mentions))
        where = np.fromiter((m.passage for m in ann.mentions), dtype=np.int64, count=len(ann.mentions))
        entity_counts = np.zeros((n, 4), dtype=np.int64)
        np.add.at(entity_counts, (where, kinds), 1)

        chapter_pos, k, previous = [], 0, object()
        for p in book.passages:
            k = k + 1 if p.chapter == previous else 0
            previous = p.chapter
            chapter_pos.append(k)
        index = book.characters
        named: dict[int, list[int]] = defaultdict(list)
        full: dict[int, int] = {}
        for i, nms in enumerate(book.names_by_passage):
            for nm in nms:
                cid = index.character_of.get(nm.form)
                if cid is None:
                    continue
                if not named[cid] or named[cid][-1] != i:
                    named[cid].append(i)
                if len(nm.name.words) >= 2 and cid not in full:
                    full[cid] = i
        sentence_passages = np.fromiter((s.passage for s in ann.sentences), dtype=np.int64, count=len(ann.sentences))
        per_passage = np.bincount(sentence_passages, minlength=n)[:n]
        first_app = frozenset(i for i, nms in enumerate(book.names_by_passage)
                              if any(nm.name.key and first.get(nm.name.key) == i for nm in nms))
        size = 1 + max(max((s.index for s in ann.sentences), default=0),
                       int(verb_sentences.max()) if len(verb_sentences) else 0)
        book.cache["ldm_stats"] = _BookStats(_idf_columns(verb_sentences, verb_idf, size), first,
                                             entity_counts[:, :3], np.array(chapter_pos, dtype=np.int64),
                                             dict(named), full, np.where(per_passage > 0, per_passage, 1), first_app)
    return book.cache["ldm_stats"]


def _idf_columns(verb_sentences: np.ndarray, verb_idf: np.ndarray, size: int) -> tuple[np.ndarray, ...]:
    """Sum, count, max and min of the idfs of each sentence's verbs, indexed by sentence id (a
    sentence without verbs: count 0, max -inf, min inf)."""
    total = np.bincount(verb_sentences, weights=verb_idf, minlength=size)
    count = np.bincount(verb_sentences, minlength=size).astype(np.float64)
    top, low = np.full(size, -np.inf), np.full(size, np.inf)
    np.maximum.at(top, verb_sentences, verb_idf)
    np.minimum.at(low, verb_sentences, verb_idf)
    return total, count, top, low


def candidate_passages(book: IndexedBook, query: Name, entity_text: str) -> list[int]:
    """LRM's candidates plus exact-string hits: passages LDM may rank."""
    return _candidates_with(book, query, baselines.exact_counts(book, entity_text))


def _candidates_with(book: IndexedBook, query: Name, exact_counts: np.ndarray) -> list[int]:
    """:func:`candidate_passages` from the per-passage counts of the exact string (read once per query)."""
    return sorted(set(candidate_passages_lrm(book, query)) | set(np.flatnonzero(exact_counts).tolist()))


def _keyword_count(book: IndexedBook, i: int) -> int:
    """Descriptive keywords (family, age, …) in passage ``i``, counted once per book and passage."""
    key = ("keyword_count", i)
    if key not in book.cache:
        kw = keywords()
        book.cache[key] = sum(1 for w in tokenize(book.passages[i].text) if w in kw)
    return book.cache[key]


def _description_kinds(book: IndexedBook, starts: np.ndarray) -> np.ndarray:
    """The description flags of the mentions or pronouns starting at ``starts`` (0: none)."""
    if "description_kinds" not in book.cache:
        by_start = {d.start: d.kinds for d in book.annotations.descriptions}   # the last one of an offset
        keys = np.array(sorted(by_start), dtype=np.int64)
        book.cache["description_kinds"] = (keys, np.array([by_start[k] for k in keys.tolist()], dtype=np.int64))
    keys, kinds = book.cache["description_kinds"]
    if not len(keys):
        return np.zeros(len(starts), dtype=np.int64)
    at, found = sorted_find(keys, starts)
    return np.where(found, kinds[at], 0)


def _bin10(k: int, n: int) -> int:
    return round(10 * k / (n - 1)) if n > 1 else 0


# Features of the passage alone, the same for every query: computed once per book and passage
# (:func:`_passage_columns`), so a query for the narrator's 800 candidates only computes the rest.
PASSAGE_FEATURES: tuple[str, ...] = (
    "lrm.g", "lrm.words", "keywords.has", "keywords.count", "entities.person", "entities.time", "entities.locorg",
    "entities.first_appearance", "position.book", "extra.dialogue_share")
RELATIVE_FEATURES: tuple[str, ...] = FEATURE_GROUPS["relative"]
QUERY_FEATURES: tuple[str, ...] = tuple(n for n in FEATURE_NAMES if n not in PASSAGE_FEATURES + RELATIVE_FEATURES)
_PASSAGE_COLS = np.array([FEATURE_NAMES.index(n) for n in PASSAGE_FEATURES])
_QUERY_COLS = np.array([FEATURE_NAMES.index(n) for n in QUERY_FEATURES])
_RELATIVE_COLS = np.array([FEATURE_NAMES.index(n) for n in RELATIVE_FEATURES])


def _passage_row(book: IndexedBook, stats: _BookStats, i: int, settings: LRMSettings) -> tuple[float, ...]:
    """:data:`PASSAGE_FEATURES` of passage ``i``."""
    text = book.passages[i].text
    n_words = book.passage_words[i]
    n_kw = _keyword_count(book, i)
    persons, dates, places = stats.entity_counts[i].tolist()
    quoted = sum(len(m.group()) for m in _QUOTED.finditer(text)) / max(1, len(text))
    return (length_reward(n_words, settings.pivot, book.max_passage_words), n_words, float(n_kw > 0), n_kw,
            persons, dates, places, float(i in stats.first_appearance),
            _bin10(i, len(book.passages)), quoted)


def _passage_columns(book: IndexedBook, stats: _BookStats, passages: list[int], settings: LRMSettings) -> np.ndarray:
    """:data:`PASSAGE_FEATURES` of ``passages`` (rows in that order), each passage computed once per
    book and length pivot."""
    key = ("passage_features", settings.pivot)
    if key not in book.cache:
        n = len(book.passages)
        book.cache[key] = (np.zeros((n, len(PASSAGE_FEATURES))), np.zeros(n, dtype=bool))
    values, done = book.cache[key]
    for i in passages:
        if not done[i]:
            values[i] = _passage_row(book, stats, i, settings)
            done[i] = True
    return values[passages]


@dataclass(frozen=True)
class _QueryMarks:
    """The query's mentions in its candidates, flattened over candidates: names first, then
    resolved pronouns. ``rows``: (start, end, text-signal marker, candidate row) per mention."""

    rows: np.ndarray
    n_names: int
    certainty: np.ndarray          # E(e_i, e) of each name mention

    @classmethod
    def of(cls, book: IndexedBook, passages: np.ndarray, evs: list[PassageEvidence]) -> "_QueryMarks":
        """The marks of ``evs``, the evidence of ``passages``. A narrator's pronouns are taken from
        the book's arrays (:attr:`IndexedBook.narrator_pronoun_arrays`), not tuple by tuple."""
        names = [v for k, ev in enumerate(evs) for a, b, _t, _e in ev.matched for v in (a, b, MARKERS[SELF], k)]
        resolved = np.array([(a, b, k) for k, ev in enumerate(evs) for a, b, _t in ev.resolved],
                            dtype=np.int64).reshape(-1, 3)
        narrated = np.flatnonzero([bool(ev.narrated) for ev in evs])
        bounds, starts, ends = book.narrator_pronoun_arrays
        first, count = bounds[passages[narrated]], np.diff(bounds)[passages[narrated]]
        at = index_ranges(first, count)
        pronouns = np.concatenate([resolved, np.column_stack([starts[at], ends[at], np.repeat(narrated, count)])])
        pronouns = pronouns[np.lexsort((pronouns[:, 1], pronouns[:, 0], pronouns[:, 2]))]   # text order per passage
        rows = np.concatenate([np.array(names, dtype=np.int64).reshape(-1, 4),
                               np.insert(pronouns, 2, MARKERS[SELF_PRONOUN], axis=1)])
        return cls(rows, len(names) // 4, np.array([e for ev in evs for _a, _b, _t, e in ev.matched]))


def _any_per_row(rows: np.ndarray, flags: np.ndarray, n: int) -> np.ndarray:
    """1.0 for rows with some true flag among their entries, else 0.0."""
    return (np.bincount(rows, weights=flags.astype(np.float64), minlength=n) > 0).astype(np.float64)


def _described_after(book: IndexedBook, ends: np.ndarray) -> np.ndarray:
    """Whether a description follows each name mention ending at ``ends`` ("X, a young …",
    "X was …"), decided once per book and offset."""
    seen = book.cache.setdefault("described_after", {})
    text = book.document.text
    for b in set(ends.tolist()) - seen.keys():
        seen[b] = _DESCRIPTION_AFTER.match(text[b:b + 40]) is not None
    return np.array([seen[b] for b in ends.tolist()], dtype=bool)


def extract_features(book: IndexedBook, query: Name, entity_text: str,
                     settings: LRMSettings = LRMSettings(), text_model: TextModel | None = None) -> FeatureMatrix:
    """Every named feature for the candidate passages of ``query``. ``text_model``: the learned word
    signal to use (default: the shipped one; cross-fitted models when training and evaluating).

    The query's columns are computed over all candidates at once, group by group, from the
    evidence flattened into arrays (:class:`_QueryMarks`): a narrator's 800 candidates hold 3,000
    mentions, which row-by-row Python took 9 ms to turn into features."""
    text_model = text_model or shipped_text_model()
    stats = _stats(book)
    label = query_label(book, query)
    exact_counts = baselines.exact_counts(book, entity_text)
    passages = _candidates_with(book, query, exact_counts)
    evs = evidences(book, passages, query, label, settings)
    candidates = np.array(passages, dtype=np.int64)
    q = _Candidates(candidates, evs, _QueryMarks.of(book, candidates, evs))
    static = _passage_columns(book, stats, passages, settings)
    mentioned, first_offset = q.first_mention()
    columns = {
        **_lrm_columns(q, static, settings),
        **_action_columns(q, stats),
        **_position_columns(book, q, mentioned, first_offset),
        **_extra_columns(book, q, entity_text, exact_counts),
        **_intro_columns(book, stats, q, query, label, entity_text, mentioned),
        **_focus_columns(q, stats, static),
        **_describe_columns(book, q),
        **_text_columns(book, passages, q.marks.rows, text_model),
        "query.place": np.full(q.n, float(label != "PER")),
    }
    if columns.keys() != set(QUERY_FEATURES):
        raise AssertionError(f"query features computed {sorted(columns)} != declared {sorted(QUERY_FEATURES)}")
    values = np.empty((q.n, len(FEATURE_NAMES)))
    values[:, _PASSAGE_COLS] = static
    values[:, _QUERY_COLS] = np.column_stack([columns[name] for name in QUERY_FEATURES]) if q.n \
        else np.empty((0, len(QUERY_FEATURES)))
    values[:, _RELATIVE_COLS] = _relative(values)
    return FeatureMatrix(tuple(passages), FEATURE_NAMES, values)


@dataclass(frozen=True)
class _Candidates:
    """One query's candidate passages, their evidence, and its mentions flattened."""

    passages: np.ndarray
    evs: list[PassageEvidence]
    marks: _QueryMarks

    @property
    def n(self) -> int:
        return len(self.passages)

    def per_candidate(self, attribute: str) -> np.ndarray:
        """One of the evidence's counts (``ef``, ``names``, ``cr``, ``subjects``) per candidate
        (read-only: the columns share it)."""
        return self._counts[attribute]

    @cached_property
    def _counts(self) -> dict[str, np.ndarray]:
        table = np.array([(ev.ef, ev.names, ev.cr, ev.subjects) for ev in self.evs], dtype=np.float64).reshape(-1, 4)
        table.flags.writeable = False
        return {name: table[:, j] for j, name in enumerate(("ef", "names", "cr", "subjects"))}

    @cached_property
    def sentences(self) -> tuple[np.ndarray, np.ndarray]:
        """(candidate row, sentence id) of every sentence holding a matched mention or pronoun."""
        return (np.array([k for k, ev in enumerate(self.evs) for _s in ev.sentences], dtype=np.int64),
                np.array([s for ev in self.evs for s in ev.sentences], dtype=np.int64))

    def first_mention(self) -> tuple[np.ndarray, np.ndarray]:
        """Whether each candidate holds a matched mention or pronoun, and the offset of its first."""
        first = np.full(self.n, np.inf)
        np.minimum.at(first, self.marks.rows[:, 3], self.marks.rows[:, 0])
        mentioned = np.isfinite(first)
        return mentioned, np.where(mentioned, first, 0).astype(np.int64)


def _lrm_columns(q: _Candidates, static: np.ndarray, settings: LRMSettings) -> dict[str, np.ndarray]:
    ef = q.per_candidate("ef")
    g = static[:, PASSAGE_FEATURES.index("lrm.g")]
    return {"lrm.score": g * saturate_all(ef, settings.k1), "lrm.ef": ef,
            "lrm.cr": q.per_candidate("cr"), "lrm.names": q.per_candidate("names")}


def _action_columns(q: _Candidates, stats: _BookStats) -> dict[str, np.ndarray]:
    """The idfs of the verbs of the sentences holding the entity's mentions: average, max, min."""
    row, sentence = q.sentences
    idf_sum, idf_n, idf_max, idf_min = (a[sentence] for a in stats.verb_idf_columns)
    n_idfs = np.bincount(row, weights=idf_n, minlength=q.n)
    top, low = np.full(q.n, -np.inf), np.full(q.n, np.inf)
    np.maximum.at(top, row, idf_max)
    np.minimum.at(low, row, idf_min)
    has = n_idfs > 0
    return {"actions.idf_avg": np.where(has, np.bincount(row, weights=idf_sum, minlength=q.n) / np.maximum(n_idfs, 1),
                                        0.0),
            "actions.idf_max": np.where(has, top, 0.0), "actions.idf_min": np.where(has, low, 0.0)}


def _position_columns(book: IndexedBook, q: _Candidates, mentioned: np.ndarray,
                      first_offset: np.ndarray) -> dict[str, np.ndarray]:
    """Position within the entity's lifetime (its passages with EF > 0), and of its first mention
    within the passage."""
    alive = q.per_candidate("ef") > 0
    n_alive = int(alive.sum())
    life = np.round(10 * (np.cumsum(alive) - 1) / (n_alive - 1)) if n_alive > 1 else np.zeros(q.n)
    p_start, p_end = (b[q.passages] for b in book.passage_bounds)
    from_start = first_offset - p_start
    return {"position.lifetime": np.where(alive, life, -1.0),
            "position.at_start": (mentioned & (from_start < 30)).astype(np.float64),
            "position.first_occurrence": np.where(mentioned, from_start / np.maximum(1, p_end - p_start), 1.0)}


def _extra_columns(book: IndexedBook, q: _Candidates, entity_text: str,
                   exact_counts: np.ndarray) -> dict[str, np.ndarray]:
    names_row, names_end = q.marks.rows[:q.marks.n_names, 3], q.marks.rows[:q.marks.n_names, 1]
    best_match = np.zeros(q.n)
    np.maximum.at(best_match, names_row, q.marks.certainty)
    passages = q.passages.tolist()
    bm25 = baselines.bm25_b0(book, entity_text, passages)
    return {"extra.subject": q.per_candidate("subjects"),
            "extra.description": _any_per_row(names_row, _described_after(book, names_end), q.n),
            "extra.bm25_b0": np.array([bm25[i] for i in passages], dtype=np.float64),
            "extra.exact_count": exact_counts[q.passages].astype(np.float64),
            "extra.best_match": best_match}


def _intro_columns(book: IndexedBook, stats: _BookStats, q: _Candidates, query: Name, label: str,
                   entity_text: str, mentioned: np.ndarray) -> dict[str, np.ndarray]:
    """Where the text presents the entity: the passages naming its character (or the place), in
    book order; its first full name; a chapter opening on it."""
    character = book.characters.lookup(query) if label == "PER" else None
    if character:
        named = stats.named_passages_of_character.get(character.id, [])
        full_at = stats.first_full_name_passage.get(character.id)
    else:   # a place, or a name no character holds: the passages naming it, by the words matched
        named = [i for i, ev in zip(q.passages.tolist(), q.evs) if ev.names > 0]
        exact = re.compile(re.escape(entity_text))
        full_at = next((i for i in named if len(query.words) >= 2 and exact.search(book.passages[i].text)), None)
    named_arr = np.array(named, dtype=np.int64)
    at = np.searchsorted(named_arr, q.passages)
    is_named = (at < len(named_arr)) & (named_arr[np.minimum(at, max(0, len(named_arr) - 1))] == q.passages) \
        if len(named_arr) else np.zeros(q.n, dtype=bool)
    return {"intro.first_named": (is_named & (at < 3)).astype(np.float64),
            "intro.named_rank": np.log1p(np.where(is_named, at, 1000)),
            "intro.first_full_name": (q.passages == (full_at if full_at is not None else -1)).astype(np.float64),
            "intro.chapter_opening": ((stats.chapter_position[q.passages] < 3) & mentioned).astype(np.float64)}


def _focus_columns(q: _Candidates, stats: _BookStats, static: np.ndarray) -> dict[str, np.ndarray]:
    """How much of the passage is about the entity: its share of the people named, of the sentences."""
    persons = static[:, PASSAGE_FEATURES.index("entities.person")]
    row, _sentence = q.sentences
    return {"focus.name_share": q.per_candidate("names") / np.maximum(1, persons),
            "focus.sentence_share": np.bincount(row, minlength=q.n)
            / np.maximum(1, stats.sentences_by_passage[q.passages])}


def _describe_columns(book: IndexedBook, q: _Candidates) -> dict[str, np.ndarray]:
    """Whether the parse attaches a description to one of the entity's mentions or pronouns."""
    kinds = _description_kinds(book, q.marks.rows[:, 0])
    rows = q.marks.rows[:, 3]
    return {name: _any_per_row(rows, kinds & flag > 0, q.n)
            for name, flag in (("describe.predicate", PREDICATE), ("describe.modifier", MODIFIER),
                               ("describe.possession", POSSESSION))}


def text_marks(ev: PassageEvidence) -> list[tuple[int, int, str]]:
    """The query's names and resolved pronouns in a passage, as marks for the text signal."""
    return [(a, b, SELF) for a, b, _t, _e in ev.matched] + [(a, b, SELF_PRONOUN) for a, b, _t in ev.pronouns]


def marks_between(book: IndexedBook, query: Name, start: int, end: int,
                  settings: LRMSettings = LRMSettings()) -> tuple[tuple[int, int, str], ...]:
    """:func:`text_marks` of ``query`` inside ``[start, end)`` of the book's text (a judged passage),
    offsets relative to ``start``: what the text signal is trained on."""
    first = max(0, book.passage_at(start))
    label, cache = query_label(book, query), {}
    out = []
    for i in range(first, len(book.passages)):
        if book.passages[i].start >= end:
            break
        out += [(a - start, b - start, m) for a, b, m in text_marks(evidence(book, i, query, label, settings, cache))
                if a >= start and b <= end]
    return tuple(sorted(out))


def _text_arena(book: IndexedBook, passages: list[int],
                text_model: TextModel) -> tuple[GramArena, Unmarked]:
    """The book's :class:`GramArena`, grown by the passages of ``passages`` it lacks (each passage's
    words are read once per book; a query only marks its own mentions), and its unmarked scores under
    ``text_model``."""
    arena = book.cache.get("text_arena")
    missing = arena.missing(passages) if arena is not None else passages
    if missing:
        new = gram_arena({i: passage_grams(book.passages[i].text, book.passages[i].start) for i in missing})
        arena = book.cache["text_arena"] = merge_arenas(arena, new) if arena is not None else new
    base = book.cache.get("text_base")
    if base is None or base[0] is not text_model or base[1] is not arena:
        base = book.cache["text_base"] = (text_model, arena, unmarked(text_model, arena))
    return arena, base[2]


def _text_columns(book: IndexedBook, passages: list[int], mark_rows: np.ndarray,
                  text_model: TextModel | None) -> dict[str, np.ndarray]:
    """``text.descriptive`` of the candidates with the query's names and pronouns marked
    (``mark_rows``: :attr:`_QueryMarks.rows`), and ``text.vectors``, its word-vector part (the
    trees may weigh it apart, e.g. for places)."""
    if text_model is None or not passages:
        return {"text.descriptive": np.zeros(len(passages)), "text.vectors": np.zeros(len(passages))}
    arena, base = _text_arena(book, passages, text_model)
    hashed, dense = score_parts(text_model, arena, passages, mark_rows, base)
    return {"text.descriptive": hashed + dense, "text.vectors": dense}


def _relative(values: np.ndarray) -> np.ndarray:
    """:data:`RELATIVE_FEATURES` from the other columns of one query's candidates."""
    def col(name: str) -> np.ndarray:
        return values[:, FEATURE_NAMES.index(name)]

    def share(x: np.ndarray) -> np.ndarray:
        top = x.max(initial=0.0)
        return x / top if top > 0 else np.zeros_like(x)

    n = len(values)
    score = col("lrm.score")
    rank = np.empty(n)
    rank[np.argsort(-score, kind="stable")] = np.arange(n)
    text = col("text.descriptive")
    return np.column_stack([share(score), share(col("lrm.ef")), share(col("extra.bm25_b0")),
                            text - text.max() if n else text, rank / max(1, n - 1),
                            np.full(n, math.log1p(n))])


FEATURE_DESCRIPTIONS = {
    "lrm.score": "retrieval score (LRM)",
    "lrm.ef": "how often the entity is mentioned (incl. pronouns)",
    "lrm.cr": "pronouns referring to the entity",
    "lrm.g": "passage length reward",
    "lrm.names": "mentions by name",
    "lrm.words": "passage length in words",
    "keywords.has": "contains descriptive words (family, age, …)",
    "keywords.count": "descriptive words (family, age, …)",
    "entities.person": "other people mentioned",
    "entities.time": "dates and times mentioned",
    "entities.locorg": "places and organisations mentioned",
    "entities.first_appearance": "someone appears for the first time",
    "actions.idf_avg": "how distinctive the entity's actions are (average)",
    "actions.idf_max": "most distinctive action of the entity",
    "actions.idf_min": "most common action of the entity",
    "position.lifetime": "position within the entity's appearances (0–10)",
    "position.book": "position in the book (0–10)",
    "position.at_start": "entity named at the start of the passage",
    "position.first_occurrence": "where in the passage the entity first appears",
    "extra.subject": "entity is the grammatical subject",
    "extra.description": "described directly (\"X, a young …\", \"X was …\")",
    "extra.dialogue_share": "share of dialogue",
    "extra.bm25_b0": "name-word frequency (BM25, b=0)",
    "extra.exact_count": "the name exactly as selected",
    "extra.best_match": "certainty that a name refers to the entity",
    "query.place": "the name is a place or an institution",
    "relative.score": "retrieval score as a share of this entity's best passage",
    "relative.ef": "mentions as a share of this entity's most mentioned passage",
    "relative.bm25_b0": "name-word frequency as a share of this entity's best passage",
    "relative.text": "descriptive words below this entity's most descriptive passage",
    "relative.score_rank": "rank by retrieval score among this entity's passages (0–1)",
    "relative.candidates": "how many passages mention this entity (log)",
    "intro.first_named": "one of the first passages naming the entity",
    "intro.named_rank": "how many passages named the entity before (log)",
    "intro.first_full_name": "the entity's full name appears for the first time",
    "intro.chapter_opening": "a chapter opens on the entity",
    "focus.name_share": "share of the people named here that are the entity",
    "focus.sentence_share": "share of the sentences about the entity",
    "describe.predicate": "the entity is the subject of a description (\"he was a …\", \"she seemed …\")",
    "describe.modifier": "adjectives, appositions or relative clauses attach to the entity",
    "describe.possession": "the entity's face, family or fortune (\"her eyes\", \"his father\")",
    "text.descriptive": "words that describe this entity, its names and pronouns marked (learned from judged passages)",
    "text.vectors": "words like those that describe an entity, near its names and pronouns (word vectors)",
}
