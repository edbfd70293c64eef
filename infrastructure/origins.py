"""Which pages may open the site's live sockets: the site's own origin, exactly, or one configured.

A browser opens a WebSocket from any page and sends the cookies of the site it connects to, so a
socket opened by another site's page would follow games as the signed-in player; the handshake's
``Origin`` says which page asks. It is taken only when it is the very origin the socket is opened
on (scheme, host and port), as Django's CSRF check takes a form's ``Origin``:

- the scheme: ``https`` for a socket over TLS (``wss``), else ``http``; behind a proxy that ends
  TLS, ``https`` when the header of Django's ``SECURE_PROXY_SSL_HEADER`` says so (production sets
  it: Caddy sends ``X-Forwarded-Proto``), as ``request.scheme`` reads it;
- the host and port: those of the handshake's ``Host`` header (a port left out is the scheme's
  own, 80 or 443), the host one of ``ALLOWED_HOSTS`` (channels' ``AllowedHostsOriginValidator``);
- or an origin listed in ``FABULA_SOCKET_ORIGINS`` (``https://games.example.org,http://127.0.0.1:8000``),
  whose scheme, host and port must match one of them exactly.

A handshake that names an API token (``Authorization: Bearer ...``) is a client's own, not a page's: a
browser sends no such header with a WebSocket, and the socket is the token's, not the cookies' (the
consumer checks the token). Such a handshake is taken without an ``Origin``.

So under ``bin/run`` a page of ``http://127.0.0.1:8000`` (or ``PORT=9000``'s ``:9000``) opens its
sockets, and ``http://127.0.0.1:1`` or ``https://localhost:1`` is refused; a handshake without
``Origin`` or ``Host`` too. A refused handshake is closed before it is accepted (the client sees
403), as the ASGI specification says of a ``websocket.close`` sent before ``websocket.accept``.
"""

import functools
from urllib.parse import urlsplit

from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

DEFAULT_PORTS = {"http": 80, "https": 443}
SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}

Origin = tuple[str, str, int]  # scheme, host (lower case), port


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as (scheme, host, port), or None for anything else (a path, a user, ``null``)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return parts.scheme, parts.hostname, port if port is not None else DEFAULT_PORTS[parts.scheme]


def listed_origins() -> frozenset[Origin]:
    """``FABULA_SOCKET_ORIGINS``, parsed (once per value); a malformed one is an error (the server does not start)."""
    return _parsed(tuple(settings.FABULA_SOCKET_ORIGINS))


@functools.cache
def _parsed(texts: tuple[str, ...]) -> frozenset[Origin]:
    listed = set()
    for text in texts:
        origin = parse_origin(text)
        if origin is None:
            raise ImproperlyConfigured(f"FABULA_SOCKET_ORIGINS: {text!r} is not an origin (scheme://host[:port])")
        listed.add(origin)
    return frozenset(listed)


def _header(scope, name: bytes) -> str | None:
    values = [value for key, value in scope.get("headers", ()) if key == name]
    return values[0].decode("latin-1") if len(values) == 1 else None  # none, or two that could disagree


def site_scheme(scope) -> str:
    """The scheme the page's origin must have: the socket's own, or the trusted proxy's word for it (as Django's
    ``request.scheme`` with ``SECURE_PROXY_SSL_HEADER``)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, secure = proxy
        said = _header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1"))
        if said is not None:
            return "https" if said.split(",", 1)[0].strip() == secure else "http"
    return SCHEMES.get(scope.get("scheme", "ws"), "http")


def site_origin(scope) -> Origin | None:
    """The origin the socket is opened on: its scheme, and the host and port its ``Host`` header names."""
    host = _header(scope, b"host")
    if not host:
        return None
    return parse_origin(f"{site_scheme(scope)}://{host}")


def bearer(scope) -> str | None:
    """The API token the handshake names (``Authorization: Bearer ...``, the scheme in any case, as the API reads
    it), or None."""
    text = _header(scope, b"authorization") or ""
    return text[7:].strip() if text[:7].lower() == "bearer " else None


def origin_allowed(scope) -> str | None:
    """Why this handshake's ``Origin`` is taken (``"listed"``, ``"same"``), or None: refused."""
    text = _header(scope, b"origin")
    origin = parse_origin(text) if text else None
    if origin is None:
        return None
    if origin in listed_origins():
        return "listed"
    if origin == site_origin(scope):
        return "same"
    return None


class SocketOrigins:
    """ASGI middleware in front of the live sockets: a handshake from another origin is refused (see above)."""

    def __init__(self, application):
        self.listed_application = application
        self.same_application = AllowedHostsOriginValidator(application)  # and the host one the site serves
        listed_origins()  # a malformed setting stops the server here, not at the first handshake

    async def __call__(self, scope, receive, send):
        if bearer(scope) is not None:
            return await self.listed_application(scope, receive, send)
        why = origin_allowed(scope)
        if why == "listed":
            return await self.listed_application(scope, receive, send)
        if why == "same":
            return await self.same_application(scope, receive, send)
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 1008})
