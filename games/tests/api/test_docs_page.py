"""The API's documentation page: drawn on the server from the very OpenAPI document, every
operation and schema of it on the page, under the site's layout, nothing loaded from elsewhere."""

import re
from html.parser import HTMLParser

import pytest
from django.utils.html import escape

from games.api.docs import text_html, type_html

pytestmark = pytest.mark.django_db

API = "/api/v1"


class Ids(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.headings: list[int] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.links.append(attrs["href"][1:])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))


@pytest.fixture
def docs(client):
    response = client.get(f"{API}/docs")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def test_every_operation_of_the_schema_is_on_the_page(client, docs):
    document = client.get(f"{API}/openapi.json").json()
    page = Ids(docs)
    operations = [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]
    assert len(operations) >= 18
    for method, path, operation in operations:
        assert operation["operationId"] in page.ids, operation["operationId"]
        endpoint = re.search(rf'<section id="{operation["operationId"]}".*?</section>', docs, re.S).group(0)
        assert f'class="method method-{method.lower()}">{method}</span> <code>{path}</code>' in endpoint
        assert escape(operation["summary"]) in endpoint
        for parameter in operation.get("parameters", []):
            assert f"<code>{parameter['name']}</code>" in endpoint
        for status in operation["responses"]:
            assert f'<th scope="row">{status}</th>' in endpoint
        token = operation.get("security")
        badge = '<span class="badge">token</span>' if token else '<span class="badge muted">no token'
        assert badge in endpoint


def test_every_schema_is_on_the_page_and_every_reference_links_to_one(client, docs):
    document = client.get(f"{API}/openapi.json").json()
    page = Ids(docs)
    for name, schema in document["components"]["schemas"].items():
        assert f"schema-{name}" in page.ids
        for field in schema.get("properties", {}):
            assert f"<code>{field}</code>" in docs
    assert set(page.links) <= set(page.ids)  # no link points nowhere
    assert "schema-Error" in page.links


def test_the_page_is_the_sites_with_headings_in_order_and_nothing_from_elsewhere(docs):
    assert 'class="site-header"' in docs and f'href="{API}/openapi.json"' in docs
    assert "swagger" not in docs.lower() and "cdn" not in docs.lower() and "https://" not in docs
    assert "<script>" not in docs and " style=" not in docs
    headings = Ids(docs).headings
    assert headings[0] == 1 and headings.count(1) == 1
    for before, after in zip(headings, headings[1:], strict=False):
        assert after <= before + 1


def test_the_page_chrome_is_in_the_visitors_language(client):
    page = client.get(f"{API}/docs", headers={"accept-language": "fr"}).content.decode()
    assert '<html lang="fr">' in page


def test_the_docs_page_takes_only_reads(client):
    response = client.post(f"{API}/docs", content_type="application/json", data={})
    assert response.status_code == 405


def test_types_link_references_and_show_limits():
    html = type_html({"anyOf": [{"$ref": "#/components/schemas/Card"}, {"type": "null"}]})
    assert html == '<a href="#schema-Card">Card</a> | null'
    assert "<code>60</code>" in type_html({"type": "string", "maxLength": 60})
    assert type_html({"enum": ["a", "<b>"]}) == "one of <code>&quot;a&quot;</code>, <code>&quot;&lt;b&gt;&quot;</code>"
    assert type_html({"type": "array", "items": {"type": "integer"}}) == "array of integer"


def test_the_documents_markdown_is_escaped_text_with_code_and_strong():
    html = text_html("**Text.** Send `Authorization: Bearer <token>`.\n\n<script>x</script>")
    assert html == (
        "<p><strong>Text.</strong> Send <code>Authorization: Bearer &lt;token&gt;</code>.</p>\n"
        "<p>&lt;script&gt;x&lt;/script&gt;</p>"
    )
