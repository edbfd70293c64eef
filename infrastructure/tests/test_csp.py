"""infrastructure.csp: the headers django-csp's own middleware gives, an answer's without a nonce built once."""

import re
from pathlib import Path

import pytest
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpResponse, JsonResponse
from django.template import Context, Template
from django.test import RequestFactory, override_settings

import infrastructure.csp
from infrastructure.csp import CSPMiddleware

HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")
REPORT_ONLY = {"DIRECTIVES": {"default-src": ["'self'"], "report-uri": "/csp-reports/"}}


def page(request):
    return HttpResponse("<p>a page</p>")


def page_with_nonce(request):
    return HttpResponse(f"<script nonce='{request.csp_nonce}'></script>")


def answer(request):
    return JsonResponse({"ok": True})


def answer_with_charset(request):
    return HttpResponse(b"{}", content_type="application/json; charset=utf-8", status=404)


def answer_with_nonce(request):
    return JsonResponse({"nonce": str(request.csp_nonce)})


def answer_with_its_own_header(request):
    response = JsonResponse({})
    response["Content-Security-Policy"] = "default-src 'none'"
    return response


VIEWS = [page, page_with_nonce, answer, answer_with_charset, answer_with_nonce, answer_with_its_own_header]


def without_nonce(found: dict) -> dict:
    return {name: value and re.sub(r"'nonce-[^']+'", "'nonce-N'", value) for name, value in found.items()}


def headers(middleware_class, view, path="/somewhere/"):
    request = RequestFactory().get(path)
    response = middleware_class(view)(request)
    return {name: response.get(name) for name in HEADERS}, request


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("report_only", [None, REPORT_ONLY])
def test_every_answer_gets_the_headers_django_csp_gives_it(settings, view, report_only):
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = report_only
    ours, _request = headers(CSPMiddleware, view)
    theirs, _request = headers(DjangoCSPMiddleware, view)
    assert without_nonce(ours) == without_nonce(theirs)  # each response has a nonce of its own
    if view in (page_with_nonce, answer_with_nonce):
        assert "'nonce-" in ours["Content-Security-Policy"]
    elif view is answer_with_its_own_header:
        assert ours["Content-Security-Policy"] == "default-src 'none'"
    else:
        assert "default-src 'self'" in ours["Content-Security-Policy"]
    assert (ours["Content-Security-Policy-Report-Only"] is not None) == (report_only is not None)


def test_a_policy_without_a_nonce_is_built_once_and_again_when_the_setting_changes(monkeypatch):
    built = []
    original = infrastructure.csp.build_policy

    def counting(**kwargs):
        built.append(kwargs)
        return original(**kwargs)

    monkeypatch.setattr(infrastructure.csp, "build_policy", counting)
    infrastructure.csp._KEPT.clear()
    first = [headers(CSPMiddleware, answer)[0] for _ in range(5)]
    assert len(built) == 2  # the enforced policy and the (empty) report-only one
    assert all(each == first[0] for each in first)
    assert headers(CSPMiddleware, page)[0] == first[0]
    headers(CSPMiddleware, page_with_nonce)
    assert len(built) == 2  # a nonce's is django-csp's own (it does not count through infrastructure.csp)

    with override_settings(CONTENT_SECURITY_POLICY_REPORT_ONLY=REPORT_ONLY):
        changed = headers(CSPMiddleware, answer)[0]
    assert len(built) == 4
    assert changed["Content-Security-Policy-Report-Only"] is not None
    assert headers(CSPMiddleware, answer)[0] == first[0]  # and back


@pytest.mark.parametrize("view", [page, answer])
def test_excluded_paths_get_no_header(settings, view):
    settings.CONTENT_SECURITY_POLICY = {**settings.CONTENT_SECURITY_POLICY, "EXCLUDE_URL_PREFIXES": ["/outside/"]}
    assert headers(CSPMiddleware, view, path="/outside/page")[0]["Content-Security-Policy"] is None
    assert headers(CSPMiddleware, view, path="/inside/")[0]["Content-Security-Policy"] is not None


@pytest.mark.parametrize("view", [page, answer])
def test_a_nonce_asked_for_after_the_header_is_refused(view):
    _headers, request = headers(CSPMiddleware, view)
    assert not request.csp_nonce  # as django-csp's nonce nobody asked for
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
    with pytest.raises(CSPNonceError):
        Template("<script nonce='{{ request.csp_nonce }}'>").render(Context({"request": request}))


def test_no_view_gives_itself_a_policy_of_its_own():
    """infrastructure.csp answers a response without a nonce with the settings' policy: a view decorated by django-csp
    (csp_update, csp_replace, csp_override, csp_exempt) would not get its own. Such a view must change it first."""
    root = Path(__file__).resolve().parents[2]
    found = [
        str(path.relative_to(root))
        for package in root.iterdir()
        if (package / "__init__.py").exists()
        for path in package.rglob("*.py")
        if "tests" not in path.parts and "csp.decorators" in path.read_text(encoding="utf-8")
    ]
    assert found == []


def test_the_api_answers_with_the_sites_policy(client):
    response = client.get("/api/v1/games/999999999")
    assert response["Content-Type"].startswith("application/json")
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
