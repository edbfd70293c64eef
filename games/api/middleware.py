"""The API's answers to what its views never see: a method a path does not take (405) and a body that is
not JSON (415), both in the API's error format (games.api.api). A middleware, through Django's documented
hooks (``process_view``, ``process_response``, ``process_exception``), so that ninja's URLs stay ninja's.

And the pages' own middleware, passed by a request to the API that carries a token (``ForPagesOnly``): such a
request is its token's, never a session's (``TokenAuth``), and no message is ever shown in JSON, so reading its
session, its signed-in user and its messages was work for nothing, on every poll of a bot and every action."""

import contextlib

from django.contrib.auth import middleware as auth
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import Http404, HttpResponseNotAllowed
from django.urls import NoReverseMatch
from django.utils.cache import patch_cache_control
from django.utils.deprecation import MiddlewareMixin

from .api import api, guard_response, not_allowed_response, on_not_found, uploads


def _of_the_api(request) -> bool:
    match = request.resolver_match
    return match is not None and match.namespace == api.urls_namespace


class ApiGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        # Which operations take a multipart body, read from the OpenAPI document once, as the process starts
        # (Django makes its middleware then): not by the first requests, each thread building the document.
        with contextlib.suppress(NoReverseMatch):  # a URLconf without the API (a test's own): nothing to read
            uploads()

    def __call__(self, request):
        response = self.get_response(request)
        if not _of_the_api(request):
            return response
        if isinstance(response, HttpResponseNotAllowed):
            response = not_allowed_response(request, response)
        # Each answer is its caller's (a token's or a session's): a shared cache between a client and the
        # site (a proxy, a CDN) keeps none of them for someone else. Kept as they are: a new token's no-store,
        # a view's private no-cache with its ETag.
        patch_cache_control(response, private=True)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if _of_the_api(request):
            return guard_response(request, request.resolver_match.url_name)
        return None

    def process_exception(self, request, exception):
        """An Http404 raised outside ninja's handlers (its root page's), answered as ninja's would be."""
        if isinstance(exception, Http404) and _of_the_api(request):
            return on_not_found(request, exception)
        return None


# Where the API's paths start (config/urls.py mounts it at api/v1/; a test holds the two together).
API_PATH = "/api/"


def with_api_token(request) -> bool:
    """A request to the API that names a bearer token (as ninja's ``HttpBearer`` reads the header, the scheme in
    any case): its caller is the token's, or nobody (401); never a session's."""
    return request.path_info.startswith(API_PATH) and request.META.get("HTTP_AUTHORIZATION", "")[:7].lower() == (
        "bearer "
    )


class ForPagesOnly(MiddlewareMixin):
    """A mixin for Django's middleware (the class after it): run for every request but one to the API with a
    token (``with_api_token``), which goes on without it. Such a request gets an anonymous ``request.user`` until
    its token is checked (``TokenAuth`` sets the token's user), no ``request.session`` and no messages: the API's
    operations use none of them. Everything else (the pages, the API's documents, its sign-up and token
    requests, which come without a token) runs the middleware as before. Synchronous only, as the middleware
    after them (``accounts.middleware``) is."""

    sync_capable = True
    async_capable = False

    def __call__(self, request):
        if with_api_token(request):
            if not hasattr(request, "user"):
                request.user = AnonymousUser()
            return self.get_response(request)
        return super().__call__(request)


class SessionMiddleware(ForPagesOnly, sessions.SessionMiddleware):
    pass


class AuthenticationMiddleware(ForPagesOnly, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(ForPagesOnly, messages.MessageMiddleware):
    pass
