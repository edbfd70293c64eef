"""Real answers checked against the API's own OpenAPI document, key for key.

``CheckedClient`` is the tests' API client that checks every answer it gets: its
status is one the operation declares, its body validates against the declared
schema (whose objects say ``additionalProperties: false``, so a key the schema does
not declare is a failure), its headers are declared; and a game's view is the
selector's view whole, so that no key the selector gives is dropped on the way.
"""

import json
import re
from functools import cache

import jsonschema_rs
from django.core.serializers.json import DjangoJSONEncoder
from django.test import Client, RequestFactory

from games.api.api import api
from games.selectors.games import game_get_for_viewer, game_view

from .conftest import API, ApiClient


@cache
def document() -> dict:
    return json.loads(json.dumps(api.get_openapi_schema(path_prefix=f"{API}/")))


@cache
def _operations() -> list[tuple[re.Pattern, str, dict]]:
    operations = []
    for path, item in document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\{[a-z_]+\\}", "[^/]+", re.escape(path)) + "$")
        for method, operation in item.items():
            operations.append((pattern, method.upper(), operation))
    return operations


def operation_of(method: str, path: str) -> dict:
    path = path.split("?", 1)[0]
    for pattern, verb, operation in _operations():
        if verb == method and pattern.match(path):
            return operation
    raise AssertionError(f"{method} {path}: no such operation in the OpenAPI document")


def schema_errors(schema: dict, body) -> list[str]:
    """What is wrong with ``body`` under ``schema`` (a discriminated union: under the member its key names)."""
    components = document()["components"]
    discriminator = schema.get("discriminator")
    if discriminator and isinstance(body, dict):
        ref = discriminator["mapping"].get(body.get(discriminator["propertyName"]))
        if ref is None:
            return [f"{discriminator['propertyName']}={body.get(discriminator['propertyName'])!r} is not in the union"]
        schema = {"$ref": ref}
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": components})
    return [
        f"{'/'.join(map(str, error.instance_path)) or '(top)'}: {error.message}"
        for error in validator.iter_errors(body)
    ]


def conformance_errors(method: str, path: str, response) -> list[str]:
    """How an answer strays from what the document says of the operation."""
    operation = operation_of(method, path)
    declared = operation["responses"].get(str(response.status_code))
    if declared is None:
        return [f"{method} {path}: status {response.status_code} is not declared"]
    problems = []
    headers = declared.get("headers", {})
    for header in ("Retry-After", "WWW-Authenticate"):
        if (header in response.headers) != (header in headers):
            problems.append(f"{method} {path} {response.status_code}: header {header} sent and declared differ")
    schema = declared["content"]["application/json"]["schema"]
    problems += [f"{method} {path} {response.status_code}: {error}" for error in schema_errors(schema, response.json())]
    return problems


def is_view(method: str, path: str, status: int) -> bool:
    schema = operation_of(method, path)["responses"].get(str(status), {})
    return "discriminator" in schema.get("content", {}).get("application/json", {}).get("schema", {})


def api_terms(value, request):
    """A selector's view walked to the API's terms by hand, every key kept: card ids as strings, the site's URLs
    absolute (what the views' schemas make of them, ``games.api.schemas.IdText``, ``PictureUrl``, ``SiteFileUrl``),
    a spectator's ``you``."""
    out = _api_terms(value, request)
    if out.get("you") is None:
        out["you"] = {"username": request.user.username, "seat": None, "to_act": False}
    return out


def _api_terms(value, request):
    if isinstance(value, dict):
        out = {key: _api_terms(item, request) for key, item in value.items()}
        if isinstance(value.get("image"), str):  # a card
            if "id" in value:
                out["id"] = str(value["id"])
            out["image"] = request.build_absolute_uri(value["image"]) if value["image"] else ""
        if isinstance(value.get("url"), str) and value["url"].startswith("/"):  # a file of the site's (a clue's)
            out["url"] = request.build_absolute_uri(value["url"])
        return out
    if isinstance(value, (list, tuple)):
        return [_api_terms(item, request) for item in value]
    return value


def selector_view(game_id: int, user) -> dict:
    """The selector's view of a game for ``user``, in the API's terms, as JSON gives it back."""
    request = RequestFactory().get("/")
    request.user = user
    game, seats = game_get_for_viewer(game_id=game_id, user=user)
    return json.loads(
        json.dumps(api_terms(game_view(game=game, seats=seats, user=user), request), cls=DjangoJSONEncoder)
    )


class CheckedClient(ApiClient):
    """An API client for ``user`` that checks every answer against the document (see the module's docstring).

    ``seen`` collects (kind, status, phase, role) of every view answered, for the tests to
    tell which states they covered.
    """

    seen: set = set()

    def __init__(self, token=None, user=None):
        super().__init__(token)
        self.client = Client()
        self.user = user

    def _checked(self, method, path, response):
        problems = conformance_errors(method, API + path, response)
        assert not problems, "\n".join(problems)
        if is_view(method, API + path, response.status_code) and self.user is not None:
            body = response.json()
            assert body == selector_view(body["id"], self.user), (
                f"{method} {path}: the answer is not the selector's view"
            )
            role = "spectator" if body["you"]["seat"] is None else "player"
            CheckedClient.seen.add((body["kind"], body["status"], body["phase"], role))
        return response

    def get(self, path, token=None, **params):
        return self._checked("GET", path, super().get(path, token, **params))

    def post(self, path, body=None, token=None, raw=None):
        return self._checked("POST", path, super().post(path, body, token, raw))
