"""Annotate a :class:`~beyondfind.documents.Document` once: run the NLP pipeline over its
passages (long ones in chunks), then resolve book-level structure the per-passage pipeline cannot
see: names propagated to untagged occurrences, pronoun anaphora across passage boundaries, and the
first-person narrator.

The records go to a :class:`~beyondfind.index.spool.RecordSpool` batch by batch and the book-level
passes work on it (counts in SQL, one stream over names and pronouns), so the process that indexes
a long document holds its text but not its records.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby
from sys import intern   # labels, lemmas, pronouns and keys repeat: spaCy hands out a new string each time

from ..documents import Document
from ..nlp import anaphora, one_blas_thread
from ..nlp.names import NAME_PARTICLES, after_office_title, honorific_token, name_like
from ..nlp.syntax import SUBJECT_DEPS, description_kinds, is_subject, sentence_index
from ..nlp.narrator import Narration, detect_narrator
from ..nlp.name_evidence import NameEvidence, known_place
from ..nlp.name_words import CALENDAR_WORDS, COMPASS_WORDS, never_a_name
from ..nlp.names import (FAMILY_HONORIFICS, FIRST_PERSON_PRONOUNS, NEUTRAL_HONORIFICS, SAINT_WORDS, STRIP_HONORIFICS,
                         THIRD_PERSON_PRONOUNS, _first_names, name_gender, parse_name, pronoun_gender)
from ..nlp.text import chunks, clean_for_nlp
from .characters import FIRST_NAME_HONORIFICS, MARRIED
from .records import Annotations, Description, Mention, Pronoun, Sentence, Verb
from .spool import Batch, Candidate, RecordSpool, SpooledAnnotations
from .titles import referenced_name, titled_names
from .version import ANNOTATOR_VERSION

MAX_CHUNK_CHARS = 10_000
BATCHES_PER_WORKER = 10
"""A forked annotator is replaced by a fresh fork of the parent after this many batches: a worker's
memory grows with the text it has seen (spaCy's vocabulary, the allocator's arenas), and the parent
holds no records (they are spooled), so a fresh fork starts small."""
BATCH_SIZE = 32
"""Texts per ``nlp.pipe`` batch. A batch's parse is the worker's transient peak: 64 texts took
about 90 MB above the worker's resting size and 32 about 45 MB, at the same speed on
Huckleberry Finn (7.7-8.0 s either way, two processes)."""
BATCH_CHARS = 10_000
"""Characters per ``nlp.pipe`` batch (a longer text goes alone): the parse's memory grows with the
batch's text, not its count. 32 passages average ~7k characters, but 1 in 60 batches held over
20k; the largest of a 50 MB text (31k) rose 100 MB above the worker's resting size, 15k-character
groups of it 50 MB, 8k 32 MB. Same speed (Huckleberry Finn's first 2,500 passages, one process:
13.2-13.7 s with or without the cap)."""
NAME_LABELS = frozenset({"PER", "LOC", "GPE", "FAC", "ORG", "VEH"})
# a one-word name the tagger reads as a place or organisation is a person's when the book writes it
# after a person's honorific this often (Dracula's "Renfield", GPE ×22, beside "Mr. Renfield" ×8)
MIN_HONORIFIC_USES = 3
# particles that open a surname ("M. de Château-Renaud"); not "of", which opens a title's domain
SURNAME_PARTICLES = NAME_PARTICLES - {"of"}


class _TokenKinds:
    """What record extraction asks of a token's strings — a pronoun? a capitalised word? its lemma
    lower-cased — decided once per string (by its vocabulary hash), so a passage's tokens are read
    as integer arrays and a Token object is made only for the tokens that become records."""

    def __init__(self, strings) -> None:
        from spacy.symbols import VERB

        self.strings = strings
        self.verb = VERB   # the POS array's id of the part of speech
        self.pronouns = {strings.add(p): p for p in THIRD_PERSON_PRONOUNS | FIRST_PERSON_PRONOUNS}
        self._name_like: dict[int, bool] = {}
        self._lemmas: dict[int, str] = {}

    def name_like(self, orth: int) -> bool:
        """:func:`~beyondfind.nlp.names.name_like`, once per string."""
        if orth not in self._name_like:
            self._name_like[orth] = name_like(self.strings[orth])
        return self._name_like[orth]

    def lemma(self, h: int) -> str:
        if h not in self._lemmas:
            self._lemmas[h] = intern(self.strings[h].lower())
        return self._lemmas[h]


def _extract(doc, passage: int, base: int, raw: Batch, kinds: _TokenKinds) -> None:
    sent_base = len(raw.sentences)
    for k, sent in enumerate(doc.sents):
        raw.sentences.append(Sentence(sent_base + k, passage, base + sent.start_char, base + sent.end_char))
    sent_of = [sent_base + k for k in sentence_index(doc)]   # the numbering of doc.sents
    qmask = doc._.quote_mask
    name_spans = {(s.start, s.end): s for s in doc._.names}
    # tokens of an entity are no candidates for the names NER missed (_propagate_names) — except, in a
    # person's entity with a name, those apart from its names: the tagger's wide spans hold a second
    # name the names component leaves out ("one of whom was named Bet, and the other Nancy"); the
    # capitalised words next to a name are its own ("Big" of "Big Medicine", whose name is "Medicine")
    covered = [False] * len(doc)
    for ent in doc.ents:
        names = [(a, b) for a, b in name_spans if ent.start <= a and b <= ent.end]
        if ent.label_ != "PER" or not names:
            covered[ent.start:ent.end] = [True] * len(ent)
            continue
        for a, b in names:
            while a > ent.start and doc[a - 1].text[:1].isupper():
                a -= 1
            while b < ent.end and doc[b].text[:1].isupper():
                b += 1
            covered[a:b] = [True] * (b - a)
    for a, b in name_spans:
        covered[a:b] = [True] * (b - a)
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
    if not len(doc):
        return
    lowers, orths, tags, lemmas = doc.to_array(["LOWER", "ORTH", "POS", "LEMMA"]).T.tolist()
    for i, (lower, orth, tag, lemma) in enumerate(zip(lowers, orths, tags, lemmas)):
        low = kinds.pronouns.get(lower)
        if low is not None:
            tok = doc[i]
            person = 3 if low in THIRD_PERSON_PRONOUNS else 1
            raw.pronouns.append(Pronoun(len(raw.pronouns), passage, sent_of[i], base + tok.idx,
                                        base + tok.idx + len(tok), intern(tok.text), person, pronoun_gender(low),
                                        qmask[i]))
            if parsed:
                _add_description(raw, doc[i:i + 1], passage, base)
        elif tag == kinds.verb and lemma:
            raw.verbs.append(Verb(passage, sent_of[i], kinds.lemma(lemma)))
        if not covered[i] and kinds.name_like(orth):
            tok = doc[i]
            raw.candidates.append(Candidate(passage, sent_of[i], base + tok.idx, base + tok.idx + len(tok),
                                             tok.text, tok.is_sent_start or (i > 0 and doc[i - 1].text in "“\"‘"),
                                             tok.dep_ in SUBJECT_DEPS, qmask[i]))


def _add_description(raw: Batch, span, passage: int, base: int) -> None:
    kinds = description_kinds(span)
    if kinds:
        raw.descriptions.append(Description(passage, base + span.start_char, kinds))


def _add_name(raw: Batch, span, label: str, passage: int, base: int, sent_of, qmask) -> None:
    name = span._.name
    raw.mentions.append(Mention(len(raw.mentions), passage, sent_of[span.start], base + span.start_char,
                                base + span.end_char, span.text, intern(label), True, intern(name.key),
                                name.honorific and intern(name.honorific), is_subject(span), qmask[span.start]))


def _person_keys(spool: RecordSpool, evidence: NameEvidence) -> tuple[Counter, set[str]]:
    """The PER name keys' mention counts, and the keys known as persons: PER at least twice and
    more often than under any other label, or one word tagged PER once and never otherwise that
    the book writes only as a name (:meth:`NameEvidence.written_as_name`), whose capitalised uses
    then count as its mentions: Huckleberry Finn's "Boggs", which the tagger missed 15 times of 16
    ("Boggs comes a-tearing along on his horse"), Tom Sawyer's "Muff", Bleak House's "Lignum"."""
    per_counts, other = spool.key_counts(per=True), spool.key_counts(per=False)
    # the name after a title of office, as after an honorific: "Heat" of The Secret Agent's "Chief
    # Inspector Heat" ×71, which the tagger never finds alone ("heat" is a common word)
    for k, c in list(per_counts.items()):
        named = after_office_title(k)
        if named:
            per_counts[named] += c
    # a character's epithet the tagger seldom finds ("the Invisible Man"): its capitalised uses
    # are its mentions
    for k, c in evidence.epithets.items():
        if per_counts[k] + other.get(k, 0) < c:
            per_counts[k] = c
    known = {k for k, c in per_counts.items() if c >= 2 and c > other.get(k, 0)}
    for k, c in list(per_counts.items()):
        if c == 1 and k and " " not in k and not other.get(k) and evidence.written_as_name(k):
            known.add(k)
            per_counts[k] = evidence.capital_mid[k]
    return per_counts, known


_ONE_WORD = re.compile(r"([^\W\d_]+)(?:['’]s)?")
STRONG_PERSON = 20   # PER mentions before a word the tagger typed a place can be a person's (see below)
_OPENING = " \n\"“‘'"   # what may stand between a sentence's start and its first word


def _name_persons_read_as_nouns(document: Document, spool: RecordSpool, evidence: NameEvidence) -> None:
    """One-word PER entities left without a name become names when the book's PER names include
    the word.

    The names component takes a person's name from the words the tagger reads as proper nouns; a
    surname it reads as a common noun left the entity a nominal: Moby Dick's "Stubb" (216 of 259
    written, 37 kept), David Copperfield's "Traddles" ×173 and "Peggotty" ×77. The same bar as
    :func:`_propagate_names`: the word is a known person's name, and at least 3 times so when it
    opens the sentence. Never-names and common words are dropped afterwards like every name
    (:func:`_apply_name_evidence`: "Somebody", "Long").
    """
    per_counts, known = _person_keys(spool, evidence)
    text = document.text

    def one_word(written: str) -> tuple[str | None, str | None]:
        m = _ONE_WORD.fullmatch(written)
        word = m and m.group(1)
        return (word, parse_name(word).key) if word and word[0].isupper() and word[1:].islower() else (None, None)

    # a word the tagger typed a person on its own many times is a name though the tagger never read
    # it as one: Allan Quatermain's Captain Good, "Good" ×43 alone ("good" is an adjective to the
    # tagger), so the book's "Good" was nobody's
    one_words = [(mention_id, start, sentence_start, *one_word(written))   # capitalised words only: few
                 for mention_id, start, sentence_start, written in spool.person_nominals() if written[:1].isupper()]
    typed = Counter(key for *_rest, key in one_words if key)
    for key, count in typed.items():
        if key not in known and count >= STRONG_PERSON and evidence.capitalised_as_name(key):
            known.add(key)
            per_counts[key] = count

    named = []
    for mention_id, start, sentence_start, word, key in one_words:
        if key in known and (text[sentence_start:start].strip(_OPENING) or per_counts[key] >= 3):
            named.append((word, key, mention_id))
    # a person's name the tagger read as a noun and typed a place or an organisation: David
    # Copperfield's "here comes Peggotty, my good old nurse" (GPE), "I must see Peggotty" (ORG) —
    # 13 of ~800; only for a person named at least STRONG_PERSON times, five times as often as the
    # word is anything else (a name of another label the later passes may still make a person's,
    # or such a nominal)
    elsewhere = Counter(one_word(row[3])[1] for row in spool.place_nominals())   # two streams: a long
    other = spool.key_counts(per=False)                                          # text has many "the house"
    for mention_id, _start, _sentence_start, written in spool.place_nominals():
        word, key = one_word(written)
        if (key in known and per_counts[key] >= STRONG_PERSON
                and per_counts[key] >= 5 * (elsewhere[key] + other.get(key, 0))):
            named.append((word, key, mention_id))
    spool.name_nominals(named)


ONE_SPACE = frozenset({" ", "\n"})   # between two words of one line or of a wrapped one


def _propagate_names(text: str, spool: RecordSpool, evidence: NameEvidence, narrator: str | None = None) -> None:
    """Capitalised runs missed by NER become PER mentions when the book's PER names include them.

    A run qualifies when its name key was tagged PER at least twice elsewhere, or is the narrator's
    name (Black Beauty's "Beauty", addressed in dialogue, which the tagger never read as a name), or
    when it follows an honorific, or when its words, one space apart, are each such a name and the
    first a first name of the lists, none a never-name (Wuthering Heights' "Nelly Dean is lodged",
    where the tagger found neither; not Les Misérables' "French Revolution", a "French" and a
    "Revolution" tagged PER now and then, though the lists know a man called French); sentence-initial
    single words must be known PER names of at least 3 mentions.
    """
    per_counts, known = _person_keys(spool, evidence)
    if narrator:
        known.add(parse_name(narrator).key)
    male, female = _first_names()
    first_names = male | female

    def accepted(run: list[Candidate]) -> bool:
        key = parse_name(" ".join(c.text for c in run)).key   # as the names component keys it: "Dantès" is dantes
        honor = run[0].text.rstrip(".").lower() in STRIP_HONORIFICS and len(run) > 1
        ok = key in known and (not run[0].sent_start or len(run) > 1 or per_counts[key] >= 3)
        return ok or honor or _known_parts(run, known, first_names)

    added = []
    for run in _runs(spool.candidates(), text):
        for part in _accepted_parts(run, accepted):
            written = " ".join(c.text for c in part)
            name = parse_name(written)
            added.append(Mention(0, part[0].passage, part[-1].sentence, part[0].start, part[-1].end, written,
                                 "PER", True, name.key, name.honorific, any(c.is_subject for c in part),
                                 part[0].in_quote, "propagated"))
    if added:
        spool.insert_mentions(added)


def _accepted_parts(run: list[Candidate], accepted: Callable[[list[Candidate]], bool]) -> list[list[Candidate]]:
    """The run if it is accepted as a name, else those of its parts in one sentence each that are:
    a run across a sentence break that is no name as a whole ("Little | Oliver Twist lay", "BY |
    FAGIN ON", in a heading) leaves the names it holds as they were (an honorific stays with the
    word after it)."""
    if accepted(run):
        return [run]
    parts, part = [], [run[0]]
    for last, c in zip(run, run[1:]):
        if c.sentence != last.sentence and not honorific_token(last.text):
            parts.append(part)
            part = []
        part.append(c)
    return [p for p in parts + [part] if len(p) < len(run) and accepted(p)]


def _known_parts(run: list[Candidate], known: set[str], first_names: frozenset[str]) -> bool:
    """Words one space apart, each a known person's name, none a never-name, the first a first
    name of the lists: "Nelly Dean" (see :func:`_propagate_names`)."""
    if len(run) < 2 or any(b.start - a.end != 1 for a, b in zip(run, run[1:])):
        return False
    words = [parse_name(c.text).key for c in run]
    return words[0] in first_names and all(w in known and not never_a_name(w, None) for w in words)


def _runs(candidates: Iterable[Candidate], text: str) -> Iterator[list[Candidate]]:
    """Consecutive capitalised tokens (:func:`_continues`), in order. An honorific that is no name
    word ("Mrs.", "Miss": :func:`~beyondfind.nlp.names.honorific_token`) opens a run and is never
    the whole of one: it only belongs to the name after it. Jane Eyre's 45 "Mrs. Reed" the tagger
    missed had been found as "Reed", her son's name too, and Emma's "Miss Bates" as "Bates", her
    mother's."""
    run: list[Candidate] = []
    for c in candidates:
        if run and not (_continues(run[-1], c, text) and not honorific_token(c.text)):
            yield from _unless_a_lone_honorific(run)
            run = []
        run.append(c)
    yield from _unless_a_lone_honorific(run)


def _unless_a_lone_honorific(run: list[Candidate]) -> Iterator[list[Candidate]]:
    if len(run) > 1 or run and not honorific_token(run[0].text):
        yield run


def _continues(last: Candidate, c: Candidate, text: str) -> bool:
    """Whether ``c`` continues a run ending in ``last``: one space or line break on, whatever the
    sentences — the parser ends sentences inside names ("over, Colonel | Fitzwilliam reminded her",
    "horror. Injun | Joe infested", "Mrs. | Reed"), and propagation had found Pride and
    Prejudice's `Fitzwilliam` ×8, also Darcy's first name, and Tom Sawyer's `Joe` ×9, also Joe
    Harper's; or in its sentence, two characters on. After an honorific only the first ("Sir, Tom
    is…" is no "Sir Tom")."""
    one_space = c.passage == last.passage and text[last.end:c.start] in ONE_SPACE
    if honorific_token(last.text):
        return one_space
    return one_space or (c.sentence == last.sentence and 0 < c.start - last.end <= 2)


def _opens_sentence(text: str, sentence_start: int, start: int) -> bool:
    """Whether the word at ``start`` opens its sentence, or a sentence the parser joined to the one
    before ("I know it will.  Happy Amy!")."""
    before = text[sentence_start:start].rstrip(_OPENING)
    return not before or before[-1] in ".!?"


def _drop_sentence_openers(document: Document, spool: RecordSpool, evidence: NameEvidence) -> None:
    """A name of several words whose first word only the sentence's start capitalises is the rest:
    "Call Meg, and tell her…" and "Happy Amy!" name Meg and Amy, as "little Rawdon" mid-sentence
    names Rawdon. The phrase must stand at a sentence's (or a quotation's) start every time the book
    writes it, its first word be one the book writes mostly in lower case and never as a person's
    name on its own (not a particle, "De Villefort"; not Middlemarch's "Will" of "Will Ladislaw"),
    and the rest a person's name written at least twice ("Little Dorrit", written mid-sentence too,
    stays whole). After :func:`_apply_name_evidence`, so that these counts hold names only."""
    per_counts = spool.key_counts(per=True)
    text = document.text
    rows: list[tuple[int, str, str, str | None, int]] = []
    for key, group in groupby(spool.person_phrases(), key=lambda row: row[4]):
        mentions = list(group)
        first, rest = key.split(" ", 1)
        if first in NAME_PARTICLES or first in SAINT_WORDS or first in STRIP_HONORIFICS or per_counts[first] \
                or per_counts[rest] < 2 or not evidence.common_word(first):
            continue
        if not all(_opens_sentence(text, sentence_start, start) for _id, start, sentence_start, _t, _k in mentions):
            continue
        for mention_id, start, _s, written, _k in mentions:
            gap = re.match(r"\S+\s+", written)
            if gap is None:
                continue
            name = parse_name(written[gap.end():])
            if name.key == rest:
                rows.append((start + gap.end(), written[gap.end():], name.key, name.honorific, mention_id))
    spool.rename(rows)


MIN_WHOLE_NAMES = 2   # the book tags the name with the word before it this often before a cut one takes it
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’]*\.?)[ \n]\Z")


def _widen_cut_names(document: Document, spool: RecordSpool, evidence: NameEvidence) -> None:
    """A name cut after its first word takes that word back when the book tags the whole name
    elsewhere (:data:`MIN_WHOLE_NAMES`): The Age of Innocence's "New York" ×137, of which 25 were
    `York` (18 as a person: the names component reads a person's name from the words tagged proper
    nouns, and "New" was an adjective); Anna Karenina's "Agafea Mihalovna" ×59, 15 times
    `Mihalovna`; Sense and Sensibility's "Colonel Brandon", Alice's "Mock Turtle". The word is
    capitalised, one space or line break before the name and in no other name; the widened name
    takes the label the book's whole names have most often, and a person's name takes no adjective
    the clustering sets aside ("Young Jerry" names what "Jerry" names), while a place's does (A Tale
    of Two Cities' "Old Bailey", 8 times a person `Bailey`). A character's epithet counts as tagged
    whole (:attr:`NameEvidence.epithets`): The Invisible Man's "Man" ×103 is "Invisible Man". After
    a particle the word before it comes back too: Monte Cristo's "Piazza del Popolo" ×18, 15 times
    a person `Popolo`; "Madame de Morcerf" 6 times `Morcerf`, her husband's name; The Scarlet
    Pimpernel's "Comtesse de Tournay" 5 times `Tournay`, the Comte's."""
    text = document.text
    spans = list(spool.name_spans())
    labels: dict[str, Counter] = defaultdict(Counter)
    for _i, _a, _b, written, _h, _s, label, _k in spans:
        if " " in written:
            labels[written][label] += 1
    epithets = evidence.epithets
    if not labels and not epithets:
        return
    covered_until = -1
    rows = []
    for mention_id, start, end, written, _h, _s, _label, _k in spans:
        found = _WORD_BEFORE.search(text, max(0, start - 40), start)
        prefix = found and found.group(1)
        if prefix in SURNAME_PARTICLES:   # "Piazza del Popolo", "Comtesse de Tournay": the word before it too
            particle = found
            found = _WORD_BEFORE.search(text, max(0, particle.start(1) - 40), particle.start(1))
            prefix = found and f"{found.group(1)} {particle.group(1)}"
        word = found and found.group(1)
        if word and found.start(1) > covered_until and name_like(word):
            whole = f"{prefix} {written}"
            key = parse_name(whole).key if epithets else None   # most books have none: no parse per name
            counts = Counter({"PER": epithets[key]}) if key in epithets else labels.get(whole)
            label = counts.most_common(1)[0][0] if counts else None
            if (counts and sum(counts.values()) >= MIN_WHOLE_NAMES
                    and (label != "PER" or word.lower() not in NEUTRAL_HONORIFICS)):
                name = parse_name(whole)
                rows.append((found.start(1), whole, name.key, name.honorific, label, mention_id))
        covered_until = max(covered_until, end)
    spool.widen_names(rows)


def _join_split_names(document: Document, spool: RecordSpool, evidence: NameEvidence) -> None:
    """Person names one space (or line break) apart are one name when the second has no title:
    "Nelly" (propagated) + "Dean" (the tagger's) is "Nelly Dean", Anna Karenina's "Agafea" +
    "Mihalovna" ×47, Monte Cristo's "Edmond" + "Dantès" ×19. The tagger took one part, propagation
    the other, and each counted as a name of its own — so "Nelly Dean" was no form of the book and
    nothing tied Nelly to Ellen Dean. The second part may be a name the tagger gave another type
    when the book knows it as a person's ("'Nelly Dean,' said he", "Dean" LOC). Nothing but a space
    between them, a sentence break the parser put there is its error ("called Nelly | Dean was
    waiting"). A titled second name is another person ("Meg Mr. Brooke", a list), and so is one in
    capitals after one that is not (a signature's "Clara Peggotty BARKIS"); two full names are two
    (Huckleberry Finn's "Sarah Mary Williams George Elexander Peters", his two aliases at once),
    and so are a one-word name and a first name of the lists that the book never writes after
    "Mr.", "Mrs." and the like nor as one name with it: the object of "tell" or "call" before a
    clause or a name ("Tell Beth Frank asked for her"; "Nelly Dean" stays one, as "Mrs. Dean"
    makes Dean a surname, and Tom Sawyer's "Amy Lawrence", tagged whole elsewhere)."""
    _per_counts, known = _person_keys(spool, evidence)
    male, female = _first_names()
    surnames = spool.surnames_after(FAMILY_HONORIFICS)
    text = document.text
    rows: list[tuple[int, str, str, str | None, bool, int, int]] = []
    group: list[tuple] = []   # (id, start, end, text, is_subject) of the parts so far

    def continues(start: int, written: str, honorific: str | None, label: str, key: str) -> bool:
        last = group[-1]
        return (text[last[2]:start] in ONE_SPACE and honorific is None and (label == "PER" or key in known)
                and written.isupper() == last[3].isupper()
                and not (" " in written and any(" " in m[3] for m in group))
                and not (len(group) == 1 and " " not in last[3] and " " not in written
                         and (key in male or key in female) and not surnames[key]
                         and parse_name(f"{last[3]} {written}").key not in known))

    def close() -> None:
        if len(group) > 1:
            written = " ".join(m[3] for m in group)   # one line: the span's length, its separators one space
            name = parse_name(written)
            subject = any(m[4] for m in group)
            rows.extend((group[-1][2], written, name.key, name.honorific, subject, group[0][0], m[0])
                        for m in group[1:])

    for mention_id, start, end, written, honorific, subject, label, key in spool.name_spans():
        if group and continues(start, written, honorific, label, key):
            group.append((mention_id, start, end, written, subject))
            continue
        close()
        group = [(mention_id, start, end, written, subject)] if label == "PER" else []
    close()
    spool.join_names(rows)


def _apply_name_evidence(spool: RecordSpool, evidence: NameEvidence) -> None:
    """Book-level consistency (:mod:`beyondfind.nlp.name_evidence`): never-names, common words and
    interjections stop being names, and so do "persons" that are plurals naming a group
    ("Americans"), pieces of hyphenated words that are no place ("Ve-ry") or nouns the book writes
    after "a" or "an" ("an Insurer of Ships"); "persons" the book treats as places ("at
    Longbourn", "to Mozháysk", "at Combe Magna"; not a dialogue tag's speaker, nor ending in a
    surname the book writes after an honorific), and "persons" the
    gazetteer knows as places unless the book writes them as part of a person's name, become LOC;
    "persons" named like a place ("Russell Square") FAC, and so do one-word "persons" that own a
    place ("Tellson's Bank"; no first name, nor a surname the book gives a person: "Mr. Jaggers");
    one-word "persons" the book boards ("aboard the Pequod") VEH;
    "persons" written "the X" that end in no noun for a being and never speak ("the Republic",
    "the Sacred Wafer") LOC, and so does a word of direction no one bears as a surname ("out West",
    "the West"; not To Have and to Hold's Captain West); one-word names of another label that the
    book writes after a person's honorific ("Renfield" and a stray "Mr. Renfield" FAC beside "Mr. Renfield" PER; not
    a known place nor used like one), and first name + such a surname ("Charley Bates" ORG beside
    "Master Bates"; not named like a place: "Hill Street") become PER, as do one-word plurals of a
    surname the book writes after a family's honorific ("the Eltons", ORG ×13 beside "Mrs.
    Elton"; Anna Karenina's "the Shtcherbatskys", Little Women's "the Marches", though WordNet
    knows the Welsh Marches)."""
    per = spool.key_counts(per=True)
    after_honorific = _with_particles_dropped(spool.key_counts(per=True, with_honorific=True))
    forms = spool.name_forms()
    surnames = _honorific_surnames(forms)
    person_words = _person_words(forms, surnames)
    family_surnames = spool.surnames_after(FAMILY_HONORIFICS)
    # the last words of the book's full names, which a family's plural takes ("the Shepherdsons"); a
    # title is none ("the Austrian Emperor" does not make War and Peace's "Emperors" a family)
    family_words = person_words | {key.rsplit(" ", 1)[-1] for key, _h, label in forms
                                   if label == "PER" and " " in key and key.rsplit(" ", 1)[-1] not in STRIP_HONORIFICS}
    # the first words of the book's persons' names of several words ("the Scarlet Pimpernel")
    name_starts = {key.split()[0] for key, _h, label in forms if label == "PER" and " " in key}
    unnamed, places, buildings, ships, persons = [], [], [], [], []
    thing_heads: set[str] = set()   # last words of the "the X" things of several words
    for key, honorific, label in forms:
        single = " " not in key and not honorific
        if never_a_name(key, honorific) or (single and (evidence.common_word(key) or evidence.interjection(key)
                                                        or evidence.possessed(key))) \
                or (single and label == "PER" and evidence.group_plural(key, family_words, surnames)) \
                or (label == "PER" and not honorific and evidence.common_noun(key)):
            unnamed.append((key, honorific, label))
        elif single and label == "PER" and evidence.ship_named(key):
            ships.append((key, honorific, label))
        elif single and label == "PER" and key in COMPASS_WORDS and key not in person_words:   # "out West"
            places.append((key, honorific, label))
        elif single and label == "PER" and per[key] and evidence.place_like(key) and not evidence.speaks(key):
            places.append((key, honorific, label))
        elif label == "PER" and not honorific and key not in person_words and known_place(key):
            places.append((key, honorific, label))
        elif label == "PER" and not honorific and evidence.place_named(key):
            buildings.append((key, honorific, label))
        elif " " in key and label == "PER" and not honorific and key.rsplit(" ", 1)[-1] not in surnames \
                and evidence.place_like(key):   # "at Combe Magna"
            places.append((key, honorific, label))
        elif single and label == "PER" and key not in person_words and evidence.names_a_place(key):
            buildings.append((key, honorific, label))
        elif single and label == "PER" and evidence.word_part(key):   # a place's piece stays a place: "Fleet-street"
            unnamed.append((key, honorific, label))
        elif label == "PER" and not honorific and person_words.isdisjoint(key.split()) \
                and evidence.thing_named(key, name_starts):
            places.append((key, honorific, label))
            thing_heads.add(key.rsplit(" ", 1)[-1])
        elif " " not in key and label != "PER" and after_honorific[key] >= MIN_HONORIFIC_USES \
                and not known_place(key) and not evidence.place_like(key):
            persons.append((key, honorific, label))
        elif label != "PER" and _first_and_family_name(key, surnames) and not known_place(key) \
                and not evidence.place_named(key):
            persons.append((key, honorific, label))
        elif single and label != "PER" and _family_plural(key, family_surnames):   # even "the Marches" (Wales)
            persons.append((key, honorific, label))
        elif label not in ("PER", "VEH") and not honorific and not known_place(key) and evidence.speaks(key):
            persons.append((key, honorific, label))
    # the last word alone names the same thing ("the Wafer" of "the Sacred Wafer"), unless a person's
    decided = set(places) | set(unnamed)
    places += [(key, honorific, label) for key, honorific, label in forms
               if label == "PER" and not honorific and key in thing_heads and key not in person_words
               and (key, honorific, label) not in decided]
    spool.unname(unnamed)
    spool.relabel(places, "LOC")
    spool.relabel(buildings, "FAC")
    spool.relabel(ships, "VEH")
    spool.relabel(persons, "PER")


# a word of time before a month or weekday: a date, even in a book where the word is also someone
_TIME_BEFORE = re.compile(r"\b(?:on|in|last|next|every|each|this|till|until|since|before|after|early|late|one|some)"
                          r"\s+$", re.IGNORECASE)


def _name_calendar_persons(document: Document, spool: RecordSpool, evidence: NameEvidence) -> None:
    """A month or weekday the book makes a person (:meth:`NameEvidence.calendar_person`) is that
    person's name wherever the tagger wrote it alone and capitalised, as a date or an unnamed
    "person", except after a word of time ("on Friday", "last May"): Robinson Crusoe's "my man
    Friday" was a date 186 times and no one."""
    keys = [w for w in CALENDAR_WORDS if evidence.calendar_person(w)]
    if not keys:
        return
    text = document.text
    spool.name_persons(i for i, start, written in spool.bare_mentions(keys, ("PER", "DATE"))
                       if written[:1].isupper() and not _TIME_BEFORE.search(text, max(0, start - 12), start))


def _with_particles_dropped(counts: Counter) -> Counter:
    """``counts`` with each key's mentions also counted for the key without its leading particles:
    Monte Cristo writes "M. de Château-Renaud" (key ``de château-renaud``) and tags the bare
    "Château-Renaud" ORG ×109. Not "of": a title's "of" names a domain, not a surname (Les
    Misérables' "the King of France", "the Queen of France" made France a person ×111)."""
    out = Counter(counts)
    for key, n in counts.items():
        words = key.split()
        k = 0
        while k < len(words) - 1 and words[k] in SURNAME_PARTICLES:
            k += 1
        if k:
            out[" ".join(words[k:])] += n
    return out


def _honorific_surnames(forms: list[tuple[str, bool, str]]) -> set[str]:
    """Last words of persons' names written after an honorific ("Mr. Chester" → chester), not of
    "X of Y" ("Mr. Lorry of Tellson's": Tellson is the bank)."""
    return {key.split()[-1] for key, honorific, label in forms
            if label == "PER" and honorific and key and "of" not in key.split()}


def _first_and_family_name(key: str, surnames: set[str]) -> bool:
    """A known first name and a surname the book writes after a person's honorific: Oliver Twist's
    "Charley Bates" (tagged ORG 11 times, PER 8) beside "Master Bates"."""
    words = key.split()
    male, female = _first_names()
    return len(words) > 1 and (words[0] in male or words[0] in female) and words[-1] in surnames


def _family_plural(key: str, surnames: Counter) -> bool:
    """``key`` is the plural of a surname of ``surnames`` (``surnames_after(FAMILY_HONORIFICS)``,
    with mentions) written after an honorific more often than ``key`` itself: "eltons" of "Mrs.
    Elton" (beside a stray "Mrs. Eltons"), "marches" of "Mrs. March"; not "Mr. Sikes" or "Mrs.
    Phillips" beside a stray "Sike" or "Phillip"."""
    return any(key.endswith(end) and surnames[key[:-len(end)]] > surnames[key] for end in ("s", "es"))


def _person_words(forms: list[tuple[str, bool, str]], surnames: set[str]) -> set[str]:
    """Words the book writes as part of a person's name: surnames after an honorific ("Mr. Chester")
    or a first name ("John Chester"), and every word of a full name ending in such a surname
    ("Camden Farebrother"); never from "X of Y". ``surnames``: :func:`_honorific_surnames` of ``forms``."""
    male, female = _first_names()
    out = set(surnames)
    for key, _honorific, label in forms:
        words = key.split()
        if label == "PER" and len(words) > 1 and "of" not in words:   # "Lorry of Tellson": a bank
            if words[0] in male or words[0] in female:
                out.add(words[-1])
            if words[-1] in surnames:
                out.update(words)
    return out


def _detect_narration(document: Document) -> Narration:
    passages = document.passages
    front = document.text[:passages[0].start] if passages else ""
    return detect_narrator([p.text for p in passages], [p.chapter for p in passages], front, document.title)


# sentences counted between two chapters: more than any window of the resolver (anaphora.AnaphoraSettings)
CHAPTER_GAP = 1_000


def _chapter_starts(document: Document) -> list[int]:
    """Where each chapter after the first begins (a passage whose chapter is another than the one
    before it)."""
    out, last = [], None
    for p in document.passages:
        if p.chapter is not None and p.chapter != last:
            if last is not None:
                out.append(p.start)
            last = p.chapter
    return out


def _resolve(spool: RecordSpool, narrator: str | None, chapter_starts: Sequence[int] = ()) -> None:
    """Third-person pronouns linked to PER names across the whole book (passes over both, in
    reading order: :func:`~beyondfind.nlp.anaphora.iter_links`; a second one when the first taught
    first names of both genders theirs, :func:`~beyondfind.nlp.anaphora.learned_genders`);
    first-person pronouns outside quotes are the narrator's when the book has one. A title that
    names one person ("the Count" for Count Dracula: :func:`~beyondfind.index.titles.titled_names`)
    is a name here too, so the "he" after it is the Count's. A family named in the plural ("the
    Eltons": :func:`_family_plural`) is no antecedent of "he" or "she". A chapter opens a new
    discourse: no link and no chain of the resolver reaches across ``chapter_starts`` (the sentences
    of each chapter are counted :data:`CHAPTER_GAP` apart from the chapter before)."""

    def gap(start: int) -> int:
        return CHAPTER_GAP * bisect.bisect_right(chapter_starts, start)

    families = spool.surnames_after(FAMILY_HONORIFICS)
    written: Counter = Counter()
    for text, n in spool.person_name_texts():   # each distinct text parsed once, not each mention
        written[parse_name(text)] += n
    titled = titled_names(written)
    told_gender = _title_told_genders(written)
    told_surnames = anaphora.titled_surname_genders(written)
    name_ids = array("q")   # the i-th PER name's mention id: links name a position among the names
    keys: list[str | None] = []   # the i-th name's key for learning its gender (anaphora.gender_key)

    def names(first_pass: bool) -> Iterator[anaphora.NameItem]:
        for mention_id, start, sentence, text, subject, quote, is_name in spool.person_names(titles=bool(titled)):
            name = referenced_name(text, is_name, titled)
            if name is None or (len(name.words) == 1 and not name.honorific
                                and _family_plural(name.words[0], families)):
                continue
            gender = name_gender(name)
            if gender is None and name.words and not name.honorific:   # "-" has no words
                gender = told_gender.get(name.words[0])
            if first_pass:
                name_ids.append(mention_id)
                keys.append(anaphora.gender_key(gender, name.words, name.honorific, told_surnames))
            yield anaphora.NameItem(start, sentence + gap(start), gender, subject, quote)

    pronoun_ids = array("q")
    pronoun_female = array("b")   # the i-th pronoun is "she"/"her" (1) or "he"/"him" (0)

    def pronouns(first_pass: bool) -> Iterator[anaphora.PronounItem]:
        for pronoun_id, start, sentence, gender, text, quote in spool.third_person_pronouns():
            if first_pass:
                pronoun_ids.append(pronoun_id)
                pronoun_female.append(gender == "female")
            yield anaphora.PronounItem(start, sentence + gap(start), gender, text, quote)

    # two passes: the first teaches first names of both genders ('Jo') theirs (anaphora.learned_genders);
    # its links are kept as compact arrays (a 50 MB text has about a million pronouns): -1 for none
    first = array("q", (-1 if a is None else a for a in anaphora.iter_links(names(True), pronouns(True))))
    learned = anaphora.learned_genders(keys, ((a, "female" if pronoun_female[k] else "male")
                                              for k, a in enumerate(first) if a >= 0), told=told_surnames)
    final = anaphora.iter_links(anaphora.with_genders(names(False), keys, learned), pronouns(False)) if learned \
        else (None if a < 0 else a for a in first)
    links = ((pronoun_ids[k], name_ids[ante]) for k, ante in enumerate(final) if ante is not None)
    spool.link_pronouns(links, narrator=bool(narrator))


# titles a wife takes with her husband's first name ("Mrs. George Osborne" is Amelia); a lady keeps
# her own ("Lady Catherine")
WIVES_TITLES = MARRIED - {"lady"}


def _title_told_genders(written: Counter) -> dict[str, str]:
    """First names the lists give both genders that the book writes after a title taking a first name
    ("Aunt Judy", "Sister Jo"), or first in a titled full name ("Miss Judy Abbott"; not a wife's
    "Mrs. Reggie Chivers", nor "Mr. Brooke of Tipton"), of one gender only: that gender, for every
    mention of the name. Dear Enemy's Judy, a woman by 45 pronouns to 42, learned from the first
    pass to be a man (53 "he") once the "Hon." left the names — the letters' "he" is mostly the
    doctor's — though the book writes "Aunt Judy" six times."""
    male, female = _first_names()
    genders: dict[str, set[str]] = defaultdict(set)
    for name in written:
        first = name.words[0] if name.words else None
        if first in male and first in female and name.honorific and "of" not in name.words and (
                name.honorific in FIRST_NAME_HONORIFICS
                or (len(name.words) > 1 and name.honorific not in WIVES_TITLES)):
            gender = name_gender(name)
            if gender:
                genders[first].add(gender)
    return {w: gs.pop() for w, gs in genders.items() if len(gs) == 1}


def _extract_all(nlp, units, batch_size: int, max_chars: int = BATCH_CHARS) -> Batch:
    """Run the pipeline over ``units`` ((text, context) pairs) and extract their records (ids
    counted from 0), in batches of at most ``batch_size`` texts and ``max_chars`` characters."""
    raw = Batch.empty()
    kinds = None
    for group in _groups(units, batch_size, max_chars):
        for doc, (passage, base) in nlp.pipe(group, as_tuples=True, batch_size=len(group)):
            kinds = kinds or _TokenKinds(doc.vocab.strings)
            _extract(doc, passage, base, raw, kinds)
    return raw


def _groups(units: list, size: int, max_chars: int) -> Iterator[list]:
    """``units`` in order, cut into lists of at most ``size`` texts and ``max_chars`` characters
    (a text longer than that forms a list of its own)."""
    group: list = []
    chars = 0
    for unit in units:
        if group and (len(group) == size or chars + len(unit[0]) > max_chars):
            yield group
            group, chars = [], 0
        group.append(unit)
        chars += len(unit[0])
    if group:
        yield group


# Worker processes (forked) run the pipeline *and* the extraction, so only compact records travel
# back to the parent; spaCy's own ``nlp.pipe(n_process=…)`` sends whole Docs, whose serialisation
# and the parent's extraction cost more CPU than the second process saved.
_worker_nlp = None   # set in each forked worker by _init_worker; never in the parent


def _init_worker(nlp) -> None:
    global _worker_nlp
    _worker_nlp = nlp
    one_blas_thread()


def _extract_on_worker(task: tuple[list, int, int]) -> tuple[int, Batch]:
    result = _extract_task(_worker_nlp, task)
    _trim_heap()
    return result


def _trim_heap() -> None:
    """Give the allocator's free memory back to the system (glibc's ``malloc_trim``; nothing
    elsewhere): a batch's parse leaves tens of MB free but mapped in the worker, which counts
    against the machine until the worker is replaced."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _extract_task(nlp, task: tuple[list, int, int]) -> tuple[int, Batch]:
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


def annotate_document(document: Document, nlp, *, batch_size: int = BATCH_SIZE, n_process: int = 1,
                      progress: Callable[[int], None] | None = None,
                      passages_per_batch: int = 100) -> Annotations:
    """All annotations of ``document`` in memory (:func:`annotate_into` with a spool of its own)."""
    with RecordSpool() as spool:
        return annotate_into(spool, document, nlp, batch_size=batch_size, n_process=n_process, progress=progress,
                             passages_per_batch=passages_per_batch).materialise()


def annotate_into(spool: RecordSpool, document: Document, nlp, *, batch_size: int = BATCH_SIZE, n_process: int = 1,
                  progress: Callable[[int], None] | None = None,
                  passages_per_batch: int = 100) -> SpooledAnnotations:
    """Annotate ``document`` into ``spool`` (empty): the pipeline's records batch by batch, then the
    book-level passes over them. ``progress(n)`` is called with the number of passages done.

    ``n_process`` > 1 annotates batches of ``passages_per_batch`` passages in that many forked
    processes (only from a single-threaded caller: forking a threaded process can deadlock); each
    is replaced by a fresh fork after :data:`BATCHES_PER_WORKER` batches.
    """
    tasks = ((units, batch_size, count) for count, units in _batches(document, passages_per_batch))

    def collect(parts) -> None:
        for count, part in parts:
            spool.add(part)
            if progress:
                progress(count)

    if n_process > 1:
        import gc
        import multiprocessing

        # The forked workers share the parent's pages (the pipeline, the document) until they
        # write to them; the cyclic collector writes into every object it visits, so without
        # freezing, a worker's first full collection copies the parent's objects.
        frozen_before = gc.get_freeze_count()
        gc.freeze()
        try:
            with multiprocessing.get_context("fork").Pool(n_process, _init_worker, (nlp,),
                                                          maxtasksperchild=BATCHES_PER_WORKER) as pool:
                collect(pool.imap(_extract_on_worker, tasks))
        finally:
            if not frozen_before:   # a server's loaded books stay frozen (books.BookSearch)
                gc.unfreeze()
    else:
        collect(_extract_task(nlp, task) for task in tasks)
    narration = _detect_narration(document)
    evidence = NameEvidence(document.text)
    _name_persons_read_as_nouns(document, spool, evidence)
    _propagate_names(document.text, spool, evidence, narration.narrator)
    _widen_cut_names(document, spool, evidence)
    _apply_name_evidence(spool, evidence)
    _name_calendar_persons(document, spool, evidence)
    _drop_sentence_openers(document, spool, evidence)
    _join_split_names(document, spool, evidence)
    _resolve(spool, narration.narrator, _chapter_starts(document))
    return spool.annotations(narration.narrator, pipeline_id(nlp), narration.narrators)


def pipeline_id(nlp) -> str:
    """The pipeline's name and version plus :data:`ANNOTATOR_VERSION`: stored with each document,
    so a library annotated by an older beyondfind is annotated again."""
    return f"{nlp.meta.get('name', 'unknown')}-{nlp.meta.get('version', '0')}+a{ANNOTATOR_VERSION}"

