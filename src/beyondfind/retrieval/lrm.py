"""LRM, the retrieval model of "Locally-defined entity search" (docs/models.md).

    LRM(e, p) = g(|p|) · (k1 + 1) · EF(e, p) / (k1 + EF(e, p))

Each part is a small pure function; :func:`score_passage` puts them together for one passage of
an indexed :class:`~beyondfind.index.IndexedBook`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..index.book import IndexedBook, NameMention
from ..nlp.name_words import PLACE_FIRST_WORDS, PLACE_HEADS
from ..nlp.names import Name


@dataclass(frozen=True)
class LRMSettings:
    """Defaults are the paper's seed values (W=10, r=0.5, k1=1.5, |D0|=8)."""

    window: int = 10          # W: passages searched backwards for local coreference
    r: float = 0.5            # weight of each anaphoric mention
    k1: float = 1.5           # saturation
    pivot: int = 8            # |D0|: passages this short or shorter score 0
    length_reward: bool = True   # False: the LRM-DL ablation
    entity_frequency: bool = True  # False: the LRM-EF ablation (plain term frequency)


def length_reward(n_words: int, pivot: int, max_words: int) -> float:
    """g(|D|) = 0 if |D| ≤ |D0| else log(|D|/|D0|) / log(|Dmax|/|D0|)  (the scope hypothesis)."""
    if n_words <= pivot:
        return 0.0
    if max_words <= pivot:
        return 1.0
    return math.log(n_words / pivot) / math.log(max_words / pivot)


def saturate(ef: float, k1: float) -> float:
    """BM25's term-frequency saturation with b = 0: (k1 + 1) · EF / (k1 + EF)."""
    return (k1 + 1.0) * ef / (k1 + ef) if ef > 0 else 0.0


def saturate_all(ef: np.ndarray, k1: float) -> np.ndarray:
    """:func:`saturate` of each of ``ef`` (≥ 0)."""
    return np.where(ef > 0, (k1 + 1.0) * ef / (k1 + ef), 0.0)


def global_coref(query: Name, part: Name, counts: dict[str, int], full_names: dict[str, list[str]]) -> float:
    """c(e) / Σ_{q ∈ Q(e_i)} c(q): the query's share among the book's full names containing the
    partial name e_i (seed example: Mary → Mary Jane 10 of 50 + 40 + 10 = 0.1)."""
    candidates = {k for w in part.words for k in full_names.get(w, ()) if set(part.words) <= set(k.split())}
    total = sum(counts.get(k, 0) for k in candidates)
    return counts.get(query.key, 0) / total if total else 0.0


def local_coref(query: Name, part: Name, preceding: Iterable[NameMention]) -> float | None:
    """1 if the nearest preceding full name containing e_i (within the window) is e, 0 if it is
    another entity, None if there is none (then global coreference decides).
    ``preceding`` is ordered nearest first."""
    for nm in preceding:
        if nm.label == "PER" and part.part_of(nm.name):
            return 1.0 if nm.name.words == query.words else 0.0
    return None


def cluster_coref(target: int, readings: tuple[int, ...], preceding: Iterable[NameMention],
                  book: IndexedBook) -> float:
    """Coref(e_i, e) lifted to characters, for a form that may name several characters (a family
    surname, "Bingley"): local — the nearest preceding mention (within the window) of a form that
    names exactly one of those characters decides, 1 if it is e's, 0 if another; global — else
    e's share of the candidates' mentions, c(e) / Σ_{q ∈ Q(e_i)} c(q)."""
    index = book.characters
    for nm in preceding:
        r = index.possible(nm.form)
        if len(r) == 1 and r[0] in readings:
            return 1.0 if r[0] == target else 0.0
    total = sum(index.characters[c].mentions for c in readings)
    return index.characters[target].mentions / total if total else 0.0


def match(mention: NameMention, query: Name, query_label: str, book: IndexedBook,
          preceding: Iterable[NameMention]) -> float:
    """E(e_i, e) (reconstructed, docs/models.md), over the book's characters
    (:mod:`beyondfind.index.characters`) when the query names one:

    * 1 if e_i is a form of e's character ("Darcy", "Fitzwilliam Darcy" for "Mr. Darcy");
    * Coref(e_i, e) if e_i may name several characters, e's among them ("Bingley" for "Miss
      Bingley"), by :func:`cluster_coref`;
    * 0 if e_i belongs to another character ("Mr. Bingley" for "Miss Bingley") or its type is not
      the query's ("Highland Mary" the place for a person). A place query (:func:`query_label`)
      is matched by :func:`place_match`, never to a character, and takes no pronouns.

    Without a character for the query (a name the book never writes), by words:

    * 1 if the names agree after honorific normalisation;
    * Coref(e_i, e) if e_i is a word-based part of e ("Mary" for "Mary Jane"): local, else global;
    * for a one-word query inside a longer mention ("Huck" vs "Huck Finn"), the mention's share of
      the full names containing the query word;
    * 0 otherwise (another full name: "Mary Ann"; a conflicting honorific).
    """
    name = mention.name
    if query_label == "PER":
        if mention.label != "PER":
            return 0.0
        target = book.characters.lookup(query)
    else:
        return place_match(name, query, book.label_counts)
    if target is not None and not target.ambiguous:
        readings = book.characters.possible(mention.form)
        if target.id not in readings:
            return 0.0
        if len(readings) == 1:
            return 1.0
        return cluster_coref(target.id, readings, preceding, book)
    if name.words == query.words:
        return 0.0 if name.honorific_conflict(query) else 1.0
    if name.part_of(query):
        if name.honorific_conflict(query):
            return 0.0
        local = local_coref(query, name, preceding)
        return local if local is not None else global_coref(query, name, book.name_counts, book.full_names_containing)
    if len(query.words) == 1 and query.part_of(name):
        return global_coref(name, query, book.name_counts, book.full_names_containing)
    return 0.0


def place_match(name: Name, query: Name, label_counts: dict) -> float:
    """E(e_i, e) for a place query. NER's place labels disagree among themselves (GPE, LOC, FAC)
    and often call a house a person, so labels are ignored; a person's honorific excludes.

    * 1 if one name's words contain the other's and they share a distinctive word ("Petersburg" for
      "St. Petersburg", "Tellson's" for "Tellson's Bank", "Pemberley Woods" for "Pemberley");
    * for a mention of the place word alone ("the Grange" for "Thrushcross Grange"), the query's
      share of the book's names ending in that word;
    * 0 otherwise.
    """
    if name.honorific:
        return 0.0
    mine, theirs = set(name.words), set(query.words)
    if not (mine <= theirs or theirs <= mine) or not (mine & theirs):
        return 0.0
    if (mine & theirs) - PLACE_HEADS:
        return 1.0
    head = query.words[-1]
    if len(query.words) < 2 or name.words != (head,):
        return 0.0
    counts = {key: sum(c.values()) for key, c in label_counts.items() if key != head and key.split()[-1] == head}
    total = sum(counts.values())
    return counts.get(query.key, 0) / total if total else 0.0


@dataclass
class PassageEvidence:
    """What LRM saw in one passage (also the ``--explain`` output and LDM features)."""

    ef: float = 0.0
    names: float = 0.0       # Σ E(e_i, e) over name mentions
    cr: int = 0              # anaphoric mentions resolved to a matching name
    matched: list[tuple[int, int, str, float]] = field(default_factory=list)   # (start, end, text, E)
    resolved: list[tuple[int, int, str]] = field(default_factory=list)   # pronouns with a matching antecedent
    narrated: tuple[tuple[int, int, str], ...] = ()   # the narrator's pronouns, when the query is the narrator
    sentences: set[int] = field(default_factory=set)   # sentences holding a matched mention or pronoun
    subjects: int = 0        # matched name mentions in subject position

    @property
    def pronouns(self) -> list[tuple[int, int, str]]:
        """Every pronoun that counts for the query, (start, end, text), in text order. The narrator's
        are kept apart (:attr:`narrated`, shared with the book's index) until asked for: they are
        most of a first-person book's and LDM reads them as arrays."""
        if self.resolved and self.narrated:
            return sorted(self.resolved + list(self.narrated))
        return self.resolved or list(self.narrated)


def evidence(book: IndexedBook, passage: int, query: Name, query_label: str, settings: LRMSettings,
             match_cache: dict[int, float]) -> PassageEvidence:
    """EF(e, p) = Σ_i E(e_i, e) + r · Σ_pronouns E(antecedent, e).

    Equal to the seed's Σ_i E(e_i, e)·(1 + r·CR(e_i)) when every antecedent is in p; a pronoun whose
    antecedent lies in an earlier passage still counts here. Narrator "I" counts like a pronoun
    whose antecedent is the narrator's name.
    """
    return evidences(book, [passage], query, query_label, settings, match_cache)[0]


def evidences(book: IndexedBook, passages: list[int], query: Name, query_label: str, settings: LRMSettings,
              match_cache: dict[int, float] | None = None) -> list[PassageEvidence]:
    """:func:`evidence` of each of ``passages``, deciding once what is the same for all of them
    (the name words that can match, E(narrator, query))."""
    cache = {} if match_cache is None else match_cache
    words = book.match_words(query)
    person = query_label == "PER"
    narrator = book.narrator_match(query) if person else 0.0
    by_section = book.narrator_matches(query) if person else None   # a book of several narrators' diaries
    # Where no name and no pronoun's antecedent shares a word with the query (most of a narrator's
    # candidates), only the narrator's pronouns can count.
    with_names, with_antecedents = _passages_sharing(book, words)
    written = _written_unrecognised(book, query, query_label)
    out = []
    for passage in passages:
        ev = PassageEvidence()
        if passage in with_names:
            for nm in book.names_by_passage[passage]:
                if words.isdisjoint(nm.name.words):
                    continue
                e = _match_cached(book, nm, query, query_label, settings, cache, words)
                if e > 0:
                    ev.names += e
                    ev.matched.append((nm.mention.start, nm.mention.end, nm.mention.text, round(e, 4)))
                    ev.sentences.add(nm.mention.sentence)
                    ev.subjects += nm.mention.is_subject
        if person:
            _pronoun_evidence(book, passage, query, query_label, settings, cache, words,
                              narrator if by_section is None else by_section[passage], ev, passage in with_antecedents)
        if written is not None:
            _unrecognised_mentions(book, passage, written, ev)
        ev.ef += ev.names
        out.append(ev)
    return out


def _pronoun_evidence(book: IndexedBook, passage: int, query: Name, query_label: str, settings: LRMSettings,
                      cache: dict[int, float], words: frozenset[str], narrator: float, ev: PassageEvidence,
                      antecedents: bool = True) -> None:
    """Add the passage's pronouns resolved to the query to ``ev``: a pronoun counts E(antecedent,
    query), a narrator "I" E(narrator, query). The narrator's pronouns of a passage are taken
    together (:attr:`IndexedBook.narrator_pronouns`): they are most of a first-person book's.
    ``antecedents``: whether an antecedent in the passage may share a word with the query."""
    by_ante = book.pronouns_with_antecedent[passage] if antecedents else ()
    narrated, narrated_sentences = book.narrator_pronouns[passage]
    for p, ante in by_ante:
        if words.isdisjoint(ante.name.words):
            continue
        e = _match_cached(book, ante, query, query_label, settings, cache, words)
        if e > 0:
            ev.cr += 1
            ev.resolved.append((p.start, p.end, p.text))
            ev.sentences.add(p.sentence)
            ev.ef += settings.r * e
    if narrated and narrator > 0:
        ev.narrated = narrated
        ev.cr += len(narrated)
        ev.sentences.update(narrated_sentences)
        ev.ef += settings.r * narrator * len(narrated)


def _unrecognised_mentions(book: IndexedBook, passage: int, pattern: re.Pattern, ev: PassageEvidence) -> None:
    """The name written out where NER saw none ("…the influence of the Pemberley House"): each
    occurrence of ``pattern`` (:func:`_written_unrecognised`) outside the matched mentions counts 1."""
    p = book.passages[passage]
    covered = [(a, b) for a, b, _t, _e in ev.matched]
    for m in pattern.finditer(p.text):
        a, b = p.start + m.start(), p.start + m.end()
        if not any(x < b and a < y for x, y in covered):
            ev.names += 1.0
            ev.matched.append((a, b, m.group(), 1.0))


def _match_cached(book: IndexedBook, nm: NameMention, query: Name, query_label: str, settings: LRMSettings,
                  cache: dict[int, float], words: frozenset[str]) -> float:
    """E(nm, query), once per mention; 0 without a shared word (``words``: :meth:`IndexedBook.match_words`)."""
    mid = nm.mention.id
    if mid not in cache:
        cache[mid] = match(nm, query, query_label, book, _preceding(book, nm, settings.window)) \
            if not words.isdisjoint(nm.name.words) else 0.0
    return cache[mid]


def _preceding(book: IndexedBook, nm: NameMention, window: int) -> Iterator[NameMention]:
    """Name mentions before ``nm`` in its passage and the W passages before, nearest first (lazily:
    coreference usually stops at the first)."""
    p = nm.mention.passage
    yield from (m for m in reversed(book.names_by_passage[p]) if m.mention.start < nm.mention.start)
    for q in range(p - 1, max(-1, p - window - 1), -1):
        yield from reversed(book.names_by_passage[q])


PLACE_LABEL = "FAC"   # the label a place query gets when the book never tags its name


def query_label(book: IndexedBook, query: Name) -> str:
    """The query's entity type. A person for an honorific ("Miss Bingley"); a place for "the …"
    ("the Bastille") or a place word last or first ("Donwell Abbey", "Castle Dracula"); else the
    most frequent label of its name in the book, or of its last word ("Petersburg" for "St.
    Petersburg"); PER if unseen.
    NER often tags a house or a bank as a person, so the query's own form decides first."""
    if query.honorific:
        return "PER"
    labels = book.label_counts.get(query.key) or book.label_counts.get(query.words[-1] if query.words else "")
    if query.definite or (len(query.words) > 1 and (query.words[-1] in PLACE_HEADS
                                                     or query.words[0] in PLACE_FIRST_WORDS)):
        places = [(c, label) for label, c in (labels or {}).items() if label != "PER"]
        return max(places)[1] if places else PLACE_LABEL
    return labels.most_common(1)[0][0] if labels else "PER"


def rank(book: IndexedBook, query: Name, settings: LRMSettings = LRMSettings(), explain: bool = False):
    """Candidates (EF > 0) scored by LRM, best first; with ``explain``, each carries its evidence."""
    from .ranking import Scored, sort_scored

    label = query_label(book, query)
    out = []
    candidates = shown(book, candidate_passages_lrm(book, query))
    for i, ev in zip(candidates, evidences(book, candidates, query, label, settings)):
        if ev.ef <= 0:
            continue
        ef = ev.ef if settings.entity_frequency else _phrase_tf(book, i, query)
        n_words = book.passage_words[i]
        g = length_reward(n_words, settings.pivot, book.max_passage_words) if settings.length_reward else 1.0
        score = g * saturate(ef, settings.k1)
        info = None
        if explain:
            info = {"EF": round(ev.ef, 4), "CR": ev.cr, "g": round(g, 4), "names": ev.matched,
                    "pronouns": ev.pronouns, "n_words": n_words}
        out.append(Scored(i, score, info))
    return sort_scored(out)


def semantic(book: IndexedBook, query: Name, settings: LRMSettings = LRMSettings(), explain: bool = False):
    """Semantic Match: EF with coreference and anaphora, no saturation and no length reward."""
    from .ranking import Scored, sort_scored

    label = query_label(book, query)
    out = []
    candidates = shown(book, candidate_passages_lrm(book, query))
    for i, ev in zip(candidates, evidences(book, candidates, query, label, settings)):
        if ev.ef > 0:
            out.append(Scored(i, ev.ef, {"EF": ev.ef, "CR": ev.cr, "names": ev.matched} if explain else None))
    return sort_scored(out)


# word edges where an underscore is no letter: Project Gutenberg writes italics "the _Ritz_"
_EDGE_BEFORE, _EDGE_AFTER = r"(?<![^\W_])", r"(?![^\W_])"


def _written_out(query: Name) -> re.Pattern:
    """The query's words capitalised as a name is written: "Tellson's Bank", "St. Petersburg"."""
    joint = r"(?:['’]s)?[\s._]+"
    return re.compile(_EDGE_BEFORE + joint.join(re.escape(w[:1].upper() + w[1:]) for w in query.words) + _EDGE_AFTER)


def _any_case(query: Name) -> re.Pattern:
    """The query's words in any case, anything but letters and digits between them."""
    return re.compile(_EDGE_BEFORE + r"[\W_]+".join(re.escape(w) for w in query.words) + _EDGE_AFTER, re.IGNORECASE)


def _written_unrecognised(book: IndexedBook, query: Name, label: str) -> re.Pattern | None:
    """Where the query is written though NER saw no name there, each occurrence counting as one: a
    place written out (:func:`_written_out`); a person the book never tags as a name — no
    character, no name mention sharing a word with it — in any case ("pap", Huck's name for his
    father, in lower case 50 times); None for a person the book tags."""
    if label != "PER":
        return _written_out(query)
    if book.characters.lookup(query) is not None or not query.words:
        return None
    if _passages_sharing(book, frozenset(query.words))[0]:
        return None
    return _any_case(query)


def _passages_sharing(book: IndexedBook, words: frozenset[str]) -> tuple[frozenset[int], frozenset[int]]:
    """Passages with a name mention holding one of ``words``, and passages with a pronoun whose
    antecedent's name holds one (:attr:`IndexedBook.passages_by_word`)."""
    index = book.passages_by_word
    return (frozenset().union(*(index[w][0] for w in words if w in index)),
            frozenset().union(*(index[w][1] for w in words if w in index)))


def candidate_passages_lrm(book: IndexedBook, query: Name) -> list[int]:
    """Passages with a name mention sharing a word with the query, or a pronoun whose antecedent
    does, or narrator pronouns when the narrator shares a word with the query (or, in a book of several
    narrators' diaries and letters, in the sections the query writes); for a place, also
    passages where its name is written out but NER saw none, and for a person the book never tags,
    passages where its words are written. Passages set as titles are among them (LDM's features
    compare a passage with its query's other candidates, and its training saw them), but no
    ranking shows one (:func:`shown`)."""
    words = book.match_words(query)
    out: set[int] = set()
    pattern = _written_unrecognised(book, query, query_label(book, query))
    if pattern is not None:
        out.update(p.index for p in book.passages if pattern.search(p.text))
    with_names, with_antecedents = _passages_sharing(book, words)
    out |= with_names | with_antecedents
    out |= book.narrated_passages(query)
    return sorted(out)


def shown(book: IndexedBook, passages: Iterable[int]) -> list[int]:
    """The passages a ranking may show: none set as a title — a chapter heading, a table of
    contents, a caption, a letter's superscription (:meth:`IndexedBook.is_title_passage`). They
    name the entity and describe nothing (126 of the 127 judged ones are Fair or Bad), yet LRM
    ranked Oliver Twist's contents first or second for four characters."""
    return [i for i in passages if not book.is_title_passage(i)]


def _phrase_tf(book: IndexedBook, passage: int, query: Name) -> float:
    """Plain term frequency for the LRM-EF ablation: occurrences of the query's name words."""
    return float(len(_any_case(query).findall(book.passages[passage].text)))
