"""Readers for each supported format; :func:`load_document` picks one by file extension."""

from __future__ import annotations

import codecs
import csv
import io
import re
import warnings
from collections.abc import Callable
from pathlib import Path

from .. import BeyondfindError
from ..jsonl import iter_jsonl
from .model import Document, Passage
from .segment import ChapterNamer, blocks, opening_title, paragraph_blocks, passages_from_blocks

_GUTENBERG_START = re.compile(r"^\*\*\* ?START OF (?:THE|THIS) PROJECT GUTENBERG.*$", re.MULTILINE | re.IGNORECASE)
_GUTENBERG_END = re.compile(r"^\*\*\* ?END OF (?:THE|THIS) PROJECT GUTENBERG.*$", re.MULTILINE | re.IGNORECASE)
_TITLE = re.compile(r"^Title:\s*(.+)$", re.MULTILINE)

TABLE_TEXT_COLUMNS = ("text", "sentence")
TABLE_CHAPTER_COLUMNS = ("chapter", "section", "doc_id", "document", "article_id")
HTML_BLOCKS = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre", "dd", "dt", "td")
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
MIN_TEXT_SHARE = 0.95   # printable characters (letters, digits, punctuation, whitespace) in real text


def decode_text(data: bytes, name: str) -> str:
    """Text from bytes: by byte-order mark (UTF-8/16/32), else UTF-8, else cp1252 (measured:
    Windows-1252 is what non-UTF-8 Project Gutenberg and web texts mostly are). Content that does
    not read as text (random or binary bytes) is rejected rather than indexed as noise."""
    text = None
    for bom, codec in BOMS:   # UTF-32-LE's BOM starts with UTF-16-LE's: check 32 first
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                raise BeyondfindError(f"{name}: starts with a {codec.upper()} byte-order mark but is not "
                                      f"valid {codec.upper()}; save it as UTF-8") from None
            break
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    if not looks_like_text(text):
        raise BeyondfindError(f"{name}: looks like a binary file, not text; give a .txt, .md, .html, .epub, "
                              ".csv or .jsonl file")
    return text


def looks_like_text(text: str, sample: int = 65_536) -> bool:
    """At least :data:`MIN_TEXT_SHARE` of a sample are printable or whitespace characters, and
    few are replacement characters (undecodable bytes)."""
    head = text[:sample]
    if not head:
        return True
    good = sum(1 for ch in head if ch.isprintable() or ch in "\n\r\t\f") - 2 * head.count("\ufffd")
    return good >= MIN_TEXT_SHARE * len(head)


def gutenberg_body(text: str) -> tuple[int, int]:
    """``[start, end)`` between the ``*** START OF`` and ``*** END OF`` lines, or the whole text."""
    start_m = _GUTENBERG_START.search(text)
    start = start_m.end() if start_m else 0
    end_m = _GUTENBERG_END.search(text, start)
    end = end_m.start() if end_m else len(text)
    return start, end


def read_text(data: bytes, name: str) -> Document:
    text = decode_text(data, name)
    start, end = gutenberg_body(text)
    spans = paragraph_blocks(text, blocks(text, start, end))
    header = _TITLE.search(text[:start]) if start else None
    passages = passages_from_blocks(text, spans)
    if header:
        title = header.group(1).strip()
    else:   # a first line that opens a chapter is none: a numeral alone ("I"), a story's title (Dubliners)
        title = opening_title(text, spans) if passages and passages[0].chapter is None else None
    return Document(name, "txt", text, passages, _sha(data), title)


def read_markdown(data: bytes, name: str) -> Document:
    text = decode_text(data, name)
    spans = blocks(text)
    title = next((text[s:e].lstrip("# ").strip() for s, e in spans if text[s:e].startswith("# ")), None)
    chapters, current = [], None
    namer = ChapterNamer()
    for s, e in spans:
        if text[s:e].startswith("#"):
            current = namer.heading(text[s:e].lstrip("# ").strip())
        chapters.append(current)
    return Document(name, "md", text, passages_from_blocks(text, spans, chapters), _sha(data), title)


def _bs4():
    try:
        from bs4 import BeautifulSoup
    except ImportError:
        raise BeyondfindError("reading HTML/EPUB needs beautifulsoup4: pip install 'beyondfind[formats]'") from None
    return BeautifulSoup


def _soup(html: str | bytes):
    """The parsed HTML. bs4 warns when a short text looks like a file name or a URL; here the text
    is the document (a user's one-line HTML file is no mistake), so that warning is not printed."""
    beautiful_soup = _bs4()
    import bs4

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", getattr(bs4, "MarkupResemblesLocatorWarning", UserWarning))
        return beautiful_soup(html, "html.parser")


def _html_units(html: str | bytes) -> tuple[list[tuple[str, str]], str | None]:
    """(tag, text) of each block element in document order, and the ``<title>``."""
    soup = _soup(html)
    for bad in soup(["script", "style", "head", "nav"]):
        if bad.name == "head":
            continue
        bad.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else None
    units = []
    body = soup.body or soup
    for el in body.find_all(HTML_BLOCKS):
        if el.find(HTML_BLOCKS):  # keep leaves only: nested blocks are emitted themselves
            continue
        txt = " ".join(el.get_text().split())
        if txt:
            units.append((el.name, txt))
    if not units:
        txt = " ".join(body.get_text(" ", strip=True).split())
        if txt:
            units.append(("p", txt))
    return units, title


class _Builder:
    """Accumulates extracted text units into one text with offsets and chapters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[tuple[int, int, str | None]] = []
        self.length = 0

    def add(self, text: str, chapter: str | None) -> None:
        if self.parts:
            self.parts.append("\n\n")
            self.length += 2
        self.spans.append((self.length, self.length + len(text), chapter))
        self.parts.append(text)
        self.length += len(text)

    def build(self) -> tuple[str, tuple[Passage, ...]]:
        """The joined text and its passages."""
        text = "".join(self.parts)
        return text, tuple(Passage(i, s, e, text, ch) for i, (s, e, ch) in enumerate(self.spans))


def read_html(data: bytes, name: str) -> Document:
    units, title = _html_units(decode_text(data, name))
    b = _Builder()
    chapter = None
    namer = ChapterNamer()
    for tag, txt in units:
        if tag in HEADINGS:
            chapter = namer.heading(txt)
        b.add(txt, chapter)
    return Document(name, "html", *b.build(), _sha(data), title)


def read_epub(data: bytes, name: str) -> Document:
    try:
        import ebooklib
        from ebooklib import epub
    except ImportError:
        raise BeyondfindError("reading EPUB needs ebooklib: pip install 'beyondfind[formats]'") from None
    import tempfile
    import zipfile

    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise BeyondfindError(f"{name}: not a valid EPUB (not a zip archive)")
    with tempfile.NamedTemporaryFile(suffix=".epub") as tmp:
        tmp.write(data)
        tmp.flush()
        try:
            book = epub.read_epub(tmp.name, options={"ignore_ncx": True})
        except Exception as exc:  # ebooklib raises many types on corrupt input
            raise BeyondfindError(f"{name}: corrupt EPUB ({exc})") from None
    titles = book.get_metadata("DC", "title")
    toc = _epub_toc_titles(book.toc)
    b = _Builder()
    namer = ChapterNamer()
    chapter = None
    for item_id, _linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        units, _ = _html_units(item.get_content())
        named_by_toc = item.get_name() in toc
        if named_by_toc:   # "Chapter II. The Boy" from the table of contents, not the file's id
            chapter = namer.heading(toc[item.get_name()])
        for k, (tag, txt) in enumerate(units):
            if tag in HEADINGS and not (named_by_toc and k == 0):   # further chapters inside the file
                chapter = namer.heading(txt)
            b.add(txt, chapter)
    return Document(name, "epub", *b.build(), _sha(data), titles[0][0] if titles else None)


def _epub_toc_titles(toc) -> dict[str, str]:
    """File name → title from the EPUB's table of contents (first entry per file, fragments dropped)."""
    out: dict[str, str] = {}

    def walk(entries) -> None:
        for entry in entries:
            if isinstance(entry, tuple):   # (Section, [children])
                section, children = entry
                walk([section])
                walk(children)
                continue
            href = (getattr(entry, "href", "") or "").split("#")[0]
            title = " ".join((getattr(entry, "title", "") or "").split())
            if href and title:
                out.setdefault(href, title)

    walk(toc or [])
    return out


def _table_rows(data: bytes, name: str, fmt: str) -> list[dict]:
    text = decode_text(data, name)
    if fmt == "csv":
        try:
            return list(csv.DictReader(io.StringIO(text)))
        except csv.Error as exc:
            raise BeyondfindError(f"{name}: malformed CSV ({exc})") from None
    return [row for _n, row in iter_jsonl(text, name)]


def read_table(data: bytes, name: str, fmt: str) -> Document:
    rows = _table_rows(data, name, fmt)
    if not rows:
        raise BeyondfindError(f"{name}: no rows")
    column = next((c for c in TABLE_TEXT_COLUMNS if c in rows[0]), None)
    if column is None:
        raise BeyondfindError(f"{name}: no 'text' or 'sentence' column (columns: {', '.join(map(str, rows[0]))})")
    chapter_col = next((c for c in TABLE_CHAPTER_COLUMNS if c in rows[0]), None)
    b = _Builder()
    for row in rows:
        txt = " ".join(str(row.get(column) or "").split())
        if txt:
            b.add(txt, str(row[chapter_col]) if chapter_col and row.get(chapter_col) is not None else None)
    return Document(name, fmt, *b.build(), _sha(data))


def _sha(data: bytes) -> str:
    import hashlib   # not imported by a query for an indexed document

    return hashlib.sha256(data).hexdigest()


READERS: dict[str, Callable[[bytes, str], Document]] = {
    ".txt": read_text,
    ".text": read_text,
    ".md": read_markdown,
    ".markdown": read_markdown,
    ".html": read_html,
    ".htm": read_html,
    ".xhtml": read_html,
    ".epub": read_epub,
    ".csv": lambda d, n: read_table(d, n, "csv"),
    ".jsonl": lambda d, n: read_table(d, n, "jsonl"),
}


# the ``Document.format`` each extension's reader gives (a test checks it against the readers)
FORMATS: dict[str, str] = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md", ".html": "html",
                           ".htm": "html", ".xhtml": "html", ".epub": "epub", ".csv": "csv", ".jsonl": "jsonl"}


def content_key(data: bytes, name: str) -> tuple[str, str] | None:
    """(sha256, format) that :func:`parse_document` would give ``data`` named ``name``, without
    parsing it (a library finds an indexed file by them); None for an unsupported extension."""
    fmt = FORMATS.get(Path(name).suffix.lower())
    return (_sha(data), fmt) if fmt else None


def parse_document(data: bytes, name: str) -> Document:
    """Parse file content by the extension of ``name``."""
    ext = Path(name).suffix.lower()
    reader = READERS.get(ext)
    if reader is None:
        raise BeyondfindError(f"{name}: unsupported file type {ext or '(none)'}; supported: {', '.join(sorted(READERS))}")
    document = reader(data, Path(name).name)
    if not document.passages:
        raise BeyondfindError(f"{name}: has no text to search (empty, or only whitespace or markup)")
    return document


def read_input_file(path: Path) -> bytes:
    """The bytes of an input file, or an error naming what is wrong with the path."""
    if path.is_dir():
        raise BeyondfindError(f"{path}: is a directory; give a file")
    if not path.exists():
        raise BeyondfindError(f"{path}: no such file")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BeyondfindError(f"{path}: cannot read ({exc.strerror})") from None


def load_document(path: str | Path) -> Document:
    """Read and parse a document file; errors name the file and what is wrong."""
    p = Path(path)
    return parse_document(read_input_file(p), p.name)
