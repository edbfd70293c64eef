"""The web server's HTTP protocol: uvicorn's httptools one, with bounds on the request's head (size and time).

What it replaces: nothing of uvicorn's code; it subclasses uvicorn's ``HttpToolsProtocol`` (not an
extension point: uvicorn documents ``--http <module:class>`` but not the class's hooks) and adds to
its parser callbacks and connection hooks (``on_url``, ``on_header``, ``on_message_begin``,
``on_headers_complete``, ``data_received``, ``send_400_response``, ``connection_made``, ``connection_lost``),
reading only the protocol's unprefixed attributes ``loop``, ``transport``, ``cycle`` and ``url`` (public names,
undocumented).

What it buys: a hardening property that no public option gives with httptools, not speed.
uvicorn with httptools reads request headers of any size into memory (10 MB of one
header were read and passed on) and answers a URL past 64 KiB, which httptools cannot
parse, with a bare 400. Here a URL longer than ``MAX_URL_BYTES`` is answered 414 and
headers past ``MAX_HEADER_BYTES`` 431, as soon as the head grows past them, and the
connection is closed: nothing more of that request is read. A head not whole
``FABULA_HEAD_TIMEOUT_SECONDS`` (10) after its connection opened, or after its first byte on a
kept-alive connection, is answered 408 and the connection closed: a client that sends a header
line a second holds no socket for longer (uvicorn has no time limit on a head; bodies are
bounded by ``infrastructure.handlers.read_body``). In production Caddy bounds the head first
(deploy/Caddyfile, ``max_header_size`` and ``read_header``); the embedded default (bin/run) has
no proxy in front, so the server must. uvicorn's public bound, ``--h11-max-incomplete-event-size``,
exists only for its pure-Python h11 protocol, which answers an over-long head with a bare 400 and costs
three times httptools' CPU: ``bench/http_protocol.py`` (a tiny ASGI app behind each protocol, a browser's
board fetch with its cookies on a kept-alive connection, 5 rounds in turn, 5 December 2026, 2 shared
cores at load 10): httptools 49.5 us of server CPU a request, this protocol 52.0 us (+5%, a few
microseconds a request: under 0.1% of an action), h11 159.5 us (+110 us a request, some 3-4% of an API
action of four requests).

Checked against: uvicorn 0.55.0, httptools 0.9.0 (pyproject: uvicorn<0.56, httptools<0.10;
infrastructure/tests/undocumented/test_http_protocol.py starts the server as bin/run does and sends it
over-long and slow heads).

Serve with ``uvicorn ... --http infrastructure.undocumented.http_protocol:BoundedHttpToolsProtocol`` (bin/run,
docker-compose.yml, the Dockerfile). Nothing here imports Django.
"""

import email.utils
import json
import os
from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

# nginx's defaults refuse a request line past 8 KiB; browsers send URLs of up to 2 MB
# but nothing on this site makes one longer than a few hundred bytes.
MAX_URL_BYTES = int(os.environ.get("FABULA_MAX_URL_BYTES", 16 * 1024))
# All header lines together (names, values and their separators): room for cookies and a token.
MAX_HEADER_BYTES = int(os.environ.get("FABULA_MAX_HEADER_BYTES", 64 * 1024))

# A request's head (its request line and headers) must be whole this many seconds after it began.
HEAD_TIMEOUT_SECONDS = float(os.environ.get("FABULA_HEAD_TIMEOUT_SECONDS", 10))

# How long the rest of a refused request is read (and dropped) before the connection closes anyway:
# an over-long head's sender is told at once and may still be sending; a slow one gets a short grace.
DRAIN_SECONDS = {408: 1.0}
DRAIN_SECONDS_DEFAULT = 5.0

REFUSALS = {
    408: ("too_slow", "The request's head came too slowly: send it again."),
    414: ("url_too_long", "The address is too long."),
    431: ("headers_too_large", "The request's headers are too large."),
}


class HeadTooLarge(Exception):
    """Raised inside the parser's callbacks: it stops parsing (httptools re-raises it as a parser error)."""


def status_line(status: int) -> bytes:
    return b"HTTP/1.1 %d %s\r\n" % (status, HTTPStatus(status).phrase.encode("ascii"))


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that answers 414 / 431 to a request whose URL / headers are too long, and 408 to
    one whose head is not whole in time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._head_open = True  # the current request's headers are still arriving
        self._head_bytes = 0
        self._url_bytes = 0
        self._header_bytes = 0
        self._refusal: int | None = None
        # When the head now arriving began (None: no head is arriving), and the one timer that watches it: it
        # is moved on only when it fires (a timer made and cancelled per request would cost more than the rest).
        self._head_since: float | None = None
        self._head_timer = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._head_began()  # a connection that sends nothing is a head that never comes

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def _head_began(self) -> None:
        self._head_since = self.loop.time()
        if self._head_timer is None:
            self._head_timer = self.loop.call_at(self._head_since + HEAD_TIMEOUT_SECONDS, self._head_check)

    def _head_check(self) -> None:
        self._head_timer = None
        if self._head_since is None or self._refusal is not None:
            return  # no head arriving: the next one arms the watch again
        due = self._head_since + HEAD_TIMEOUT_SECONDS
        if self.cycle is not None and not self.cycle.response_complete:
            due = self.loop.time() + HEAD_TIMEOUT_SECONDS  # a pipelined head waits for the answer before it
            self._head_since = due - HEAD_TIMEOUT_SECONDS
        if self.loop.time() < due:
            self._head_timer = self.loop.call_at(due, self._head_check)
            return
        self._refusal = 408
        self._send_refusal(408)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open, self._head_bytes, self._url_bytes, self._header_bytes = True, 0, 0, 0
        if self._head_since is None:  # a kept-alive connection's next request (the first began on connecting)
            self._head_began()

    def on_url(self, url: bytes) -> None:
        # httptools hands the URL over in pieces as it arrives: a long one is refused early.
        super().on_url(url)
        self._url_bytes += len(url)
        if self._url_bytes > MAX_URL_BYTES:
            self._refuse_after_parsing(414)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_bytes += len(name) + len(value) + 4  # ": " and CRLF
        if self._header_bytes > MAX_HEADER_BYTES:
            self._refuse_after_parsing(431)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_open = False
        self._head_since = None
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None:
            return  # answered; the connection is closing
        counted = self._head_open
        super().data_received(data)
        # httptools keeps an unfinished header line to itself (no callback until it ends):
        # count what arrives while the head is open, so that one endless header is not read
        # to its end either. (A chunk that also holds the body counts whole: the bound is loose.)
        if counted and self._head_open and self._refusal is None:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_URL_BYTES + MAX_HEADER_BYTES + 1024:
                self._refusal = 431
                self._send_refusal(431)

    def send_400_response(self, msg: str) -> None:
        # uvicorn calls this for any error the parser raised, ours included (and logs it as invalid).
        if self._refusal is not None:
            self._send_refusal(self._refusal)
        else:
            super().send_400_response(msg)

    def _refuse_after_parsing(self, status: int) -> None:
        self._refusal = status
        raise HeadTooLarge(status)

    def _send_refusal(self, status: int) -> None:
        code, message = REFUSALS[status]
        if getattr(self, "url", b"").startswith(b"/api/"):  # the API's error format
            body = json.dumps({"error": {"code": code, "message": message}}).encode()
            content_type = b"application/json"
        else:
            body = message.encode()
            content_type = b"text/plain; charset=utf-8"
        content = [status_line(status)]
        content.extend(
            [
                b"date: " + email.utils.formatdate(usegmt=True).encode("ascii") + b"\r\n",
                b"content-type: " + content_type + b"\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        # Closing now, with the rest of the request unread, would reset the connection, and
        # the client would likely lose the answer: say we are done, read what still comes and
        # drop it (data_received), and close when the client does or DRAIN_SECONDS have passed.
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(DRAIN_SECONDS.get(status, DRAIN_SECONDS_DEFAULT), self.transport.close)
        else:  # pragma: no cover  (TCP transports can)
            self.transport.close()
