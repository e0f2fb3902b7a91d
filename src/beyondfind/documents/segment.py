"""Passage segmentation: maximal blocks of non-blank lines (the judged data's passage convention, docs/evaluation.md)."""

from __future__ import annotations

import re

from .model import Passage

# A line that starts with a no-break space opens a new paragraph (Gutenberg's indented paragraphs).
_BLOCK = re.compile(r"[^\n]*\S[^\n]*(?:\n(?!\xa0)[^\n]*\S[^\n]*)*")
# "Chapter i." (Tom Jones), "CHAP. I." (Mary: A Fiction) and "_Chapter I_" (set in italics: Miss Marjoribanks) too
_CHAPTER = re.compile(r"^\s*_?(?:CHAPTER|Chapter|CHAP|Chap|BOOK|Book|PART|Part|VOLUME|Volume|STAVE|Stave|LETTER|Letter"
                      r"|ADVENTURE|Adventure)\b"
                      r"[\s.]*(?:[IVXLCDM]+|[ivxlcdm]+|\d+|[A-Z][a-z]+|[A-Z]{3,})(?:\b|(?=_))")
# a chapter numbered alone: "I", "XII." (Of Human Bondage, Tess, The Age of Innocence's "Book I" then "I.")
_NUMERAL = re.compile(r"\s*_?[IVXLC]+\.?_?\s*")


# Heading levels: a VOLUME holds PARTs, a PART holds BOOKs, a BOOK holds CHAPTERs (War and Peace,
# Les Misérables); a chapter is named with the headings above it.
_LEVELS = (("volume",), ("part",), ("book",), ("chapter", "chap", "stave", "letter", "adventure"))


CHAPTER_LEVEL = len(_LEVELS) - 1


def heading_level(heading: str) -> int:
    """0 volume, 1 part, 2 book, 3 chapter (and anything else)."""
    title = heading_title(heading)
    first = title.split(maxsplit=1)[0].lower().strip(".:") if title else ""
    return next((i for i, words in enumerate(_LEVELS) if first in words), len(_LEVELS) - 1)


class ChapterNamer:
    """Names chapters by their place in the book: ``BOOK ONE: 1805 · CHAPTER XII``.

    >>> n = ChapterNamer()
    >>> n.heading("BOOK ONE: 1805"), n.heading("CHAPTER XII"), n.heading("BOOK TWO"), n.heading("CHAPTER I")
    ('BOOK ONE: 1805', 'BOOK ONE: 1805 · CHAPTER XII', 'BOOK TWO', 'BOOK TWO · CHAPTER I')
    """

    MAX_PART = 48

    def __init__(self) -> None:
        self.open: dict[int, str] = {}
        self.alone = False   # the open chapter's heading is a numeral or a title alone (heading(alone=True))

    @property
    def in_chapter(self) -> bool:
        """A chapter heading ("CHAPTER I") is open: a numeral after it numbers a section of that
        chapter (Main Street's "CHAPTER I" then "I", "II"), not a chapter."""
        return CHAPTER_LEVEL in self.open and not self.alone

    def heading(self, text: str, alone: bool = False) -> str:
        """The chapter name the heading ``text`` opens; ``alone``: a chapter's heading without the word
        (a numeral: :func:`is_numeral_heading`; a title in capitals: :func:`is_capitals_title`)."""
        title = heading_title(text)
        level = CHAPTER_LEVEL if alone else heading_level(title)
        if level == CHAPTER_LEVEL:
            self.alone = alone
        self.open = {lvl: t for lvl, t in self.open.items() if lvl < level}
        self.open[level] = title
        parts = [self.open[lvl] for lvl in sorted(self.open)][-2:]   # the chapter and the level above it
        return " · ".join(p if len(p) <= self.MAX_PART or p is parts[-1] else p[: self.MAX_PART - 1] + "…"
                          for p in parts)


# "I. The Period" (A Tale of Two Cities): a roman numeral, a dot and a short capitalised title on one line
_NUMBERED_TITLE = re.compile(r"^[IVXLC]+\.\s+[A-Z][^\n]{0,60}$")
# without the dot (The House of the Seven Gables' "I  The Old Pyncheon Family", "II The Little
# Shop-Window"): see is_numeral_heading
_NUMERAL_TITLE = re.compile(r"\s*(?:I\s{2,}|[IVXLC]{2,}\s+|[VXLC]\s+)([A-Z][^\n]{0,60})")


def heading_title(block: str) -> str:
    """A heading block as a chapter's name: one line, no italics underscores, at most 80 characters
    (``"_Chapter I_"`` → ``"Chapter I"``)."""
    text = block.strip()
    if len(text) > 2 and text[0] == text[-1] == "_":
        text = text[1:-1]
    return " ".join(text.split())[:80]


def _one_short_line(block: str) -> bool:
    return len(block) <= 80 and "\n" not in block.strip()


def is_numeral_heading(block: str) -> bool:
    """A block that is a roman numeral alone ("I", "XII.", "_IV_") or a numeral and a title on one
    line ("II The Little Shop-Window"; "I" then needs two spaces: "I Go to Bristol" is a title, "I
    TAKE A COUNTRY HOUSE" another): a chapter's heading in a book that numbers its chapters so, a
    section's in one whose chapters have headings of their own (:attr:`ChapterNamer.in_chapter`)."""
    if not _one_short_line(block):
        return False
    if _NUMERAL.fullmatch(block):
        return True
    titled = _NUMERAL_TITLE.fullmatch(block)
    return bool(titled and is_title_line(titled.group(1)))   # a title line ends no sentence


# a title set in capitals alone on its line: Dubliners' "THE SISTERS", "ARABY", "A LITTLE CLOUD"
_CAPITALS_TITLE = re.compile(r"\s*[A-Z][A-Z'’ -]*[A-Z]\s*")
CAPITALS_TITLE_WORDS = 8
MIN_CAPITALS_TITLES = 3


def is_capitals_title(block: str) -> bool:
    """A block of one line in capitals, at most :data:`CAPITALS_TITLE_WORDS` words and no
    punctuation but apostrophes and hyphens (not a letter's "STONE GATE, WORCESTER," nor "LATER."):
    a story's title in a collection that has no other headings (:func:`passages_from_blocks`)."""
    return (_one_short_line(block) and bool(_CAPITALS_TITLE.fullmatch(block))
            and len(block.split()) <= CAPITALS_TITLE_WORDS)


def is_heading(block: str) -> bool:
    """A chapter heading: a short block of at most two lines ("CHAPTER XII", "BOOK ONE: 1805",
    "CHAPTER I.\nDown the Rabbit-Hole", a collection's "ADVENTURE I. A SCANDAL IN BOHEMIA"); a
    table of contents in one block is not."""
    short = len(block) <= 200 and block.strip().count("\n") <= 1
    return bool(short and _CHAPTER.match(block)) or bool(_NUMBERED_TITLE.match(block))


def is_contents(block: str) -> bool:
    """A table of contents' list: three lines or more, nearly all set as titles
    (:func:`is_title_line`: "ONE  PLAYING PILGRIMS", "TWO  A MERRY CHRISTMAS")."""
    most = block.count("\n") + 1   # lines, blank ones too: every passage is asked, and a paragraph
    if most < 3:                     # of prose stops at its first lines
        return False
    lines = misses = 0
    for line in block.splitlines():
        if line.strip():
            lines += 1
            if not is_title_line(line):
                misses += 1
                if misses > 0.2 * most:
                    return False
    return lines >= 3 and misses <= 0.2 * lines


# words a title leaves lowercase ("Tom Swims the River", "Pride and Prejudice, by Jane Austen")
_TITLE_SMALL_WORDS = frozenset("a an the and or nor but of in on at to by for from with upon into as her his its "
                               "their our my your vs via".split())
_SENTENCE_END = tuple(".!?\"”’':;")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
TITLE_LINE_WORDS = 30


def is_title_line(block: str) -> bool:
    """A block set as a title rather than prose: at most three lines and :data:`TITLE_LINE_WORDS`
    words, no sentence-final punctuation at its end, and every word outside the small words of
    titles capitalised — a chapter heading, an entry of a table of contents or of a list of
    illustrations ("Tom Astonishes the School"), a byline ("By Jane Austen").

    >>> is_title_line("Tom Astonishes the School"), is_title_line("By Jane Austen")
    (True, True)
    >>> is_title_line("Tom swam the river."), is_title_line("Yours affectionately,\\nMina Murray")
    (False, False)
    """
    text = block.strip()
    if text.count("\n") > 2 or text.endswith(_SENTENCE_END):   # most prose stops here, before the regex
        return False
    words = 0
    for m in _WORD.finditer(text):   # a line of prose stops at its first word in lower case
        w = m.group()
        words += 1
        if words > TITLE_LINE_WORDS or not (w[0].isupper() or w.lower() in _TITLE_SMALL_WORDS):
            return False
    return words > 0


OPENING_TITLE_WORDS = 12
# a first line that names a section, not the book: The Secret Adversary's "PROLOGUE", Tess's "Phase
# the First: The Maiden" (a part "the First", "the Second"...)
_SECTION_TITLE = re.compile(r"(?i)(?:prologue|preface|foreword|introduction|epilogue|contents|dedication)\b[.:]?$"
                            r"|\w+ the (?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\b")


def opening_title(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The title a text opens with, for a plain text that names itself nowhere else (no Gutenberg
    ``Title:`` line): its first block, when that is one line set as a title (:func:`is_title_line`)
    of at most :data:`OPENING_TITLE_WORDS` words and no chapter or section heading ("PROLOGUE",
    "Phase the First: The Maiden"). A line in capitals gets a title's case. (A first line that opens
    a chapter only in its text's context, a numeral alone, is left out by the reader.)

    >>> text = "THE COUNT OF MONTE CRISTO\\n\\nby Alexandre Dumas"
    >>> opening_title(text, blocks(text)), opening_title("CHAPTER I\\n\\nIt was.", blocks("CHAPTER I\\n\\nIt was."))
    ('The Count of Monte Cristo', None)
    """
    if not spans:
        return None
    line = text[spans[0][0]:spans[0][1]]
    words = line.split()
    if ("\n" in line or not words or len(words) > OPENING_TITLE_WORDS or not line[-1].isalnum()
            or not is_title_line(line) or is_heading(line) or _SECTION_TITLE.match(line)):
        return None
    if line.isupper():
        return " ".join(w.lower() if k and w.lower() in _TITLE_SMALL_WORDS else w.capitalize()
                        for k, w in enumerate(words))
    return " ".join(words)


def blocks(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` of each maximal block of non-blank lines within ``text[start:end]``.

    Leading and trailing whitespace (no-break spaces included) is trimmed from each block; this
    reproduces the offsets of every judged passage in ``shared/data/judgments/books``.
    """
    end = len(text) if end is None else end
    out = []
    for m in _BLOCK.finditer(text, start, end):
        s, e = m.start(), m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return out


# A text whose blocks average more words than this sets its paragraphs apart without blank lines
# (Far from the Madding Crowd as LitBank has it: 172 blocks, whole chapters of up to 6,437 words);
# the 22 novels of the shared data average 26-88 words a block, the other LitBank texts at most 189.
UNSPACED_BLOCK_WORDS = 400
# a line shorter than this share of the text's usual line width ends its paragraph
SHORT_LINE = 0.75
# a text whose usual line is longer than this is not wrapped: each line is a paragraph (wrapped
# texts break their lines at 60-80 characters)
UNWRAPPED_LINE = 250
_PARAGRAPH_END = tuple(".!?\"”’'")
_OPENERS = "\"“‘'-—_"
_LINE = re.compile(r"[^\n]+")


def paragraph_blocks(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans``, or, in a text that writes its paragraphs without blank lines between them, each
    block cut at its paragraphs' ends: a line ending a sentence that is shorter than
    :data:`SHORT_LINE` of the text's usual (90th percentile) line width and followed by a line
    opening with a capital letter, a quote or a dash. In a text of one unwrapped line per
    paragraph (its usual line longer than :data:`UNWRAPPED_LINE` characters) each line is one.
    Texts with blank lines between paragraphs — every judged book — keep their blocks as they are."""
    if not spans:
        return spans
    words = sum(len(text[s:e].split()) for s, e in spans)
    if words <= UNSPACED_BLOCK_WORDS * len(spans):
        return spans
    lines_of = [[(m.start(), m.end()) for m in _LINE.finditer(text, s, e)] for s, e in spans]
    widths = sorted(len(text[s:e].rstrip()) for lines in lines_of for s, e in lines)
    usual = widths[int(0.9 * (len(widths) - 1))]
    if usual > UNWRAPPED_LINE:
        return [(s + len(text[s:e]) - len(text[s:e].lstrip()), s + len(text[s:e].rstrip()))
                for lines in lines_of for s, e in lines if text[s:e].strip()]
    short = SHORT_LINE * usual
    out = []
    for (s, e), block_lines in zip(spans, lines_of):
        start = s
        for (ls, le), (ns, ne) in zip(block_lines, block_lines[1:]):
            line, nxt = text[ls:le].rstrip(), text[ns:ne].lstrip()
            if line.endswith(_PARAGRAPH_END) and len(line) < short and nxt and (nxt[0].isupper() or nxt[0] in _OPENERS):
                out.append((start, ls + len(line)))
                start = ne - len(nxt)
        out.append((start, e))
    return out


def passages_from_blocks(text: str, spans: list[tuple[int, int]],
                         chapters: list[str | None] | None = None) -> tuple[Passage, ...]:
    """Passages for the given spans; a block that looks like a chapter heading starts a chapter."""
    out = []
    chapter: str | None = None
    namer = ChapterNamer()
    # numerals alone number chapters when there are several (one is a word: Ulysses' "I."); titles in
    # capitals alone head chapters in a text with no other heading (Dubliners' stories)
    numeral = [chapters is None and is_numeral_heading(text[s:e]) for s, e in spans]
    capital = [chapters is None and is_capitals_title(text[s:e]) for s, e in spans]
    numerals = sum(numeral) >= 2
    capitals = (not numerals and sum(capital) >= MIN_CAPITALS_TITLES
                and not any(is_heading(text[s:e]) for s, e in spans))
    for i, (s, e) in enumerate(spans):
        body = text[s:e]
        if chapters is not None:
            chapter = chapters[i]
        elif is_heading(body) and not (heading_level(body) < CHAPTER_LEVEL and i + 1 < len(spans)
                                       and is_contents(text[spans[i + 1][0]:spans[i + 1][1]])):
            # (a part listed in a table of contents, its chapters below it, opens nothing: Little
            # Women's contents end with "PART 2", which named every chapter of part 1)
            chapter = namer.heading(body)
        elif (numerals and numeral[i] and not namer.in_chapter) or (capitals and capital[i]):
            chapter = namer.heading(body, alone=True)
        out.append(Passage(len(out), s, e, text, chapter))
    return tuple(out)
