"""Requests bounded before they cost anything (issue 29, items 1, 2 and two of 7).

Slow bodies that once held every web thread, bodies read to their end however large, a
multipart body without a boundary that was a 500, and ids past 64 bits that reached the
database. Raw sockets where httpx would be too polite; every connection goes to the site's
own loopback address and nowhere else, and every loop is bounded in count and in time.
"""

from __future__ import annotations

import json
import select
import socket
import time

from . import Fell, Site

SLOW_CLIENTS = 200
PAST_64_BITS = str(2**63)  # 9223372036854775808
HUGE = 1_500_000_000  # a 1.5 GB body, as the finding sent
STREAM_AT_MOST = 200 * 1024 * 1024  # what the chunked check would send if nothing stopped it
BODY_LIMIT = 2_621_440  # FABULA_BODY_MAX_BYTES's default (2.5 MB)
BUFFERED = 32 * 1024 * 1024  # room for what the sockets hold on the way


def _connect(site: Site, timeout: float = 10.0) -> socket.socket:
    host, port = site.host_port
    if host != "127.0.0.1":  # these checks attack: never anything but this machine
        raise RuntimeError(f"refusing to attack {host}: only 127.0.0.1")
    return socket.create_connection((host, port), timeout=timeout)


def _head(method: str, path: str, *headers: str) -> bytes:
    return ("\r\n".join([f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *headers]) + "\r\n\r\n").encode()


def _answer(connection: socket.socket) -> tuple[int, dict, bytes]:
    """The answer on ``connection``, read until the server closes it (the socket's timeout bounds the wait)."""
    answer = b""
    while data := connection.recv(65536):
        answer += data
        if len(answer) > 1024 * 1024:
            break
    if not answer:
        raise Fell("the server closed the connection without an answer")
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    return int(status_line.split()[1]), headers, body


def _error_code(body: bytes) -> str | None:
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def _timed_get(site: Site, path: str) -> tuple[int, float]:
    started = time.monotonic()
    with _connect(site, timeout=5) as connection:
        connection.sendall(_head("GET", path, "Connection: close"))
        status, _headers, _body = _answer(connection)
    return status, time.monotonic() - started


def slow_bodies_do_not_stop_the_site(site: Site) -> str:
    """200 connections send a POST's head and one byte of body, then nothing: the site still answers
    /healthz and a page within a second, and cuts the slow ones off with 408."""
    slow: list[socket.socket] = []
    try:
        for number in range(SLOW_CLIENTS):
            connection = _connect(site)
            path = "/api/v1/games" if number % 2 else "/accounts/login/"
            connection.sendall(_head("POST", path, "Content-Type: application/json", "Content-Length: 1000") + b"{")
            slow.append(connection)
        for path in ("/healthz", "/privacy/"):
            try:
                status, seconds = _timed_get(site, path)
            except OSError as error:
                raise Fell(f"{path} did not answer beside {SLOW_CLIENTS} slow bodies: {error}") from None
            if status != 200 or seconds > 1.0:
                raise Fell(f"{path} answered {status} in {seconds:.2f} s beside {SLOW_CLIENTS} slow bodies")
        # The slow ones are cut off: each gets an answer (408) and its connection closed, within a bound.
        give_up_at = time.monotonic() + 30
        statuses = set()
        for connection in slow[:10]:
            connection.settimeout(max(0.1, give_up_at - time.monotonic()))
            try:
                statuses.add(_answer(connection)[0])
            except TimeoutError:
                raise Fell("a slow body was still held open 30 s later") from None
        if statuses != {408}:
            raise Fell(f"slow bodies were answered {sorted(statuses)}, not 408")
        return f"{SLOW_CLIENTS} slow bodies: /healthz and a page answered within 1 s; the slow ones got 408"
    finally:
        for connection in slow:
            connection.close()


def a_huge_declared_body_is_refused_unread(site: Site) -> str:
    """A 1.5 GB Content-Length: 413 at once, before a byte of the body is sent."""
    started = time.monotonic()
    with _connect(site, timeout=5) as connection:
        connection.sendall(_head("POST", "/api/v1/games", "Content-Type: application/json", f"Content-Length: {HUGE}"))
        try:
            status, headers, body = _answer(connection)
        except TimeoutError:
            raise Fell("no answer to a declared 1.5 GB body within 5 s: the server waits to read it") from None
    seconds = time.monotonic() - started
    if status != 413 or _error_code(body) != "too_large":
        raise Fell(f"a declared 1.5 GB body was answered {status} {body[:120]!r}")
    if seconds > 1.0 or headers.get("connection") != "close":
        raise Fell(f"a declared 1.5 GB body: 413 after {seconds:.2f} s, connection {headers.get('connection')}")
    return f"a declared 1.5 GB body: 413 too_large in {seconds * 1000:.0f} ms, connection closed"


def a_huge_chunked_body_is_cut_off(site: Site) -> str:
    """A chunked body (no length said) of up to 200 MB: 413 once it passes the limit, the rest never taken in."""
    piece = b"x" * 65536
    frame = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sent, answer = 0, b""
    with _connect(site) as connection:
        connection.sendall(
            _head("POST", "/api/v1/games", "Content-Type: application/json", "Transfer-Encoding: chunked")
        )
        connection.setblocking(False)
        give_up_at = time.monotonic() + 60
        while time.monotonic() < give_up_at:
            readable, writable, _ = select.select([connection], [connection] if sent < STREAM_AT_MOST else [], [], 1)
            if readable:
                try:
                    data = connection.recv(65536)
                except ConnectionResetError:
                    break
                if not data:
                    break
                answer += data
            elif writable and not answer:
                try:
                    sent += connection.send(frame)
                except (BrokenPipeError, ConnectionResetError):
                    break
    if sent >= STREAM_AT_MOST:
        raise Fell(f"the server took {sent // 2**20} MB of a chunked body without refusing it")
    if not answer.startswith(b"HTTP/1.1 413 "):
        raise Fell(f"a chunked body past the limit was answered {answer[:60]!r} after {sent // 2**20} MB")
    if sent > BODY_LIMIT + BUFFERED:
        raise Fell(f"a chunked body was read to {sent // 2**20} MB before its 413")
    return f"a chunked body: 413 after {sent / 2**20:.1f} MB sent (limit 2.5 MB), the rest never read"


def a_multipart_body_without_a_boundary_is_400(site: Site) -> str:
    """The clue-media upload with a multipart type but no valid boundary: 400 bad_request (it was a 500)."""
    account = site.account()
    seen = []
    for content_type in ("multipart/form-data", "multipart/form-data; boundary=", 'multipart/form-data; boundary="'):
        answer = account.api.post(
            "/games/1/clue-media", content=b"--x\r\n\r\n--x--", headers={"Content-Type": content_type}
        )
        if answer.status_code != 400 or _error_code(answer.content) != "bad_request":
            raise Fell(f"{content_type!r} to the clue-media API: {answer.status_code} {answer.text[:120]}")
        seen.append(answer.status_code)
    return f"multipart without a valid boundary: {len(seen)} tries, each 400 bad_request"


def an_id_past_64_bits_in_a_query_is_no_500(site: Site) -> str:
    """The bell's ``?game=`` with 2**63, signed in and "visible" (it reached the database): a plain answer."""
    account = site.account()
    browser = site.browser(account)
    try:
        answer = browser.get("/notifications/bell/", params={"game": PAST_64_BITS, "visible": "visible"})
    finally:
        browser.close()
    if answer.status_code >= 500:
        raise Fell(f"/notifications/bell/?game=2**63 answered {answer.status_code}")
    return f"/notifications/bell/?game=2**63: {answer.status_code}"


def an_id_past_64_bits_in_a_path_is_404(site: Site) -> str:
    """2**63 as a game's id in a page's path and in the API's: 404 (no such game), never a 500."""
    account = site.account()
    answers = {}
    browser = site.browser(account)
    try:
        for path in (f"/games/{PAST_64_BITS}/", f"/games/{PAST_64_BITS}/board/", f"/games/{PAST_64_BITS}/replay/"):
            answers[path] = browser.get(path).status_code
    finally:
        browser.close()
    for path in (f"/games/{PAST_64_BITS}", f"/games/{PAST_64_BITS}/chat"):
        answers["/api/v1" + path] = account.api.get(path).status_code
    wrong = {path: status for path, status in answers.items() if status != 404}
    if wrong:
        raise Fell(f"ids past 64 bits: {wrong}")
    return f"ids past 64 bits: 404 on {len(answers)} paths (pages and API)"


CHECKS = [
    slow_bodies_do_not_stop_the_site,
    a_huge_declared_body_is_refused_unread,
    a_huge_chunked_body_is_cut_off,
    a_multipart_body_without_a_boundary_is_400,
    an_id_past_64_bits_in_a_query_is_no_500,
    an_id_past_64_bits_in_a_path_is_404,
]
