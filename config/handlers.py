"""Django's ASGI handler, its synchronous work done in one step, on long-lived threads.

Django runs each request's synchronous code (middleware, views, the ORM) in a thread of
the request's own: asgiref's ``ThreadSensitiveContext`` starts a one-thread executor for
the request and shuts it down after. That is a thread started and joined per request,
and, the connection being the thread's, a database connection opened and closed per
request (a profile of the live benchmark put about a sixth of the server's time there).

Django also builds the middleware chain for the event loop under ASGI: each hook of
each middleware (and the middleware that can only run synchronously, such as
WhiteNoise's) is then a hop between the loop and a thread, a dozen or more per request,
each a few hundred microseconds of futures, locks and context copies. The views are
synchronous, so the chain here is the synchronous one (as under WSGI), entered with one
hop: the loop reads the request and writes the response; the thread runs everything
in between.

Django's ``handle`` then still makes three hops a request (the ``request_started``
signal, the response, its ``close`` with ``request_finished``) and two tasks, one of them
to notice a client that hangs up, which a synchronous view cannot act on. Here the loop
reads the body, the thread does the rest in one step (signal, request, chain, and the
close of a response that is already whole), and the loop writes the response. Only a
streaming response is closed after it is written, as Django does.

Each HTTP request borrows one of ``threads`` long-lived one-thread executors and gives it
back when it is answered. Requests of one process still run at once, up to ``threads`` of
them (the rest wait for a thread), and each thread keeps its database connection between
requests.

The hop itself is the executor's own (``run_in_executor``, in a copy of the request's
context), not asgiref's ``sync_to_async`` in a ``ThreadSensitiveContext``: those copy every
context variable back and forth and re-home each ``Local``'s storage on the way in and
out, about twice the cost of the hop, for values nothing here reads (the request's
thread sets its language and time zone itself, in its own copy, gone when it is
answered). What asgiref's hop tells the thread it still does (``_on_request_thread``):
the server's event loop, so that ``async_to_sync`` (a message to the channel layer)
runs there, and a thread-sensitive call made under it comes back to the request's
thread, as Django expects.

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
import contextvars
import io
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponse
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.urls import Resolver404, resolve, set_script_prefix
from django.utils import translation
from django.utils.http import parse_header_parameters
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


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self, threads: int):
        if threads < 1:
            raise ValueError("at least one thread")
        super().__init__()
        self.load_middleware(is_async=False)  # the synchronous chain (ASGIHandler built the async one)
        self.threads = threads
        self._idle: asyncio.LifoQueue | None = None  # made on the server's event loop

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)  # Django's own refusal
        await self.handle(scope, receive, send)

    async def get_response_async(self, request):
        """The whole synchronous chain, middleware and view, in one step on a thread (Django's ``handle``
        calls this; the ``handle`` below does not)."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive, scope)
        except RequestAborted:
            return
        except BodyRefused as refused:
            await self.send_response(refusal(scope, refused.status), send)
            return
        set_script_prefix(get_script_prefix(scope))
        if self._idle is None:
            self._idle = asyncio.LifoQueue()  # the thread used last is the warmest
            for number in range(self.threads):
                self._idle.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"django-{number}"))
        executor = await self._idle.get()
        try:
            response = await _on_thread(executor, self._respond, scope, body_file)
            if response.streaming:  # its parts may come from this thread: it is closed there once written
                try:
                    await self.send_response(response, send)
                finally:
                    await _on_thread(executor, response.close)
                return
        finally:
            self._idle.put_nowait(executor)
            body_file.close()
        await self.send_response(response, send)

    async def read_body(self, receive, scope=None):
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

    def _respond(self, scope, body_file):
        """On the request's thread: what Django's ``handle`` and ``run_get_response`` do between reading the
        body and writing the response, and the response's close when it is whole."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.get_response(request)
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks it
        if not response.streaming:
            response.close()  # request_finished: the thread's database connection goes back
        return response


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
        self.task = asyncio.current_task()
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


def multipart_readable(content_type: bytes) -> bool:
    """Whether Django can read a body of ``content_type``: anything but a form's multipart body without a valid
    boundary, as Django's own parser checks the header (before any byte of the body)."""
    text = content_type.decode("latin-1")
    if parse_header_parameters(text)[0] != "multipart/form-data":
        return True
    try:
        MultiPartParser({"CONTENT_TYPE": text}, io.BytesIO(), [])
    except MultiPartParserError:
        return False
    return True


def refusal(scope, status: int) -> HttpResponse:
    """The answer to a request refused before it reached the site: in the API's error format under /api/, else
    a plain page; in the language the client asks for; and the connection is closed after it."""
    code, message = REFUSALS[status]
    request = ASGIHandler.request_class(scope, io.BytesIO())
    with translation.override(translation.get_language_from_request(request)):
        text = str(message)
    if request.path_info.startswith("/api/"):
        body = json.dumps({"error": {"code": code, "message": text}})
        response = HttpResponse(body, status=status, content_type="application/json")
    else:
        response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    response["Content-Length"] = str(len(response.content))
    response["Connection"] = "close"  # the rest of the body, if any, is not read: this connection is done
    return response


async def _on_thread(executor, function, *args):
    """``function(*args)`` on ``executor``'s thread, in a copy of this context; as asgiref does, a cancelled
    caller still waits for the thread to finish (the executor goes back to the pool only once it is idle)."""
    loop = asyncio.get_running_loop()
    done = loop.run_in_executor(executor, contextvars.copy_context().run, _on_request_thread, loop, function, args)
    try:
        return await asyncio.shield(done)
    except asyncio.CancelledError:
        await asyncio.wait([done])
        raise


def _on_request_thread(loop, function, args):
    # What asgiref's SyncToAsync tells each thread it runs: the server's loop, where async_to_sync then runs
    # its coroutine (and from where a thread-sensitive call under it comes back to this thread).
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
    return function(*args)


def run_on_loop(function, *args):
    """``await function(*args)`` on the server's event loop, from a thread, and its result (or its exception).

    What ``async_to_sync`` does from a request's thread, at a fraction of the cost: asgiref copies this
    thread's context into the coroutine's task and, once it is done, every context variable back (each
    ``Local``'s storage re-homed on the way), some 0.3 ms of a request's thread and of the loop for each
    message an action sends to the channel layer. Here the coroutine runs in a copy of this thread's context
    (``run_coroutine_threadsafe``) and nothing is copied back, so it is only for coroutines that neither set
    context variables this thread then reads nor call back into synchronous code (which asgiref would run
    on this thread): sending to the channel layer. Where no server loop runs this process's work (a Celery
    worker, a management command, a test), it is ``async_to_sync``."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if (
        loop is None
        or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid()
        or not loop.is_running()
        or _running_loop() is not None  # this thread is a loop's own: async_to_sync refuses it
    ):
        return async_to_sync(function)(*args)
    return asyncio.run_coroutine_threadsafe(function(*args), loop).result()


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
