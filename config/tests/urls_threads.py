"""A URLconf for config/tests/test_handlers.py: views that tell which thread ran them."""

import threading

from django.http import HttpResponse, StreamingHttpResponse
from django.urls import path

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


def streamed(request):
    async def parts():
        yield b"one "
        yield b"two"

    return StreamingHttpResponse(parts())


urlpatterns = [path("thread", which_thread), path("stream", streamed)]
