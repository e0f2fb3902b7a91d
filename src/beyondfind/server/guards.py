"""Checks every HTTP request passes before a handler sees it (a plain ASGI middleware).

- **Host**: the ``Host`` header must name an allowed host (DNS rebinding: a page on evil.example
  resolving to 127.0.0.1 must not reach the library). Default: the loopback names.
- **Same origin**: a state-changing request (POST, PUT, PATCH, DELETE) sent by a browser from
  another site is refused: its ``Origin`` must match ``Host``, and ``Sec-Fetch-Site`` must not be
  ``cross-site``. Requests without these headers (curl, scripts) are not browsers' and pass.
- **Body size**: a body larger than the route's limit is refused with 413, by ``Content-Length``
  before reading, or while reading a chunked body, so it is never held in memory whole.

Refusals are JSON ``{"error": …}`` like every other error of the API.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes its limit (an HTTPException, so the
    framework's body parsing passes it on as a 413 instead of calling it a parse error)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, _too_large(limit))


def _host_name(host: str) -> str:
    """``example.org:8000`` → ``example.org``; ``[::1]:8000`` → ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class RequestGuard:
    def __init__(self, app, allowed_hosts: Iterable[str], body_limit: Callable[[str, str], int]) -> None:
        """``body_limit(method, path)`` gives the largest body accepted on that route, in bytes."""
        self.app = app
        self.allowed = {_host_name(h) for h in allowed_hosts}
        self.body_limit = body_limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        limit = self.body_limit(scope["method"], scope["path"])
        refusal = self._refusal(scope["method"], headers, limit)
        if refusal is not None:
            return await _error(send, *refusal)
        received = 0
        started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _error(send, 413, _too_large(limit))

    def _refusal(self, method: str, headers: dict[str, str], limit: int) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if "*" not in self.allowed and _host_name(host) not in self.allowed:
            return 400, (f"host {host[:100]!r} is not served here; start the server with --allowed-host "
                         f"{_host_name(host)[:100] or 'NAME'} to serve it")
        if method in UNSAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and (origin == "null" or urlsplit(origin).netloc.lower() != host.lower()):
                return 403, f"cross-origin {method} from {origin[:100]!r} refused; use the page served by this server"
            if headers.get("sec-fetch-site") == "cross-site":
                return 403, f"cross-site {method} refused; use the page served by this server"
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return 400, f"invalid Content-Length {length[:40]!r}"
            if int(length) > limit:
                return 413, _too_large(limit)
        return None


def _too_large(limit: int) -> str:
    return f"request body larger than {limit // (1024 * 1024) or 1} MB"


async def _error(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
