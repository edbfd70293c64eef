"""House rules chosen at creation: the API's options and their refusals, the view's ``rules``, the deal, the
new-game form, the board's line and the replay's."""

import pytest
from django.urls import reverse

from games.models import Game
from games.tests.api.conftest import ApiClient, error_of
from games.tests.factories import UserFactory, deck_with_cards, started_game
from storyteller.engine import rules as engine

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of(db):
    from accounts.services import token_create

    def make(user=None):
        user = user or UserFactory()
        _token, secret = token_create(user=user, name="tests")
        return ApiClient(secret)

    return make


@pytest.fixture(autouse=True)
def own_rate_counts(settings):
    import uuid

    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex},
    }


def test_the_api_takes_the_house_rules_and_shows_them(client_of):
    deck_with_cards(60)
    client = client_of()
    body = {"seats": 4, "hand_size": 8, "target_score": 30, "clue_modes": ["sound", "words"], "chat": False}
    created = client.post("/games", body)
    assert created.status_code == 201, created.content
    view = created.json()
    assert view["rules"] == {"hand_size": 8, "target_score": 30, "clue_modes": ["words", "sound"], "chat": False}
    game = Game.objects.get(pk=view["id"])
    assert game.options["hand_size"] == 8 and game.options["chat"] is False


def test_the_defaults(client_of):
    deck_with_cards(60)
    view = client_of().post("/games", {"seats": 5}).json()
    assert view["rules"] == {"hand_size": 6, "target_score": None, "clue_modes": ["words"], "chat": True}
    three = client_of().post("/games", {"seats": 3}).json()
    assert three["rules"]["hand_size"] == 7


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"hand_size": 3}, "bad_options"),
        ({"hand_size": 9}, "bad_options"),
        ({"hand_size": "6"}, "bad_request"),
        ({"clue_modes": []}, "bad_options"),
        ({"clue_modes": ["mime"]}, "bad_request"),
        ({"clue_modes": "words"}, "bad_request"),
        ({"chat": "yes"}, "bad_request"),
        ({"target_score": 4}, "bad_options"),
    ],
)
def test_out_of_range_is_400_and_creates_nothing(client_of, body, code):
    deck_with_cards(60)
    assert error_of(client_of().post("/games", {"seats": 4, **body})) == (400, code)
    assert not Game.objects.exists()


def test_a_bigger_hand_needs_a_deck_big_enough(client_of):
    deck_with_cards(40)  # 6 × 6 = 36 deals; 6 × 8 = 48 does not
    client = client_of()
    assert client.post("/games", {"seats": 6}).status_code == 201
    assert error_of(client.post("/games", {"seats": 6, "hand_size": 8})) == (400, "no_deck")


def test_the_game_deals_the_house_rule_hand():
    game, _users = started_game(4, options={"hand_size": 5, "clue_modes": ["words", "drawing"]})
    state = engine.from_dict(game.state)
    assert [len(hand) for hand in state.hands] == [5] * 4


def test_the_new_game_form_offers_the_house_rules(client):
    deck = deck_with_cards(60)
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("games:create")).content.decode()
    for name in ("hand_size", "clue_modes", "chat", "target_score"):
        assert f'name="{name}"' in page
    response = client.post(
        reverse("games:create"),
        {
            "kind": "storyteller",
            "max_seats": 4,
            "pace": "async",
            "phase_hours": 24,
            "visibility": "public",
            "deck": deck.pk,
            "hand_size": 5,
            "clue_modes": ["words", "drawing"],
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert game.options["hand_size"] == 5 and game.options["clue_modes"] == ["words", "drawing"]
    assert game.options["chat"] is False  # the box was not ticked
    board = client.get(game.get_absolute_url()).content.decode()
    assert "House rule: 5 cards in a hand" in board and "drawings" in board and "No chat" in board


def test_the_form_without_a_clue_mode_is_the_usual_game(client):
    deck = deck_with_cards(60)
    client.force_login(UserFactory())
    response = client.post(
        reverse("games:create"),
        {
            "kind": "storyteller",
            "max_seats": 4,
            "pace": "async",
            "phase_hours": 24,
            "visibility": "public",
            "deck": deck.pk,
            "chat": "on",
        },
    )
    assert response.status_code == 302
    assert Game.objects.get().options["clue_modes"] == ["words"] and Game.objects.get().options["chat"] is True


def test_the_clue_form_offers_the_pad_only_where_the_rules_allow(client):
    game, users = started_game(4, options={"clue_modes": ["words", "drawing"]})
    client.force_login(users[1])
    page = client.get(game.get_absolute_url()).content.decode()
    assert "data-drawing-pad" in page and "data-sound-recorder" not in page and "clue_media.js" in page
    assert 'name="media"' in page
    plain, others = started_game(4)
    client.force_login(others[1])
    page = client.get(plain.get_absolute_url()).content.decode()
    assert "data-drawing-pad" not in page and 'name="media"' not in page


@pytest.mark.parametrize(
    ("modes", "message"),
    [
        (["words"], "Write a clue first."),
        (["words", "drawing"], "Write a clue, or draw or record one, first."),
    ],
)
def test_an_empty_clue_is_refused_in_words_that_fit_the_house_rules(client, modes, message):
    game, users = started_game(3, options={"clue_modes": modes})
    client.force_login(users[0])
    seat = game.seats.get(user=users[0]).position
    hand = list(engine.from_dict(game.state).hands[seat])
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"type": "clue", "card": hand[0], "text": "", "round": 1},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert message in page
    if modes == ["words"]:
        assert "draw or record" not in page
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_lobby_row_shows_the_house_rules(client_of, client):
    deck_with_cards(60)
    creator = client_of()
    creator.post("/games", {"seats": 4, "hand_size": 8, "target_score": 30, "clue_modes": ["words", "drawing"]})
    creator.post("/games", {"seats": 4, "chat": False})
    client.force_login(UserFactory())
    rows = client.get(reverse("games:lobby_fragment")).content.decode()
    assert "House rule: 8 cards in a hand" in rows and "the game also ends at 30 points" in rows
    assert "Clues: words, drawings" in rows and "No chat" in rows
    assert rows.count("house-rule") == 4  # the usual game of the second row shows none but its chat
