"""infrastructure.handlers: requests of one process run at once, on threads that live on."""

import asyncio
import io
import json
import threading
import time

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.core import signals
from django.test import override_settings
from django.urls import reverse

from infrastructure import handlers
from infrastructure.handlers import BodyRefused, run_on_loop
from infrastructure.tests.urls_threads import meeting, under_loop
from infrastructure.undocumented.asgi_handler import PooledThreadsASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


def http_scope(path: str = "/thread", query: str = "", host: str = "testserver") -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", host.encode())],
        "server": (host, 80),
        "client": ("127.0.0.1", 1234),
    }


async def get(app, query: str = "", path: str = "/thread", host: str = "testserver") -> tuple[int, str]:
    communicator = ApplicationCommunicator(app, http_scope(path, query, host))
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(timeout=10)
    body = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=10)
    return start["status"], body.decode()


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_requests_reuse_a_few_threads_instead_of_one_each():
    app = PooledThreadsASGIHandler(threads=3)

    async def many():
        return [await get(app) for _ in range(20)]

    before = threading.active_count()
    answers = asyncio.run(many())
    assert {status for status, _ in answers} == {200}
    names = {name for _, name in answers}
    assert names <= {"django-0_0", "django-1_0", "django-2_0"} and len(names) == 1  # one after another: the same
    assert threading.active_count() <= before + 3


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_requests_run_at_once_up_to_the_threads_and_the_rest_wait():
    app = PooledThreadsASGIHandler(threads=3)
    meeting.update(barrier=threading.Barrier(3), inside=0, most=0)

    async def together(count):
        return await asyncio.gather(*(get(app, "meet=1") for _ in range(count)))

    # Three requests meet inside the view: they run at once (one after another, the first would wait
    # for the others in vain and fail).
    answers = asyncio.run(together(3))
    assert {status for status, _ in answers} == {200}
    assert len({name for _, name in answers}) == 3
    # Six: three at a time, the other three waiting for a thread, then meeting in their turn.
    meeting.update(most=0)
    answers = asyncio.run(together(6))
    assert {status for status, _ in answers} == {200}
    assert len({name for _, name in answers}) == 3 and meeting["most"] == 3


def test_it_serves_http_only():
    with pytest.raises(ValueError):
        asyncio.run(PooledThreadsASGIHandler(threads=1)({"type": "websocket"}, None, None))
    with pytest.raises(ValueError):
        PooledThreadsASGIHandler(threads=0)


def test_the_middleware_chain_is_the_synchronous_one():
    """Middleware and view in one step on the request's thread, not a hop to the loop and back per hook."""
    app = PooledThreadsASGIHandler(threads=1)
    assert not asyncio.iscoroutinefunction(app._middleware_chain)


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_a_request_is_one_step_on_its_thread_signals_and_all():
    """request_started, the view and request_finished (the database connection's return) on the same
    thread, once each, before the answer goes out: one hop from the loop, not three."""
    app = PooledThreadsASGIHandler(threads=1)
    seen = []

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, name = asyncio.run(get(app))
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert status == 200 and name.startswith("django-0")
    assert seen == [("started", name), ("finished", name)]


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_a_streaming_answer_is_closed_after_it_is_written():
    app = PooledThreadsASGIHandler(threads=1)
    finished = []

    def on_finished(**kwargs):
        finished.append(True)

    signals.request_finished.connect(on_finished)
    try:
        status, body = asyncio.run(get(app, path="/stream"))
    finally:
        signals.request_finished.disconnect(on_finished)
    assert (status, body, finished) == (200, "one two", [True])


@override_settings(ALLOWED_HOSTS=["testserver"])
def test_a_request_django_refuses_is_answered_by_django():
    """A bad Host: Django's own 400, through the same one step."""
    app = PooledThreadsASGIHandler(threads=1)

    status, _body = asyncio.run(get(app, path="/healthz", host="elsewhere.example"))
    assert status == 400


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_async_to_sync_in_a_request_still_works_and_comes_back_to_the_requests_thread():
    """asgiref's async_to_sync from a request's thread still runs its coroutine (on a loop of its own: the
    handler writes nothing of asgiref's, so it does not know the server's), and a thread-sensitive call under
    it runs on the request's thread, as Django expects. What must run on the server's loop (the channel
    layer) goes through run_on_loop."""
    app = PooledThreadsASGIHandler(threads=2)
    under_loop.clear()

    async def serve():
        return asyncio.get_running_loop(), await get(app, path="/loop")

    loop, (status, name) = asyncio.run(serve())
    assert status == 200 and name.startswith("django-")
    assert under_loop["loop"] is not loop
    assert under_loop["thread"] == name


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_run_on_loop_runs_a_coroutine_on_the_servers_loop_without_asgirefs_hop(monkeypatch):
    """From a request's thread, the coroutine runs on the server's own loop and its result, or its exception,
    comes back to the thread; asgiref's async_to_sync (which copies the whole context there and back) is
    not used."""

    def refused(*args, **kwargs):
        raise AssertionError("async_to_sync used from a request's thread")

    monkeypatch.setattr(handlers, "async_to_sync", refused)
    app = PooledThreadsASGIHandler(threads=2)
    under_loop.clear()

    async def serve():
        return asyncio.get_running_loop(), await get(app, path="/run-on-loop"), await get(app, "fail=1", "/run-on-loop")

    loop, (status, said), (failed_status, failed) = asyncio.run(serve())
    assert (status, failed_status) == (200, 200)
    thread, result = said.split(" ", 1)
    assert thread.startswith("django-") and result == "done"
    assert failed.split(" ", 1)[1] == "raised from the loop"
    assert under_loop["loop"] is loop


def test_run_on_loop_without_a_server_loop_runs_on_a_loop_of_its_own_in_this_thread(monkeypatch):
    """A Celery worker or a management command has no server loop: the coroutine still runs, on a loop of its
    own, in the calling thread (no thread started for it, asgiref's async_to_sync not used), and its result or
    its exception comes back; the loop is closed after, and the thread's current event loop is left as it was."""

    def refused(*args, **kwargs):
        raise AssertionError("async_to_sync used without a server loop")

    monkeypatch.setattr(handlers, "async_to_sync", refused)
    loops = []

    async def double(number):
        loops.append(asyncio.get_running_loop())
        return number * 2, threading.current_thread()

    async def fail():
        raise ValueError("raised on its own loop")

    policy = asyncio.get_event_loop_policy()
    mine = policy.new_event_loop()
    policy.set_event_loop(mine)
    try:
        threads_before = threading.active_count()
        assert run_on_loop(double, 21) == (42, threading.current_thread())
        with pytest.raises(ValueError, match="its own loop"):
            run_on_loop(fail)
        assert run_on_loop(double, 1)[0] == 2
        assert threading.active_count() == threads_before
        assert loops[0] is not loops[1] and all(loop.is_closed() for loop in loops)
        assert policy.get_event_loop() is mine  # the thread's own loop, untouched
    finally:
        policy.set_event_loop(None)
        mine.close()


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_a_threads_requests_share_its_cache_backends():
    """The cache backends are made once per thread, not for every request (a fresh context each made them
    again: the file cache's folder made anew each time), as under WSGI."""
    app = PooledThreadsASGIHandler(threads=1)

    async def two():
        return await get(app, path="/cache-backends"), await get(app, path="/cache-backends")

    (status, first), (again, second) = asyncio.run(two())
    assert (status, again) == (200, 200)
    assert first == second


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"], LANGUAGE_CODE="en")
def test_what_a_request_activates_ends_with_it():
    """One thread serves both requests: the language the first one switched to is not where the next starts."""
    app = PooledThreadsASGIHandler(threads=1)

    async def two():
        return await get(app, "set=fi", path="/language"), await get(app, path="/language")

    (status, first), (again, second) = asyncio.run(two())
    assert (status, again) == (200, 200)
    assert first.split()[1] == "fi"
    assert second.split()[0] != "fi"


# --- The body: read on the loop before a thread is taken, bounded in size and time -----------------------------


def body_scope(path: str, *headers: tuple[bytes, bytes], method: str = "POST") -> dict:
    return {**http_scope(path), "method": method, "headers": [(b"host", b"testserver"), *headers]}


def read(scope: dict, receive) -> tuple[int | None, bytes]:
    """``read_body`` of a fresh handler: (the refusal's status or None, what was read)."""

    async def reading():
        try:
            body_file = await PooledThreadsASGIHandler(threads=1).read_body(receive, scope)
        except BodyRefused as refused:
            return refused.status, b""
        with body_file:
            return None, body_file.read()

    return asyncio.run(reading())


def messages(*parts: bytes, then_wait: bool = False):
    """An ASGI ``receive`` giving ``parts`` as the body (the last ends it, unless ``then_wait``: then it never
    ends), counting what was taken in ``receive.taken``."""
    queue = list(parts)

    async def receive():
        if not queue:
            await asyncio.Event().wait()  # a client that sends nothing more
        receive.taken += 1
        part = queue.pop(0)
        return {"type": "http.request", "body": part, "more_body": bool(queue) or then_wait}

    receive.taken = 0
    return receive


@override_settings(FABULA_BODY_READ_TIMEOUT_SECONDS=0.2, FABULA_BODY_DEADLINE_SECONDS=10)
def test_a_body_that_stops_coming_is_refused_after_the_read_timeout():
    started = time.monotonic()
    assert read(body_scope("/api/v1/games"), messages(b"{", then_wait=True)) == (408, b"")
    assert 0.2 <= time.monotonic() - started < 2


@override_settings(FABULA_BODY_READ_TIMEOUT_SECONDS=1, FABULA_BODY_DEADLINE_SECONDS=0.3)
def test_a_body_that_trickles_is_refused_at_the_deadline():
    async def trickle():
        await asyncio.sleep(0.05)  # the slow client under test: always within the read timeout, never done
        trickle.taken += 1
        return {"type": "http.request", "body": b"x", "more_body": trickle.taken < 1000}

    trickle.taken = 0
    started = time.monotonic()
    assert read(body_scope("/api/v1/games"), trickle)[0] == 408
    assert 0.3 <= time.monotonic() - started < 2 and trickle.taken < 20


@override_settings(FABULA_BODY_MAX_BYTES=1000)
def test_a_declared_length_past_the_limit_is_refused_before_a_byte_is_read():
    receive = messages(b"x" * 10)
    assert read(body_scope("/api/v1/games", (b"content-length", b"1500000000")), receive) == (413, b"")
    assert receive.taken == 0


@override_settings(FABULA_BODY_MAX_BYTES=1000)
def test_a_streamed_body_is_cut_off_where_it_passes_the_limit():
    receive = messages(*[b"x" * 300] * 100)
    assert read(body_scope("/api/v1/games"), receive) == (413, b"")
    assert receive.taken == 4  # 1200 bytes: not one part more
    assert read(body_scope("/api/v1/games"), messages(b"x" * 500, b"y" * 500)) == (None, b"x" * 500 + b"y" * 500)


def test_each_route_takes_its_own_limit():
    """A clue's upload at its media's limit (less than JSON's), the admin's deck import at its zip's (more)."""
    two_mb = (b"content-length", str(2 * 1024 * 1024).encode())
    assert read(body_scope("/api/v1/games/1/clue-media", two_mb), messages(b"x"))[0] == 413
    assert read(body_scope("/games/1/clue-media/", two_mb), messages(b"x"))[0] == 413
    assert read(body_scope("/api/v1/games", two_mb), messages(b"x")) == (None, b"x")  # said, not sent: read
    forty_mb = (b"content-length", str(40 * 1024 * 1024).encode())
    assert read(body_scope("/api/v1/games", forty_mb), messages(b"x"))[0] == 413
    assert read(body_scope(reverse("admin:storyteller_deck_import", args=[1]), forty_mb), messages(b"x"))[0] is None
    # A chunked upload past the clue's limit is cut off too.
    receive = messages(*[b"x" * 65536] * 40)
    assert read(body_scope("/api/v1/games/1/clue-media"), receive)[0] == 413
    assert receive.taken == 18  # 17 parts are exactly its limit (1 MB + 64 KiB): the 18th passes it


def test_the_limits_name_routes_that_exist_and_fit_their_files():
    from storyteller.decks.services.cards import MAX_IMAGE_BYTES, MAX_ZIP_BYTES
    from storyteller.services.media import MAX_SOUND_BYTES

    names = {}
    for name, limit in settings.FABULA_BODY_LIMITS.items():
        names[name] = limit
        reverse(name, args=[1]) if "card_add" not in name else reverse(name)  # NoReverseMatch if it is gone
    assert names["storyteller:clue_media_create"] > MAX_SOUND_BYTES
    assert names["api-v1:clue_media_create"] > MAX_SOUND_BYTES
    assert names["admin:storyteller_deck_import"] > MAX_ZIP_BYTES
    assert names["admin:storyteller_card_add"] > MAX_IMAGE_BYTES


@pytest.mark.parametrize(
    "content_type",
    [
        b"multipart/form-data",
        b"multipart/form-data; boundary=",
        b"multipart/form-data; boundary=\xc3\xa9",
        b'multipart/form-data; boundary="ends in a space "',
        b"multipart/form-data; boundary=" + b"b" * 202,
        b"Multipart/Form-Data; boundary=abc",
    ],
)
def test_a_multipart_body_without_a_valid_boundary_is_refused_unread(content_type):
    receive = messages(b"--x\r\n")
    assert read(body_scope("/api/v1/games/1/clue-media", (b"content-type", content_type)), receive) == (400, b"")
    assert receive.taken == 0
    good = (b"content-type", b"multipart/form-data; boundary=----abc")
    assert read(body_scope("/api/v1/games/1/clue-media", good), messages(b"--x\r\n")) == (None, b"--x\r\n")


@pytest.mark.parametrize(
    "content_type",
    [
        b"multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
        b'multipart/form-data; charset=utf-8; boundary="a boundary, quoted"',
        b"multipart/form-data; boundary=" + b"b" * 201,
        b"application/json",
        b"text/plain; charset=\xc3\xa9",
    ],
)
def test_what_djangos_parser_takes_is_read(content_type):
    """The boundaries Django's multipart parser takes (and any other type of body) pass, as Django reads them."""
    from django.http.multipartparser import MultiPartParser, MultiPartParserError

    assert handlers.multipart_readable(content_type)
    if content_type.lower().startswith(b"multipart/"):  # the parser itself agrees
        try:
            MultiPartParser({"CONTENT_TYPE": content_type.decode("latin-1")}, io.BytesIO(), [])
        except MultiPartParserError:  # pragma: no cover
            pytest.fail(f"Django refuses {content_type!r}")


@override_settings(
    ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"], FABULA_BODY_READ_TIMEOUT_SECONDS=0.5
)
def test_a_slow_body_holds_no_thread_and_gets_its_answer():
    """With one thread: a request whose body does not come waits on the loop while another is served on the
    thread; then it is answered 408 with the connection closed, in the API's error format under /api/."""
    app = PooledThreadsASGIHandler(threads=1)

    async def both():
        slow = ApplicationCommunicator(app, {**http_scope("/api/v1/games"), "method": "POST"})
        await slow.send_input({"type": "http.request", "body": b"{", "more_body": True})
        served = await get(app)  # the one thread is free for it
        start = await slow.receive_output(timeout=5)
        body = await slow.receive_output(timeout=5)
        await slow.wait(timeout=5)
        return served, start, body

    (status, _name), start, body = asyncio.run(both())
    assert status == 200
    assert start["status"] == 408 and (b"Connection", b"close") in start["headers"]
    assert json.loads(body["body"])["error"]["code"] == "too_slow"


def test_a_refusal_speaks_the_clients_language_and_the_apis_format():
    scope = body_scope("/api/v1/games", (b"accept-language", b"fr"))
    answer = handlers.refusal(scope, 413)
    assert answer.status_code == 413 and answer["Connection"] == "close"
    assert json.loads(answer.content) == {
        "error": {"code": "too_large", "message": "Le corps de la requête est trop volumineux."}
    }
    page = handlers.refusal(body_scope("/games/", (b"accept-language", b"da")), 408)
    assert page["Content-Type"].startswith("text/plain") and page.content.decode() == (
        "Forespørgslens indhold kom for langsomt: send den igen."
    )
    # The language cookie the site sets wins over the browser's languages, as on the site's pages.
    cookie = f"csrftoken=x; {settings.LANGUAGE_COOKIE_NAME}=sv".encode()
    scope = body_scope("/games/", (b"accept-language", b"da"), (b"cookie", cookie))
    assert handlers.refusal(scope, 413).content.decode() == str(translation_in("sv", handlers.REFUSALS[413][1]))
    assert handlers.client_language(body_scope("/games/", (b"cookie", b"\x00bad; =;"))) == settings.LANGUAGE_CODE


@override_settings(ROOT_URLCONF="infrastructure.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
def test_a_client_that_reads_its_answer_slowly_holds_no_thread():
    """With one thread: an answer whose writing waits on its client (a full socket) waits on the loop, and the
    next request is served on the thread meanwhile."""
    app = PooledThreadsASGIHandler(threads=1)

    async def both():
        stuck, writing = asyncio.Event(), asyncio.Event()

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send_to_a_full_socket(message):
            if message["type"] == "http.response.body":
                writing.set()
                await stuck.wait()

        slow = asyncio.create_task(app(http_scope(), receive, send_to_a_full_socket))
        await asyncio.wait_for(writing.wait(), timeout=5)
        served = await asyncio.wait_for(get(app), timeout=5)
        stuck.set()
        await asyncio.wait_for(slow, timeout=5)
        return served

    status, name = asyncio.run(both())
    assert status == 200 and name.startswith("django-0")


@override_settings(FABULA_BODY_READ_TIMEOUT_SECONDS=5)
def test_a_read_cancelled_from_outside_stays_cancelled():
    """The server stopping cancels a request that waits for its body: that is no 408."""

    async def cancelled():
        parts = messages(b"{", then_wait=True)
        waiting = asyncio.Event()

        async def receive():
            if parts.taken == 1:  # it took the first part and asks for the next, which never comes
                waiting.set()
            return await parts()

        reading = asyncio.create_task(
            PooledThreadsASGIHandler(threads=1).read_body(
                receive, body_scope("/api/v1/games", (b"content-length", b"10"))
            )
        )
        await waiting.wait()
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        return reading.cancelled()

    assert asyncio.run(cancelled())


def translation_in(language: str, message) -> str:
    from django.utils import translation

    with translation.override(language):
        return str(message)
