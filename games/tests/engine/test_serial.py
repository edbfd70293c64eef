"""games.engine.serial: dataclasses to JSON-able data and back, by their type hints."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from games.engine import serial


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Inner:
    id: int
    pair: tuple[int, str]
    colour: Colour = Colour.RED


@dataclass(frozen=True)
class Outer:
    name: str
    ratio: float
    flag: bool
    cards: tuple[int, ...]
    nested: tuple[tuple[int, ...], ...]
    maybe: tuple[str, ...] | None
    by_seat: dict[int, tuple[int, ...]]
    by_name: dict[str, int]
    by_colour: dict[Colour, int]
    seats: frozenset[int]
    inner: Inner | None
    inners: tuple[Inner, ...]
    listed: list[int]
    extra: Any = None
    later: int = 7
    made: tuple[int, ...] = field(default_factory=tuple)


EXAMPLE = Outer(
    name="x",
    ratio=0.5,
    flag=True,
    cards=(3, 1, 2),
    nested=((1,), (), (2, 3)),
    maybe=None,
    by_seat={0: (5,), 2: ()},
    by_name={"a": 1},
    by_colour={Colour.BLUE: 2},
    seats=frozenset({3, 1}),
    inner=Inner(id=1, pair=(2, "b"), colour=Colour.BLUE),
    inners=(Inner(id=2, pair=(0, "")),),
    listed=[4],
    extra={"free": [1, "form"]},
)


def test_dump_gives_plain_json_data():
    assert serial.dump(EXAMPLE) == {
        "name": "x",
        "ratio": 0.5,
        "flag": True,
        "cards": [3, 1, 2],
        "nested": [[1], [], [2, 3]],
        "maybe": None,
        "by_seat": {"0": [5], "2": []},
        "by_name": {"a": 1},
        "by_colour": {"blue": 2},
        "seats": [1, 3],
        "inner": {"id": 1, "pair": [2, "b"], "colour": "blue"},
        "inners": [{"id": 2, "pair": [0, ""], "colour": "red"}],
        "listed": [4],
        "extra": {"free": [1, "form"]},
        "later": 7,
        "made": [],
    }


def test_load_gives_back_an_equal_value_of_the_right_types():
    loaded = serial.load(Outer, json.loads(json.dumps(serial.dump(EXAMPLE))))
    assert loaded == EXAMPLE
    assert type(loaded.cards) is tuple and type(loaded.seats) is frozenset
    assert set(loaded.by_seat) == {0, 2} and type(loaded.inner.colour) is Colour
    assert list(loaded.by_colour) == [Colour.BLUE]


def test_missing_fields_with_defaults_take_them():
    data = serial.dump(EXAMPLE)
    del data["later"], data["made"], data["extra"]
    assert serial.load(Outer, data) == EXAMPLE.__class__(**{**EXAMPLE.__dict__, "extra": None})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": 3}, "$.name: expected str"),
        ({"flag": 1}, "$.flag: expected bool"),
        ({"cards": [1, True]}, r"$.cards[1]: expected int"),
        ({"cards": "12"}, "$.cards: expected an array"),
        ({"nested": [[1], "x"]}, r"$.nested[1]: expected an array"),
        ({"by_seat": {"zero": []}}, "$.by_seat: expected integer keys"),
        ({"by_colour": {"green": 1}}, "$.by_colour: expected a Colour"),
        ({"seats": [1, 1]}, "$.seats: expected different items"),
        ({"inner": {"id": 1, "pair": [2]}}, "$.inner.pair: expected 2 items"),
        ({"inner": {"id": 1, "pair": [2, "b"], "size": 3}}, "$.inner: Inner has no field 'size'"),
        ({"inner": {"pair": [2, "b"]}}, "$.inner: Inner needs 'id'"),
        ({"inners": [{"id": 1, "pair": [1, "a"], "colour": "pink"}]}, r"$.inners[0].colour: expected a Colour"),
        ({"ratio": "half"}, "$.ratio: expected a number"),
        ({"unknown": 1}, "$: Outer has no field 'unknown'"),
    ],
)
def test_load_refuses_data_that_does_not_fit(change, message):
    data = serial.dump(EXAMPLE) | change
    with pytest.raises(ValueError) as error:
        serial.load(Outer, data)
    assert str(error.value).startswith(message)


def test_a_float_field_takes_a_whole_number():
    assert serial.load(Outer, serial.dump(EXAMPLE) | {"ratio": 2}).ratio == 2.0


def test_dump_refuses_what_json_cannot_hold():
    with pytest.raises(TypeError):
        serial.dump({(1, 2): 3})
    with pytest.raises(TypeError):
        serial.dump(object())


inners = hs.builds(Inner, id=hs.integers(), pair=hs.tuples(hs.integers(), hs.text()), colour=hs.sampled_from(Colour))
outers = hs.builds(
    Outer,
    name=hs.text(),
    ratio=hs.floats(allow_nan=False, allow_infinity=False),
    flag=hs.booleans(),
    cards=hs.lists(hs.integers()).map(tuple),
    nested=hs.lists(hs.lists(hs.integers()).map(tuple)).map(tuple),
    maybe=hs.none() | hs.lists(hs.text()).map(tuple),
    by_seat=hs.dictionaries(hs.integers(), hs.lists(hs.integers()).map(tuple)),
    by_name=hs.dictionaries(hs.text(), hs.integers()),
    by_colour=hs.dictionaries(hs.sampled_from(Colour), hs.integers()),
    seats=hs.frozensets(hs.integers()),
    inner=hs.none() | inners,
    inners=hs.lists(inners).map(tuple),
    listed=hs.lists(hs.integers()),
    extra=hs.none() | hs.integers() | hs.text(),
    later=hs.integers(),
    made=hs.lists(hs.integers()).map(tuple),
)


@given(outers)
def test_every_value_round_trips_through_json(value):
    assert serial.load(Outer, json.loads(json.dumps(serial.dump(value)))) == value
