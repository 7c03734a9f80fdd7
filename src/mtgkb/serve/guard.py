"""What every request of `mtgkb serve` passes before it reaches the API
(issue 27, item 7): an ASGI middleware that

- puts the security headers on every response: a Content-Security-Policy
  that lets the page load only from the server's own origin and be framed
  by no one, `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
  `Referrer-Policy: no-referrer`;
- answers only the Host names the server is known by (a page of another
  site that rebinds its DNS name to 127.0.0.1 sends its own name as Host:
  refused, 421), so that no other site's page can read an answer;
- refuses a cross-origin POST (a page of another site can send `text/plain`
  without asking first) unless its origin is one `--allow-origin` names,
  and answers those origins' CORS preflights;
- with a token (`--token`, required off loopback), asks every request but
  the page and its static files for `Authorization: Bearer TOKEN`.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
)

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
#: what a page may do once its origin is allowed (--allow-origin)
CORS_METHODS = b"GET, POST, OPTIONS"
CORS_HEADERS = b"authorization, content-type"
UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
#: paths open without the token: the page itself (it asks for the token)
OPEN_PATHS = ("/", "/favicon.ico")
OPEN_PREFIXES = ("/static/",)


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address) is this machine only."""
    if host.strip("[]").lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str:
    """The name part of a Host header (`[::1]:8765` -> `::1`), lower-case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    if header.count(":") == 1:
        return header.split(":", 1)[0]
    return header


@dataclass
class Guard:
    """What the server accepts: Host names, origins, and its token."""

    listen_host: str = "127.0.0.1"
    #: further Host names (a DNS name the server is reached by)
    hosts: tuple[str, ...] = ()
    #: origins whose pages may call the API (`http://localhost:3000`, or `*`)
    origins: tuple[str, ...] = ()
    token: str | None = None
    names: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {*LOOPBACK_NAMES, *(h.lower().strip("[]") for h in self.hosts)}
        if self.listen_host not in WILDCARDS:
            self.names.add(self.listen_host.lower().strip("[]"))
        self.origins = tuple(o.rstrip("/") for o in self.origins)

    def host_allowed(self, header: str) -> bool:
        name = host_name(header)
        if name in self.names:
            return True
        # on every address: any of the machine's addresses, never a DNS name
        return self.listen_host in WILDCARDS and _is_address(name)

    def origin_allowed(self, origin: str) -> bool:
        return "*" in self.origins or origin.rstrip("/") in self.origins

    def token_ok(self, authorization: str) -> bool:
        if self.token is None:
            return True
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.strip().encode("utf-8"), self.token.encode("utf-8"))


def _headers(scope) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        found.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _same_origin(origin: str, host: str, scheme: str) -> bool:
    return origin.rstrip("/").lower() == f"{scheme}://{host}".lower()


class GuardMiddleware:
    """The ASGI middleware that applies a Guard (see the module)."""

    def __init__(self, app, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get("host", "")
        origin = headers.get("origin")
        cors: list[tuple[bytes, bytes]] = []
        if origin and self.guard.origin_allowed(origin):
            cors = [
                (b"access-control-allow-origin", origin.encode("latin-1")),
                (b"vary", b"Origin"),
            ]

        async def send_guarded(message) -> None:
            if message["type"] == "http.response.start":
                extra = [*SECURITY_HEADERS, *cors]
                names = {k for k, _ in extra}
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in names]
                message = {**message, "headers": [*kept, *extra]}
            await send(message)

        refusal = self.refusal(scope, headers, host, origin)
        if refusal is not None:
            status, body, more = refusal
            # the body (if any) is not read: the connection is closed after the answer
            await _answer(send_guarded, status, body, [*more, (b"connection", b"close")])
            return
        if scope["method"] == "OPTIONS" and cors:
            preflight = [
                (b"access-control-allow-methods", CORS_METHODS),
                (b"access-control-allow-headers", CORS_HEADERS),
                (b"access-control-max-age", b"600"),
            ]
            await _answer(send_guarded, 204, None, preflight)
            return
        await self.app(scope, receive, send_guarded)

    def refusal(self, scope, headers: dict[str, str], host: str, origin: str | None):
        """(status, body, headers) of a request refused here, or None."""
        if not self.guard.host_allowed(host):
            message = (
                f"this server does not answer for the host {host!r} "
                "(mtgkb serve --allow-host NAME adds a name)"
            )
            return 421, {"error": "misdirected request", "message": message}, []
        method = scope["method"]
        cross_site = headers.get("sec-fetch-site", "") in ("cross-site", "same-site")
        scheme = scope.get("scheme", "http")
        if method in UNSAFE_METHODS or (method == "OPTIONS" and origin):
            foreign = (origin and not _same_origin(origin, host, scheme)) or (
                not origin and cross_site
            )
            if foreign and not (origin and self.guard.origin_allowed(origin)):
                message = (
                    f"a request from the page of another origin ({origin or 'cross-site'}) "
                    "is not answered (mtgkb serve --allow-origin ORIGIN allows one)"
                )
                return 403, {"error": "forbidden", "message": message}, []
        if method == "OPTIONS":
            return None  # a preflight carries no token
        path = scope.get("path", "/")
        if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
            return None
        if not self.guard.token_ok(headers.get("authorization", "")):
            message = "this server asks for its token: Authorization: Bearer TOKEN"
            return (
                401,
                {"error": "unauthorized", "message": message},
                [(b"www-authenticate", b'Bearer realm="mtgkb"')],
            )
        return None


async def _answer(send, status: int, body: dict | None, headers: Iterable) -> None:
    data = b"" if body is None else json.dumps(body).encode("utf-8")
    base = [(b"content-length", str(len(data)).encode("ascii"))]
    if body is not None:
        base.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": [*base, *headers]})
    await send({"type": "http.response.body", "body": data})
