"""A URLconf for infrastructure/tests/test_handlers.py: views that tell which thread ran them."""

import asyncio
import threading

from asgiref.sync import async_to_sync, sync_to_async
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import path
from django.utils import translation

# ?meet=N: the request waits until N requests are in the view at once (or fails after 5 s).
meeting: dict = {"barrier": None, "inside": 0, "most": 0}
_lock = threading.Lock()


def which_thread(request):
    with _lock:
        meeting["inside"] += 1
        meeting["most"] = max(meeting["most"], meeting["inside"])
    try:
        if request.GET.get("meet"):
            meeting["barrier"].wait(timeout=5)
        return HttpResponse(threading.current_thread().name)
    finally:
        with _lock:
            meeting["inside"] -= 1


# What /loop saw: the loop async_to_sync ran its coroutine on, and the thread a thread-sensitive call under it ran on.
under_loop: dict = {}


def through_the_loop(request):
    """As a service telling the channel layer: async_to_sync from the request's thread, and under it a
    thread-sensitive call (as a database read from a coroutine would be)."""

    async def on_loop():
        under_loop["loop"] = asyncio.get_running_loop()
        under_loop["thread"] = await sync_to_async(lambda: threading.current_thread().name, thread_sensitive=True)()

    async_to_sync(on_loop)()
    return HttpResponse(threading.current_thread().name)


def run_on_the_loop(request):
    """As a service telling the channel layer through ``infrastructure.handlers.run_on_loop``: the coroutine's result
    comes back to the request's thread, and so does its exception (?fail=1)."""
    from infrastructure.handlers import run_on_loop

    async def on_loop(fail):
        under_loop["loop"] = asyncio.get_running_loop()
        if fail:
            raise LookupError("from the loop")
        return "done"

    try:
        said = run_on_loop(on_loop, bool(request.GET.get("fail")))
    except LookupError as error:
        said = f"raised {error}"
    return HttpResponse(f"{threading.current_thread().name} {said}")


def language(request):
    """The language this request starts in; ?set=xx activates another for the rest of it."""
    before = translation.get_language()
    if request.GET.get("set"):
        translation.activate(request.GET["set"])
    return HttpResponse(f"{before} {translation.get_language()}")


def streamed(request):
    async def parts():
        yield b"one "
        yield b"two"

    return StreamingHttpResponse(parts())


def cache_backends(request):
    """Which cache backend objects this request was given (Django keeps them per context)."""
    from django.core.cache import caches

    return HttpResponse(" ".join(str(id(caches[alias])) for alias in ("default", "views")))


urlpatterns = [
    path("thread", which_thread),
    path("stream", streamed),
    path("loop", through_the_loop),
    path("language", language),
    path("run-on-loop", run_on_the_loop),
    path("cache-backends", cache_backends),
]
