"""Game actions as data: what every kind's action models share, the core's own (resign), and their validation.

A kind describes each of its actions as a pydantic model whose ``type`` is a
``Literal`` (its ``actions`` module), and validates them through one module-level
``TypeAdapter`` of their discriminated union. The pages' forms (strings) and the
API's JSON go through the same adapter; only the strictness differs, set at the
call. The validated model is then turned into the engine's call by the kind's
``to_engine``: the engine stays free of pydantic.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from django.utils.translation import gettext as _
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from accounts.text import MESSAGE, TextRefused, text_clean, text_storable
from games.services.errors import GameError


def _free_text(value: str) -> str:
    try:
        return text_clean(value)
    except TextRefused as refused:
        raise PydanticCustomError("free_text", "{problem}", {"problem": str(refused.message)}) from None


def _storable(value: str) -> str:
    if not text_storable(value):
        raise PydanticCustomError("storable_text", "Not valid Unicode, or holds the NUL character.")
    return value


FREE_TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]*$"
# What people type that others read (a clue, an answer, a name): ``accounts.text``'s policy, NFC as kept.
# Its pattern tells clients what a regular expression can say of the policy (controls, bidi, zero-width).
FreeText = Annotated[
    str,
    AfterValidator(_free_text),
    Field(json_schema_extra={"pattern": FREE_TEXT_PATTERN}),
]
# Any other string (a username, a password, an invite code): one the database can store and a page can send.
StorableText = Annotated[str, AfterValidator(_storable), Field(json_schema_extra={"pattern": r"^[^\x00]*$"})]

# A card's or a board field's id: the API gives ids as strings and takes strings or integers.
Id = Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | int


class Action(BaseModel):
    """What every action has: its ``type`` (each model's ``Literal``) and the round it is meant for."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    round: int | None = Field(
        default=None,
        description="The round the action is meant for: refused (409 `stale`) if that round has ended meanwhile.",
    )


class Resign(Action):
    """Any kind, any phase: leave the game for good (the others play on, if enough are left)."""

    type: Literal["resign"]


def action_type(model: type[Action]) -> str:
    """The ``type`` literal of an action model."""
    return typing.get_args(model.model_fields["type"].annotation)[0]


def action_parse(adapter: TypeAdapter, data: Any, *, models: Iterable[type[Action]], strict: bool) -> Action:
    """``data`` validated by a kind's adapter (strict for JSON, lax for a form's strings); raises ``GameError``."""
    try:
        return adapter.validate_python(data, strict=strict)
    except ValidationError as error:
        raise GameError("bad_action", _problem(error, data, models), "invalid") from None


def _problem(error: ValidationError, data: Any, models: Iterable[type[Action]]) -> str:
    """The first thing wrong with an action, in words a person can act on."""
    known = {action_type(model): model for model in models}
    first = error.errors(include_url=False)[0]
    kind = data.get("type") if isinstance(data, Mapping) else None
    kind = kind if isinstance(kind, str) else None  # any JSON at all may come as the type
    if kind not in known or first["type"] in ("union_tag_not_found", "union_tag_invalid", "model_type", "dict_type"):
        return _("An action is an object whose type is one of: %(types)s.") % {"types": ", ".join(sorted(known))}
    field = str(first["loc"][1]) if len(first["loc"]) > 1 else "type"  # (type, field, [index, ...])
    values = {"type": kind, "field": field}
    if first["type"] == "missing":
        return _("A %(type)s action needs its %(field)s.") % values
    if first["type"] == "extra_forbidden":
        return _("A %(type)s action has no %(field)s.") % values
    if first["type"] in ("free_text", "storable_text", "string_unicode"):
        return _("Check the %(field)s of this %(type)s action: %(problem)s") % {**values, "problem": str(MESSAGE)}
    return _("Check the %(field)s of this %(type)s action.") % values


def form_data(models: Iterable[type[Action]], post) -> dict:
    """A page's form (a ``QueryDict``) as the action model of its ``type`` names its fields.

    A list field takes every value given; a blank field is None where the model
    allows None. Fields the model does not name (the CSRF token) are not read.
    """
    kind = post.get("type")
    model = next((model for model in models if action_type(model) == kind), None)
    if model is None:
        return {"type": kind}
    data: dict = {"type": kind}
    for name, field in model.model_fields.items():
        if name == "type":
            continue
        if _is_list(field.annotation):
            data[name] = post.getlist(name)
            continue
        value = post.get(name)
        if value == "" and _allows_none(field.annotation):
            data[name] = None
        elif value is not None:
            data[name] = value
    return data


def _is_list(annotation) -> bool:
    return typing.get_origin(annotation) is list


def _allows_none(annotation) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in typing.get_args(
        annotation
    )
