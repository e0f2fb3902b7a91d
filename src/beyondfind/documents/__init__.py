"""Documents: reading files (.txt with Gutenberg header/footer stripped, .epub, .html, .md, .csv,
.jsonl) into :class:`Document` records whose passages carry offsets into the text."""

from .model import Document, Passage
from .readers import READERS, load_document, parse_document

__all__ = ["Document", "Passage", "READERS", "load_document", "parse_document"]
