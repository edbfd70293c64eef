"""Security headers on every page: a strict Content-Security-Policy (nonces for the inline style
elements, nothing evaluated), Permissions-Policy, Referrer-Policy; and templates that give the
policy nothing to refuse (no inline handlers, no inline script, no style element without a nonce)."""

import re
from pathlib import Path

import pytest
from django.template import engines
from django.urls import reverse

from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.fixture
def signed_in(client):
    client.force_login(UserFactory())
    return client


@pytest.mark.parametrize("url", ["/", "/games/", "/accounts/login/", "/leaderboards/", "/no/such/page/"])
def test_every_page_has_a_strict_content_security_policy(client, url):
    response = client.get(url, follow=True)
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"][0] == "'self'"
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    for name in ("script-src", "style-src", "default-src"):
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(directives[name]), name
    # Style attributes only (Think Alike's ring positions): never a style element or a script.
    assert directives["style-src-attr"] == ["'unsafe-inline'"]


def test_a_response_without_a_nonce_gets_the_same_policy_as_a_page(client):
    """What the API and the fragments answer (no nonce asked for) carries the policy too, nonce-free."""
    page, api = client.get("/"), client.get("/api/v1/openapi.json")
    assert api.status_code == 200
    assert "'nonce-" not in api["Content-Security-Policy"]
    without_nonce = {name: [v for v in values if not v.startswith("'nonce-")] for name, values in policy(page).items()}
    assert policy(api) == without_nonce


def test_permissions_and_referrer_policies(client):
    response = client.get("/")
    permissions = dict(part.strip().split("=", 1) for part in response["Permissions-Policy"].split(","))
    assert permissions["microphone"] == "(self)"  # sung clues are recorded in the page
    for feature in ("camera", "geolocation", "payment", "usb", "display-capture"):
        assert permissions[feature] == "()", feature
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_an_inline_style_element_carries_this_responses_nonce(signed_in):
    pages = [signed_in.get(reverse("games:create")) for _ in range(2)]
    nonces = []
    for response in pages:
        nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
        assert f'<style nonce="{nonce}">' in response.content.decode()
        assert f"'nonce-{nonce}'" in policy(response)["style-src"]
        nonces.append(nonce)
    assert nonces[0] != nonces[1]  # a new one each response


def test_pages_configure_htmx_to_evaluate_nothing(client):
    page = client.get("/").content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", page).group(1)
    assert '"allowEval": false' in config and '"includeIndicatorStyles": false' in config
    assert "js/page.js" in page


def test_the_tokens_page_selects_the_secret_without_an_inline_handler(signed_in):
    page = signed_in.post(reverse("accounts:tokens"), {"name": "bot"}).content.decode()
    assert "data-select-on-focus" in page and "onfocus" not in page


def test_the_api_docs_page_has_no_inline_script(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    scripts = re.findall(r"<script([^>]*)>", response.content.decode())
    assert scripts and all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts)


def _templates():
    for directory in engines["django"].template_dirs:
        if ".venv" in str(directory) or "site-packages" in str(directory):
            continue
        yield from Path(directory).rglob("*.html")


INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:json|ld\+json)\")[^>]*>", re.IGNORECASE
)
STYLE_WITHOUT_NONCE = re.compile(r"<style(?![^>]*\bnonce=)[^>]*>", re.IGNORECASE)
EVALUATED_BY_HTMX = re.compile(r"(hx-vals|hx-vars)=['\"]js:|hx-on[:-]|hx-trigger=\"[^\"]*\[", re.IGNORECASE)


def test_no_template_holds_what_the_policy_refuses():
    """Inline handlers, inline scripts, style elements without a nonce, and htmx attributes that
    htmx would evaluate: each would be refused (or fail) in the browser."""
    found = []
    templates = list(_templates())
    assert len(templates) > 50
    for path in templates:
        text = path.read_text()
        for name, pattern in [
            ("inline handler", INLINE_HANDLER),
            ("inline script", INLINE_SCRIPT),
            ("style element without a nonce", STYLE_WITHOUT_NONCE),
            ("htmx evaluation", EVALUATED_BY_HTMX),
        ]:
            found += [f"{path.relative_to(ROOT)}: {name}: {match.group(0)[:80]}" for match in pattern.finditer(text)]
    assert not found, "\n".join(found)
