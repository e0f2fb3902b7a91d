"""spaCy components of the beyondfind pipeline; results live on Doc/Span/Token extensions.

* ``beyondfind_rule_ner`` — fallback names for pipelines without NER (capitalised runs after an
  honorific or starting with a known first name → PER).
* ``beyondfind_names`` — ``Doc._.names``: the proper-name core of each entity ("his sister Mary"
  → "Mary"; nominals such as "the old man" have none), ``Span._.name`` its :class:`Name`.
* ``beyondfind_anaphora`` — ``Token._.antecedent``: the name span a third-person pronoun refers to
  (:func:`beyondfind.nlp.anaphora.resolve_pronouns`), ``Doc._.pronoun_links``.
* ``beyondfind_narrator`` — ``Doc._.narrator``: the narrator's name when the text reveals it
  ("my name is …", "call me …"); ``Token._.narrator_ref`` on "I/me/my" outside quotes.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from . import anaphora
from .name_words import COMPASS_WORDS, NEVER_NAMES, PLACE_FIRST_WORDS, PLACE_HEADS
from .names import (CALLINGS, FAMILY_HONORIFICS, FIRST_PERSON_PRONOUNS, GROUP_HONORIFICS, NAME_PARTICLES, NOT_NAMES,
                    OFFICE_TITLES, SAINT_WORDS, STRIP_HONORIFICS, THIRD_PERSON_PRONOUNS, _first_names,
                    capitalised_name_word, elided_particle_name, name_gender, parse_name, pronoun_gender)
from .syntax import is_subject, sentence_index
from .text import CLOSE_QUOTES, OPEN_QUOTES, quote_mask



# Results are stored in ``doc.user_data`` as plain tuples (so Docs survive ``nlp.pipe(n_process=2)``
# serialisation) and exposed through getter extensions.
_NAMES, _ANTE, _NARRATOR, _NREF, _QUOTES = ("bf_names", "bf_antecedents", "bf_narrator", "bf_narrator_refs",
                                            "bf_quote_mask")
_LISTED = "bf_listed_names"   # (start, end) of the gazetteers' places and organisations: the whole span is the name


def _doc_names(doc: Doc) -> list[Span]:
    return [Span(doc, a, b, label=lab) for a, b, lab in doc.user_data.get(_NAMES, ())]


def _token_antecedent(tok: Token) -> Span | None:
    ante = tok.doc.user_data.get(_ANTE, {}).get(tok.i)
    return Span(tok.doc, ante[0], ante[1], label=ante[2]) if ante else None


def _pronoun_links(doc: Doc) -> list[tuple[Token, Span]]:
    return [(doc[i], Span(doc, a, b, label=lab)) for i, (a, b, lab) in sorted(doc.user_data.get(_ANTE, {}).items())]


def _set_extensions() -> None:
    getters = ((Doc, "names", _doc_names), (Doc, "pronoun_links", _pronoun_links),
               (Doc, "narrator", lambda d: d.user_data.get(_NARRATOR)),
               (Doc, "quote_mask", lambda d: d.user_data.get(_QUOTES)),
               (Span, "name", lambda s: parse_name(s.text)), (Token, "antecedent", _token_antecedent),
               (Token, "narrator_ref", lambda t: t.doc.user_data.get(_NREF, {}).get(t.i)))
    for obj, name, getter in getters:
        if not obj.has_extension(name):
            obj.set_extension(name, getter=getter)


_set_extensions()


def name_core(span: Span, first_names: frozenset[str] = frozenset()) -> Span | None:
    """The longest run of capitalised tokens in ``span`` (particles like "de" allowed inside).

    In a person's entity a run also ends where another name starts: before an honorific that
    follows a word that is not one ("New Year's Day Mr. Bhaer gave me…", "Mild Mrs. Dent",
    "Dowager Lady Ingram"), and at an "of" after a name word that a known first name follows
    ("asked Mrs. Carrol of Jo" — not "the Duke of Clarence", where "of" follows a title). A name
    led by a plural honorific ("the Misses Eshton", "Messrs. …") names a group: no core."""
    best: tuple[int, int] | None = None
    i = span.start
    doc = span.doc
    person = span.label_ == "PER"
    def name_word(tok: Token) -> bool:
        return _is_name_token(tok) or (person and _first_name_in_person(tok, first_names))

    while i < span.end:
        if name_word(doc[i]) or _joins_name_words(doc, i + 1, span.end):
            j = i + 1
            while j < span.end and (name_word(doc[j]) or _after_honorific(doc[j]) or _joins_name_words(doc, j, span.end) or
                                    _particles_before_name(doc, j, span.end)):
                if person and _another_name_starts(doc, i, j, span.end, first_names):
                    break
                j += 1
            while j > i + 1 and doc[j - 1].lower_ in NAME_PARTICLES:
                j -= 1
            if best is None or (j - i) > (best[1] - best[0]):
                best = (i, j)
            i = j
        else:
            i += 1
    if best is None:
        return None
    start, end = best
    core = doc[start:end]
    if all(_is_honorific(t) or t.lower_ in NOT_NAMES or _chapter_number(t.text) for t in core) \
            and not _calling_as_surname(core):
        return None
    if core[0].lower_.strip(".") in GROUP_HONORIFICS:
        return None
    return core


_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")


def _chapter_number(text: str) -> bool:
    """A Roman numeral in capitals with an I, V or X ("XVI", "LII"): a chapter's number, which the
    NER tags an organisation in the headings and tables of contents of nearly every novel (War and
    Peace ×31). It stays in a name after a name word ("Louis XVI"); "DC", "MD" are no such number."""
    return len(text) >= 2 and any(c in "IVX" for c in text) and _ROMAN.fullmatch(text) is not None


def _particles_before_name(doc: Doc, j: int, end: int) -> bool:
    """Token ``j`` opens a run of particles that a name word ends before ``end``: "de" of "Rue de
    Rivoli", "de la" of "Rue de la Chaussée"."""
    k = j
    while k < end and doc[k].lower_ in NAME_PARTICLES:
        k += 1
    return j < k < end and _is_name_token(doc[k])


def _known_first_name(tok: Token, first_names: frozenset[str]) -> bool:
    """A capitalised word (not all capitals) of the first-name lists, no function word or honorific."""
    text, low = tok.text, tok.lower_
    return (text[:1].isupper() and text.isalpha() and not text.isupper() and low in first_names
            and low not in NOT_NAMES and not _is_honorific(tok))


def _first_name_in_person(tok: Token, first_names: frozenset[str]) -> bool:
    """A capitalised known first name inside a person's entity is a name word whatever its tag: the
    tagger reads "Edith" in "her cousin Edith" as a preposition and "Chloe" in "my sister Chloe" as
    a noun, and the entity had no name (North and South's "Edith", LitBank test). Not a word that
    is never a name though the lists give it as one (months, nationalities, holidays: "the French
    Tellson's", A Tale of Two Cities)."""
    return _known_first_name(tok, first_names) and tok.lower_ not in NEVER_NAMES


_HYPHENS = frozenset({"-", "‐", "‑"})


def _joins_name_words(doc: Doc, j: int, end: int) -> bool:
    """Token ``j`` is a hyphen written without spaces between two name words: the tokenizer splits
    "Saint-Méran" and "Château-Renaud" (Monte Cristo, 125 and 141 times) into three tokens, and the
    run of a name stopped at the hyphen ("Madame de Saint", "Baron de Château")."""
    return (0 < j and j + 1 < end and doc[j].text in _HYPHENS and not doc[j - 1].whitespace_
            and not doc[j].whitespace_ and _hyphen_half(doc[j - 1]) and _hyphen_half(doc[j + 1]))


def _hyphen_half(tok: Token) -> bool:
    """Either half of a hyphenated name: capitalised letters, no function word. The tagger's part of
    speech is not asked: it reads "Château" in "Château-Renaud" as an adjective."""
    return capitalised_name_word(tok.text)


def _name_after_of(ent: Span, core: Span, first_names: frozenset[str]) -> Span | None:
    """The second person of an entity that :func:`name_core` ended at "of": "Blanche Ingram" in
    "asked Mrs. Fairfax of Blanche Ingram" (her first mention in Jane Eyre)."""
    doc, after = ent.doc, core.end + 1
    if ent.label_ != "PER" or after >= ent.end or doc[core.end].lower_ != "of" or doc[after].lower_ not in first_names:
        return None
    return name_core(Span(doc, after, ent.end, label="PER"), first_names)


def _calling_as_surname(core: Span) -> bool:
    """A personal title and a calling that is also a title (:data:`~beyondfind.nlp.names.CALLINGS`):
    Persuasion's "Mr Shepherd" (the lawyer ×26, since "Shepherd Oak" made the calling a title),
    David Copperfield's "Miss Shepherd". Not a rank: Pride and Prejudice's "Miss King" stays out."""
    return (len(core) == 2 and core[0].lower_.strip(".") in _PERSONAL_TITLES - {"m"} and core[1].text[:1].isupper()
            and core[1].lower_ in CALLINGS)


def _is_honorific(tok: Token) -> bool:
    return tok.lower_.strip(".") in STRIP_HONORIFICS


def _is_title(tok: Token) -> bool:
    """An honorific written as a title, capitalised ("Aunt Sally", not "her aunt")."""
    return _is_honorific(tok) and tok.text[:1].isupper()


def _another_name_starts(doc: Doc, start: int, j: int, end: int, first_names: frozenset[str]) -> bool:
    """Token ``j`` of a run of name tokens from ``start`` begins another name (see :func:`name_core`)."""
    if j + 1 >= end:
        return False
    tok, prev, nxt = doc[j], doc[j - 1], doc[j + 1]
    if _is_title(tok):
        return (_is_name_token(nxt) or _after_honorific(nxt)) and not all(_is_honorific(t) or t.text in _HYPHENS
                                                                          for t in doc[start:j])
    return tok.lower_ == "of" and not _is_honorific(prev) and nxt.lower_ in first_names


def _is_name_token(tok: Token) -> bool:
    """Capitalised, alphabetic, not a function word; a proper noun when the pipeline tags POS.
    A word behind an elided French particle is one whatever the tagger says (Monte Cristo's
    "M. d’Avrigny" ×124 was tagged a pronoun and named nobody, "Franz d’Épinay" was "Franz")."""
    text = tok.text
    if elided_particle_name(text):
        return True
    if not text[:1].isupper() or not any(c.isalpha() for c in text):
        return False
    honorific = _is_honorific(tok)
    if tok.lower_ in NOT_NAMES and not honorific and not _saint_before_name(tok):
        return False
    if tok.pos_ and tok.pos_ not in ("PROPN", "X") and not honorific and tok.doc.has_annotation("POS"):
        return False
    return not text.isupper() or len(text) <= 3 or _is_honorific(tok)


def _saint_before_name(tok: Token) -> bool:
    """"St." leading a capitalised word is part of the name: "St. John" (Jane Eyre's St. John
    Rivers, 127 times) is not "John", nor "St. Petersburg" "Petersburg"; alone it names nobody."""
    nxt = tok.i + 1
    return (tok.lower_.rstrip(".") in SAINT_WORDS and nxt < len(tok.doc) and tok.doc[nxt].text[:1].isupper()
            and tok.doc[nxt].text.isalpha())


def _is_office_title(tok: Token) -> bool:
    """A title of office written capitalised ("Inspector", "Governor": :data:`~beyondfind.nlp.names.OFFICE_TITLES`),
    not in a heading's capitals ("THE BISHOP IN THE PRESENCE OF AN UNKNOWN LIGHT")."""
    return tok.lower_ in OFFICE_TITLES and tok.text[:1].isupper() and not tok.text.isupper()


def _is_saint_word(tok: Token) -> bool:
    """"St." or "Saint", capitalised: the first word of a name, never a name alone."""
    return tok.lower_.rstrip(".") in SAINT_WORDS and tok.text[:1].isupper()


def _title_before_name(tok: Token) -> bool:
    """A capitalised honorific, title of office or "St.": the word after it is a name's."""
    return _is_title(tok) or _is_office_title(tok) or _is_saint_word(tok)


def _after_honorific(tok: Token) -> bool:
    """A capitalised word right after an honorific is a name whatever the tagger says ("Mr. Darcy"
    with Darcy tagged NOUN, "Mr. Hurst" with Hurst tagged ADV: 16 % of Pride and Prejudice's), and
    so is one after a title of office (The Secret Agent's "Chief Inspector Heat" ×71: the tagger
    stops at the title, and "heat" is a common word) or after "St." (The Scarlet Pimpernel's
    "Marguerite St. Just" and "Armand St. Just", "Just" tagged an adverb: the names were
    `Marguerite St.`)."""
    if tok.i == 0 or not tok.text[:1].isupper() or not tok.text.isalpha() or tok.lower_ in NOT_NAMES:
        return False
    before = tok.doc[tok.i - 1]
    return _is_honorific(before) or _title_before_name(before)


@Language.factory("beyondfind_rule_ner")
def make_rule_ner(nlp: Language, name: str):
    """Names without a trained NER: honorific + capitalised words, or a known first name."""
    male, female = _first_names()
    first_names = male | female

    def rule_ner(doc: Doc) -> Doc:
        if doc.has_annotation("ENT_IOB") and len(doc.ents):
            return doc
        spans, i = [], 0
        while i < len(doc):
            tok = doc[i]
            honor = _is_title(tok)
            if honor or (_is_name_token(tok) and tok.lower_ in first_names):
                j = i + 1
                while j < len(doc) and (doc[j].text == "." and honor and j == i + 1 or _is_name_token(doc[j])):
                    j += 1
                if j - i >= (2 if honor else 1):
                    spans.append(Span(doc, i, j, label="PER"))
                i = j
            else:
                i += 1
        doc.ents = spans
        return doc

    return rule_ner


def _honorifics_take_their_names(doc: Doc) -> None:
    """An entity ending in an honorific takes the capitalised words after it ("Aunt" tagged PER
    and "Sally" left out: 39 of Huckleberry Finn's 40 "Aunt Sally"); an entity it runs into is
    absorbed. The result is a PER entity."""
    n = len(doc)

    def new_end(ent: Span) -> int | None:   # "Aunt", not "her aunt" (a noun in apposition: "her aunt Shaw")
        end = ent.end
        if not _title_before_name(ent[-1]) or end >= n or not _after_honorific(doc[end]):
            return None
        end += 1
        while end < n and _is_name_token(doc[end]) and not _is_honorific(doc[end]):
            end += 1
        return end

    _grow_entities(doc, new_end, "PER")


def _place_words_take_their_names(doc: Doc) -> None:
    """An entity ending in a word that opens a place's name takes the particles and capitalised
    words after it ("the Rue" of "the Rue des Lombards": Les Misérables' NER ends a street there
    again and again, and its name was a bare "Rue"); an entity it runs into is absorbed."""
    n = len(doc)

    def continues(j: int) -> bool:
        return _is_name_token(doc[j]) or _particles_before_name(doc, j, n) or _joins_name_words(doc, j, n)

    def new_end(ent: Span) -> int | None:
        end = ent.end
        if ent[-1].lower_ not in PLACE_FIRST_WORDS or not ent[-1].text[:1].isupper() or end >= n or not continues(end):
            return None
        while end < n and continues(end):
            end += 1
        return end

    _grow_entities(doc, new_end, None)


def _grow_entities(doc: Doc, new_end, label: str | None) -> None:
    """Each entity for which ``new_end(ent)`` gives an end runs on to it, absorbing the entities it
    runs into; grown entities take ``label`` (None: keep their own)."""
    ents = list(doc.ents)
    ends = [new_end(e) for e in ents]
    if not any(e is not None for e in ends):
        return
    out, k = [], 0
    while k < len(ents):
        ent, end = ents[k], ends[k]
        if end is not None:
            while k + 1 < len(ents) and ents[k + 1].start < end:   # absorbed ("Sally" tagged GPE)
                k += 1
                end = max(end, ents[k].end)
            ent = Span(doc, ent.start, end, label=label or ent.label_)
        out.append(ent)
        k += 1
    doc.ents = out


# the labels of things with names (LitBank's six); DATE and TIME come from the rules and hold digits
NAMED_LABELS = frozenset({"PER", "LOC", "GPE", "FAC", "ORG", "VEH"})


def _letterless_are_no_names(doc: Doc) -> None:
    """A named entity without a letter is the NER's mistake: a phone number ("646-2600"), an area
    code ("212"), an amount. Numbers are never entities to rank."""
    ents = list(doc.ents)
    kept = [e for e in ents if e.label_ not in NAMED_LABELS or any(c.isalpha() for c in e.text)]
    if len(kept) < len(ents):
        doc.ents = kept


def _hyphenated_names_stay_whole(doc: Doc, orth: frozenset[int], hyphens: frozenset[int]) -> None:
    """An entity that ends (or starts) at a hyphen inside a name takes the name's other half:
    the NER tagged "M. de Château" in "M. de Château-Renaud" (see :func:`_joins_name_words`); an
    entity it runs into is absorbed. ``orth``: the doc's token strings (hashes); ``hyphens``:
    :data:`_HYPHENS`' (only a doc with a hyphen token is walked)."""
    if orth.isdisjoint(hyphens):
        return
    ents, n = list(doc.ents), len(doc)
    out: list[Span] = []
    changed = False
    for ent in ents:
        start, end = ent.start, ent.end
        while end + 1 < n and _joins_name_words(doc, end, n):
            end += 2
        while start >= 2 and _joins_name_words(doc, start - 1, start + 1):
            start -= 2
        if (start, end) == (ent.start, ent.end):
            if out and ent.start < out[-1].end:   # absorbed by the entity before it
                continue
            out.append(ent)
            continue
        changed = True
        while out and out[-1].end > start:   # an entity before it that the longer one now covers
            start = min(start, out.pop().start)
        out.append(Span(doc, start, end, label=ent.label_))
    if changed:
        doc.ents = out


def _first_names_take_their_surnames(doc: Doc, first_names: frozenset[str]) -> None:
    """A person's entity of one known first name, honorifics before it or not, straight followed by
    one name word that the parse attaches to it (or it to that word) — a person's entity of that
    word, or the word untagged — is one name. The tagger split Pride and Prejudice's only
    "Georgiana Darcy" into two persons (so "Darcy" counted for Mr. Darcy), Monte Cristo's "Edmond
    Dantès" 18 times, tagged Dracula's "Van" without "Helsing" 175 times and Great Expectations'
    "Miss Sarah" and "Mr. Matthew" without "Pocket". Without the attachment they stay apart ("Tell
    Beth Frank asked for her": Frank is the next clause's subject)."""
    ents = list(doc.ents)
    out, k, changed = [], 0, False
    while k < len(ents):
        ent = ents[k]
        nxt_ent = ents[k + 1] if k + 1 < len(ents) and ents[k + 1].start == ent.end else None
        if (ent.label_ == "PER" and ent.end < len(doc) and ent[-1].lower_ in first_names
                and ent[-1].lower_ not in NOT_NAMES and all(_is_honorific(t) for t in ent[:-1])
                and (nxt_ent is None or (nxt_ent.label_ == "PER" and len(nxt_ent) == 1))):
            nxt = doc[ent.end]
            if (_is_name_token(nxt) and not _is_honorific(nxt) and not nxt.is_sent_start
                    and (any(t.head.i == nxt.i for t in ent) or ent.start <= nxt.head.i < ent.end)):
                out.append(Span(doc, ent.start, ent.end + 1, label="PER"))
                k += 2 if nxt_ent is not None else 1
                changed = True
                continue
        out.append(ent)
        k += 1
    if changed:
        doc.ents = out


_VOCATIVE_BEFORE = frozenset({",", "--", "—", "'", "‘", "\"", "“"})
_VOCATIVE_AFTER = frozenset({",", "!", "?", ".", ";", "--", "—", "'", "’", "\"", "”"})
_QUOTE_MARKS = frozenset({"'", "‘", "\"", "“"})
_NOT_VOCATIVE_POS = frozenset({"INTJ", "VERB", "AUX", "PRON", "DET", "ADP", "CCONJ", "SCONJ", "PART"})   # "Say, …"


def _vocatives_are_names(doc: Doc, first_names: frozenset[str], first_name_ids: frozenset[int]) -> set[int]:
    """A known first name said to someone, alone between punctuation ("Don't cant, Nelly," and
    "'Nelly, make me decent'"), is a person whatever the tagger says: it reads Wuthering Heights'
    "Nelly" as an adverb (the -ly suffix), so the NER missed 85 of her 86 mentions. Returns the
    tokens made names (their own name core). Only tokens whose lower-case string is one of
    ``first_name_ids`` (hashes) are looked at."""
    taken = {t.i for e in doc.ents for t in e}
    added = []
    for i in _tokens_among(doc, "LOWER", first_name_ids):
        tok = doc[i]
        if tok.i in taken or not _known_first_name(tok, first_names) or tok.pos_ in _NOT_VOCATIVE_POS:
            continue
        before = doc[tok.i - 1].text if tok.i else ""
        after = doc[tok.i + 1].text if tok.i + 1 < len(doc) else ""
        if before in _VOCATIVE_BEFORE and after in _VOCATIVE_AFTER and (before not in _QUOTE_MARKS or after == ","):
            added.append(Span(doc, tok.i, tok.i + 1, label="PER"))
    if added:
        doc.ents = sorted(list(doc.ents) + added, key=lambda e: e.start)
    return {e.start for e in added}


# titles only a person is given; with a title of rank a name may still be a place ("Prince Edward
# Island", "Queen Square"), so those need a last word that is no place word
_PERSONAL_TITLES = frozenset({"mr", "mrs", "miss", "ms", "master", "madam", "madame", "mme", "mademoiselle", "mlle",
                              "monsieur", "m", "herr", "frau", "fraulein", "signor", "signora", "sir", "dr", "abbé",
                              "abbe"})
_RANK_TITLES = FAMILY_HONORIFICS - _PERSONAL_TITLES | {"comte", "comtesse", "vicomte", "vicomtesse", "marquis",
                                                       "marquise", "duc", "duchesse", "baronne", "lady", "lord"}


def _titled_person(core: Span) -> bool:
    """A name of a title and a name word is a person's whatever the NER's label: it tagged Monte
    Cristo's "Abbé Busoni" ORG (×47), "M. de Villefort" FAC, The Invisible Man's "Mrs. Hall" FAC."""
    if len(core) < 2 or not _is_title(core[0]):
        return False
    title = core[0].lower_.rstrip(".")
    return title in _PERSONAL_TITLES or (title in _RANK_TITLES and core[-1].lower_ not in PLACE_HEADS)


@Language.factory("beyondfind_names")
def make_names(nlp: Language, name: str):
    male, female = _first_names()
    first_names = male | female
    # token strings as the vocabulary's hashes: a doc's tokens are read as two integer arrays, and
    # Token objects are made only where a hyphen, a first name or a quote mark is
    strings = nlp.vocab.strings
    hyphens = frozenset(strings.add(h) for h in _HYPHENS)
    first_name_ids = frozenset(strings.add(n) for n in first_names)
    quote_marks = {strings.add(q): q for q in (*OPEN_QUOTES, *CLOSE_QUOTES, '"')}

    def names(doc: Doc) -> Doc:
        orth = doc.to_array("ORTH").tolist() if len(doc) else []
        _letterless_are_no_names(doc)
        _honorifics_take_their_names(doc)
        _place_words_take_their_names(doc)
        _hyphenated_names_stay_whole(doc, frozenset(orth), hyphens)
        _first_names_take_their_surnames(doc, first_names)
        vocatives = _vocatives_are_names(doc, first_names, first_name_ids)
        listed = set(doc.user_data.get(_LISTED, ()))
        found, ents, relabelled = [], list(doc.ents), False
        for k, ent in enumerate(ents):
            whole = ent.start in vocatives or (ent.start, ent.end) in listed
            core = ent if whole else name_core(ent, first_names)
            if core is None:
                continue
            if ent.label_ != "PER" and _titled_person(core):
                ents[k] = ent = Span(doc, ent.start, ent.end, label="PER")
                relabelled = True
            for name in (core, _name_after_of(ent, core, first_names)):
                if name is not None and parse_name(name.text).words:
                    found.append((name.start, name.end, ent.label_))
        if relabelled:
            doc.ents = ents
        doc.user_data[_NAMES] = found
        doc.user_data[_QUOTES] = quote_mask([quote_marks.get(h, "") for h in orth])
        return doc

    return names


def _tokens_among(doc: Doc, attribute: str, ids: frozenset[int]) -> list[int]:
    """Indices of the tokens whose ``attribute`` (``"LOWER"``, ``"ORTH"``) is one of the string
    hashes ``ids``: a doc read as an integer array, without a Token object per word."""
    return [i for i, h in enumerate(doc.to_array(attribute).tolist()) if h in ids] if len(doc) else []


@Language.factory("beyondfind_anaphora", default_config={"window": 3})
def make_anaphora(nlp: Language, name: str, window: int):
    settings = anaphora.AnaphoraSettings(window=window)
    pronoun_ids = frozenset(nlp.vocab.strings.add(p) for p in THIRD_PERSON_PRONOUNS)

    def resolve(doc: Doc) -> Doc:
        names_ = [s for s in (doc._.names or []) if s.label_ == "PER"]
        sent = sentence_index(doc)
        qmask = doc._.quote_mask or quote_mask([t.text for t in doc])
        name_items = [anaphora.NameItem(s.start, sent[s.start], name_gender(s._.name), is_subject(s), qmask[s.start])
                      for s in names_]
        prons = [doc[i] for i in _tokens_among(doc, "LOWER", pronoun_ids)]
        pron_items = [anaphora.PronounItem(t.i, sent[t.i], pronoun_gender(t.text), t.text, qmask[t.i]) for t in prons]
        links = {}
        keys = [anaphora.gender_key(item.gender, s._.name.words, s._.name.honorific) for item, s in zip(name_items, names_)]
        for tok, ante in zip(prons, anaphora.resolve_pronouns_learning_genders(name_items, keys, pron_items, settings)):
            if ante is not None:
                links[tok.i] = (names_[ante].start, names_[ante].end, names_[ante].label_)
        doc.user_data[_ANTE] = links
        return doc

    return resolve


def narrator_from_text(text: str) -> str | None:
    """The narrator's name when the text states it ("my name is Pip", "Call me Ishmael")."""
    from .narrator import STATED

    for pattern in STATED:
        m = pattern.search(text)
        if m:
            return m.group(1)
    return None


@Language.factory("beyondfind_narrator", default_config={"narrator": None})
def make_narrator(nlp: Language, name: str, narrator: str | None):
    """Link first-person pronouns outside quotes to the narrator (configured, or stated in the text)."""
    strings = nlp.vocab.strings
    pronoun_ids = frozenset(strings.add(p) for p in FIRST_PERSON_PRONOUNS)
    # every way :func:`narrator_from_text` can match has one of these words as a token
    stating_ids = frozenset(strings.add(w) for w in ("name", "call", "Call", "called"))

    def link(doc: Doc) -> Doc:
        who = narrator or (narrator_from_text(doc.text) if _tokens_among(doc, "ORTH", stating_ids) else None)
        doc.user_data[_NARRATOR] = who
        if who:
            qmask = doc._.quote_mask or quote_mask([t.text for t in doc])
            doc.user_data[_NREF] = {i: who for i in _tokens_among(doc, "LOWER", pronoun_ids) if not qmask[i]}
        return doc

    return link


PLACE_PREFIXES = ("St.", "St", "Saint", "Ste.", "Fort", "Ft.", "Port", "Mount", "Mt.", "Lake", "Cape", "Glen")
PLACE_PREPOSITIONS = ("in", "to", "at", "from", "near", "towards", "toward", "into", "of", "through", "round")


PLACE_CONNECTORS = frozenset({"of", "the", "de", "du", "la", "le", "del", "des"})   # "Bay of Plenty"


def _capitalised(doc: Doc, i: int) -> bool:
    return 0 <= i < len(doc) and doc[i].is_alpha and doc[i].text[:1].isupper()


# Places' abbreviations, matched as written: WordNet's dotted ones (the gazetteer's lower-case "d.c."
# is tokenized "d.c" "." and never meets the token "D.C.") and countries' that are no WordNet
# lemma ("us" is a pronoun)
COUNTRY_ABBREVIATIONS = frozenset({"U.S.", "U.S.A.", "U.K.", "D.C.", "US", "UK", "NZ", "UAE"})


def _mark_listed(doc: Doc, names) -> None:
    """Remember a gazetteer's names of several words: the whole span is the name (`New Orleans`,
    `United Nations`), though the tagger reads "New" as an adjective and "United" as a verb."""
    doc.user_data[_LISTED] = doc.user_data.get(_LISTED, []) + [(s, e) for s, e in names if e - s > 1]


def _relabel_or_add(doc: Doc, names: list[tuple[int, int]], label: str, relabel) -> None:
    """Give ``label`` to the entities ``relabel`` picks and add the gazetteer's ``names`` that
    overlap no entity; ``doc.ents`` is set only when something changes (setting it costs more
    than the rest of a gazetteer component)."""
    ents = list(doc.ents)
    picked = [k for k, ent in enumerate(ents) if relabel(ent)]
    for k in picked:
        ents[k] = Span(doc, ents[k].start, ents[k].end, label=label)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    listed = [Span(doc, s, e, label=label) for s, e in names if taken.isdisjoint(range(s, e))]
    if picked or listed:
        doc.ents = ents + filter_spans(listed)


def _stands_as_name(doc: Doc, start: int, end: int, tagged: bool) -> bool:
    """A gazetteer's match ``doc[start:end]`` stands as a name of its own: capitalised, not after
    an honorific ("Mr. Chester"), not one word opening a sentence ("Reading is fun"), not part of a
    longer capitalised name ("The Westminster Gazette"; "Jane Eyre" opening a sentence)."""
    first = doc[start]
    if first.text[:1].islower() or (start > 0 and doc[start - 1].lower_.rstrip(".") in STRIP_HONORIFICS):
        return False
    if end - start == 1 and first.is_sent_start:
        return False
    before = doc[start - 1] if start > 0 else None
    return not (_capitalised(doc, end) or (_capitalised(doc, start - 1) and before.lower_ != "the" and (
        not before.is_sent_start or (tagged and before.pos_ == "PROPN"))))


def _alone_in_capitals(doc: Doc, i: int) -> bool:
    """No word in capitals beside token ``i`` (not a heading: "HELP US", "ISLE OF MAN")."""
    return not any(0 <= j < len(doc) and doc[j].is_alpha and doc[j].is_upper and len(doc[j]) > 1
                   for j in (i - 1, i + 1))


def _abbreviation(doc: Doc, i: int) -> bool:
    """Token ``i``, in capitals, reads as a place's abbreviation: dotted ("U.S.", "D.C.") or of two
    or three letters, with no word in capitals beside it (the heading "HELP US", "ISLE OF MAN")."""
    text = doc[i].text
    return ("." in text or 2 <= len(text) <= 3) and _alone_in_capitals(doc, i)


@Language.factory("beyondfind_temporal")
def make_temporal(nlp: Language, name: str):
    """DATE and TIME entities by rules (:func:`beyondfind.nlp.temporal.patterns`): spaCy's entity
    ruler, never overwriting the NER's entities, run only on a text with a digit or one of the
    words some rule needs (:func:`~beyondfind.nlp.temporal.triggers`); the others cannot match."""
    from spacy.strings import get_string_id

    from .temporal import patterns, triggers

    rules = patterns()
    ruler = nlp.create_pipe("entity_ruler", name=name, config={"overwrite_ents": False})
    ruler.add_patterns(rules)
    needed = frozenset(map(get_string_id, triggers(rules)))
    digit_shape: dict[int, bool] = {}   # a token's shape has a "d" exactly when it has a digit (str.isdigit)

    def temporal(doc: Doc) -> Doc:
        if not len(doc):
            return doc
        lower, shape = doc.to_array(["LOWER", "SHAPE"]).T.tolist()
        if not needed.isdisjoint(lower) or any(
                digit_shape[h] if h in digit_shape else digit_shape.setdefault(h, "d" in nlp.vocab.strings[h])
                for h in set(shape)):
            return ruler(doc)
        return doc

    return temporal


@Language.factory("beyondfind_places")
def make_places(nlp: Language, name: str):
    """Place names the LitBank NER misses, as GPE:

    * a place prefix and capitalised words after a locative preposition ("to St. Petersburg", "at
      Fort Henry"), replacing any entity they overlap (LitBank's "St." is usually a saint's name,
      hence the preposition context);
    * a name of the shipped gazetteer (WordNet places without a person sense, not starting with a
      first name: :func:`beyondfind.nlp.name_evidence.listed_places`) written as a proper name —
      every word capitalised but "of", "de"…, tagged PROPN where the pipeline tags, not after an
      honorific, not one word opening a sentence, not a compass word ("the South"), not part of
      a longer capitalised name ("The Westminster Gazette") — where no entity lies ("Iraq",
      "Toronto", "North Korea": the fiction-trained NER misses most places of web and news text).
      Of a name of several words one PROPN is enough (the tagger reads "United" in "the United
      States" as a verb). A word in capitals counts only as a place's abbreviation — dotted or of
      three letters ("USA"), or one of ``COUNTRY_ABBREVIATIONS`` ("U.S.", "D.C.", "UK") as written
      — beside no other word in capitals (a heading: "HELP US");
    * the same name (after a locative preposition: "in Delhi", "to Afghanistan") where the NER put
      a person or an organisation of exactly those words: relabelled GPE. Without the preposition a
      place's name can be a person's surname ("Jane Eyre", "Eyre" — Lake Eyre is in WordNet)."""
    from spacy.matcher import Matcher

    from spacy.strings import get_string_id

    from .gazetteer import PhraseTable
    from .name_evidence import listed_places

    matcher = Matcher(nlp.vocab)
    matcher.add("PLACE", [[{"LOWER": {"IN": list(PLACE_PREPOSITIONS)}}, {"ORTH": {"IN": list(PLACE_PREFIXES)}},
                           {"ORTH": ".", "OP": "?"}, {"IS_TITLE": True, "OP": "+"}]], greedy="LONGEST")
    gazetteer = PhraseTable(nlp, (k for k in listed_places() if k not in COMPASS_WORDS))
    abbreviations = frozenset(map(get_string_id, COUNTRY_ABBREVIATIONS))
    prefixes = frozenset(map(get_string_id, PLACE_PREFIXES))   # the matcher's pattern needs one

    def proper(doc: Doc, start: int, end: int, tagged: bool) -> bool:
        words = doc[start:end]
        if not _stands_as_name(doc, start, end, tagged):
            return False
        if end - start == 1 and words[0].is_upper:
            return _abbreviation(doc, start)
        return (all(t.lower_ in PLACE_CONNECTORS or (t.text[:1].isupper() and not t.is_upper) for t in words)
                and (not tagged or any(t.pos_ == "PROPN" for t in words)))

    def places(doc: Doc) -> Doc:
        orth = frozenset(doc.to_array("ORTH").tolist()) if len(doc) else frozenset()
        found = [Span(doc, s + 1, e, label="GPE") for _m, s, e in matcher(doc)] if not orth.isdisjoint(prefixes) else []
        if found:
            keep = [ent for ent in doc.ents if not any(ent.start < f.end and f.start < ent.end for f in found)]
            doc.ents = filter_spans(keep + found)
        tagged = doc.has_annotation("POS")
        names = [(s, e) for s, e in gazetteer(doc) if proper(doc, s, e, tagged)]
        if not orth.isdisjoint(abbreviations):   # a token walk only then
            names += [(i, i + 1) for i, t in enumerate(doc) if t.text in COUNTRY_ABBREVIATIONS
                      and _abbreviation(doc, i) and (i, i + 1) not in names]
        if not names:
            return doc
        _mark_listed(doc, names)
        located = {(s, e) for s, e in names if s > 0 and doc[s - 1].lower_ in PLACE_PREPOSITIONS}
        _relabel_or_add(doc, names, "GPE", lambda ent: ent.label_ in ("PER", "ORG") and (ent.start, ent.end) in located)
        return doc

    return places


ORG_CONNECTORS = PLACE_CONNECTORS | {"for", "and", "on", "against", "-", "&"}   # "Commission on Human Rights"


@Language.factory("beyondfind_organisations")
def make_organisations(nlp: Language, name: str):
    """Organisations the LitBank NER misses or calls persons in news ("the United Nations",
    "the CIA", "The SEC" as PER), as ORG: a name of the shipped WordNet list
    (:func:`beyondfind.nlp.name_evidence.listed_organisations`: several words, or an acronym)
    standing as a name (:func:`_stands_as_name`) — every word capitalised but "of", "for"…, one
    PROPN; an acronym in capitals beside no other word in capitals — where no entity lies; and a
    person of exactly that name (after "the") relabelled ORG."""
    from .gazetteer import PhraseTable
    from .name_evidence import listed_organisations

    table = PhraseTable(nlp, (n.lower() for n in listed_organisations()))

    def written(doc: Doc, start: int, end: int, tagged: bool) -> bool:
        if not _stands_as_name(doc, start, end, tagged):
            return False
        if end - start == 1:
            return doc[start].is_upper and _alone_in_capitals(doc, start)
        words = doc[start:end]
        return (all(t.lower_ in ORG_CONNECTORS or t.text[:1].isupper() for t in words)
                and (not tagged or any(t.pos_ == "PROPN" for t in words)))

    def organisations(doc: Doc) -> Doc:
        tagged = doc.has_annotation("POS")
        names = sorted({(s, e) for s, e in table(doc) if written(doc, s, e, tagged)})
        if not names:
            return doc
        _mark_listed(doc, names)
        found = set(names)
        _relabel_or_add(doc, names, "ORG", lambda ent: ent.label_ == "PER" and (
            (ent.start, ent.end) in found or (ent[0].lower_ == "the" and (ent.start + 1, ent.end) in found)))
        return doc

    return organisations
