"""Annotate a :class:`~beyondfind.documents.Document` once: run the NLP pipeline over its
passages (long ones in chunks), then resolve book-level structure the per-passage pipeline cannot
see: names propagated to untagged occurrences, pronoun anaphora across passage boundaries, and the
first-person narrator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from sys import intern   # labels, lemmas, pronouns and keys repeat: spaCy hands out a new string each time

from ..documents import Document
from ..nlp import anaphora
from ..nlp.names import NOT_NAMES
from ..nlp.syntax import SUBJECT_DEPS, description_kinds, is_subject
from ..nlp.narrator import Narration, detect_narrator
from ..nlp.name_evidence import NameEvidence, never_a_name
from ..nlp.names import (FIRST_PERSON_PRONOUNS, STRIP_HONORIFICS, THIRD_PERSON_PRONOUNS, name_gender,
                         parse_name, pronoun_gender)
from ..nlp.text import chunks, clean_for_nlp
from .records import Annotations, Description, Mention, Pronoun, Sentence, Verb

MAX_CHUNK_CHARS = 10_000
NAME_LABELS = frozenset({"PER", "LOC", "GPE", "FAC", "ORG", "VEH"})
ANNOTATOR_VERSION = 8  # bump when annotation changes meaning: older documents are re-annotated


@dataclass(slots=True)
class _Candidate:
    """A capitalised token not inside a name: a place where a known name may have been missed."""

    passage: int
    sentence: int
    start: int
    end: int
    text: str
    sent_start: bool
    is_subject: bool
    in_quote: bool


@dataclass
class _Raw:
    sentences: list[Sentence]
    mentions: list[Mention]
    pronouns: list[Pronoun]
    verbs: list[Verb]
    candidates: list[_Candidate]
    descriptions: list[Description]


def _extract(doc, passage: int, base: int, raw: _Raw) -> None:
    sent_base = len(raw.sentences)
    sent_of = [0] * len(doc)
    for k, sent in enumerate(doc.sents):
        raw.sentences.append(Sentence(sent_base + k, passage, base + sent.start_char, base + sent.end_char))
        for t in sent:
            sent_of[t.i] = sent_base + k
    qmask = doc._.quote_mask
    covered = [False] * len(doc)
    for ent in doc.ents:
        for i in range(ent.start, ent.end):
            covered[i] = True
    name_spans = {(s.start, s.end): s for s in doc._.names}
    # descriptions need the parse: spaCy crashes walking the children of an unparsed token
    parsed = doc.has_annotation("DEP")
    for ent in doc.ents:
        names = [s for (a, b), s in name_spans.items() if ent.start <= a and b <= ent.end]
        if names:
            for s in names:
                _add_name(raw, s, s.label_, passage, base, sent_of, qmask)
                if parsed:
                    _add_description(raw, s, passage, base)
        else:  # nominals ("the old man") and DATE/TIME
            if parsed:
                _add_description(raw, ent, passage, base)
            raw.mentions.append(Mention(len(raw.mentions), passage, sent_of[ent.start], base + ent.start_char,
                                        base + ent.end_char, ent.text, intern(ent.label_), False,
                                        intern(ent.text.lower()), None, is_subject(ent), qmask[ent.start]))
    for tok in doc:
        low = tok.lower_
        if low in THIRD_PERSON_PRONOUNS or low in FIRST_PERSON_PRONOUNS:
            person = 3 if low in THIRD_PERSON_PRONOUNS else 1
            raw.pronouns.append(Pronoun(len(raw.pronouns), passage, sent_of[tok.i], base + tok.idx,
                                        base + tok.idx + len(tok), intern(tok.text), person, pronoun_gender(low),
                                        qmask[tok.i]))
            if parsed:
                _add_description(raw, doc[tok.i:tok.i + 1], passage, base)
        elif tok.pos_ in ("VERB",) and tok.lemma_:
            raw.verbs.append(Verb(passage, sent_of[tok.i], intern(tok.lemma_.lower())))
        if not covered[tok.i] and tok.text[:1].isupper() and tok.text.isalpha() and low not in NOT_NAMES:
            raw.candidates.append(_Candidate(passage, sent_of[tok.i], base + tok.idx, base + tok.idx + len(tok),
                                             tok.text, tok.is_sent_start or (tok.i > 0 and doc[tok.i - 1].text in "“\"‘"),
                                             tok.dep_ in SUBJECT_DEPS, qmask[tok.i]))


def _add_description(raw: _Raw, span, passage: int, base: int) -> None:
    kinds = description_kinds(span)
    if kinds:
        raw.descriptions.append(Description(passage, base + span.start_char, kinds))


def _add_name(raw: _Raw, span, label: str, passage: int, base: int, sent_of, qmask) -> None:
    name = span._.name
    raw.mentions.append(Mention(len(raw.mentions), passage, sent_of[span.start], base + span.start_char,
                                base + span.end_char, span.text, intern(label), True, intern(name.key),
                                name.honorific and intern(name.honorific), is_subject(span), qmask[span.start]))


def _propagate_names(raw: _Raw) -> None:
    """Capitalised runs missed by NER become PER mentions when the book's PER names include them.

    A run qualifies when its name key was tagged PER at least twice elsewhere, or when it follows an
    honorific; sentence-initial single words must be known PER names of at least 3 mentions.
    """
    per_counts = Counter(m.key for m in raw.mentions if m.is_name and m.label == "PER")
    other = Counter(m.key for m in raw.mentions if m.is_name and m.label != "PER")
    known = {k for k, c in per_counts.items() if c >= 2 and c > other.get(k, 0)}
    cands = raw.candidates
    i = 0
    added = []
    while i < len(cands):
        j = i + 1
        while (j < len(cands) and cands[j].sentence == cands[i].sentence
               and 0 < cands[j].start - cands[j - 1].end <= 2):
            j += 1
        run = cands[i:j]
        text = " ".join(c.text for c in run)
        words = [c.text.lower() for c in run]
        while words and words[0] in STRIP_HONORIFICS and len(words) > 1:
            words = words[1:]
        key = " ".join(words)
        honor = run[0].text.lower() in STRIP_HONORIFICS and len(run) > 1
        ok = key in known and (not run[0].sent_start or len(run) > 1 or per_counts[key] >= 3)
        if ok or honor:
            name = parse_name(text)
            added.append(Mention(0, run[0].passage, run[0].sentence, run[0].start, run[-1].end, text, "PER", True,
                                 name.key, name.honorific, any(c.is_subject for c in run), run[0].in_quote,
                                 "propagated"))
        i = j
    if added:
        merged = sorted(raw.mentions + added, key=lambda m: (m.start, -m.end))
        raw.mentions = [replace(m, id=k) for k, m in enumerate(merged)]


def _apply_name_evidence(document: Document, raw: _Raw) -> None:
    """Book-level consistency (:mod:`beyondfind.nlp.name_evidence`): never-names and common words
    stop being names; one-word "persons" the book treats as places become LOC."""
    evidence = NameEvidence(document.text)
    per = Counter(m.key for m in raw.mentions if m.is_name and m.label == "PER")
    out = []
    for m in raw.mentions:
        if m.is_name:
            single = " " not in m.key and m.honorific is None
            if never_a_name(m.key) or (single and evidence.common_word(m.key)):
                m = replace(m, is_name=False)
            elif single and m.label == "PER" and per[m.key] and evidence.place_like(m.key):
                m = replace(m, label="LOC")
        out.append(m)
    raw.mentions = out


def _detect_narration(document: Document) -> Narration:
    passages = document.passages
    front = document.text[:passages[0].start] if passages else ""
    return detect_narrator([p.text for p in passages], [p.chapter for p in passages], front, document.title)


def _resolve(raw: _Raw, narrator: str | None) -> None:
    names = [m for m in raw.mentions if m.is_name and m.label == "PER"]
    name_items = [anaphora.NameItem(m.start, m.sentence, name_gender(parse_name(m.text)), m.is_subject, m.in_quote)
                  for m in names]
    third = [p for p in raw.pronouns if p.person == 3]
    items = [anaphora.PronounItem(p.start, p.sentence, p.gender, p.text, p.in_quote) for p in third]
    links = dict(zip((p.id for p in third), anaphora.resolve_pronouns(name_items, items)))
    out = []
    for p in raw.pronouns:
        if p.person == 3 and links.get(p.id) is not None:
            p = replace(p, antecedent=names[links[p.id]].id)
        elif p.person == 1 and narrator and not p.in_quote:
            p = replace(p, narrator=True)
        out.append(p)
    raw.pronouns = out


def _extract_all(nlp, units, batch_size: int) -> _Raw:
    """Run the pipeline over ``units`` and extract their records (ids counted from 0)."""
    raw = _Raw([], [], [], [], [], [])
    for doc, (passage, base) in nlp.pipe(units, as_tuples=True, batch_size=batch_size):
        _extract(doc, passage, base, raw)
    return raw


def _append(raw: _Raw, part: _Raw) -> None:
    """Append a batch's records to ``raw``, shifting the batch's sentence, mention and pronoun ids."""
    s0, m0, p0 = len(raw.sentences), len(raw.mentions), len(raw.pronouns)
    if not (s0 or m0 or p0):
        raw.sentences, raw.mentions, raw.pronouns = part.sentences, part.mentions, part.pronouns
        raw.verbs, raw.candidates, raw.descriptions = part.verbs, part.candidates, part.descriptions
        return
    raw.sentences += [Sentence(s.index + s0, s.passage, s.start, s.end) for s in part.sentences]
    raw.mentions += [replace(m, id=m.id + m0, sentence=m.sentence + s0, label=intern(m.label), key=intern(m.key))
                     for m in part.mentions]
    raw.pronouns += [replace(p, id=p.id + p0, sentence=p.sentence + s0, text=intern(p.text)) for p in part.pronouns]
    raw.verbs += [Verb(v.passage, v.sentence + s0, intern(v.lemma)) for v in part.verbs]
    for c in part.candidates:
        c.sentence += s0
    raw.candidates += part.candidates
    raw.descriptions += part.descriptions


# Worker processes (forked) run the pipeline *and* the extraction, so only compact records travel
# back to the parent; spaCy's own ``nlp.pipe(n_process=…)`` sends whole Docs, whose serialisation
# and the parent's extraction cost more CPU than the second process saved.
_worker_nlp = None   # set in each forked worker by _init_worker; never in the parent


def _init_worker(nlp) -> None:
    global _worker_nlp
    _worker_nlp = nlp


def _extract_on_worker(task: tuple[list, int, int]) -> tuple[int, _Raw]:
    return _extract_task(_worker_nlp, task)


def _extract_task(nlp, task: tuple[list, int, int]) -> tuple[int, _Raw]:
    """(passages in the batch, their records) for one batch ``(units, batch_size, passages)``."""
    units, batch_size, count = task
    return count, _extract_all(nlp, units, batch_size)


def _batches(document: Document, passages_per_batch: int) -> Iterator[tuple[int, list]]:
    """(passages in the batch, its pipeline inputs), made one batch at a time so a long document's
    cleaned text never exists all at once (the pool's feeder blocks while the workers are busy)."""
    passages = document.passages
    for first in range(0, len(passages), passages_per_batch):
        part = passages[first:first + passages_per_batch]
        yield len(part), [(clean_for_nlp(piece), (p.index, p.start + offset))
                          for p in part for offset, piece in chunks(p.text, MAX_CHUNK_CHARS)]


def annotate_document(document: Document, nlp, *, batch_size: int = 64, n_process: int = 1,
                      progress: Callable[[int], None] | None = None,
                      passages_per_batch: int = 100) -> Annotations:
    """All annotations of ``document``; ``progress(n)`` is called with the number of passages done.

    ``n_process`` > 1 annotates batches of ``passages_per_batch`` passages in that many forked
    processes (only from a single-threaded caller: forking a threaded process can deadlock).
    """
    raw = _Raw([], [], [], [], [], [])
    tasks = ((units, batch_size, count) for count, units in _batches(document, passages_per_batch))

    def collect(parts) -> None:
        for count, part in parts:
            _append(raw, part)
            if progress:
                progress(count)

    if n_process > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(n_process, _init_worker, (nlp,)) as pool:
            collect(pool.imap(_extract_on_worker, tasks))
    else:
        collect(_extract_task(nlp, task) for task in tasks)
    _propagate_names(raw)
    _apply_name_evidence(document, raw)
    narration = _detect_narration(document)
    _resolve(raw, narration.narrator)
    return Annotations(tuple(raw.sentences), tuple(raw.mentions), tuple(raw.pronouns), tuple(raw.verbs),
                       narration.narrator, pipeline_id(nlp), narration.narrators, tuple(raw.descriptions))


def pipeline_id(nlp) -> str:
    """The pipeline's name and version plus :data:`ANNOTATOR_VERSION`: stored with each document,
    so a library annotated by an older beyondfind is annotated again."""
    return f"{nlp.meta.get('name', 'unknown')}-{nlp.meta.get('version', '0')}+a{ANNOTATOR_VERSION}"

