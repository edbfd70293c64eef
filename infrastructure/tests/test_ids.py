"""infrastructure.ids: an id from a URL that the database cannot hold is no match (404), never a 500."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from games.tests.factories import UserFactory
from infrastructure.ids import ID_MAX, IdConverter, id_from_query

PAST = str(ID_MAX + 1)  # 9223372036854775808


def test_the_converter_takes_the_64_bit_range_and_nothing_past_it():
    converter = IdConverter()
    assert converter.to_python("0") == 0
    assert converter.to_python(str(ID_MAX)) == ID_MAX
    with pytest.raises(ValueError):
        converter.to_python(PAST)
    assert converter.to_url(12) == "12"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("12", 12), (str(ID_MAX), ID_MAX), (PAST, None), ("9" * 400, None), ("", None), (None, None), ("²", None),
     ("-1", None), (" 1", None), ("1e3", None), ("١٢", None)],
)  # fmt: skip
def test_id_from_query(value, expected):
    assert id_from_query(value) == expected


def _routes(resolver=None):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield entry
            yield from _routes(entry)
        elif isinstance(entry, URLPattern):
            yield entry


def test_no_route_takes_an_unbounded_int():
    """Every route's number goes through ``<id:...>`` (pages) or ``{id:...}`` (the API), none through ``int``."""
    unbounded = [
        str(entry.pattern)
        for entry in _routes()
        if any(isinstance(converter, IntConverter) for converter in getattr(entry.pattern, "converters", {}).values())
    ]
    assert unbounded == []
    bounded = [entry for entry in _routes() if "<id:" in str(entry.pattern)]
    assert len(bounded) > 20  # the pages' and the API's game routes among them


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        f"/games/{PAST}/",
        f"/games/{PAST}/board/",
        f"/games/{PAST}/chat/panel/",
        f"/games/{PAST}/replay/",
        f"/notifications/{PAST}/",
        f"/api/v1/games/{PAST}",
        f"/api/v1/games/{PAST}/chat",
    ],
)
def test_a_path_with_an_id_past_64_bits_is_404(client, path):
    client.force_login(UserFactory())
    assert client.get(path).status_code == 404


@pytest.mark.django_db
def test_the_bell_ignores_a_game_past_64_bits(client):
    """It was a 500: the number reached the database."""
    client.force_login(UserFactory())
    for game in (PAST, "9" * 40, "²"):
        response = client.get(reverse("notifications:bell"), {"game": game, "visible": "visible"})
        assert response.status_code == 200
