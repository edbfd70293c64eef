"""Engine values to JSON-able data and back, driven by the dataclasses' type hints.

An engine's state is a tree of frozen dataclasses over plain values. ``dump`` turns
such a value into what ``json.dumps`` takes; ``load(SomeType, data)`` turns that data
back into an equal value, reading the target types from the annotations:

- a dataclass is an object of its init fields (keys in field order);
- tuples, lists and frozensets are arrays (a frozenset sorted, so equal sets dump
  equally); ``tuple[X, ...]``, ``tuple[X, Y]``, ``list[X]``, ``frozenset[X]``;
- ``dict[K, V]`` is an object; int keys become strings and are read back as ints;
- ``X | None`` is null or an X; an ``Enum`` is its value; ``Any`` is left as it is.

Loading checks what it reads: a missing key without a default, an unknown key or a
value of the wrong type raises ``ValueError`` naming the path to it, so a stored
state that no longer fits its class fails loudly instead of half-loading.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")

_SCALARS = (bool, int, float, str)


def dump(value: Any) -> Any:
    """``value`` as JSON-able data (dicts with string keys, lists, scalars, None)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, _SCALARS):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: dump(getattr(value, name)) for name, _ in _fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [dump(item) for item in value]
    if isinstance(value, (frozenset, set)):
        return [dump(item) for item in sorted(value)]
    if isinstance(value, dict):
        return {_dump_key(key): dump(item) for key, item in value.items()}
    raise TypeError(f"cannot serialise a {type(value).__name__}")


def load(cls: type[T], data: Any) -> T:
    """The value of type ``cls`` that ``dump`` turned into ``data``."""
    target: Any = cls  # any type hint, not only a class
    try:
        return _loader(target)(data)
    except _Misfit as misfit:
        raise ValueError(f"${''.join(reversed(misfit.path))}: {misfit.problem}") from None


# --- internals -------------------------------------------------------------------


def _dump_key(key: Any) -> str:
    if isinstance(key, Enum):
        key = key.value
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"cannot serialise a dict key of type {type(key).__name__}")
    return str(key)


@cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """The init fields of dataclass ``cls`` with their resolved types, in order."""
    hints = get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)


class _Misfit(Exception):
    """Data that does not fit its type; ``path`` grows, innermost first, on the way out."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self.path: list[str] = []

    def at(self, step: str) -> _Misfit:
        self.path.append(step)
        return self


def _expected(what: str, data: Any) -> _Misfit:
    return _Misfit(f"expected {what}, got {data!r:.80}")


Loader = Callable[[Any], Any]


@cache
def _loader(tp: Any) -> Loader:
    """A function that loads data of type ``tp``; made once per type, then reused."""
    if tp is Any:
        return _as_is
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return _union_loader(tp)
    if origin is None:
        return _plain_loader(tp)
    make = _CONTAINERS.get(origin)
    if make is None:
        raise TypeError(f"cannot load a {tp!r}")
    return make(tp)


def _as_is(data: Any) -> Any:
    return data


def _union_loader(tp: Any) -> Loader:
    args = get_args(tp)
    others = [arg for arg in args if arg is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"only X | None unions load, not {tp!r}")
    inner = _loader(others[0])

    def load_optional(data: Any) -> Any:
        return None if data is None else inner(data)

    return load_optional


def _plain_loader(tp: Any) -> Loader:
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum_loader(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_loader(tp)
    if tp is float:
        return _load_float
    if tp in _SCALARS:

        def load_scalar(data: Any) -> Any:
            if type(data) is not tp:  # bool is an int subclass, yet not an int here
                raise _expected(tp.__name__, data)
            return data

        return load_scalar
    raise TypeError(f"cannot load a {tp!r}")


def _enum_loader(tp: type[Enum]) -> Loader:
    def load_enum(data: Any) -> Any:
        try:
            return tp(data)
        except ValueError:
            raise _expected(f"a {tp.__name__}", data) from None

    return load_enum


def _load_float(data: Any) -> float:
    if isinstance(data, (int, float)) and not isinstance(data, bool):
        return float(data)
    raise _expected("a number", data)


def _dataclass_loader(cls: type) -> Loader:
    plan: tuple[list[tuple[str, Loader]], frozenset[str], frozenset[str]] | None = None

    def load_dataclass(data: Any) -> Any:
        nonlocal plan
        if plan is None:  # made on first use, so that a dataclass may name itself
            plan = _dataclass_plan(cls)
        fields, names, required = plan
        if not isinstance(data, dict):
            raise _expected(f"an object for {cls.__name__}", data)
        if not names.issuperset(data):
            raise _Misfit(f"{cls.__name__} has no field {sorted(set(data) - names)[0]!r}")
        if not required.issubset(data):
            raise _Misfit(f"{cls.__name__} needs {sorted(required - set(data))[0]!r}")
        values = {}
        for name, load_field in fields:
            if name in data:
                try:
                    values[name] = load_field(data[name])
                except _Misfit as misfit:
                    raise misfit.at(f".{name}") from None
        return cls(**values)

    return load_dataclass


def _dataclass_plan(cls: type) -> tuple[list[tuple[str, Loader]], frozenset[str], frozenset[str]]:
    """The loader of each init field, the fields' names, and those without a default."""
    fields = [(name, _loader(hint)) for name, hint in _fields(cls)]
    required = frozenset(
        f.name
        for f in dataclasses.fields(cls)
        if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    return fields, frozenset(name for name, _ in fields), required


def _items(load_item: Loader, data: Any) -> list:
    if not isinstance(data, (list, tuple)):
        raise _expected("an array", data)
    loaded = []
    for index, item in enumerate(data):
        try:
            loaded.append(load_item(item))
        except _Misfit as misfit:
            raise misfit.at(f"[{index}]") from None
    return loaded


def _tuple_loader(tp: Any) -> Loader:
    args = get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        load_item = _loader(args[0])
        return lambda data: tuple(_items(load_item, data))
    if args == ((),):  # tuple[()]
        args = ()
    loaders = [_loader(arg) for arg in args]

    def load_fixed(data: Any) -> tuple:
        if not isinstance(data, (list, tuple)) or len(data) != len(loaders):
            raise _expected(f"{len(loaders)} items", data)
        loaded = []
        for index, (load_item, item) in enumerate(zip(loaders, data)):
            try:
                loaded.append(load_item(item))
            except _Misfit as misfit:
                raise misfit.at(f"[{index}]") from None
        return tuple(loaded)

    return load_fixed


def _list_loader(tp: Any) -> Loader:
    (arg,) = get_args(tp) or (Any,)
    load_item = _loader(arg)
    return lambda data: _items(load_item, data)


def _frozenset_loader(tp: Any) -> Loader:
    (arg,) = get_args(tp) or (Any,)
    load_item = _loader(arg)

    def load_frozenset(data: Any) -> frozenset:
        items = _items(load_item, data)
        if len(set(items)) != len(items):
            raise _expected("different items", data)
        return frozenset(items)

    return load_frozenset


def _dict_loader(tp: Any) -> Loader:
    key_type, value_type = get_args(tp) or (Any, Any)
    load_key = _key_loader(key_type)
    load_value = _loader(value_type)

    def load_dict(data: Any) -> dict:
        if not isinstance(data, dict):
            raise _expected("an object", data)
        loaded = {}
        for raw, value in data.items():
            key = load_key(raw)
            try:
                loaded[key] = load_value(value)
            except _Misfit as misfit:
                raise misfit.at(f"[{raw!r}]") from None
        return loaded

    return load_dict


def _key_loader(tp: Any) -> Loader:
    if tp is int:

        def load_int_key(raw: Any) -> int:
            text = raw[1:] if isinstance(raw, str) and raw.startswith("-") else raw
            if not isinstance(text, str) or not text.isdigit() or not text.isascii():
                raise _expected("integer keys", raw)
            return int(raw)

        return load_int_key
    if tp is str or tp is Any:

        def load_str_key(raw: Any) -> str:
            if not isinstance(raw, str):
                raise _expected("string keys", raw)
            return raw

        return load_str_key
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum_loader(tp)
    raise TypeError(f"cannot load dict keys of type {tp!r}")


_CONTAINERS: dict[Any, Callable[[Any], Loader]] = {
    tuple: _tuple_loader,
    list: _list_loader,
    frozenset: _frozenset_loader,
    dict: _dict_loader,
    Mapping: _dict_loader,
}
