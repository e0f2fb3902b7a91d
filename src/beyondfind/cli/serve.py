"""``beyondfind serve``: the HTTP API and reader page (binds to 127.0.0.1 unless told otherwise)."""

from __future__ import annotations

from .common import add_library_option, add_nlp_option


def add_parsers(sub) -> None:
    p = sub.add_parser("serve", help="run the HTTP API and the reader web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--max-upload-mb", type=int, default=50)
    add_library_option(p)
    add_nlp_option(p)
    p.set_defaults(func=run_serve)


def run_serve(args) -> int:
    from .. import BeyondfindError
    from ..server.app import create_app

    try:
        import uvicorn
    except ImportError:
        raise BeyondfindError("serving needs uvicorn: pip install 'beyondfind[server]'") from None
    app = create_app(args.library, args.nlp, args.max_upload_mb * 1024 * 1024)
    print(f"beyondfind: serving on http://{args.host}:{args.port}/ (API docs at /docs)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
