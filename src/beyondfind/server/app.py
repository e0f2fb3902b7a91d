"""The HTTP API: thin handlers over :mod:`beyondfind.books` and :mod:`beyondfind.news`.

Errors are JSON ``{"error": message}``; user mistakes are 4xx, never 500. One lock serialises
library access (SQLite connection and the book cache). Rankings are cached per process: the full
ranking of a query once (any ``top`` is a slice of it), its encoded answers in a small LRU that a
request reads without that lock, so a repeated query never waits behind another one's work.
Uploads are indexing jobs (``202`` + a job to poll): NLP runs in a worker process
(:mod:`.worker`), never in a request. Every request first passes :mod:`.guards` (allowed hosts,
same-origin writes, body size).

``beyondfind serve --workers N`` runs N server processes over the same library
(:func:`app_from_environment`); then the serving command owns the one indexing worker and the
apps only queue uploads (``index_jobs=False``).
"""

import json
import os
import threading
from contextlib import contextmanager
from collections import OrderedDict
from pathlib import Path

from .. import BeyondfindError, BusyError
from ..books import BookSearch, highlights, rank_passages
from ..documents.positions import chapters, resolve_position
from ..ranking.methods import DEFAULT_METHOD, METHODS, get_method
from ..index import Library
from ..index.entities import list_entities

STATIC = Path(__file__).parent.parent / "web" / "static"
DEFAULT_MAX_UPLOAD = 50 * 1024 * 1024
MAX_JSON_BODY = 2 * 1024 * 1024
"""Largest JSON request body (a news article); Wikinews articles are 2–30 kB."""
MULTIPART_OVERHEAD = 64 * 1024


def _fastapi():
    try:
        import fastapi  # noqa: F401
    except ImportError:
        raise BeyondfindError("the server needs FastAPI: pip install 'beyondfind[server]'") from None


class ResponseCache:
    """A thread-safe LRU of encoded JSON answers (bytes), read without the library lock."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key, body: bytes) -> None:
        with self._lock:
            self._items[key] = body
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


class _State:
    def __init__(self, library_path, nlp_name, max_upload, index_jobs: bool = True):
        from ..index.jobs import JobQueue
        from ..news.store import ThreadStore
        from .worker import IndexWorker

        self.search = BookSearch(Library(library_path), nlp_name=nlp_name, freeze_loaded=True)
        self.lock = threading.RLock()
        self.max_upload = max_upload
        self.rankings: OrderedDict = OrderedDict()   # (doc, entity, method, before) → all rows, best first
        self.answers = ResponseCache()
        self.news = ThreadStore(self.search.library.conn)
        self.jobs = JobQueue(self.search.library)
        self.worker = IndexWorker(self.search.library.path, nlp_name) if index_jobs else None
        from ..sqlite import connect

        self._generation_conn = connect(self.search.library.path)   # read without waiting for self.lock
        self._generation_lock = threading.Lock()
        self._generation = self.search.library.generation()

    def forget(self, doc_id: int | None = None) -> None:
        """Drop cached books and answers: of ``doc_id``, or all (None)."""
        with self.lock:
            if doc_id is None:
                self.search.forget_all()
            else:
                self.search.forget(doc_id)
            self.rankings.clear()
        self.answers.clear()

    def book(self, doc_id: int):
        """A loaded book, fresh: re-read if another process replaced or deleted documents."""
        self.refresh()
        with self.lock:
            return self.search.book(doc_id)

    def refresh(self) -> None:
        """Forget every cached book and answer if any process deleted or replaced a document."""
        with self._generation_lock:
            now = self.search.library.generation(self._generation_conn)
            changed, self._generation = now != self._generation, now
        if changed:
            self.forget()

    def body_limit(self, method: str, path: str) -> int:
        if method == "POST" and path == "/api/documents":
            return self.max_upload + MULTIPART_OVERHEAD
        return MAX_JSON_BODY


def create_app(library: str | Path | None = None, nlp: str | None = None, max_upload: int = DEFAULT_MAX_UPLOAD,
               allowed_hosts: tuple[str, ...] | None = None, index_jobs: bool = True):
    """The FastAPI app over the library at ``library``. ``allowed_hosts``: host names the server
    answers to (default: loopback names; ``"*"`` for any). ``index_jobs``: this app starts the
    indexing worker (False when the serving command runs it for several server processes)."""
    _fastapi()
    from contextlib import asynccontextmanager

    from fastapi import FastAPI, File, Query, Request, UploadFile
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, JSONResponse, Response
    from starlette.concurrency import run_in_threadpool
    from fastapi.staticfiles import StaticFiles
    from pydantic import BaseModel
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from ..documents import parse_document
    from ..index import up_to_date
    from .guards import LOOPBACK_HOSTS, RequestGuard

    state = _State(library, nlp, max_upload, index_jobs)

    @asynccontextmanager
    async def lifespan(_app):
        if state.worker is not None:
            state.worker.resume()   # uploads queued or running when the server last stopped
        yield
        if state.worker is not None:
            state.worker.close()

    # /docs is our own page over /openapi.json: Swagger UI would load from a CDN and stay blank offline
    app = FastAPI(title="beyondfind", version="0.2.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Entity-centric search: passages that describe a character; entities that summarise news.")
    app.state.beyondfind = state
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts or LOOPBACK_HOSTS, body_limit=state.body_limit)

    @app.exception_handler(BeyondfindError)
    async def _bf_error(_request: Request, exc: BeyondfindError):
        msg = str(exc)
        headers = {"Retry-After": "5"} if isinstance(exc, BusyError) else None
        return JSONResponse({"error": msg}, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse({"error": f"invalid {where}: {first.get('msg', 'bad request')}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.get("/api/documents", summary="List documents")
    def documents():
        with state.lock:
            return {"documents": [d.to_dict() for d in state.search.library.documents()]}

    @app.post("/api/documents", status_code=202, summary="Upload a document (multipart): 202 and an indexing "
              "job to poll, or 200 and the document if the same file is already indexed")
    def upload(file: UploadFile = File(...)):
        data = file.file.read(state.max_upload + 1)
        if len(data) > state.max_upload:
            return JSONResponse({"error": f"file larger than {state.max_upload // (1024 * 1024)} MB"}, status_code=413)
        if not data:
            raise BeyondfindError("empty upload; send a document file")
        document = parse_document(data, file.filename or "upload.txt")   # bad files fail here, with 400
        with state.lock:
            known = state.search.library.find(document.sha256, document.format)
            if known is not None and up_to_date(known):
                return JSONResponse({"document": known.to_dict(), "new": False}, status_code=200)
            job, _new = state.jobs.submit(document, data)
        if state.worker is not None:
            state.worker.wake()
        return JSONResponse({"job": job.to_dict(), "new": True}, status_code=202,
                            headers={"Location": f"/api/jobs/{job.id}"})

    @app.delete("/api/documents/{doc_id}", summary="Remove a document and its annotations from the library")
    def delete_document(doc_id: int):
        with state.lock:
            info = state.search.library.get(doc_id)   # 404 when absent
            state.search.library.delete(doc_id)
        state.forget(doc_id)
        return {"deleted": info.to_dict()}

    @app.get("/api/jobs", summary="Recent indexing jobs, newest first")
    def jobs(limit: int = Query(20, ge=1, le=200)):
        with state.lock:
            return {"jobs": [j.to_dict() for j in state.jobs.recent(limit)]}

    @app.get("/api/jobs/{job_id}", summary="An indexing job: state (queued, running, done, failed) and progress")
    def job(job_id: int):
        with state.lock:
            return state.jobs.get(job_id).to_dict()

    @app.get("/api/documents/{doc_id}", summary="Document metadata and chapters")
    def document(doc_id: int):
        with state.lock:
            book = state.book(doc_id)
            chs = [{"number": c.number, "chapter": c.title, "start": c.start, "end": c.end, "passage": c.first_passage}
                   for c in chapters(book.document)]
            return {**state.search.library.get(doc_id).to_dict(), "length": len(book.document.text),
                    "narrator": book.annotations.narrator, "narrators": list(book.annotations.narrators),
                    "chapters": chs}

    @app.get("/api/documents/{doc_id}/passages", summary="Passages, optionally within an offset range or chapter")
    def passages(doc_id: int, start: int = Query(0, ge=0), end: int | None = Query(None, ge=0),
                 chapter: str | None = None):
        with state.lock:
            book = state.book(doc_id)
        ps = [p for p in book.passages if p.end > start and (end is None or p.start < end)
              and (chapter is None or p.chapter == chapter)]
        return {"passages": [{"index": p.index, "start": p.start, "end": p.end, "chapter": p.chapter, "text": p.text}
                             for p in ps]}

    @app.get("/api/documents/{doc_id}/text", summary="Document text by offset range")
    def text(doc_id: int, start: int = Query(0, ge=0), end: int | None = Query(None, ge=0)):
        with state.lock:
            book = state.book(doc_id)
        t = book.document.text
        end = len(t) if end is None else min(end, len(t))
        if start > end:
            raise BeyondfindError(f"start {start} is after end {end}")
        return {"start": start, "end": end, "text": t[start:end]}

    @app.get("/api/documents/{doc_id}/entities", summary="Entities with mention counts and aliases")
    def entities(doc_id: int, min_mentions: int = Query(2, ge=1)):
        with state.lock:
            book = state.book(doc_id)
            ents = list_entities(book, min_mentions)
        return {"entities": [e.to_dict() for e in ents]}

    @app.get("/api/methods", summary="The ranking methods with one-line descriptions")
    def methods():
        return {"default": DEFAULT_METHOD,
                "methods": [{"name": m.name, "description": m.description} for m in METHODS.values()]}

    def ranked_rows(doc_id: int, entity: str, method: str, top: int, before: str | None, explain: bool) -> list[dict]:
        with state.lock:
            book = state.book(doc_id)
            position = resolve_position(book.document, before)
            if explain:   # evidence and highlights are per row: computed for the rows asked for only
                rows = [r.to_dict() | {"highlights": highlights(book, entity, r.passage)}
                        for r in rank_passages(book, entity, method, top, position, True)]
                return rows
            key = (doc_id, entity, method, position)
            if key not in state.rankings:
                state.rankings[key] = [r.to_dict() for r in rank_passages(book, entity, method, None, position)]
                while len(state.rankings) > 128:
                    state.rankings.popitem(last=False)
            state.rankings.move_to_end(key)
            return state.rankings[key][:top]

    @app.get("/api/documents/{doc_id}/rank", summary="Passages ranked by how well they describe an entity")
    async def rank(doc_id: int, entity: str = Query(..., max_length=20_000), method: str = DEFAULT_METHOD,
                   top: int = Query(10, ge=1, le=200),
                   before: str | None = Query(None, max_length=40,
                                              description="offset, percentage (40%) or chapter (ch:12)"),
                   explain: bool = False):
        get_method(method)
        state.refresh()   # another process deleted or replaced a document: cached answers are stale
        key = (doc_id, entity, method, top, before, explain)
        body = state.answers.get(key)
        if body is None:
            rows = await run_in_threadpool(ranked_rows, doc_id, entity, method, top, before, explain)
            body = json.dumps({"entity": entity, "method": method, "results": rows},
                              ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            state.answers.put(key, body)
        return Response(body, media_type="application/json")

    # --- news ------------------------------------------------------------------------------
    class ThreadIn(BaseModel):
        name: str

    class ArticleIn(BaseModel):
        id: str
        date: str | None = None
        title: str = ""
        text: str
        replace: bool = False

    @app.get("/api/news/threads", summary="List news threads")
    def threads():
        with state.lock:
            return {"threads": [{"name": n, "articles": c} for n, c in state.news.threads()]}

    @app.post("/api/news/threads", summary="Create a news thread", status_code=201)
    def create_thread(body: ThreadIn):
        if not body.name.strip():
            raise BeyondfindError("empty thread name")
        with state.lock:
            state.news.thread_id(body.name.strip(), create=True)
        return {"name": body.name.strip()}

    @app.post("/api/news/threads/{thread}/articles", summary="Post an article; returns its ranked entities",
              status_code=201)
    def post_article(thread: str, body: ArticleIn):
        from ..news import add_article
        from ..news.io import article_from_json

        article = article_from_json(body.model_dump(exclude={"replace"}), "article")
        with state.lock:
            state.news.thread_id(thread)  # must exist
            ranking = add_article(state.news, thread, article, state.search.nlp(), replace=body.replace)
        return {"article_id": article.id, "entities": [r.to_dict() for r in ranking]}

    @app.get("/api/news/threads/{thread}/articles", summary="A thread's articles in date order")
    def thread_articles(thread: str):
        with state.lock:
            tid = state.news.thread_id(thread)
            return {"articles": [{"id": a.id, "date": a.date, "title": a.title} for a in state.news.articles(tid)]}

    @app.get("/api/news/threads/{thread}/articles/{article_id}", summary="An article with its ranked entities")
    def article(thread: str, article_id: str, model: str = "best"):
        from ..news import combination_for, show_article
        from ..news.model import FEATURE_DESCRIPTIONS

        with state.lock:
            tid = state.news.thread_id(thread)
            stored = state.news.article(tid, article_id)
            ranking = show_article(state.news, thread, article_id, combination_for(model))
        return {"id": article_id, "date": stored.date, "title": stored.title, "text": stored.text,
                "entities": [r.to_dict() for r in ranking], "features": FEATURE_DESCRIPTIONS}

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    def api_docs():
        return FileResponse(STATIC / "docs.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


ENVIRONMENT = "BEYONDFIND_SERVE"
"""Environment variable holding the JSON settings of :func:`app_from_environment`."""


def app_from_environment():
    """The app of one of several server processes (``uvicorn --factory``): settings come from the
    JSON in ``$BEYONDFIND_SERVE`` (library, nlp, max_upload, allowed_hosts) and the serving command
    runs the indexing worker."""
    raw = os.environ.get(ENVIRONMENT)
    if not raw:
        raise BeyondfindError(f"${ENVIRONMENT} is not set; start several server processes with "
                              "'beyondfind serve --workers N'")
    settings = json.loads(raw)
    return create_app(settings["library"], settings.get("nlp"), settings["max_upload"],
                      tuple(settings["allowed_hosts"]), index_jobs=False)


@contextmanager
def running(app, host: str = "127.0.0.1", timeout: float = 30.0):
    """Serve ``app`` with uvicorn in a background thread on a free port; yields the base URL."""
    import socket
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind((host, 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + timeout
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    if not server.started:
        raise BeyondfindError(f"server did not start on {host}:{port} within {timeout:.0f} s")
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
