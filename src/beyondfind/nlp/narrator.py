"""Who tells the story: first-person narration and the narrator's name, from the text alone.

Evidence, strongest first:

1. **Several narrators**: a book of letters and diaries ("JONATHAN HARKER'S JOURNAL",
   "Letter, Lucy Westenra to Mina Murray") or whose chapters are told by different addressed
   narrators (a frame story) gets :attr:`Narration.narrators` and no single narrator: picking one
   would give one character every other narrator's "I".
2. **Stated**: "my name is …", "call me Ishmael", "I called myself Pip" in narration (not dialogue).
   After the title: a full name the narration gives "I", as a deposition does ("I, Allan Quatermain,
   of Durban"), when the narration seldom writes its words otherwise.
3. **Title**: the book's title page names the narrator ("JANE EYRE. AN AUTOBIOGRAPHY", "The Personal
   History … of David Copperfield", "Adventures of Huckleberry Finn") and dialogue addresses that name.
4. **Addressed**: the name other characters most often address in dialogue, in passages told in
   the first person, that the narration itself rarely uses ("Pip", "Trotwood").

A vocative counts once per quote, and only for a word the book uses as a name (written after a word
in lower case, a comma or a title, and capitalised more often than not: not "Nonsense," "Steady!"
or "Nothing."), never inside a title quoted mid-sentence (the "Ingoldsby Legends"). No rule names
someone the narration writes more than ``NARRATED_LIMIT`` times as often as dialogue addresses
them — a narrator's subject ("Holmes" in Watson's stories), not the narrator — nor counts such a
name as one of several narrators or as a frame story's listener.

A book is first-person when at least ``FIRST_PERSON_SHARE`` of its narration words (outside quotes)
are first-person singular pronouns and they occur in at least ``FIRST_PERSON_PASSAGES`` of the
narrative passages; third-person novels with an occasional authorial "I" stay below both.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

FIRST_PERSON_SHARE = 0.008
FIRST_PERSON_PASSAGES = 0.25
MIN_ADDRESSED = 3
MIN_ADDRESSED_BESIDE = 10   # vocatives beside the narrator's paragraphs that a name seldom said within them needs
SECOND_NARRATOR_SHARE = 0.25   # a second addressed name winning this share of chapters: several narrators
# a chapter's narrator is one the narration names at most this many times as often as dialogue addresses
# them: To Have and to Hold's Nantauquas (addressed 13 times, named 21) is Ralph Percy's companion, not a
# second narrator; Far from the Madding Crowd's Frank (Troy) and Black Beauty's "Steady" were not either
CHAPTER_NARRATOR_TOLD = 1.0
# a name the narration itself writes more than this many times as often as dialogue addresses it is
# someone the narrator tells about: The Adventures of Sherlock Holmes' "Holmes" (addressed 7 times,
# named 356 times outside quotes) is Watson's subject; narrators are named rarely (Pip 16 / 68, Jane
# Eyre 7 / 35, Copperfield 18 / 71, The Prisoner of Zenda's Rudolf 15 / 10)
NARRATED_LIMIT = 3.0

_NAME = r"[A-Z][\w'’-]+(?: (?:[A-Z][\w'’-]+|de|van|von))*"
STATED = (
    re.compile(r"\bmy name (?:is|was) (" + _NAME + ")"),
    re.compile(r"\b[Cc]all me (" + _NAME + ")"),
    re.compile(r"\bI (?:am|was) called (" + _NAME + ")"),
    re.compile(r"\bI called myself (" + _NAME + ")"),
)
# a narrator naming himself in full, as in a deposition: King Solomon's Mines' "I, Allan Quatermain, of
# Durban", Herland's "Jeff Margrave, and I, Vandyck Jennings." (also a will or a letter another
# character writes, so none of the name's words may be one the narration tells about often)
_SELF_NAMED = re.compile(r"\bI, ([A-Z][\w'’-]+(?: [A-Z][\w'’-]+)+)[,.]")
_TITLE = re.compile(r"(?:AUTOBIOGRAPHY|Autobiography|HISTORY|History|ADVENTURES|Adventures|MEMOIRS|Memoirs|LIFE|Life|"
                    r"CONFESSIONS|Confessions)\b[^\n]*?\b(?:OF|of)\s+((?:[A-Z][\w'’-]+\s+){0,3}[A-Z][\w'’-]+)")
_DOCUMENT_HEADING = re.compile(r"^\s*_?(?:([A-Z][A-Z.’' ]+?)['’]S\s+(?:JOURNAL|DIARY)|"
                               r"Letter,?\s+(?:from\s+)?([A-Z][\w.’' ]+?)\s+to\s)", re.MULTILINE)
# the heading of a narrative a character contributes: The Moonstone's "The events related by GABRIEL
# BETTEREDGE, house-steward", "Contributed by MISS CLACK; niece of ...", "Contributed by MATHEW BRUFF"
_NARRATIVE_HEADING = re.compile(r"^\s*_?(?:(?:The )?(?:[Ee]vents|[Ss]tory|[Nn]arrative) )?"
                                r"(?:[Rr]elated|[Cc]ontributed|[Tt]old|[Ww]ritten) by "
                                r"((?:[A-Z][\w.’'-]*[ \t]+){0,3}[A-Z][\w’'-]+)", re.MULTILINE)
# dialogue: curly double quotes, straight double quotes, or curly single quotes whose closing mark
# is not an apostrophe ("don’t"); an unclosed quote runs to the end of the passage
_QUOTE = re.compile(r"“[^”]*(?:”|$)|\"[^\"]*(?:\"|$)|‘.*?(?:’(?![^\W\d_])|$)", re.DOTALL)
# books that quote dialogue with straight single quotes ('Oh, you little wretch!' — Oliver Twist)
_SINGLE_QUOTE = re.compile(r"(?<![\w'])'(?=[^\s']).*?(?:(?<=[^\s'])'(?![\w])|$)", re.DOTALL)
_SINGLE_OPEN = re.compile(r"(?:^|\s)'[A-Z]", re.MULTILINE)
_DOUBLE_OPEN = re.compile(r"[“\"]")
_FIRST = re.compile(r"\b(?:I|me|my|mine|myself)\b")
_WORD = re.compile(r"[^\W\d_]+")
_VOCATIVE = re.compile(r"(?:^[“\"‘]|[“\"‘,]\s*|[!?]\s+)((?:(?:Mr|Mrs|Miss|Master|Dr|Mas'r|Marse)\.?\s+)?"
                       r"[A-Z][a-z’']+(?:\s+[A-Z][a-z’']+)?)\s*(?=[,!?.”\"]|\s*[—-]{1,2})")
_NARRATEE = re.compile(r", ((?:(?:Mr|Mrs|Miss|Master|Dr)\.?\s+)?[A-Z][a-z’']+)[,!?]")
# a quote opening after a word in lower case cites a title or a name ("read the “Ingoldsby Legends,”",
# "berths on the "Pocahontas"", "a look at “Jacob’s Ladder.”"): no one is addressed
_CITED_AFTER = re.compile(r"[a-z]\s$")
_MID_SENTENCE = re.compile(r"(?:[a-z,;]|\b(?:Mr|Mrs|Ms|Dr|St)\.)\s+$")   # after a word in lower case or a title
_NOT_VOCATIVE = frozenset("""I Oh O Ah Yes No Well Why What How Come Now Then But And Sir Madam Ma'am Lord God
    Good Dear Here There This That Mind Look Hush Stop Nay Ay Aye Indeed Pray Hallo Hullo Heaven Mother Father
    Papa Mamma Mama Please Thank Thanks Do Don't Never Very Quite Certainly Perhaps Who Where When Poor You
    He She It We They Not So All Only Just Ha Eh Bah Alas Hark Mercy""".split())


@dataclass(frozen=True)
class Narration:
    """``first_person``: told in the first person; ``narrator``: the narrator's name when one is
    identified; ``narrators``: the names when the book has several; ``evidence``: which rule."""

    first_person: bool
    narrator: str | None = None
    narrators: tuple[str, ...] = ()
    evidence: str | None = None
    share: float = 0.0
    addressed: tuple[tuple[str, int], ...] = field(default=(), compare=False)


def _quote_pattern(passages: Sequence[str]) -> re.Pattern:
    sample = "\n".join(passages[: min(len(passages), 400)])
    single = len(_SINGLE_OPEN.findall(sample)) > 2 * len(_DOUBLE_OPEN.findall(sample))
    return _SINGLE_QUOTE if single else _QUOTE


def _key(name: str) -> str:
    from .names import parse_name

    return parse_name(name).key


def detect_narrator(passages: Sequence[str], chapters: Sequence[str | None] | None = None,
                    front: str = "", title: str | None = None) -> Narration:
    """The narration of a book given its passages' texts (and chapter of each, if known), the
    text before its first passage (``front``: title page) and its title."""
    chapters = chapters or [None] * len(passages)
    quote = _quote_pattern(passages)

    def _narration(text: str) -> str:
        return quote.sub(" ", text)

    words = first = fp_passages = narrative = 0
    addressed: Counter = Counter()          # name key → vocatives in or beside first-person passages
    addressed_within: Counter = Counter()   # ... in first-person passages themselves
    named_in_narration: Counter = Counter()
    by_chapter: dict[str | None, Counter] = {}
    plains = [_narration(text) for text in passages]
    firsts = [len(_FIRST.findall(plain)) for plain in plains]
    for i, (text, chapter, plain, n_first) in enumerate(zip(passages, chapters, plains, firsts)):
        n_words = len(_WORD.findall(plain))
        words += n_words
        first += n_first
        if n_words >= 8:
            narrative += 1
            fp_passages += n_first > 0
        for m in re.finditer(r"\b[A-Z][a-z’']+\b", plain):
            named_in_narration[m.group().lower()] += 1
        # a line of dialogue is its own paragraph: the narrator's "I" of the paragraph before or after
        # puts it in a first-person scene ("“Huck, you …”" between two of Huck's paragraphs)
        if n_first or (i and firsts[i - 1]) or (i + 1 < len(firsts) and firsts[i + 1]):
            for q in quote.finditer(text):
                if _CITED_AFTER.search(text, max(0, q.start() - 2), q.start()):
                    continue
                said = q.group()
                called = set()   # a name called twice in one breath is one address: "“Miss Jessel, Miss Jessel!”"
                for v in _VOCATIVE.finditer(said):
                    name = v.group(1)
                    if name.split()[0].rstrip(".") in _NOT_VOCATIVE and len(name.split()) == 1:
                        continue
                    if v.start() == 0 and said[v.end(1):v.end(1) + 1] == ".":
                        continue   # a quote opening with a name and a full stop answers: "“Miss Jessel.”"
                    key = _key(name)
                    if key and key not in called:
                        called.add(key)
                        addressed[key] += 1
                        addressed_within[key] += bool(n_first)
                        by_chapter.setdefault(chapter, Counter())[key] += 1
    share = first / words if words else 0.0
    spread = fp_passages / narrative if narrative else 0.0
    top = tuple(addressed.most_common(8))
    if share < FIRST_PERSON_SHARE or spread < FIRST_PERSON_PASSAGES:
        return Narration(False, share=share, addressed=top)
    body = "\n".join(passages)

    writers = _document_writers(body)
    if len(writers) >= 2:
        return Narration(True, None, tuple(writers), "letters and diaries", share, top)
    contributors = _contributors(body)
    if len(contributors) >= 2:
        return Narration(True, None, tuple(contributors), "narratives by several hands", share, top)
    narration_only = "\n".join(plains)
    written_as_name: dict[str, bool] = {}

    def name_like(key: str) -> bool:
        """The key's last word is used as a name in the book (:func:`_written_as_name`)."""
        word = key.split()[-1]
        if word not in written_as_name:
            written_as_name[word] = _written_as_name(word, body)
        return written_as_name[word]

    for pattern in STATED:
        for m in pattern.finditer(narration_only):
            # not Ulysses' "my name is So and So", nor its "—Call me Richie", dialogue set off by a dash
            if name_like(_key(m.group(1)) or "?") and not _dash_dialogue(narration_only, m.start()):
                return Narration(True, m.group(1), (m.group(1),), "stated", share, top)

    def told(key: str) -> int:
        """How often the narration itself (outside dialogue) writes the name: its rarest word."""
        words_ = key.split()
        return min(named_in_narration.get(w, 0) for w in words_) if words_ else 0

    def plausible(key: str) -> float:
        """Addressed often, named rarely in the narration itself."""
        return addressed[key] / (1.0 + told(key) / max(1, addressed[key]))

    def narrated_about(key: str, times_addressed: int) -> bool:
        """Someone the narrator tells about, not the narrator (:data:`NARRATED_LIMIT`)."""
        return told(key) > NARRATED_LIMIT * max(1, times_addressed)

    for source in (front, title or ""):
        m = _TITLE.search(source) or (re.fullmatch(r"\s*(" + _NAME + r")\s*", source) if source is title else None)
        if m:
            cand = _key(m.group(1))
            named = [k for k in addressed if k == cand or set(k.split()) <= set(cand.split())]
            if named and not narrated_about(cand, sum(addressed[k] for k in named)):
                return Narration(True, _display(m.group(1)), (_display(m.group(1)),), "title", share, top)
    for m in _SELF_NAMED.finditer(narration_only):
        cand = _key(m.group(1))
        if not cand or not name_like(cand) or _dash_dialogue(narration_only, m.start()):
            continue
        times = sum(n for k, n in addressed.items() if _same_person(k, cand))
        # every word told rarely: David Copperfield's "I, Wilkins Micawber" (a letter of his) is not David
        if max(named_in_narration.get(w, 0) for w in cand.split()) <= NARRATED_LIMIT * max(1, times):
            return Narration(True, _display(m.group(1)), (_display(m.group(1)),), "stated", share, top)
    narratee = Counter()   # a frame story: the inner narrator's narration addresses its listener
    for v in _NARRATEE.finditer(narration_only):
        key = _key(v.group(1))
        if key and v.group(1).split()[0].rstrip(".") not in _NOT_VOCATIVE:
            narratee[key] += 1
    def eligible(key: str) -> bool:
        return addressed[key] >= MIN_ADDRESSED and name_like(key)

    ranked = sorted(filter(eligible, addressed), key=plausible, reverse=True)
    if not ranked:
        return Narration(True, share=share, addressed=top)
    if narratee:
        listener, n = narratee.most_common(1)[0]
        if (n >= MIN_ADDRESSED and not _same_person(listener, ranked[0]) and not narrated_about(listener, n)
                and name_like(listener)):
            return Narration(True, None, (listener.title(), ranked[0].title()), "frame story", share, top)
    winners = Counter()
    for counts in by_chapter.values():
        best = max(counts, key=lambda k: (plausible(k) if eligible(k) else -1, counts[k]))
        if counts[best] >= 2 and eligible(best) and told(best) <= CHAPTER_NARRATOR_TOLD * addressed[best]:
            winners[best] += 1   # not Treasure Island's Israel Hands, whom Jim addresses on the Hispaniola
    decided = sum(winners.values())
    if len(winners) >= 2 and decided >= 4:
        (a, na), (b, nb) = winners.most_common(2)
        if nb >= SECOND_NARRATOR_SHARE * decided and not _same_person(a, b):
            return Narration(True, None, (a.title(), b.title()), "chapters addressed to different names", share, top)
    if narrated_about(ranked[0], addressed[ranked[0]]):
        return Narration(True, share=share, addressed=top)
    # a name seldom said inside the narrator's own paragraphs needs more calls beside them: The
    # Country of the Pointed Firs' unnamed narrator is not "Almiry" (Mrs. Todd, called so six times)
    if addressed_within[ranked[0]] < MIN_ADDRESSED and addressed[ranked[0]] < MIN_ADDRESSED_BESIDE:
        return Narration(True, share=share, addressed=top)
    return Narration(True, ranked[0].title(), (ranked[0].title(),), "addressed", share, top)


# a section's heading that names who writes it: "_Dr. Seward's Diary._", "MINA HARKER'S JOURNAL", "Dr.
# Seward's Phonograph Diary, spoken by Van Helsing"; "_Letter, Lucy Westenra to Mina Murray_", "Telegram
# from Arthur Holmwood to …", "Memorandum left by Lucy Westenra"; The Moonstone's "Contributed by MISS CLACK"
_DIARY_HEADING = re.compile(r"(?P<who>[A-Z][\w.’' -]{1,60}?)['’]s\s+"
                            r"(?:phonograph\s+)?(?:journal|diary|memorandum)\b"
                            r"(?:.*?\bspoken by (?P<speaker>[A-Z][\w.’' -]{1,40}?)[._,]*\s*$)?", re.IGNORECASE)
_LETTER_HEADING = re.compile(r"(?:letter|telegram|note|memorandum)\b(?:\s*\([^)]*\))?,?\s+"
                             r"(?:left\s+)?(?:from\s+|by\s+)?"
                             r"(?P<who>[A-Z][\w.’' &-]*?)(?=,|\s+to\s|\s+in\s|[._]*\s*$)", re.IGNORECASE)
_ROMAN_HEADING = re.compile(r"[IVXLC]+\.?")   # a chapter numbered alone, as The Moonstone's "I", "II"
_DATED_ENTRY = re.compile(r"_[^_\n]{1,80}_\s*[.,:]?\s*(?:--|—)")   # "_3 May. Bistritz._--Left Munich…"
SECTION_HEADING_WORDS = 16   # a section's heading is this short


class Section(NamedTuple):
    """Who writes a passage of a book of several narrators, and whether it is a letter (whose
    paragraphs a book may set in quotes: Dracula's letters)."""

    writer: str
    letter: bool = False


def _section_heading(text: str, is_heading: Callable[[str], bool]) -> tuple[bool, Section | None]:
    """Whether ``text`` is a section's heading, and the section it opens (None for a heading that
    names no writer: a newspaper cutting, a ship's log). A chapter heading, a dated entry or a
    quotation is none."""
    head = text.strip().strip("_").strip()
    if (len(head.split()) > SECTION_HEADING_WORDS or head.startswith(("\"", "“", "'", "‘"))
            or _DATED_ENTRY.match(text.strip()) or is_heading(text) or _ROMAN_HEADING.fullmatch(head)):
        return False, None
    for pattern, letter in ((_DIARY_HEADING, False), (_LETTER_HEADING, True), (_NARRATIVE_HEADING, False)):
        m = pattern.match(head)
        if m:
            groups = m.groupdict()
            found = groups.get("speaker") or groups.get("who") or m.group(1)
            return True, Section(_display(found.strip(" .,_")), letter)
    return text.strip().startswith("_") or head.isupper(), None


def section_writers(passages: Sequence[str], is_heading: Callable[[str], bool] = lambda text: False
                    ) -> list[Section | None]:
    """Per passage, the journal, diary, letter or narrative it belongs to in a book made of them
    (Dracula; The Moonstone's narratives): the writer a heading names, until the next heading that
    names another or none (a newspaper cutting, a ship's log); None outside such sections.
    ``is_heading``: a chapter heading, which does not end a section (The Moonstone's narratives run
    over several chapters)."""
    out: list[Section | None] = []
    section = None
    for text in passages:
        heading, opened = _section_heading(text, is_heading)
        if heading:
            section = opened
        out.append(section)
    return out


def _written_as_name(word: str, body: str) -> bool:
    """Whether the book uses ``word`` (lower case) as a name: capitalised more often than not, and
    at least once after a word in lower case, a comma or a title ("said Pip", "Well, Pip", "Mr.
    Lockwood"), not only where any word is capitalised — at a sentence's or a quote's start, as The
    Circular Staircase's "Nonsense," I said, Black Beauty's "Steady! Woah! Steady!", The Turn of the
    Screw's "Nothing."
    A word the text never writes as such (an accented name's key) is given the benefit of the doubt."""
    capitalised = lower = mid_sentence = 0
    for m in re.finditer(rf"(?<![\w'’]){re.escape(word)}\b", body, re.IGNORECASE):
        if m.group()[0].islower():
            lower += 1
        else:
            capitalised += 1
            mid_sentence += bool(_MID_SENTENCE.search(body, max(0, m.start() - 6), m.start()))
    return capitalised == 0 or (mid_sentence > 0 and lower < capitalised)


def _dash_dialogue(text: str, pos: int) -> bool:
    """Whether ``pos`` lies in a line opened by a dash, as Joyce sets dialogue ("—Call me Richie.")."""
    return text[text.rfind("\n", 0, pos) + 1:pos].lstrip().startswith(("—", "--", "―"))


def _same_person(a: str, b: str) -> bool:
    return bool(set(a.split()) & set(b.split()))


def _display(name: str) -> str:
    return " ".join(w if not w.isupper() else w.title() for w in name.split())


def _contributors(body: str) -> list[str]:
    """Distinct names of narrative headings ("Contributed by MISS CLACK"), in order of appearance."""
    seen: dict[str, str] = {}
    for m in _NARRATIVE_HEADING.finditer(body):
        name = m.group(1)
        key = _key(name)
        if key and key.split()[-1] not in seen:
            seen[key.split()[-1]] = _display(" ".join(w for w in name.split() if _key(w)))
    return list(seen.values())


def _document_writers(body: str) -> list[str]:
    """Distinct writers of journal, diary and letter headings, when the book is made of them."""
    seen: Counter = Counter()
    for m in _DOCUMENT_HEADING.finditer(body):
        who = _key(m.group(1) or m.group(2) or "")
        if who:
            seen[who.split()[-1]] += 1
    if sum(seen.values()) < 4:
        return []
    return [w.title() for w, c in seen.most_common() if c >= 2]
