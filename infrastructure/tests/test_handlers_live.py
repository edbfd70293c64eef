"""infrastructure.handlers against the web server as bin/run starts it (uvicorn, with the protocol of
infrastructure.undocumented.http_protocol): slow bodies hold no thread and are cut off, big bodies are
refused before or as they pass the limit, a multipart body without a valid boundary is 400, and ids past 64
bits are 404. Every connection goes to 127.0.0.1 only."""

import json
import select
import socket
import time

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db(transaction=True)

SLOW_CLIENTS = 200


def connect(server, timeout: float = 20.0) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    assert host == "127.0.0.1"
    return socket.create_connection((host, int(port)), timeout=timeout)


def post_head(path: str, *headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_answer(connection: socket.socket) -> tuple[int, dict, bytes]:
    """The answer on ``connection`` read until the server closes it (the socket's timeout bounds the wait)."""
    answer = b""
    while data := connection.recv(65536):
        answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    return int(status_line.split()[1]), headers, body


def get(server, path: str) -> tuple[int, float]:
    """GET ``path`` on a connection of its own: the status and the seconds it took."""
    started = time.monotonic()
    with connect(server, timeout=10) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        status, _headers, _body = read_answer(connection)
    return status, time.monotonic() - started


def test_200_slow_bodies_leave_the_site_answering_and_are_cut_off(asgi_server):
    """Each sends a POST's head and one byte of its body, then nothing: more than the server's threads
    (FABULA_WEB_THREADS), yet /healthz and a page answer within a second; each slow one gets its 408 once it
    has sent nothing for the read timeout, and its connection is closed."""
    assert SLOW_CLIENTS > settings.FABULA_WEB_THREADS
    slow = []
    try:
        for number in range(SLOW_CLIENTS):
            connection = connect(asgi_server)
            path = "/api/v1/games" if number % 2 else "/accounts/login/"
            connection.sendall(post_head(path, "Content-Type: application/json", "Content-Length: 1000") + b"{")
            slow.append(connection)
        status, seconds = get(asgi_server, "/healthz")
        assert status == 200 and seconds < 1.0
        status, seconds = get(asgi_server, "/privacy/")
        assert status == 200 and seconds < 1.0
        # Then each is answered: 408, in the API's format under /api/, and closed.
        give_up_at = time.monotonic() + settings.FABULA_BODY_READ_TIMEOUT_SECONDS + 15
        answered = 0
        for number, connection in enumerate(slow):
            connection.settimeout(max(0.1, give_up_at - time.monotonic()))
            status, headers, body = read_answer(connection)  # to the end: the server closed it
            assert status == 408 and headers["connection"] == "close"
            if number % 2:
                assert json.loads(body)["error"]["code"] == "too_slow"
            else:
                assert headers["content-type"].startswith("text/plain")
            answered += 1
        assert answered == SLOW_CLIENTS
    finally:
        for connection in slow:
            connection.close()


def test_a_declared_huge_body_is_refused_at_once_and_nothing_of_it_is_read(asgi_server):
    """1.5 GB declared: 413 before a byte of the body is sent (the client waits for it, as with Expect)."""
    for path, api in (("/api/v1/games", True), ("/accounts/signup/", False)):
        started = time.monotonic()
        with connect(asgi_server, timeout=5) as connection:
            connection.sendall(post_head(path, "Content-Type: application/json", "Content-Length: 1500000000"))
            status, headers, body = read_answer(connection)
        assert time.monotonic() - started < 1.0
        assert status == 413 and headers["connection"] == "close"
        if api:
            assert headers["content-type"] == "application/json"
            assert json.loads(body)["error"]["code"] == "too_large"
        else:
            assert body == b"The request body is too large."


def stream_until_answered(connection: socket.socket, head: bytes, *, chunked: bool, most: int) -> tuple[int, bytes]:
    """Send ``head`` then body in 64 KiB pieces (chunked or not) until the server answers or ``most`` bytes
    are sent: how many were sent, and what was answered."""
    piece = b"x" * 65536
    frame = b"%x\r\n" % len(piece) + piece + b"\r\n" if chunked else piece
    connection.sendall(head)
    sent = 0
    connection.setblocking(False)
    answer = b""
    give_up_at = time.monotonic() + 30
    sending = True
    while time.monotonic() < give_up_at:
        readable, writable, _ = select.select([connection], [connection] if sending and sent < most else [], [], 1.0)
        if readable:
            try:
                data = connection.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            answer += data
            continue  # stop sending once the answer comes
        if writable and not answer:
            try:
                sent += connection.send(frame)
            except (BrokenPipeError, ConnectionResetError):
                # The server closed with the rest of the body unread, so the connection was reset: what it
                # answered before is still there to read (as a browser or curl reads it), so read on.
                sending = False
        elif not sending and not readable:
            break  # nothing more will come
    return sent, answer


def test_a_chunked_body_that_passes_the_limit_is_cut_off_there(asgi_server):
    """A chunked body (no length said) gets its 413 once it passes the limit, and not much more of it is taken
    in than the limit and what the sockets buffer on the way: not the 200 MB the client would send."""
    limit = settings.FABULA_BODY_MAX_BYTES
    head = post_head("/api/v1/games", "Content-Type: application/json", "Transfer-Encoding: chunked")
    with connect(asgi_server) as connection:
        sent, answer = stream_until_answered(connection, head, chunked=True, most=200 * 1024 * 1024)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "too_large"
    assert sent < limit + 32 * 1024 * 1024


def test_a_multipart_body_without_a_valid_boundary_is_400(asgi_server):
    for content_type in ("multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=é"):
        with connect(asgi_server, timeout=5) as connection:
            connection.sendall(
                post_head("/api/v1/games/1/clue-media", "Content-Type: " + content_type, "Content-Length: 4") + b"abcd"
            )
            status, _headers, body = read_answer(connection)
        assert status == 400
        assert json.loads(body)["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "path",
    [
        "/games/9223372036854775808/",
        "/api/v1/games/9223372036854775808",
        "/games/99999999999999999999999/board/",
    ],
)
def test_ids_past_64_bits_are_404_not_500(asgi_server, path):
    status, _seconds = get(asgi_server, path)
    assert status == 404
