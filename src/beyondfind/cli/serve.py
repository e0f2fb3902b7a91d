"""``beyondfind serve``: the HTTP API and reader page (binds to 127.0.0.1 unless told otherwise)."""

from __future__ import annotations

from .common import add_library_option, add_nlp_option


def add_parsers(sub) -> None:
    p = sub.add_parser("serve", help="run the HTTP API and the reader web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--max-upload-mb", type=int, default=50)
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name clients use to reach the server (repeatable; '*' for any). "
                        "Loopback names and --host are always allowed")
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
    app = create_app(args.library, args.nlp, args.max_upload_mb * 1024 * 1024, allowed_hosts=hosts)
    print(f"beyondfind: serving on http://{args.host}:{args.port}/ (API docs at /docs)")
    if args.host in WILDCARD_BINDS and not args.allowed_host:
        print("beyondfind: only loopback host names are answered; add --allowed-host NAME for the name "
              "other machines use")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
