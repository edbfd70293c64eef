"""Django's ASGI handler, its synchronous work done in one step, on long-lived threads.

What it replaces: Django's ``ASGIHandler.handle`` and ``read_body`` (a subclass of ``ASGIHandler``,
which Django documents only as what ``get_asgi_application()`` returns, not as a class to extend);
it calls the handler's undocumented ``load_middleware``, ``create_request``, ``get_response``,
``send_response`` and ``chunk_size`` as Django 5.2's own ``handle`` does.

Why: Django runs each request's synchronous code (middleware, views, the ORM) in a thread of
the request's own: asgiref's ``ThreadSensitiveContext`` starts a one-thread executor for
the request and shuts it down after. That is a thread started and joined per request,
and, the connection being the thread's, a database connection opened and closed per
request. Django also builds the middleware chain for the event loop under ASGI: each hook of
each middleware (and the middleware that can only run synchronously, such as WhiteNoise's)
is then a hop between the loop and a thread, a dozen or more per request. The views are
synchronous, so the chain here is the synchronous one (as under WSGI), entered with one
hop: the loop reads the request and writes the response; the thread runs everything in
between (the ``request_started`` signal, the request, the chain, and the close of a response
that is already whole). Only a streaming response is closed after it is written, as Django does.

Each HTTP request borrows one of ``threads`` long-lived one-thread executors and gives it
back when it is answered. Requests of one process still run at once, up to ``threads`` of
them (the rest wait for a thread), and each thread keeps its database connection between
requests. The hop is the executor's own (``run_in_executor``, in a copy of the request's
context), not asgiref's ``sync_to_async``; the server's loop goes with the request in that
context (``infrastructure.handlers.server_loop``), where ``infrastructure.handlers.run_on_loop`` finds it:
nothing of asgiref's is written.

The body is read on the event loop before a thread is taken, and only so far and so long
(``infrastructure.handlers.read_body``: 408, 413, 400 for a bad multipart boundary): that part is
plain ASGI and would serve in front of Django's own handler too.

What it buys: about half of an action's server CPU. ``bench/live_latency.py --via api`` (50 live games
of 4, the embedded default), this handler against Django's own ``ASGIHandler()`` in its place, in turn in
the same session (5 December 2026, 2 shared cores at load 5-19): 15.2 and 18.1 ms an action against 29.8
and 31.6 ms with Django's (and its p95 from action to fresh page 0.4-4 s against 0.06-4.7 s: the machine
was saturated in the second pair). The body's bounds are not what it buys: they would serve in front of
Django's handler too.

Checked against: Django 5.2.19, asgiref 3.13.0 (pyproject: Django<5.3, asgiref<3.14;
infrastructure/tests/test_handlers.py runs requests, streams, refusals and the loop's hand-over through it).
"""

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.cache import caches
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix

from infrastructure.handlers import BodyRefused, read_body, refusal, server_loop


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self, threads: int):
        if threads < 1:
            raise ValueError("at least one thread")
        super().__init__()
        self.load_middleware(is_async=False)  # the synchronous chain (ASGIHandler built the async one)
        self.threads = threads
        self.idle: asyncio.LifoQueue | None = None  # made on the server's event loop
        self.contexts: dict[ThreadPoolExecutor, contextvars.Context] = {}  # each thread's own (thread_context)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)  # Django's own refusal
        await self.handle(scope, receive, send)

    async def get_response_async(self, request):
        """The whole synchronous chain, middleware and view, in one step on a thread (Django's ``handle``
        calls this; the ``handle`` below does not)."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def read_body(self, receive, scope=None):
        return await read_body(receive, scope)

    async def handle(self, scope, receive, send):
        try:
            body_file = await read_body(receive, scope)
        except RequestAborted:
            return
        except BodyRefused as refused:
            await self.write(refusal(scope, refused.status), send)
            return
        loop = asyncio.get_running_loop()
        if self.idle is None:
            self.idle = asyncio.LifoQueue()  # the thread used last is the warmest
            for number in range(self.threads):
                self.idle.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"django-{number}"))
        executor = await self.idle.get()
        try:
            context = self.contexts.get(executor)
            if context is None:  # this thread's first request
                context = self.contexts[executor] = await loop.run_in_executor(executor, thread_context, loop)
            response = await on_thread(loop, executor, context, self.respond, scope, body_file)
            if response.streaming:  # its parts may come from this thread: it is closed there once written
                try:
                    await self.write(response, send)
                finally:
                    await on_thread(loop, executor, context, response.close)
                return
        finally:
            self.idle.put_nowait(executor)
            body_file.close()
        await self.write(response, send)

    async def write(self, response, send):
        """The response, written on the loop as Django's ``ASGIHandler`` writes it (headers, cookies, chunks)."""
        await self.send_response(response, send)

    def respond(self, scope, body_file):
        """On the request's thread: what Django's ``handle`` and ``run_get_response`` do between reading the
        body and writing the response, and the response's close when it is whole."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.get_response(request)
        if response is None:  # create_request gives a request or the answer to a bad one, never neither
            raise RuntimeError("Django's create_request gave neither a request nor a response.")
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks it
        if not response.streaming:
            response.close()  # request_finished: the thread's database connection goes back
        return response


def thread_context(loop) -> contextvars.Context:
    """On a request thread, once: the context each of its requests runs a copy of. It holds the server's loop
    (``infrastructure.handlers.server_loop``) and the process's cache backends, made here (``caches[alias]``, which
    Django keeps per context): a request's copy finds them, where a fresh context made them again for every
    request (the file cache's folder made anew each time). What a request sets (its language, its time
    zone) is set in its own copy and ends with it."""

    def fill():
        server_loop.set(loop)
        for alias in settings.CACHES:
            caches[alias]

    context = contextvars.copy_context()
    context.run(fill)
    return context


async def on_thread(loop, executor, context, function, *args):
    """``function(*args)`` on ``executor``'s thread, in a copy of ``context``; as asgiref does, a cancelled
    caller still waits for the thread to finish (the executor goes back to the pool only once it is idle)."""
    done = loop.run_in_executor(executor, context.copy().run, function, *args)
    try:
        return await asyncio.shield(done)
    except asyncio.CancelledError:
        await asyncio.wait([done])
        raise
