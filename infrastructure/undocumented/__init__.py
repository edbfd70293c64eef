"""The fence: the only place where Fabula leans on another library's private or undocumented parts.

Each module here opens with what it replaces, what it buys (measured alone, paired old against
new, or the hardening or bug it is for), and the library versions it was checked against;
pyproject.toml puts upper bounds on those libraries, so that a new release is met by
``bin/canary``, not by a user:

- ``asgi_handler``: Django's ASGIHandler run on long-lived threads, one hop a request (Django, asgiref);
- ``http_protocol``: uvicorn's httptools protocol with bounds on a request's head, its size and its time (uvicorn);
- ``file_broker``: kombu's file-system transport writing each message whole (kombu).

Everything else in the project uses the libraries' documented APIs: ``.ci/fenced-reaches`` (in
``.ci/lint``) runs ``../shared/tools/private_reaches.py`` and fails on a reach outside this package.
"""
