"""The annotated index: documents and their annotations in a SQLite library."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..documents import Document
from ..documents.readers import content_key, parse_document, read_input_file
from .book import IndexedBook
from .store import DocumentInfo, Library, default_library_path
from .version import ANNOTATOR_VERSION

__all__ = ["IndexedBook", "DocumentInfo", "Library", "annotate_document", "default_library_path", "index_document", "up_to_date"]


def __getattr__(name: str):
    """``annotate_document`` on first use: a query never annotates, and the annotator's modules
    (spool, name evidence, anaphora) were ~60 ms of a cold ``beyondfind rank``'s imports."""
    if name == "annotate_document":
        from .annotate import annotate_document
        return annotate_document
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def up_to_date(info: DocumentInfo) -> bool:
    """Whether a stored document was annotated by this beyondfind's annotator (else it is redone)."""
    return info.pipeline.endswith(f"+a{ANNOTATOR_VERSION}")


# below this many passages, starting worker processes costs more than it saves
MIN_PASSAGES_FOR_PROCESSES = 300


def index_document(library: Library, source: str | Path | Document, nlp_loader: Callable[[], object],
                   progress_factory: Callable[[int, str], Callable[[int], None]] | None = None,
                   processes: int = 1) -> tuple[int, bool]:
    """Index ``source`` unless a document with the same content is already there.

    Returns (document id, whether it was newly indexed). ``nlp_loader`` is only called when
    annotation is needed, so re-indexing an unchanged file loads no model. ``processes`` > 1 runs
    the pipeline and the record extraction in that many forked processes for a long document;
    only a single-threaded caller (the CLI) should ask for it, since forking a threaded process
    (a server) can deadlock.
    """
    if isinstance(source, Document):
        document: Document | None = source
        key = (source.sha256, source.format)
    else:   # an indexed file is found by its bytes' key, not parsed again (Huck Finn: ~30 ms)
        path = Path(source)
        data = read_input_file(path)
        document, key = None, content_key(data, path.name)
    known = library.find(*key) if key else None
    if known is not None and up_to_date(known):
        return known.id, False
    if document is None:
        document = parse_document(data, path.name)
    progress = progress_factory(len(document.passages), document.name) if progress_factory else None
    n_process = processes if len(document.passages) >= MIN_PASSAGES_FOR_PROCESSES else 1
    from .annotate import annotate_into
    from .spool import RecordSpool

    with RecordSpool() as spool:   # the records wait on disk, not in memory, until they are stored
        annotations = annotate_into(spool, document, nlp_loader(), n_process=n_process, progress=progress)
        return library.store(document, annotations), True
