"""The API's documentation page: the OpenAPI document rendered on the server, under the site's layout.

Swagger UI drew the same document in the browser with some forty accessibility faults
(unlabelled controls, low contrast, headings out of order) and nothing to read without
JavaScript. Here every operation is plain HTML: grouped by tag, its method and path, what
it does, its parameters, body and answers as tables, each schema's fields as a table and
every reference a link, from the very document ``openapi.json`` serves (built once per
process and language), so the page cannot say other than the document.
"""

import re
from typing import Any

from django.shortcuts import render
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja.openapi.docs import DocsBase

TEMPLATE = "games/api_docs.html"
METHODS = ("get", "post", "put", "patch", "delete")
CONSTRAINTS = (
    ("minLength", gettext_lazy("at least this many characters:")),
    ("maxLength", gettext_lazy("at most this many characters:")),
    ("minimum", "≥"),
    ("maximum", "≤"),
    ("minItems", gettext_lazy("at least this many items:")),
    ("maxItems", gettext_lazy("at most this many items:")),
    ("pattern", gettext_lazy("pattern")),
    ("format", gettext_lazy("format")),
)


class AccessibleDocs(DocsBase):
    """django-ninja's ``docs`` hook: the page at ``docs_url``, rendered from ``api.get_openapi_schema``."""

    def render_page(self, request, api, **kwargs):
        document = api.get_openapi_schema(path_params=kwargs)
        context = docs_context(document)
        context["openapi_url"] = self.get_openapi_url(api, kwargs)
        return render(request, TEMPLATE, context)


def docs_context(document: dict) -> dict:
    """What the page shows of ``document``: its description, its operations by tag and its schemas."""
    groups: dict[str, list[dict]] = {}
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            tag = (operation.get("tags") or ["api"])[0]
            groups.setdefault(tag, []).append(_operation(method, path, operation))
    schemas = document.get("components", {}).get("schemas", {})
    info = document.get("info", {})
    return {
        "title": info.get("title", ""),
        "version": info.get("version", ""),
        "description": text_html(info.get("description", "")),
        "security_schemes": document.get("components", {}).get("securitySchemes", {}),
        "tags": [{"name": tag, "slug": _slug(tag), "operations": operations} for tag, operations in groups.items()],
        "schemas": [_schema(name, schema) for name, schema in sorted(schemas.items())],
    }


def _operation(method: str, path: str, operation: dict) -> dict:
    body = operation.get("requestBody")
    bodies = [
        {"media_type": media_type, **_body(content.get("schema", {}))}
        for media_type, content in (body or {}).get("content", {}).items()
    ]
    responses = []
    for status, response in sorted(operation.get("responses", {}).items(), key=lambda pair: str(pair[0])):
        content = response.get("content", {})
        responses.append(
            {
                "status": str(status),
                "description": text_html(response.get("description", ""), inline=True),
                "bodies": [
                    {"media_type": media_type, "type": type_html(part.get("schema", {}))}
                    for media_type, part in content.items()
                ],
                "headers": [
                    {
                        "name": name,
                        "type": type_html(header.get("schema", {})),
                        "description": text_html(header.get("description", ""), inline=True),
                    }
                    for name, header in response.get("headers", {}).items()
                ],
            }
        )
    return {
        "id": operation.get("operationId") or f"{method}-{_slug(path)}",
        "method": method.upper(),
        "path": path,
        "summary": operation.get("summary", ""),
        "description": text_html(operation.get("description", "")),
        "token": bool(operation.get("security")),
        "parameters": [
            {
                "name": parameter.get("name", ""),
                "in": parameter.get("in", ""),
                "required": bool(parameter.get("required")),
                "type": type_html(parameter.get("schema", {})),
                "description": text_html(
                    parameter.get("description") or parameter.get("schema", {}).get("description", ""), inline=True
                ),
            }
            for parameter in operation.get("parameters", [])
        ],
        "bodies": bodies,
        "body_required": bool((body or {}).get("required")),
        "responses": responses,
    }


def _body(schema: dict) -> dict:
    """A request body: a reference (a link to its schema), or an inline object's fields."""
    if "properties" in schema and "$ref" not in schema:
        return {"type": None, "fields": _fields(schema)}
    return {"type": type_html(schema), "fields": []}


def _schema(name: str, schema: dict) -> dict:
    return {
        "name": name,
        "anchor": schema_anchor(name),
        "description": text_html(schema.get("description", "")),
        "type": None if "properties" in schema else type_html(schema),
        "fields": _fields(schema),
        "closed": schema.get("additionalProperties") is False,
    }


def _fields(schema: dict) -> list[dict]:
    required = set(schema.get("required", []))
    return [
        {
            "name": name,
            "required": name in required,
            "type": type_html(field),
            "description": text_html(field.get("description", ""), inline=True),
            "default": _literal(field["default"]) if "default" in field else None,
        }
        for name, field in schema.get("properties", {}).items()
    ]


def schema_anchor(name: str) -> str:
    return f"schema-{_slug(name)}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "x"


def _literal(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def type_html(schema: dict | bool) -> SafeString:
    """A schema's type in a few words: references link to their schema; enumerations, constants and limits shown."""
    if schema is True or schema == {}:
        return format_html("{}", _("any value"))
    if schema is False:
        return format_html("{}", _("no value"))
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return format_html('<a href="#{}">{}</a>', schema_anchor(name), name)
    for combiner, joiner in (("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")):
        if combiner in schema:
            parts = [type_html(part) for part in schema[combiner]]
            html = mark_safe(escape(joiner).join(parts))  # noqa: S308 (each part is escaped)
            return _with_constraints(html, schema)
    if "const" in schema:
        return format_html("<code>{}</code>", _literal(schema["const"]))
    if "enum" in schema:
        values = format_html_join(", ", "<code>{}</code>", ((_literal(value),) for value in schema["enum"]))
        return format_html("{} {}", _("one of"), values)
    kind = schema.get("type") or _("any value")
    if isinstance(kind, list):
        kind = " | ".join(kind)
    if kind == "array":
        html = format_html("{} {}", _("array of"), type_html(schema.get("items", {})))
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        html = format_html("{} {}", _("object of"), type_html(schema["additionalProperties"]))
    else:
        html = format_html("{}", kind)
    return _with_constraints(html, schema)


def _with_constraints(html: SafeString, schema: dict) -> SafeString:
    limits = [(label, schema[key]) for key, label in CONSTRAINTS if key in schema]
    if not limits:
        return html
    shown = format_html_join("; ", "{} <code>{}</code>", limits)
    return format_html('{} <span class="limits">({})</span>', html, shown)


INLINE_CODE = re.compile(r"`([^`]+)`")
STRONG = re.compile(r"\*\*([^*]+)\*\*")
EMPHASIS = re.compile(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])")


def text_html(text: str, *, inline: bool = False) -> SafeString:
    """The document's Markdown, the little of it the API's texts use: paragraphs, lists of ``- `` lines,
    `code`, **strong** and *emphasis*. Everything else is escaped text."""
    blocks = [block.strip() for block in re.split(r"\n\s*\n", text.strip()) if block.strip()]
    if inline:
        return mark_safe(" ".join(_inline(block) for block in blocks))  # noqa: S308 (escaped by _inline)
    html = []
    for block in blocks:
        lines = block.splitlines()
        if all(line.lstrip().startswith(("- ", "* ")) for line in lines):
            items = "".join(f"<li>{_inline(line.lstrip()[2:])}</li>" for line in lines)
            html.append(f"<ul>{items}</ul>")
        else:
            html.append(f"<p>{_inline(block)}</p>")
    return mark_safe("\n".join(html))  # noqa: S308 (escaped by _inline)


def _inline(text: str) -> str:
    text = " ".join(text.split())
    pieces = INLINE_CODE.split(text)  # odd pieces are code
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(f"<code>{escape(piece)}</code>")
        else:
            piece = str(escape(piece))
            piece = STRONG.sub(r"<strong>\1</strong>", piece)
            piece = EMPHASIS.sub(r"<em>\1</em>", piece)
            out.append(piece)
    return "".join(out)
