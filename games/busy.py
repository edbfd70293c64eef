"""Answering "busy, try again shortly" (503 with Retry-After) when the database has
no connection to give: the pool waited too long for one, or the server is full.

Anything else that goes wrong is still a 500: a bug to see in the logs.
"""

import sys

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views import defaults

try:  # only with PostgreSQL's pool installed
    from psycopg_pool import PoolTimeout
except ImportError:  # pragma: no cover
    PoolTimeout = None

# What PostgreSQL says when it has no connection slot left (SQLSTATE 53300).
SERVER_FULL = ("too many clients", "too_many_connections", "remaining connection slots are reserved")


def database_busy(error: BaseException | None) -> bool:
    """Whether ``error``, or an error it was raised from, says no connection could be had now."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if PoolTimeout is not None and isinstance(error, PoolTimeout):
            return True
        if getattr(error, "sqlstate", None) == "53300" or any(text in str(error) for text in SERVER_FULL):
            return True
        error = error.__cause__ or error.__context__
    return False


def busy_response(*, json: bool) -> HttpResponse:
    """The 503 itself; it touches no database (a page's context would)."""
    message = _("Fabula is very busy just now: try again in a moment.")
    if json:
        import json as json_module

        body = json_module.dumps({"error": {"code": "busy", "message": message}})
        response = HttpResponse(body, status=503, content_type="application/json")
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(settings.FABULA_BUSY_RETRY_AFTER)
    return response


def server_error(request, *args, **kwargs):
    """``handler500``: a 503 when the database was only busy, Django's 500 page otherwise."""
    if database_busy(sys.exc_info()[1]):
        return busy_response(json=request.path.startswith("/api/"))
    return defaults.server_error(request, *args, **kwargs)
