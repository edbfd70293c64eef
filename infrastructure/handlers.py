"""The web server's requests before they reach Django: bodies read on the event loop, bounded; the loop handed on.

The handler itself (threads that live on, one hop per request) is ``infrastructure.undocumented.asgi_handler``;
what it uses that is plain ASGI or plain Django is here.

The body is read on the event loop before a thread is taken, and only so far and so long
(``read_body``): a client that sends a request's head and then its body byte by byte, or not
at all, holds a socket and a coroutine, never one of the threads, so that a few of them cannot
stop the site. A body that stalls (``FABULA_BODY_READ_TIMEOUT_SECONDS`` without a byte) or
takes too long in all (``FABULA_BODY_DEADLINE_SECONDS``) is answered 408, one larger than its
route takes (``FABULA_BODY_MAX_BYTES``, ``FABULA_BODY_LIMITS``) 413 without reading it (a
declared ``Content-Length``) or as soon as it passes the limit (chunked, or lying), a multipart
body without a valid boundary 400; each in the API's error format under /api/, and the
connection is closed. The answer to a request is written on the loop once its thread is back
in the pool: a client that reads its answer slowly holds no thread either (but a streamed one).
"""

import asyncio
import contextlib
import contextvars
import email.message
import http.cookies
import json
import re
import tempfile

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.exceptions import RequestAborted
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# A request refused before it reaches the site, by status: the API's error code and the message.
REFUSALS = {
    400: ("bad_request", _("That request is not understood.")),
    408: ("too_slow", _("The request body came too slowly: send it again.")),
    413: ("too_large", _("The request body is too large.")),  # as the API says of a body it cannot parse
}


class BodyRefused(Exception):
    """The request's body is not read (any further): answer ``status`` and close the connection."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


async def read_body(receive, scope=None):
    """The request's body, as Django's ``read_body`` reads it, but bounded in size and time (``BodyRefused``
    says why not): what does not fit in ``FILE_UPLOAD_MAX_MEMORY_SIZE`` goes to a temporary file, never more
    than the route's limit of it."""
    headers = _body_headers(scope["headers"]) if scope else {}
    # Most routes take the same bound and none less than ``floor``: only a body past it asks its route's.
    floor = min(settings.FABULA_BODY_MAX_BYTES, *settings.FABULA_BODY_LIMITS.values())
    limit = floor
    declared = headers.get(b"content-length", b"")
    if declared.isdigit() and int(declared) > floor:
        limit = body_limit(scope)
        if int(declared) > limit:
            raise BodyRefused(413)  # nothing of it is read
    content_type = headers.get(b"content-type")
    if content_type is not None and not multipart_readable(content_type):
        raise BodyRefused(400)
    body_file = tempfile.SpooledTemporaryFile(  # noqa: SIM115  (the caller closes it)
        max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b"
    )
    # A request that says it has no body has it whole in the first message (the server has read the
    # request to its end): only one that says it has a body, or turns out to, is watched.
    stall = BodyStall() if declared not in (b"", b"0") or b"transfer-encoding" in headers else None
    size = 0
    try:
        while True:
            try:
                message = await receive()
            except asyncio.CancelledError:
                if stall is None or not stall.cut_off():
                    raise
                raise BodyRefused(408) from None
            if message["type"] == "http.disconnect":
                raise RequestAborted
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                if limit == floor and scope:
                    limit = body_limit(scope)
                if size > limit:
                    raise BodyRefused(413)  # cut off here: not a byte more is read or kept
            body_file.write(chunk)
            if not message.get("more_body", False):
                break
            if stall is None:
                stall = BodyStall()
            stall.progressed()
    except BaseException:
        body_file.close()
        raise
    finally:
        if stall is not None:
            stall.stop()
    body_file.seek(0)
    return body_file


BODY_HEADERS = (b"content-length", b"content-type", b"transfer-encoding")


def _body_headers(headers) -> dict[bytes, bytes]:
    """The request's headers that say what body comes (the ASGI server gives their names in lower case)."""
    return {name: value for name, value in headers if name in BODY_HEADERS}


class BodyStall:
    """The watch on a body being read: once no part of it has come for ``FABULA_BODY_READ_TIMEOUT_SECONDS``, or
    it is not whole ``FABULA_BODY_DEADLINE_SECONDS`` after it began, the reading task is cancelled (and
    ``cut_off`` says so). One timer a request, moved on only when it fires: ``asyncio.timeout`` around each
    part would cost a timer made and cancelled per part (some 20 microseconds each)."""

    __slots__ = ("loop", "task", "read_timeout", "progress_at", "give_up_at", "expired", "timer")

    def __init__(self):
        self.loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("A body's reading is watched from the task that reads it.")
        self.task = task
        self.read_timeout = settings.FABULA_BODY_READ_TIMEOUT_SECONDS
        self.progress_at = self.loop.time()
        self.give_up_at = self.progress_at + settings.FABULA_BODY_DEADLINE_SECONDS
        self.expired = False
        self.timer = self.loop.call_at(self.due(), self.check)

    def due(self) -> float:
        return min(self.progress_at + self.read_timeout, self.give_up_at)

    def progressed(self) -> None:
        self.progress_at = self.loop.time()

    def check(self) -> None:
        if self.loop.time() >= self.due():
            self.expired = True
            self.task.cancel()
        else:
            self.timer = self.loop.call_at(self.due(), self.check)

    def cut_off(self) -> bool:
        """Whether the reading was cancelled by this watch (the cancellation is then taken back), not from
        outside (the server stopping), which goes on."""
        if self.expired:
            self.task.uncancel()
        return self.expired

    def stop(self) -> None:
        self.timer.cancel()


def body_limit(scope) -> int:
    """The most bytes of body the route of ``scope`` takes: ``FABULA_BODY_LIMITS`` by URL name, else
    ``FABULA_BODY_MAX_BYTES``."""
    script_prefix, path = scope.get("root_path", ""), scope["path"]
    try:
        match = resolve(path.removeprefix(script_prefix) if script_prefix else path)
    except Resolver404:
        return settings.FABULA_BODY_MAX_BYTES
    return settings.FABULA_BODY_LIMITS.get(match.view_name, settings.FABULA_BODY_MAX_BYTES)


# A boundary Django's multipart parser takes: 1 to 201 printable ASCII characters, not ending in a space
# (django.http.multipartparser refuses any other before it reads a byte of the body).
BOUNDARY = re.compile(r"[ -~]{0,200}[!-~]")


def multipart_readable(content_type: bytes) -> bool:
    """Whether Django can read a body of ``content_type``: anything but a form's multipart body without a valid
    boundary (as Django's own parser checks the header before any byte of the body; a header it would still
    refuse is answered 400 by Django once the body is read)."""
    text = content_type.decode("latin-1")
    header = email.message.Message()
    header["content-type"] = text
    if header.get_content_type() != "multipart/form-data":
        return True
    boundary = header.get_param("boundary")
    return (
        text.startswith("multipart/")  # Django's parser asks it so, in lower case
        and text.isascii()
        and isinstance(boundary, str)
        and BOUNDARY.fullmatch(boundary) is not None
    )


def refusal(scope, status: int) -> HttpResponse:
    """The answer to a request refused before it reached the site: in the API's error format under /api/, else
    a plain page; in the language the client asks for; and the connection is closed after it."""
    code, message = REFUSALS[status]
    with translation.override(client_language(scope)):
        text = str(message)
    if scope["path"].removeprefix(scope.get("root_path", "")).startswith("/api/"):
        body = json.dumps({"error": {"code": code, "message": text}})
        response = HttpResponse(body, status=status, content_type="application/json")
    else:
        response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    response["Content-Length"] = str(len(response.content))
    response["Connection"] = "close"  # the rest of the body, if any, is not read: this connection is done
    return response


def client_language(scope) -> str:
    """The language Django's ``LocaleMiddleware`` would pick for this request from its language cookie and
    ``Accept-Language`` (``get_language_from_request`` on a request made of just those two)."""
    request = HttpRequest()
    cookies = http.cookies.SimpleCookie()
    for name, value in scope["headers"]:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        elif name == b"cookie":
            # A cookie header the site cannot read: the language comes from Accept-Language.
            with contextlib.suppress(http.cookies.CookieError):
                cookies.load(value.decode("latin-1"))
    request.COOKIES = {name: morsel.value for name, morsel in cookies.items()}
    return translation.get_language_from_request(request)


# The server's event loop, handed to a request's thread in the request's context
# (infrastructure.undocumented.asgi_handler): ``run_on_loop`` sends coroutines there. Unset where no server
# loop runs this work (a worker, a command, a test).
server_loop: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "server_loop", default=None
)


def run_on_loop(function, *args):
    """``await function(*args)`` on the server's event loop, from a request's thread, and its result (or its
    exception).

    The channel layer lives on the server's loop (the in-memory layer's queues are that loop's): a message
    to it from a request's thread is sent there. This does what ``async_to_sync`` would do with asgiref's
    loop, at a fraction of the cost: asgiref copies this thread's context into the coroutine's task and,
    once it is done, every context variable back (each ``Local``'s storage re-homed on the way), some
    0.3 ms of a request's thread and of the loop for each message. Here the coroutine runs in a copy of
    this thread's context (``run_coroutine_threadsafe``) and nothing is copied back, so it is only for
    coroutines that neither set context variables this thread then reads nor call back into synchronous
    code: sending to the channel layer. Where no server loop runs this work (a Celery worker, beat, a management
    command, a test), the coroutine runs on a loop of its own in this very thread, closed after it
    (``_on_own_loop``): what ``async_to_sync`` does there too, but without the thread it starts for each call
    (some 1.3 ms of CPU a call against 0.2 ms, every action a bot plays in a worker). A thread that runs a loop
    of its own already cannot run another: there it is ``async_to_sync`` (which refuses it, as before)."""
    loop = server_loop.get()
    if _running_loop() is not None:  # this thread is a loop's own: async_to_sync refuses it
        return async_to_sync(function)(*args)
    if loop is None or not loop.is_running():
        return _on_own_loop(function(*args))
    return asyncio.run_coroutine_threadsafe(function(*args), loop).result()


def _on_own_loop(coroutine):
    """Run ``coroutine`` to its end on a new event loop in this thread, then close the loop (its async
    generators and default executor finished first, as ``asyncio.run`` does), and give its result or raise its
    exception. Unlike ``asyncio.run`` it leaves the thread's current event loop as it was (``set_event_loop``
    untouched)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
