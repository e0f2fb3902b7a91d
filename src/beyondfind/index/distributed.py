"""Index many documents on a Dask cluster: annotation on the workers, one writer.

``beyondfind index PATH... --dask [--workers N | --scheduler ADDRESS]``:

1. the client expands folders into document files and parses each one (a bad file is reported,
   the others go on); documents already in the library, annotated by this beyondfind, are skipped,
   so an interrupted run resumes where it stopped;
2. each remaining document is sent to a worker *as parsed text* (no shared file system needed) and
   annotated there; a worker loads the NLP pipeline once and keeps it for its later documents;
3. finished annotations come back as they complete and the client alone writes them into the
   SQLite library (SQLite has one writer; annotation, not writing, is the slow part);
4. a document whose annotation fails is retried (``retries``) and, if it still fails, reported at
   the end without stopping the run.

Without ``--scheduler`` a :class:`distributed.LocalCluster` with ``workers`` single-threaded worker
processes runs on this machine; with it, any ``distributed`` cluster (see the README for a
multi-machine setup).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import BeyondfindError
from ..documents import Document, parse_document
from ..documents.readers import READERS, read_input_file
from .annotate import annotate_document
from .records import Annotations
from .store import Library


@dataclass
class IndexReport:
    indexed: list[tuple[str, int]] = field(default_factory=list)    # (path, document id)
    skipped: list[tuple[str, int]] = field(default_factory=list)    # already in the library
    failed: list[tuple[str, str]] = field(default_factory=list)     # (path, one-line reason)


def document_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and every supported document in the folders given (sorted, recursively)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in READERS)
        else:
            out.append(p)
    return out


def _worker_pipeline(nlp_name: str | None):
    """The worker's pipeline, loaded on its first document and kept on the worker."""
    from distributed import get_worker

    from ..nlp import load_pipeline

    worker = get_worker()
    cache = getattr(worker, "_beyondfind_nlp", None)   # an attribute, never spilled to disk like worker.data
    if cache is None or cache[0] != nlp_name:
        cache = (nlp_name, load_pipeline(nlp_name))
        worker._beyondfind_nlp = cache
    return cache[1]


def annotate_on_worker(document: Document, nlp_name: str | None) -> Annotations:
    return annotate_document(document, _worker_pipeline(nlp_name))


def index_on_dask(library: Library, paths: Iterable[str | Path], nlp_name: str | None = None, *,
                  workers: int | None = None, scheduler: str | None = None, retries: int = 2,
                  progress: Callable[[str, int, int], None] | None = None) -> IndexReport:
    """Index ``paths`` (files or folders) into ``library`` on a Dask cluster; see the module docstring.
    ``progress(path, done, total)`` is called as each document finishes."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BeyondfindError("--dask needs Dask: pip install 'beyondfind[dask]'") from None
    from . import up_to_date

    report = IndexReport()
    todo: list[tuple[str, Document]] = []
    for path in document_paths(paths):
        try:
            document = parse_document(read_input_file(path), path.name)
        except (BeyondfindError, OSError) as exc:
            report.failed.append((str(path), str(exc)))
            continue
        known = library.find(document.sha256, document.format)
        if known is not None and up_to_date(known):
            report.skipped.append((str(path), known.id))
        else:
            todo.append((str(path), document))
    if not todo:
        return report
    if workers is not None and workers < 1:
        raise BeyondfindError(f"--workers must be at least 1 (got {workers})")
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
    except OSError as exc:
        raise BeyondfindError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    try:
        # longest first (priority = characters): a long novel started last would leave the other
        # workers idle while it finishes
        futures = {client.submit(annotate_on_worker, document, nlp_name, retries=retries, pure=False,
                                 priority=len(document.text)): (path, document)
                   for path, document in todo}
        for done, future in enumerate(as_completed(futures), 1):
            path, document = futures[future]
            try:
                annotations = future.result()
            except Exception as exc:  # noqa: BLE001 — a worker's failure is reported, the run goes on
                report.failed.append((path, f"{type(exc).__name__}: {exc}".splitlines()[0]))
            else:
                report.indexed.append((path, library.store(document, annotations)))
            if progress:
                progress(path, done, len(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return report
