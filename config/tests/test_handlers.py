"""config.handlers: requests of one process run at once, on threads that live on."""

import asyncio
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from config.handlers import PooledThreadsASGIHandler
from config.tests.urls_threads import meeting

pytestmark = pytest.mark.django_db(transaction=True)


async def get(app, query: str = "") -> tuple[int, str]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/thread",
        "raw_path": b"/thread",
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1234),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(timeout=10)
    body = await communicator.receive_output(timeout=10)
    await communicator.wait(timeout=10)
    return start["status"], body["body"].decode()


@override_settings(ROOT_URLCONF="config.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
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


@override_settings(ROOT_URLCONF="config.tests.urls_threads", ALLOWED_HOSTS=["testserver"])
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
