"""The API's answers to what its views never see: a method a path does not take (405) and a body that is
not JSON (415), both in the API's error format (games.api.api). A middleware, through Django's documented
hooks (``process_view``, ``process_response``, ``process_exception``), so that ninja's URLs stay ninja's."""

import contextlib

from django.http import Http404, HttpResponseNotAllowed
from django.urls import NoReverseMatch

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
        if isinstance(response, HttpResponseNotAllowed) and _of_the_api(request):
            return not_allowed_response(request, response)
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
