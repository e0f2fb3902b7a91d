"""An indexed book in memory, shaped for scoring: passages, name mentions and pronouns per passage,
and the book-wide name statistics that global coreference needs (c(name) counts)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..documents import Document
from ..documents.segment import is_contents, is_heading, is_title_line
from ..nlp.names import Name, parse_name
from ..nlp.narrator import Section, section_writers
from .characters import CharacterIndex, FormKey, FormStats, cluster_names, elder_surnames
from .namesakes import late_namesakes
from .records import Annotations, Mention, Pronoun
from .titles import title_name, titled_names

DASHES = ("-", "\u2013", "\u2014")   # a name broken off: "Silas Ph--", "Tom Saw\u2014"
NICKNAME_WINDOW = 1500   # characters: a nickname's mentions this near its character's are evidence they are one


@dataclass(frozen=True)
class NameMention:
    """A name mention with its parsed :class:`Name` (the unit LRM scores)."""

    mention: Mention
    name: Name

    @property
    def label(self) -> str:
        return self.mention.label

    @cached_property
    def form(self) -> tuple[str | None, str]:
        """(honorific, name key): the unit that :mod:`beyondfind.index.characters` clusters."""
        return (self.name.honorific, self.name.key)


def title_mention(mention: Mention, titled: dict[str, Name]) -> NameMention | None:
    """A person written as "the" and a capitalised title ("the Count"), as a mention of the one
    person the book gives that title (:func:`titled_names`); None for anything else."""
    if mention.is_name or mention.label != "PER":
        return None
    name = title_name(mention.text, titled)
    return NameMention(mention, name) if name else None


def _read_late_namesakes(names: dict[int, NameMention]) -> dict[str, tuple[int, Name]]:
    """A bare surname that a younger namesake takes over part-way through the book (Wuthering
    Heights' ``Linton``: :mod:`~beyondfind.index.namesakes`) is the namesake's full name from there
    on. Returns :func:`~beyondfind.index.namesakes.late_namesakes`'s finding."""
    late = late_namesakes([(nm.mention.start, nm.form) for nm in names.values() if nm.label == "PER"])
    for mid, nm in list(names.items()) if late else ():
        if nm.label == "PER" and nm.form[0] is None and nm.form[1] in late and nm.mention.start >= late[nm.form[1]][0]:
            names[mid] = NameMention(nm.mention, late[nm.form[1]][1])
    return late


@dataclass
class IndexedBook:
    doc_id: int
    document: Document
    annotations: Annotations
    names_by_passage: list[list[NameMention]] = field(init=False)
    pronouns_by_passage: list[list[Pronoun]] = field(init=False)
    mention_by_id: dict[int, NameMention] = field(init=False)
    namesakes: dict[str, tuple[int, Name]] = field(init=False)   # see _read_late_namesakes
    cache: dict = field(default_factory=dict, repr=False, compare=False)  # per-book derived indexes

    def __post_init__(self) -> None:
        n = len(self.document.passages)
        self.names_by_passage = [[] for _ in range(n)]
        self.pronouns_by_passage = [[] for _ in range(n)]
        self.mention_by_id = {}
        parsed: dict[str, Name] = {}   # a name's forms repeat: "Jim" ×1,100 in Huckleberry Finn
        names = {m.id: NameMention(m, parsed.get(m.text) or parsed.setdefault(m.text, parse_name(m.text)))
                 for m in self.annotations.mentions if m.is_name}
        self.namesakes = _read_late_namesakes(names)
        titled = titled_names(Counter(nm.name for nm in names.values() if nm.label == "PER"))
        for m in self.annotations.mentions:
            nm = names.get(m.id) or title_mention(m, titled)
            if nm is not None and nm.name.words:
                self.names_by_passage[m.passage].append(nm)
                self.mention_by_id[m.id] = nm   # title mentions too: pronouns are linked to them
        for p in self.annotations.pronouns:
            self.pronouns_by_passage[p.passage].append(p)

    @property
    def passages(self):
        return self.document.passages

    @cached_property
    def passage_starts(self) -> list[int]:
        return [p.start for p in self.passages]

    @cached_property
    def passage_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Start and end offsets of every passage, as arrays."""
        return (np.array(self.passage_starts, dtype=np.int64),
                np.array([p.end for p in self.passages], dtype=np.int64))

    def passage_at(self, offset: int) -> int:
        """The index of the passage that starts last at or before ``offset`` (-1 before the first)."""
        return bisect_right(self.passage_starts, offset) - 1

    @cached_property
    def name_counts(self) -> Counter:
        """c(key): PER name mentions in the whole book, by name words (honorifics dropped)."""
        return Counter(nm.name.key for nms in self.names_by_passage for nm in nms if nm.label == "PER")

    @cached_property
    def full_names_containing(self) -> dict[str, list[str]]:
        """word → PER name keys of two or more words containing it (the Q(e_i) of global coref)."""
        out: dict[str, list[str]] = defaultdict(list)
        for key in self.name_counts:
            words = key.split()
            if len(words) > 1:
                for w in set(words):
                    out[w].append(key)
        return out

    @cached_property
    def passages_by_word(self) -> dict[str, tuple[frozenset[int], frozenset[int]]]:
        """word → (passages with a name mention holding it, passages with a pronoun whose
        antecedent's name holds it): LRM's candidates without a scan of the book per query."""
        names: dict[str, set[int]] = defaultdict(set)
        pronouns: dict[str, set[int]] = defaultdict(set)
        for i, nms in enumerate(self.names_by_passage):
            for nm in nms:
                for w in nm.name.words:
                    names[w].add(i)
        for i, prons in enumerate(self.pronouns_by_passage):
            for p in prons:
                ante = self.mention_by_id.get(p.antecedent) if p.antecedent is not None else None
                if ante is not None:
                    for w in ante.name.words:
                        pronouns[w].add(i)
        return {w: (frozenset(names.get(w, ())), frozenset(pronouns.get(w, ()))) for w in names.keys() | pronouns.keys()}

    @cached_property
    def pronouns_with_antecedent(self) -> list[list[tuple[Pronoun, NameMention]]]:
        """Per passage, its pronouns resolved to a name mention, with that mention."""
        out: list[list[tuple[Pronoun, NameMention]]] = [[] for _ in self.passages]
        for p in self.annotations.pronouns:
            ante = self.mention_by_id.get(p.antecedent) if p.antecedent is not None else None
            if ante is not None:
                out[p.passage].append((p, ante))
        return out

    @cached_property
    def sections(self) -> list[Section | None] | None:
        """In a book made of several narrators' journals, diaries and letters (Dracula; The
        Moonstone's narratives), each passage's section (:func:`~beyondfind.nlp.narrator.section_writers`),
        whose writer's "I" it holds; None for any other book."""
        if self.annotations.narrator or not self.annotations.narrators:
            return None
        sections = section_writers([p.text for p in self.passages], is_heading)
        return sections if any(sections) else None

    @cached_property
    def section_narrators(self) -> list[Name | None] | None:
        """:attr:`sections`' writers as names."""
        if self.sections is None:
            return None
        parsed: dict[str, Name] = {}
        return [None if s is None else parsed.setdefault(s.writer, parse_name(s.writer)) for s in self.sections]

    @cached_property
    def narrator_pronouns(self) -> list[tuple[tuple[tuple[int, int, str], ...], frozenset[int]]]:
        """Per passage, its narrator pronouns that no name antecedent explains, as (start, end,
        text), and the sentences holding them: the narrator's, or in a section of a book of several
        narrators (:attr:`sections`), its writer's first-person pronouns — outside quotes, or in a
        letter anywhere."""
        rows: list[list[tuple[int, int, str]]] = [[] for _ in self.passages]
        sentences: list[set[int]] = [set() for _ in self.passages]
        sections = self.sections or ()
        for p in self.annotations.pronouns:
            section = sections[p.passage] if sections else None
            # a letter's paragraphs may be set in quotes, a journal's quotes are what others said
            if p.antecedent is None and (p.narrator or (section is not None and p.person == 1
                                                        and (section.letter or not p.in_quote))):
                rows[p.passage].append((p.start, p.end, p.text))
                sentences[p.passage].add(p.sentence)
        return [(tuple(r), frozenset(s)) for r, s in zip(rows, sentences)]

    @cached_property
    def narrator_pronoun_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:attr:`narrator_pronouns` as arrays: (bounds, starts, ends), passage i's rows being
        ``bounds[i]:bounds[i + 1]`` (for features computed over many passages at once)."""
        rows = [r for passage_rows, _sentences in self.narrator_pronouns for r in passage_rows]
        bounds = np.cumsum([0] + [len(r) for r, _sentences in self.narrator_pronouns], dtype=np.int64)
        return (bounds, np.array([a for a, _b, _t in rows], dtype=np.int64),
                np.array([b for _a, b, _t in rows], dtype=np.int64))

    @cached_property
    def narrator_passages(self) -> frozenset[int]:
        """Passages with a narrator pronoun ("I", "me") that no name antecedent explains."""
        return frozenset(i for i, (rows, _sentences) in enumerate(self.narrator_pronouns) if rows)

    @cached_property
    def label_counts(self) -> dict[str, Counter]:
        """name key → Counter of entity labels over its mentions (for the query's type)."""
        out: dict[str, Counter] = defaultdict(Counter)
        for nms in self.names_by_passage:
            for nm in nms:
                out[nm.name.key][nm.label] += 1
        return out

    @cached_property
    def form_surfaces(self) -> dict[FormKey, Counter]:
        """(honorific, name key) → Counter of the surface strings written for it."""
        out: dict[FormKey, Counter] = defaultdict(Counter)
        for nms in self.names_by_passage:
            for nm in nms:
                out[nm.form][" ".join(nm.mention.text.split())] += 1
        return out

    def is_title_passage(self, passage: int) -> bool:
        """Whether the passage is set as a title rather than prose: a chapter heading (which may
        end in a period: "CHAPTER 128. The Pequod Meets The Rachel."), a title line (a heading, a
        contents entry, a byline, a letter's superscription:
        :func:`~beyondfind.documents.segment.is_title_line`) or a whole table of contents
        (:func:`~beyondfind.documents.segment.is_contents`). Such passages name people and places
        but describe none: of the 127 among the judged ones, one is Good, none Perfect. Decided
        once per passage, when asked (all of War and Peace's 12,110 take ~40 ms)."""
        flags = self.cache.setdefault("title_passage", {})
        if passage not in flags:
            text = self.passages[passage].text
            flags[passage] = is_title_line(text) or is_heading(text) or is_contents(text)
        return flags[passage]

    @cached_property
    def story_forms(self) -> frozenset[FormKey]:
        """The name forms written at least once outside the title passages (:meth:`is_title_passage`),
        i.e. in the story itself."""
        return frozenset(nm.form for i, nms in enumerate(self.names_by_passage)
                         if nms and not self.is_title_passage(i) for nm in nms)

    @cached_property
    def characters(self) -> CharacterIndex:
        """The book's name forms clustered into characters (:mod:`beyondfind.index.characters`)."""
        labels: dict[FormKey, Counter] = defaultdict(Counter)
        positions: dict[FormKey, list[int]] = defaultdict(list)
        whole: set[FormKey] = set()   # forms written at least once without a dash breaking them off
        in_prose = self.story_forms
        text = self.document.text
        for nms in self.names_by_passage:
            for nm in nms:
                labels[nm.form][nm.label] += 1
                positions[nm.form].append(nm.mention.start)
                if not (nm.mention.text.endswith(DASHES) or text[nm.mention.end:nm.mention.end + 1] in DASHES):
                    whole.add(nm.form)
        pron: dict[FormKey, Counter] = defaultdict(Counter)
        for p in self.annotations.pronouns:
            ante = self.mention_by_id.get(p.antecedent) if p.antecedent is not None else None
            if ante is not None and p.gender:
                pron[ante.form][p.gender] += 1
        stats = {}
        for key, lab in labels.items():
            g = pron[key].most_common(1)
            evidence = g[0][0] if g and g[0][1] >= 3 and g[0][1] >= 0.75 * sum(pron[key].values()) else None
            stats[key] = FormStats.from_positions(positions[key], lab.most_common(1)[0][0], evidence,
                                                  titles_only=key not in in_prose, broken_off=key not in whole)
        narrator = self.narrator
        also_near = {}
        if narrator is not None and (narrator.honorific, narrator.key) in stats:
            also_near[(narrator.honorific, narrator.key)] = [p.start for p in self.annotations.pronouns if p.narrator]
        # the namesake is not the person whose name he carries: Linton Heathcliff is neither
        # "Heathcliff" nor "Mr. Heathcliff"
        apart = frozenset(frozenset({(None, name.key), (honorific, name.words[-1])})
                          for _s, name in self.namesakes.values() for honorific in (None, "mr"))
        return cluster_names(stats, window=NICKNAME_WINDOW, also_near=also_near,
                             elders=elder_surnames(self.document.text), apart=apart,
                             narrator=(narrator.honorific, narrator.key) if narrator is not None else None)

    def match_words(self, query: Name) -> frozenset[str]:
        """Name words that can point at ``query``: its own, and those of every form of its character
        ("caroline" for "Miss Bingley")."""
        key = ("match_words", query)
        if key not in self.cache:
            target = self.characters.lookup(query)
            words = set(query.words)
            if target is not None and not target.ambiguous:
                for _h, k in target.forms:
                    words.update(k.split())
            self.cache[key] = frozenset(words)
        return self.cache[key]

    def narrator_match(self, query: Name) -> float:
        """E(narrator, query): 1 when the narrator is the query's character (or, without one, when
        their names agree or one is part of the other), else 0."""
        key = ("narrator_match", query)
        if key not in self.cache:   # asked for every narrator "I" of every candidate: decide once
            self.cache[key] = self._narrator_match(query)
        return self.cache[key]

    def narrator_matches(self, query: Name) -> list[float] | None:
        """Per passage, E(its section's writer, query) in a book of several narrators'
        sections (:attr:`section_narrators`); None for any other book."""
        sections = self.section_narrators
        if sections is None:
            return None
        key = ("narrator_matches", query)
        if key not in self.cache:
            by_writer = {w: self._same_person(query, w) for w in set(sections) if w is not None}
            self.cache[key] = [0.0 if w is None else by_writer[w] for w in sections]
        return self.cache[key]

    def narrated_passages(self, query: Name) -> frozenset[int]:
        """Passages whose narrator pronouns are the query's: the narrator's when the query is the
        narrator, or the sections the query writes."""
        if self.narrator_match(query) > 0:
            return self.narrator_passages
        matches = self.narrator_matches(query)
        return frozenset(i for i in self.narrator_passages if matches[i] > 0) if matches else frozenset()

    def _narrator_match(self, query: Name) -> float:
        return self._same_person(query, self.narrator) if self.narrator is not None else 0.0

    def _same_person(self, query: Name, narrator: Name) -> float:
        """1 when ``narrator`` is the query's character (or, without one, when their names agree or
        one is part of the other), else 0."""
        a, b = self.characters.lookup(query), self.characters.lookup(narrator)
        if a is not None and b is not None and not a.ambiguous:
            return float(a.id == b.id)
        same = narrator.words == query.words or narrator.part_of(query) or query.part_of(narrator)
        return 1.0 if same else 0.0

    @cached_property
    def passage_words(self) -> list[int]:
        """Each passage's whitespace-separated words (the length LRM's g(p) rewards)."""
        return [p.n_words for p in self.passages]

    @cached_property
    def max_passage_words(self) -> int:
        return max(self.passage_words, default=1)

    @cached_property
    def narrator(self) -> Name | None:
        return parse_name(self.annotations.narrator) if self.annotations.narrator else None

    @cached_property
    def narrator_pronouns_by_passage(self) -> list[int]:
        counts = [0] * len(self.passages)
        for p in self.annotations.pronouns:
            if p.narrator:
                counts[p.passage] += 1
        return counts
