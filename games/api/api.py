"""Fabula's public JSON API, version 1: a thin layer over the services and selectors.

django-ninja turns the typed handlers into an OpenAPI schema; its documentation
page is that schema drawn on the server (``docs.AccessibleDocs``); everything that can go wrong
answers ``{"error": {"code", "message"}}`` with the status the issue names.
"""

import functools
import json
import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404
from django.http.request import RawPostDataException
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from pydantic.json_schema import models_json_schema

from accounts.services import token_authenticate
from games import kinds
from games.busy import busy_response, database_busy
from games.models import Game
from games.selectors.games import game_visible_to
from games.services.errors import GameError

from .docs import AccessibleDocs
from .errors import ApiError
from .limits import rate_hit

log = logging.getLogger(__name__)

# The largest request body the API reads: every action it takes fits in a few hundred bytes.
MAX_BODY_BYTES = 64 * 1024

STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "not_found": 404, "conflict": 409, "busy": 503}

DESCRIPTION = """
Everything a player does on the pages can be done here, by a program: sign up,
get a token, create or join a game, and play it.

**Conventions.** JSON in and out. Send your token as `Authorization: Bearer <token>`
(get one from `POST /api/v1/tokens` or your account's *API tokens* page).
Card and board field ids are strings (actions take them as strings or integers).
Every key of an answer is in its schema here, and enumerations and limits are in the
schemas too. Every error is `{"error": {"code": "<slug>", "message": "<text>"}}`
with status 400 (malformed or invalid input: `bad_request`, `malformed_json`, or
`bad_action` for an action the game does not take as sent), 401 (no or bad token),
403 (not yours to see or do), 404 (unknown, or a private game you may not see: the
same answer), 405 (`method_not_allowed`: see `Allow`), 408 (`too_slow`: the body stalled
or took too long; the connection is closed), 409 (not allowed now: wrong phase, already
voted, your own card, game full...), 413 (`too_large`: a body larger than the operation
takes, refused unread; the connection is closed), 415 (`unsupported_media_type`: a
body must be sent as `Content-Type: application/json`), 429 (too many requests; see
`Retry-After`) or 503 (`busy`: the server could not get to its database, or to decoding an
uploaded picture, in time; try again after `Retry-After`). Answers may gain fields; none will be renamed.

**Text.** What people type that others read (a clue, an answer, a token's name) must
be valid Unicode with no control, invisible or direction-changing characters; it is
kept NFC-normalised, and its length is counted in characters (code points).

**Playing.** Poll `GET /api/v1/games/{id}` (its `version` goes up with every change);
when `you.to_act` is true, send the action the `phase` asks for to
`POST /api/v1/games/{id}/actions`. An example bot: `examples/bot.py` in the repository.
"""


class BodyTooLarge(Exception):
    pass


class JsonParser(Parser):
    def parse_body(self, request):
        if len(request.body) > MAX_BODY_BYTES:
            raise BodyTooLarge
        return json.loads(request.body)


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        found = token_authenticate(raw=token)
        if found is None:
            return None
        request.user = found.user
        rate_hit("requests", request)  # per account: all its tokens (and the pages' sessions) count together
        return found


class FabulaApi(NinjaAPI):
    def get_openapi_operation_id(self, operation) -> str:
        return operation.view_func.__name__

    def get_openapi_schema(self, *args, **kwargs):
        """The document, built once per process and language (building it takes ~90 ms); never mutate it."""
        key = (translation.get_language(), repr(args), repr(sorted(kwargs.items())))
        documents = self.__dict__.setdefault("_documents", {})
        if key not in documents:
            documents[key] = self._openapi_schema_built(*args, **kwargs)
        return documents[key]

    def _openapi_schema_built(self, *args, **kwargs):
        document = super().get_openapi_schema(*args, **kwargs)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for path, item in document["paths"].items():
            for method, operation in item.items():
                body = operation.get("requestBody", {}).get("content", {}).get("application/json")
                if body is not None:
                    body["schema"] = _unwrapped(body["schema"])
                if path.endswith("/actions"):
                    operation["requestBody"] = {
                        "content": {"application/json": {"schema": _action_schemas(schemas)}},
                        "required": True,
                    }
                responses = operation.setdefault("responses", {})
                if method in BODY_METHODS:
                    responses.setdefault(415, {"description": "Unsupported Media Type", "content": ERROR_CONTENT})
                for status, response in responses.items():
                    if str(status) in ("429", "503"):
                        response["headers"] = {"Retry-After": RETRY_AFTER}
                    if str(status) == "401" and operation.get("security"):  # the token's 401, not a password's
                        response["headers"] = {"WWW-Authenticate": WWW_AUTHENTICATE}
        return document


DOCUMENTS = ("openapi-json", "openapi-view", "api-root")
BODY_METHODS = ("post", "put", "patch", "delete")
ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
WWW_AUTHENTICATE = {"description": '`Bearer realm="api"`', "schema": {"type": "string"}}
RETRY_AFTER = {
    "description": "Seconds to wait before trying again.",
    "schema": {"type": "integer", "minimum": 1},
}


def _unwrapped(schema: dict) -> dict:
    """A body that is one model, as a plain reference to it (ninja wraps it in ``allOf``; generators prefer it bare)."""
    refs = schema.get("allOf", [])
    if set(schema) == {"allOf"} and len(refs) == 1:
        return refs[0]
    return schema


def _action_schemas(schemas: dict) -> dict:
    """Every kind's action models as components, and the body that takes any of them (by ``type``)."""
    from games.actions import action_type

    models: dict[str, type] = {}
    for kind in kinds.every():
        for model in kind.action_models:
            models.setdefault(f"{model.__module__}.{model.__qualname__}", model)
    _keys, definitions = models_json_schema(
        [(model, "validation") for model in models.values()], ref_template="#/components/schemas/{model}"
    )
    for name, schema in definitions.get("$defs", {}).items():
        if schemas.get(name, schema) != schema:
            raise ValueError(f"Two schemas of the API are named {name}: name the action model otherwise.")
        schemas[name] = schema
    refs = {action_type(model): f"#/components/schemas/{model.__name__}" for model in models.values()}
    if len(refs) < len(models):  # two kinds name different actions alike: any of them, told apart by the server
        return {"anyOf": [{"$ref": f"#/components/schemas/{model.__name__}"} for model in models.values()]}
    return {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


api = FabulaApi(
    title="Fabula API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    auth=TokenAuth(),
    parser=JsonParser(),
    docs=AccessibleDocs(),
)


def error_response(request, status: int, code: str, message, **extra):
    return api.create_response(request, {"error": {"code": code, "message": str(message), **extra}}, status=status)


@api.exception_handler(GameError)
def on_game_error(request, exc: GameError):
    if _game_hidden(request):
        return _no_game(request)
    if exc.kind == "not_found":  # in the service's words (no such deck, card, drawing...): they say nothing more
        return error_response(request, 404, "not_found", exc.message)
    response = error_response(request, STATUS_OF_KIND.get(exc.kind, 409), exc.code, exc.message)
    if exc.kind == "busy":
        response["Retry-After"] = str(settings.FABULA_BUSY_RETRY_AFTER)
    return response


def _no_game(request):
    """The one answer for a game that does not exist and for a private game the caller may not see."""
    return error_response(request, 404, "not_found", _("There is no such game."))


def _game_hidden(request) -> bool:
    """Whether the request names a game that exists but that the caller may not see (a private game not theirs).

    Asked only when a request about a game fails: whatever the refusal (not a player,
    not open, a bad action), such a game answers as one that does not exist.
    """
    match = request.resolver_match
    game_id = match.kwargs.get("game_id") if match is not None else None
    if game_id is None:
        return False
    game = Game.objects.filter(pk=game_id).first()
    user = getattr(request, "user", None)
    return game is not None and not game_visible_to(game=game, user=user, invite_code=_invite_code(request))


def _invite_code(request) -> str | None:
    """The invite code a join's body gives, if any (who holds it may see the game)."""
    try:
        data = json.loads(request.body)
    except (ValueError, SuspiciousOperation):  # not JSON; too large to read
        return None
    code = data.get("invite_code") if isinstance(data, dict) else None
    return code if isinstance(code, str) else None


@api.exception_handler(ValidationError)
def on_validation_error(request, exc: ValidationError):
    problems = []
    for error in exc.errors:
        field = ".".join(str(part) for part in error.get("loc", ())[1:] if part != "payload") or "body"
        problems.append({"field": field, "problem": str(error.get("msg", ""))})
    first = problems[0] if problems else {"field": "", "problem": ""}
    message = _("This request is not valid: %(field)s: %(problem)s") % first
    return error_response(request, 400, "bad_request", message, details=problems)


@api.exception_handler(AuthenticationError)
def on_authentication_error(request, exc):
    response = error_response(request, 401, "unauthorized", _("Send a valid API token: Authorization: Bearer <token>."))
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


@api.exception_handler(Throttled)
def on_throttled(request, exc: Throttled):
    response = error_response(request, 429, "rate_limited", _("Too many requests: wait a little and try again."))
    if exc.wait:
        response["Retry-After"] = str(int(exc.wait))
    return response


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    if isinstance(exc.__cause__, BodyTooLarge):
        return error_response(request, 400, "too_large", _("The request body is too large."))
    if exc.status_code == 400:  # the parser's only error: the body is not JSON
        return error_response(request, 400, "malformed_json", _("The request body is not valid JSON."))
    return error_response(request, exc.status_code, "error", str(exc))


@api.exception_handler(ApiError)
def on_api_error(request, exc: ApiError):
    return error_response(request, exc.status, exc.code, exc.message, **exc.extra)


@api.exception_handler(SuspiciousOperation)
def on_suspicious(request, exc):
    if isinstance(exc, RequestDataTooBig):
        return error_response(request, 400, "too_large", _("The request body is too large."))
    return error_response(request, 400, "bad_request", _("That request is not understood."))


@api.exception_handler(Http404)
def on_not_found(request, exc):
    match = request.resolver_match
    if match is not None and "game_id" in match.kwargs:
        return _no_game(request)
    return error_response(request, 404, "not_found", _("There is no such thing here."))


@api.exception_handler(Exception)
def on_unexpected(request, exc):
    if database_busy(exc):  # no connection could be had in time: not a bug, try again shortly
        return busy_response(json=True)
    # A bug: log it for the developers, and still answer in the API's format.
    log.exception("API error on %s %s", request.method, request.path)
    return error_response(request, 500, "server_error", _("Something went wrong on our side."))


def guard_response(request, url_name: str | None):
    """The API's answer to a request before its view runs, or None to run it: a method the documents do not take
    (405), or a body that is not JSON (415). Only JSON: a browser sends a form or ``text/plain`` from any site
    without asking first (no CORS preflight), so a JSON body in another type could act for a visitor. An upload
    (an operation with a file parameter, such as a drawn clue) takes ``multipart/form-data`` too: it acts only
    with a bearer token, which no other site's page can send. (``games.api.middleware`` asks it.)"""
    if url_name in DOCUMENTS and request.method not in ("GET", "HEAD"):
        return _not_allowed(request, "GET, HEAD")
    types = ("application/json", "multipart/form-data") if url_name in uploads() else ("application/json",)
    if _has_body(request) and request.content_type.lower() not in types:
        return error_response(
            request,
            415,
            "unsupported_media_type",
            _("Send the request body as JSON, with Content-Type: application/json."),
        )
    return None


@functools.cache
def uploads() -> frozenset[str]:
    """The names of the operations that take a multipart body, as the OpenAPI document lists them (an operation's
    URL name and its ``operationId`` are both its function's name). Asked once per process, in the language
    of the request that asks first (the document is built once per language anyway; the names are the same)."""
    document = api.get_openapi_schema()
    return frozenset(
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if "multipart/form-data" in operation.get("requestBody", {}).get("content", {})
    )


def not_allowed_response(request, response):
    """ninja's 405 (a path that takes other methods), in the API's format."""
    return _not_allowed(request, response["Allow"])


def _has_body(request) -> bool:
    try:
        return bool(request.body)  # read, not taken from Content-Length: a chunked body has none
    except (SuspiciousOperation, RawPostDataException):  # too large to read; read already as a stream
        return True


def _not_allowed(request, allowed: str):
    response = error_response(
        request, 405, "method_not_allowed", _("This address takes only: %(methods)s.") % {"methods": allowed}
    )
    response["Allow"] = allowed
    return response


@csrf_exempt  # no cookie-based session here: any method gets the JSON 404, not the CSRF page
def not_found(request, rest=""):
    """Any other path under the API."""
    return error_response(request, 404, "not_found", _("There is no such thing here."))


from . import accounts, games  # noqa: E402  (the routes register on ``api``)

api.add_router("", accounts.router)
api.add_router("", games.router)
for _kind in kinds.every():  # each kind's own endpoints (GameKind.api_routers), after the games'
    for _router in _kind.api_routers():
        api.add_router("", _router)
for _dotted in settings.FABULA_API_ROUTERS:  # apps beside the core (chat, bots): named in settings
    api.add_router("", import_string(_dotted))
