"""``beyondfind serve``: the HTTP API and reader page (binds to 127.0.0.1 unless told otherwise)."""

from __future__ import annotations

from .common import add_library_option, add_nlp_option, positive_int


def add_parsers(sub) -> None:
    p = sub.add_parser("serve", help="run the HTTP API and the reader web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--max-upload-mb", type=int, default=50)
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name clients use to reach the server (repeatable; '*' for any). "
                        "Loopback names and --host are always allowed")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N",
                   help="server processes answering requests (default 1); each caches its own books and "
                        "answers, and one indexing worker serves them all")
    add_library_option(p)
    add_nlp_option(p)
    p.set_defaults(func=run_serve)


WILDCARD_BINDS = ("0.0.0.0", "::", "")


def run_serve(args) -> int:
    from .. import BeyondfindError
    from ..server.app import create_app
    from ..server.guards import LOOPBACK_HOSTS

    try:
        import uvicorn
    except ImportError:
        raise BeyondfindError("serving needs uvicorn: pip install 'beyondfind[server]'") from None
    if not 1 <= args.port <= 65535:
        raise BeyondfindError(f"--port must be from 1 to 65535, not {args.port}")
    if not 1 <= args.max_upload_mb <= 4096:
        raise BeyondfindError(f"--max-upload-mb must be from 1 to 4096, not {args.max_upload_mb}")
    hosts = (*LOOPBACK_HOSTS, *([args.host] if args.host not in WILDCARD_BINDS else []), *args.allowed_host)
    max_upload = args.max_upload_mb * 1024 * 1024
    if args.workers == 1:
        app = create_app(args.library, args.nlp, max_upload, allowed_hosts=hosts)
        _announce(args)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        return 0
    return _serve_processes(args, hosts, max_upload)


def _announce(args) -> None:
    workers = f", {args.workers} server processes" if args.workers > 1 else ""
    print(f"beyondfind: serving on http://{args.host}:{args.port}/ (API docs at /docs{workers})")
    if args.host in WILDCARD_BINDS and not args.allowed_host:
        print("beyondfind: only loopback host names are answered; add --allowed-host NAME for the name "
              "other machines use")


def _serve_processes(args, hosts: tuple[str, ...], max_upload: int) -> int:
    """N uvicorn worker processes build their apps from ``$BEYONDFIND_SERVE``; this process runs
    the one indexing worker they share (they only queue uploads)."""
    import json
    import os

    import uvicorn

    from ..index import Library
    from ..server.app import ENVIRONMENT
    from ..server.worker import IndexWorker

    with Library(args.library) as library:   # a bad --library fails here, once, not in every worker
        path = str(library.path)
    os.environ[ENVIRONMENT] = json.dumps({"library": path, "nlp": args.nlp, "max_upload": max_upload,
                                          "allowed_hosts": list(hosts)})
    worker = IndexWorker(path, args.nlp, keep_running=True)
    worker.resume()
    worker.wake()
    _announce(args)
    try:
        uvicorn.run("beyondfind.server.app:app_from_environment", factory=True, workers=args.workers,
                    host=args.host, port=args.port, log_level="warning")
    finally:
        worker.close()
    return 0
