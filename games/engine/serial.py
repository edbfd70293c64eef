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
    return _load(cls, data, "$")


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


@cache
def _defaults(cls: type) -> frozenset[str]:
    return frozenset(
        f.name
        for f in dataclasses.fields(cls)
        if f.init and (f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
    )


def _fail(path: str, expected: str, data: Any) -> ValueError:
    return ValueError(f"{path}: expected {expected}, got {data!r:.80}")


def _load(tp: Any, data: Any, path: str) -> Any:
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return _load_union(tp, data, path)
    if origin is None:
        return _load_plain(tp, data, path)
    loader = _CONTAINERS.get(origin)
    if loader is None:
        raise TypeError(f"{path}: cannot load a {tp!r}")
    return loader(tp, data, path)


def _load_union(tp: Any, data: Any, path: str) -> Any:
    args = get_args(tp)
    if data is None and type(None) in args:
        return None
    others = [arg for arg in args if arg is not type(None)]
    if len(others) != 1:
        raise TypeError(f"{path}: only X | None unions load, not {tp!r}")
    return _load(others[0], data, path)


def _load_plain(tp: Any, data: Any, path: str) -> Any:
    if tp is type(None):
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise _fail(path, f"a {tp.__name__}", data) from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _load_dataclass(tp, data, path)
    if tp is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return float(data)
        raise _fail(path, "a number", data)
    if tp in _SCALARS:
        if type(data) is not tp:  # bool is an int subclass, yet not an int here
            raise _fail(path, tp.__name__, data)
        return data
    raise TypeError(f"{path}: cannot load a {tp!r}")


def _load_dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise _fail(path, f"an object for {cls.__name__}", data)
    fields = _fields(cls)
    unknown = set(data) - {name for name, _ in fields}
    if unknown:
        raise ValueError(f"{path}: {cls.__name__} has no field {sorted(unknown)[0]!r}")
    values = {}
    for name, hint in fields:
        if name in data:
            values[name] = _load(hint, data[name], f"{path}.{name}")
        elif name not in _defaults(cls):
            raise ValueError(f"{path}: {cls.__name__} needs {name!r}")
    return cls(**values)


def _array(data: Any, path: str) -> list:
    if not isinstance(data, (list, tuple)):
        raise _fail(path, "an array", data)
    return list(data)


def _load_tuple(tp: Any, data: Any, path: str) -> tuple:
    items = _array(data, path)
    args = get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_load(args[0], item, f"{path}[{i}]") for i, item in enumerate(items))
    if args == ((),):  # tuple[()]
        args = ()
    if len(items) != len(args):
        raise _fail(path, f"{len(args)} items", data)
    return tuple(_load(arg, item, f"{path}[{i}]") for i, (arg, item) in enumerate(zip(args, items)))


def _load_list(tp: Any, data: Any, path: str) -> list:
    (arg,) = get_args(tp) or (Any,)
    return [_load(arg, item, f"{path}[{i}]") for i, item in enumerate(_array(data, path))]


def _load_frozenset(tp: Any, data: Any, path: str) -> frozenset:
    (arg,) = get_args(tp) or (Any,)
    items = [_load(arg, item, f"{path}[{i}]") for i, item in enumerate(_array(data, path))]
    if len(set(items)) != len(items):
        raise _fail(path, "different items", data)
    return frozenset(items)


def _load_dict(tp: Any, data: Any, path: str) -> dict:
    if not isinstance(data, dict):
        raise _fail(path, "an object", data)
    key_type, value_type = get_args(tp) or (Any, Any)
    loaded = {}
    for raw, value in data.items():
        key = _load_key(key_type, raw, path)
        loaded[key] = _load(value_type, value, f"{path}[{raw!r}]")
    return loaded


def _load_key(tp: Any, raw: Any, path: str) -> Any:
    if not isinstance(raw, str):
        raise _fail(path, "string keys", raw)
    if tp is int:
        text = raw[1:] if raw.startswith("-") else raw
        if not text.isdigit() or not text.isascii():
            raise _fail(path, "integer keys", raw)
        return int(raw)
    if tp is str or tp is Any:
        return raw
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _load_plain(tp, raw, path)
    raise TypeError(f"{path}: cannot load dict keys of type {tp!r}")


_CONTAINERS: dict[Any, Callable[[Any, Any, str], Any]] = {
    tuple: _load_tuple,
    list: _load_list,
    frozenset: _load_frozenset,
    dict: _load_dict,
    Mapping: _load_dict,
}
