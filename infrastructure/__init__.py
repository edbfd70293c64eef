"""The site's infrastructure: what every app leans on and none of them is about.

Imported by the apps and by the wiring (config/), it imports neither (an import contract in pyproject.toml
holds it), and importing it loads no Celery, no channel layer and no app:

- ``caches``: the caches a process keeps in its own memory, bounded, and their one reset;
- ``layers``: the embedded default's channel layers (in one process, and across processes by local sockets);
- ``resilience``: what leans on Redis degrades instead of failing a request when Redis is down;
- ``raw_sql``: the hot path's few statements written out as SQL once, run through a cursor;
- ``handlers``: request bodies read on the event loop, bounded, before a request takes a thread;
- ``csp``: django-csp's middleware with the policies of a nonce-less answer built once;
- ``origins``: which pages may open the live sockets;
- ``ids``: ids from a URL that the database can hold, or none;
- ``warm``: a web process made ready before it serves;
- ``memtrace``: where a process's memory goes, for the soak benchmark (off unless asked for);
- ``undocumented``: the fence, the only code that leans on other libraries' undocumented parts.
"""
