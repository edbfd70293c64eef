"""Every answer's schema has a name of its own in the OpenAPI document: ninja names a component after its class,
so two classes of one name would leave one of them described by the other's fields (clients generated from the
document then fail on real answers: the game view's deck and the decks API's deck once did). A class made to
stand in for its base under the base's name (``create_model("GameList", __base__=GameList)``) is the one
exception: it is the same schema, completed."""

from collections import defaultdict

from pydantic import BaseModel

from games.api.api import api

APPS = {"games", "storyteller", "think_alike", "chat", "bots", "accounts", "stats", "notifications"}


def _classes_by_name() -> dict[str, set[type]]:
    found = defaultdict(set)
    stack = list(BaseModel.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        parts = cls.__module__.split(".")
        if parts[0] in APPS and "tests" not in parts and cls.model_fields:  # a base with no fields is no schema
            found[cls.__name__].add(cls)
    return found


def test_no_two_schemas_in_the_document_share_a_name():
    documented = set(api.get_openapi_schema()["components"]["schemas"])
    shared = {}
    for name, classes in _classes_by_name().items():
        if name not in documented:
            continue
        # A stand-in for its base, under its base's name, is the same schema.
        roots = {cls for cls in classes if not any(other is not cls and issubclass(cls, other) for other in classes)}
        if len(roots) > 1:
            shared[name] = sorted(f"{cls.__module__}.{cls.__qualname__}" for cls in roots)
    assert shared == {}
