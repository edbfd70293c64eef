"""Django's ASGI handler, its synchronous work done on long-lived threads.

Django runs each request's synchronous code (middleware, views, the ORM) in a thread of
the request's own: asgiref's ``ThreadSensitiveContext`` starts a one-thread executor for
the request and shuts it down after. That is a thread started and joined per request,
and, the connection being the thread's, a database connection opened and closed per
request (a profile of the live benchmark put about a sixth of the server's time there).

Here each HTTP request borrows one of ``threads`` long-lived one-thread executors (the
``executor=`` form of ``ThreadSensitiveContext``, whose executor the caller owns), and
gives it back when it is answered. Requests of one process still run at once, up to
``threads`` of them (the rest wait for a thread), each thread keeps its database
connection between requests, and a thread-sensitive call of a request stays on that
request's thread as Django expects.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self, threads: int):
        super().__init__()
        if threads < 1:
            raise ValueError("at least one thread")
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
