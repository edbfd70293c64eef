"""config.csp: the same headers as django-csp's own middleware, a plain response's built once."""

import re

import pytest
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

import config.csp
from config.csp import CSPMiddleware

HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")
REPORT_ONLY = {"DIRECTIVES": {"default-src": ["'self'"], "report-uri": "/csp-reports/"}}


def plain(request):
    return HttpResponse("plain")


def with_nonce(request):
    return HttpResponse(f"<script nonce='{request.csp_nonce}'></script>")


@csp_update({"img-src": "https://example.org"})
def updated(request):
    return HttpResponse("updated")


@csp_exempt()
def exempt(request):
    return HttpResponse("exempt")


def without_nonce(found: dict) -> dict:
    return {name: value and re.sub(r"'nonce-[^']+'", "'nonce-N'", value) for name, value in found.items()}


def headers(middleware_class, view, path="/somewhere/"):
    request = RequestFactory().get(path)
    response = middleware_class(view)(request)
    return {name: response.get(name) for name in HEADERS}, request


@pytest.mark.parametrize("view", [plain, with_nonce, updated, exempt])
@pytest.mark.parametrize("report_only", [None, REPORT_ONLY])
def test_every_response_gets_the_headers_django_csp_gives_it(settings, view, report_only):
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = report_only
    ours, _request = headers(CSPMiddleware, view)
    theirs, _request = headers(DjangoCSPMiddleware, view)
    assert without_nonce(ours) == without_nonce(theirs)  # each response has a nonce of its own
    if view is with_nonce:
        assert "'nonce-" in ours["Content-Security-Policy"]
    if view is updated:
        assert "https://example.org" in ours["Content-Security-Policy"]
    if view is exempt:
        assert ours["Content-Security-Policy"] is None
    else:
        assert "default-src 'self'" in ours["Content-Security-Policy"]
    assert (ours["Content-Security-Policy-Report-Only"] is not None) == (report_only is not None)


def test_a_plain_responses_policy_is_built_once_and_again_when_the_setting_changes(monkeypatch):
    built = []
    original = config.csp.build_policy

    def counting(**kwargs):
        built.append(kwargs)
        return original(**kwargs)

    monkeypatch.setattr(config.csp, "build_policy", counting)
    config.csp._KEPT.clear()
    first = [headers(CSPMiddleware, plain)[0] for _ in range(5)]
    assert len(built) == 2  # the enforced policy and the (empty) report-only one
    assert all(each == first[0] for each in first)

    with override_settings(CONTENT_SECURITY_POLICY_REPORT_ONLY=REPORT_ONLY):
        changed = headers(CSPMiddleware, plain)[0]
    assert len(built) == 4
    assert changed["Content-Security-Policy-Report-Only"] is not None
    assert headers(CSPMiddleware, plain)[0] == first[0]  # and back


def test_excluded_paths_get_no_header_and_a_late_nonce_is_refused(settings):
    settings.CONTENT_SECURITY_POLICY = {**settings.CONTENT_SECURITY_POLICY, "EXCLUDE_URL_PREFIXES": ["/outside/"]}
    assert headers(CSPMiddleware, plain, path="/outside/page")[0]["Content-Security-Policy"] is None
    assert headers(CSPMiddleware, plain, path="/inside/")[0]["Content-Security-Policy"] is not None
    _headers, request = headers(CSPMiddleware, plain)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
