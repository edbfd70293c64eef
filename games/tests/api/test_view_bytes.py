"""The API's view of a game, byte for byte what the plain way of making it gives, for every viewer of every position.

The API makes a view the quick way: the game and seats an action left (``recent_games``), the state parsed once
for every viewer of a version (``game_state``), ids and URLs encoded by the view's schema as it is validated.
``plain_view_json`` makes it the plain way, as the API did before each of those: the game and its seats read
again, the state parsed from a dict of its own, the view walked to the API's terms by ``api_terms`` (the encoder
as it was first written), then pydantic without the request (the schema's types then leave ids and URLs as they
are). Both games are played at random through the services; at every position every player and a spectator ask
their view, and each answer must be those bytes exactly: the quick ways change no answer, and no viewer gets
another's.
"""

import copy
import random
from unittest import mock

import pytest
from django.test import Client, RequestFactory

from accounts.services import token_create
from games import kinds
from games.api.games import _VIEWS
from games.models import Game
from games.selectors.games import game_states, game_view, seats_of
from games.tests.factories import UserFactory
from games.tests.play import play_at_random
from games.tests.test_conformance import started

from .openapi import api_terms

pytestmark = pytest.mark.django_db

MAX_STEPS = 120
# The site's two games (the tests' own kinds read their state their own way).
GAMES = [kinds.get("storyteller"), kinds.get("think_alike")]
EXPIRE_SOMETIMES = 0.1


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.FABULA_API_RATES = {"requests": (10**6, 60), "actions": (10**6, 60)}


def plain_view_json(game_id: int, viewer) -> bytes:
    """The viewer's view made from nothing kept: the game read again, its state a dict of its own."""
    game = Game.objects.select_related("creator").get(pk=game_id)
    game.state = copy.deepcopy(game.state)  # another dict: parsed afresh, not the one the views share
    seats = seats_of(game, with_users=True)
    request = RequestFactory().get(f"/api/v1/games/{game_id}")
    request.user = viewer
    out = api_terms(game_view(game=game, seats=seats, user=viewer), request)
    return _VIEWS.dump_json(_VIEWS.validate_python(out), exclude_unset=True)  # as it was: no context


def api_client(user) -> Client:
    _token, secret = token_create(user=user, name="bytes")
    return Client(headers={"Authorization": f"Bearer {secret}"})


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kind", GAMES, ids=lambda kind: kind.slug)
def test_every_viewers_view_is_the_plain_views_bytes(kind, seed):
    list(kind.load_content())
    rng = random.Random(f"{kind.slug}-bytes-{seed}")
    game, users = started(kind, rng.randint(kind.min_seats, min(kind.max_seats, kind.min_seats + 2)))
    viewers = [*users, UserFactory()]  # the players and a spectator (the games are public)
    clients = {viewer.pk: api_client(viewer) for viewer in viewers}
    positions = 0

    def check_every_view():
        nonlocal positions
        answers = {}
        for viewer in viewers:
            response = clients[viewer.pk].get(f"/api/v1/games/{game.pk}")
            assert response.status_code == 200, response.content[:500]
            answers[viewer.pk] = response.content
        # The state every view of this version was given is still what the game stores: no view changed it.
        stored = Game.objects.get(pk=game.pk).state
        shared = game_states.get(game.pk)
        assert shared is not None and kind.engine.to_dict(shared[1]) == stored
        for viewer in viewers:
            assert answers[viewer.pk] == plain_view_json(game.pk, viewer), f"{viewer}'s view at v{game.version}"
        positions += 1

    play_at_random(kind, game, users, rng, check_every_view, max_steps=MAX_STEPS, expire_sometimes=EXPIRE_SOMETIMES)
    assert positions > 20


@pytest.mark.parametrize("kind", GAMES, ids=lambda kind: kind.slug)
def test_the_views_of_one_version_parse_its_state_once(kind):
    """After an action, its player's view and the others' fetches read the state the action stored once."""
    list(kind.load_content())
    game, users = started(kind, kind.min_seats)
    clients = [api_client(user) for user in [*users, UserFactory()]]
    with mock.patch.object(kind.engine, "from_dict", wraps=kind.engine.from_dict) as parse:
        for client in clients:
            assert client.get(f"/api/v1/games/{game.pk}").status_code == 200
    assert parse.call_count == 1
