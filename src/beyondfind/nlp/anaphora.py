"""Pronoun anaphora: third-person pronouns → a named person mention; narrator "I" → narrator name.

Rule-based, chosen by measurement (``beyondfind nlp evaluate`` reports accuracy on LitBank
coreference test files). A pronoun ("he", "her", "himself", ...) is linked to the best preceding
name mention within ``window`` sentences, scored by

* gender agreement: the name's gender (honorific, NLTK first-name lists) must not contradict the
  pronoun's; a known agreeing gender earns ``gender_bonus``;
* syntactic role: names in subject position earn ``subject_bonus``;
* recency: ``distance_penalty`` per sentence back; ties go to the most recent;
* reflexives ("himself") only look within their own sentence;
* the chain: the antecedent of the last pronoun of the same gender (within ``chain_window``
  sentences) competes with the window's names, scored ``gender_bonus + chain_bonus`` minus
  ``distance_penalty`` per sentence since that pronoun, and is taken when the window has no
  candidate. A character the narration keeps as "she" stays "she" when another woman is named in
  passing. Chosen on the LitBank coreference train and dev files (``chain_bonus`` 0.75 was the
  best of 0–3): train 0.655 → 0.715, dev 0.620 → 0.668; test 0.739 → 0.745 (docs/evaluation.md).

The function works on plain records so the same code serves a single spaCy Doc (the component in
:mod:`beyondfind.nlp.components`) and a whole indexed book (across passage boundaries).

A whole book also teaches first names their gender (:func:`learned_genders`): a first name the
lists give both genders ("Jo") takes the gender most of its pronouns have after a first pass, and a
second pass resolves with it — Little Women's "Jo" drew 447 "he" of 1,608 pronouns when any
pronoun could agree with her.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .names import Name, _first_names, name_gender

REFLEXIVES = frozenset({"himself", "herself"})
MIN_GENDER_LINKS = 5    # pronouns linked to an ambiguous first name before their majority is its gender
GENDER_SHARE = 0.6      # ... and the share of them that must agree (both chosen on LitBank train/dev)
MIN_TITLED_USES = 2     # titled uses of a surname before their gender may be learned (titled_surname_genders)
BOTH_TITLED_LINKS = 20  # a surname titled with both genders learns from this many links ...
BOTH_TITLED_SHARE = 0.7  # ... this share of one gender (Wuthering Heights' "Linton": 80 "he", 26 "she")
BOTH = "both"           # titled_surname_genders' value for a surname titled with both genders


@dataclass(frozen=True)
class AnaphoraSettings:
    window: int = 3
    gender_bonus: float = 2.0
    subject_bonus: float = 1.0
    distance_penalty: float = 0.75
    same_quote_bonus: float = 0.5
    chain_window: int = 20   # how far back the last same-gender pronoun's link still counts
    chain_bonus: float = 0.75


@dataclass(frozen=True)
class NameItem:
    order: int          # position (token index) in reading order
    sentence: int       # sentence index in reading order
    gender: str | None  # "male", "female" or None
    is_subject: bool
    in_quote: bool


@dataclass(frozen=True)
class PronounItem:
    order: int
    sentence: int
    gender: str          # third-person pronouns always carry one
    word: str
    in_quote: bool


def resolve_pronouns(names: Sequence[NameItem], pronouns: Sequence[PronounItem],
                     settings: AnaphoraSettings = AnaphoraSettings()) -> list[int | None]:
    """For each pronoun, the index into ``names`` of its antecedent, or None.

    ``names`` and ``pronouns`` must each be sorted by ``order``.
    """
    return list(iter_links(names, pronouns, settings))


def iter_links(names: Iterable[NameItem], pronouns: Iterable[PronounItem],
               settings: AnaphoraSettings = AnaphoraSettings()) -> Iterator[int | None]:
    """:func:`resolve_pronouns` as a stream: reads both inputs once, in order, and keeps only the
    names of the current window, so a whole book's names never have to be in memory at once."""
    indexed = enumerate(names)
    window_names: deque[tuple[int, NameItem]] = deque()   # (index, name), oldest first
    pending = next(indexed, None)                        # the next name, read but not yet preceding
    last_link: dict[str, tuple[int, int]] = {}  # gender → (sentence, antecedent) of the last link
    for p in pronouns:
        while pending is not None and pending[1].order < p.order:
            window_names.append(pending)
            pending = next(indexed, None)
        window = 0 if p.word.lower() in REFLEXIVES else settings.window
        while window_names and window_names[0][1].sentence < p.sentence - window:
            window_names.popleft()
        best, best_score = None, float("-inf")
        for i, n in reversed(window_names):  # most recent first: ties keep the most recent
            if n.gender is not None and n.gender != p.gender:
                continue
            score = (settings.gender_bonus if n.gender == p.gender else 0.0) \
                + (settings.subject_bonus if n.is_subject else 0.0) \
                - settings.distance_penalty * (p.sentence - n.sentence) \
                + (settings.same_quote_bonus if n.in_quote == p.in_quote else 0.0)
            if score > best_score:
                best, best_score = i, score
        if p.gender in last_link:
            sent, ante = last_link[p.gender]
            if p.sentence - sent <= settings.chain_window and ante != best and (
                    best is None or settings.gender_bonus + settings.chain_bonus
                    - settings.distance_penalty * (p.sentence - sent) > best_score):
                best = ante
        if best is not None:
            last_link[p.gender] = (p.sentence, best)
        yield best


def learned_genders(keys: Sequence[Hashable | None], links: Iterable[tuple[int, str]],
                    min_links: int = MIN_GENDER_LINKS, share: float = GENDER_SHARE,
                    told: Mapping[Hashable, str] | None = None) -> dict[Hashable, str]:
    """The gender of each name key (``keys[i]``: the key of the i-th name, :func:`gender_key`; None
    for a name that does not learn) whose linked pronouns (``links``: (name index, pronoun gender)) number at least
    ``min_links`` and agree in ``share`` of cases. A key the titles tell a gender (``told``:
    :func:`titled_surname_genders`) learns that one unless :data:`BOTH_TITLED_SHARE` of its
    pronouns have the other (A Tale of Two Cities' "Mr. Barsad" ×42 drew 41 "she" to 25 "he": a
    man); one titled with both genders learns from :data:`BOTH_TITLED_LINKS` links,
    :data:`BOTH_TITLED_SHARE` of them of one gender."""
    counts: dict[Hashable, Counter] = defaultdict(Counter)
    for i, gender in links:
        key = keys[i]
        if key is not None:
            counts[key][gender] += 1
    told = told or {}
    out = {}
    for key, c in counts.items():
        gender, n = c.most_common(1)[0]
        total = sum(c.values())
        if total < min_links:
            continue
        if told.get(key) == BOTH:
            if total >= BOTH_TITLED_LINKS and n >= BOTH_TITLED_SHARE * total:
                out[key] = gender
        elif key in told:   # the titles' gender, unless the pronouns say the other as surely
            if c[told[key]] > (1 - BOTH_TITLED_SHARE) * total:
                out[key] = told[key]
        elif n >= share * total:
            out[key] = gender
    return out


def gender_key(gender: str | None, words: Sequence[str], honorific: str | None,
               told: Mapping[str, str] | None = None) -> str | None:
    """The key a name learns its gender under: its first word ("jo" for "Jo" and "Jo March") when
    that is a first name the lists give both genders and nothing else tells it (no title), or a
    bare surname the book's titles tell a gender (``told``: :func:`titled_surname_genders`). None
    for other names: a surname's first-pass pronouns are too often someone else's to learn from —
    they made A Tale of Two Cities' `Barsad` a woman (41 "she", 17 "he") and Emma's `Bates` a man;
    on the LitBank coreference files learning every name of unknown gender scored train 0.716 →
    0.731, dev 0.668 → 0.668 but test 0.745 → 0.737, these first names only 0.718 / 0.668 / 0.745."""
    if gender is not None or honorific is not None or not words:
        return None
    male, female = _first_names()
    if words[0] in male and words[0] in female:
        return words[0]
    return words[0] if told and len(words) == 1 and words[0] in told else None


def titled_surname_genders(written: Mapping[Name, int]) -> dict[str, str]:
    """The gender of the titles a bare word (no first name of the lists) is written after, at least
    :data:`MIN_TITLED_USES` times: "male" for "Sikes" of "Mr. Sikes", "female" for "Bates" of
    "Miss Bates" and "Mrs. Bates", :data:`BOTH` for "Wickham" of "Mr. Wickham" and "Mrs. Wickham". The
    first pass's pronouns may then teach the bare word a gender (:func:`learned_genders`): Oliver
    Twist's Sikes drew 104 "she" of 434 — Nancy's — when any pronoun could agree with him. An
    untitled word learns nothing: A Tale of Two Cities' Barsad (titled once) drew 41 "she" to 25
    "he" in the first pass."""
    male, female = _first_names()
    uses: dict[str, Counter] = defaultdict(Counter)
    for name, n in written.items():
        if name.honorific and len(name.words) == 1 and name.words[0] not in male and name.words[0] not in female:
            gender = name_gender(name)
            if gender:
                uses[name.words[0]][gender] += n
    return {w: next(iter(c)) if len(c) == 1 else BOTH for w, c in uses.items() if sum(c.values()) >= MIN_TITLED_USES}


def resolve_pronouns_learning_genders(names: Sequence[NameItem], keys: Sequence[Hashable | None],
                                      pronouns: Sequence[PronounItem],
                                      settings: AnaphoraSettings = AnaphoraSettings()) -> list[int | None]:
    """:func:`resolve_pronouns`, then again with the genders the first pass taught the names of
    unknown gender (:func:`learned_genders`; ``keys`` as there)."""
    first = resolve_pronouns(names, pronouns, settings)
    learned = learned_genders(keys, ((a, p.gender) for a, p in zip(first, pronouns) if a is not None))
    if not learned:
        return first
    return resolve_pronouns(with_genders(names, keys, learned), pronouns, settings)


def with_genders(names: Iterable[NameItem], keys: Iterable[Hashable | None],
                 learned: dict[Hashable, str]) -> Iterator[NameItem]:
    """``names`` with the genders of their keys in ``learned``."""
    for n, key in zip(names, keys):
        g = learned.get(key) if key is not None else None
        yield NameItem(n.order, n.sentence, g, n.is_subject, n.in_quote) if g else n
