"""The API's operations are a promise to the programs that call it: every path and method, its operation id (the
name generated clients call it by), its tags, the statuses it may answer and the schema of each answer and of its
body stay as ``operations.json`` records them, whichever module or router declares them. An operation added on
purpose is added to that file in the same change (``operations_of`` gives its entry); none is renamed or dropped."""

import json
from pathlib import Path

from django.urls import reverse

from games.api.api import api

RECORDED = Path(__file__).with_name("operations.json")


def _schema(content: dict | None) -> dict:
    """Each content type's schema: a component's name where it is one (``Error``), else the schema itself."""
    schemas = {}
    for kind, body in (content or {}).items():
        schema = body.get("schema", {})
        ref = schema.get("$ref", "") if set(schema) == {"$ref"} else ""
        schemas[kind] = ref.removeprefix("#/components/schemas/") or schema
    return schemas


def operations_of(document: dict) -> dict[str, dict]:
    """Each operation of an OpenAPI document as ``"METHOD /path"``: what a client depends on."""
    operations = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            operations[f"{method.upper()} {path}"] = {
                "operationId": operation["operationId"],
                "tags": operation.get("tags", []),
                "responses": {
                    str(status): _schema(response.get("content")) for status, response in operation["responses"].items()
                },
                "body": _schema(operation.get("requestBody", {}).get("content")),
            }
    return operations


def _document() -> dict:
    return json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/v1/")))


def test_every_operation_is_as_recorded():
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    now = operations_of(_document())
    assert sorted(now) == sorted(recorded), "operations added or gone"
    changed = {key: {"recorded": recorded[key], "now": now[key]} for key in recorded if now[key] != recorded[key]}
    assert changed == {}


def test_every_operation_is_reached_by_its_id():
    """The operation id is also the operation's URL name (``api-v1:<id>``), and the route answers at its path."""
    for key, operation in json.loads(RECORDED.read_text(encoding="utf-8")).items():
        path = key.split(" ", 1)[1]
        arguments = dict.fromkeys(("game_id", "deck_id", "card_id", "message_id"), 1)
        arguments |= {"username": "someone"}
        kwargs = {name: value for name, value in arguments.items() if "{" + name + "}" in path}
        url = reverse(f"api-v1:{operation['operationId']}", kwargs=kwargs)
        expected = path.format(**kwargs)
        assert url == expected, key
