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

Each HTTP request borrows one of ``threads`` long-lived one-thread executors (the
``executor=`` form of ``ThreadSensitiveContext``, whose executor the caller owns), and
gives it back when it is answered. Requests of one process still run at once, up to
``threads`` of them (the rest wait for a thread), each thread keeps its database
connection between requests, and a thread-sensitive call of a request stays on that
request's thread as Django expects.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix


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
        if self._idle is None:
            self._idle = asyncio.LifoQueue()  # the thread used last is the warmest
            for number in range(self.threads):
                self._idle.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"django-{number}"))
        executor = await self._idle.get()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._idle.put_nowait(executor)

    async def get_response_async(self, request):
        """The whole synchronous chain, middleware and view, in one step on the request's thread."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file):
        """On the request's thread: what Django's ``handle`` and ``run_get_response`` do between reading the
        body and writing the response, and the response's close when it is whole."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.get_response(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks it
        if not response.streaming:
            response.close()  # request_finished: the thread's database connection goes back
        return response
