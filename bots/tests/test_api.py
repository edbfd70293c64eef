"""POST /api/v1/games/{id}/bots: a bot takes a seat; every refusal in the API's error format, changing nothing."""

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from games.tests.api.conftest import error_of

pytestmark = pytest.mark.django_db


def _create(client, **body):
    created = client.post("/games", {"seats": 4, **body})
    assert created.status_code == 201, created.content
    return created.json()


def test_creator_adds_a_bot_marked_in_players(deck, make_player):
    _user, client = make_player()
    game = _create(client)
    response = client.post(f"/games/{game['id']}/bots")
    assert response.status_code == 201, response.content
    view = response.json()
    assert view["id"] == game["id"] and view["status"] == "open"
    assert [p["bot"] for p in view["players"]] == [False, True]
    bot = get_user_model().objects.get(username=view["players"][1]["username"])
    assert bot.is_bot and not bot.has_usable_password()
    assert view["players"][1]["name"].startswith("Bot ")
    # The plain view says so too.
    assert [p["bot"] for p in client.get(f"/games/{game['id']}").json()["players"]] == [False, True]


def test_two_bots_in_one_game_are_two_users_with_distinct_names(deck, make_player):
    _user, client = make_player()
    game = _create(client)
    client.post(f"/games/{game['id']}/bots")
    view = client.post(f"/games/{game['id']}/bots").json()
    bots = [p for p in view["players"] if p["bot"]]
    assert len(bots) == 2
    assert len({p["username"] for p in bots}) == 2 and len({p["name"] for p in bots}) == 2


def test_a_bot_is_reused_by_another_game(deck, make_player):
    _user, client = make_player()
    first = _create(client)
    second = _create(client)
    one = client.post(f"/games/{first['id']}/bots").json()["players"][1]["username"]
    other = client.post(f"/games/{second['id']}/bots").json()["players"][1]["username"]
    assert one == other
    assert get_user_model().objects.filter(is_bot=True).count() == 1


def test_the_last_seat_taken_by_a_bot_starts_the_game(deck, make_player, django_capture_on_commit_callbacks):
    _user, client = make_player()
    game = _create(client, seats=3)
    client.post(f"/games/{game['id']}/bots")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/games/{game['id']}/bots")
    assert response.status_code == 201
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ACTIVE


def test_not_the_creator_is_403(deck, make_player):
    _user, creator = make_player()
    _other, stranger = make_player()
    game = _create(creator)
    assert error_of(stranger.post(f"/games/{game['id']}/bots")) == (403, "not_creator")
    # A seated player who did not create the game may not either.
    stranger.post(f"/games/{game['id']}/join")
    assert error_of(stranger.post(f"/games/{game['id']}/bots")) == (403, "not_creator")
    assert Seat.objects.filter(game_id=game["id"]).count() == 2


def test_a_full_or_started_game_is_409(deck, make_player):
    _user, client = make_player()
    game = _create(client, seats=3)
    client.post(f"/games/{game['id']}/bots")
    client.post(f"/games/{game['id']}/bots")  # full: it started
    assert error_of(client.post(f"/games/{game['id']}/bots")) == (409, "not_open")
    assert Seat.objects.filter(game_id=game["id"]).count() == 3


def test_a_full_open_game_is_409_game_full(deck, make_player):
    _user, client = make_player()
    game = _create(client, seats=3)
    for position in (1, 2):  # seated as a race would leave it: every seat taken, not started yet
        Seat.objects.create(game_id=game["id"], user=make_player()[0], position=position, colour=f"c{position}")
    assert error_of(client.post(f"/games/{game['id']}/bots")) == (409, "game_full")
    assert Seat.objects.filter(game_id=game["id"]).count() == 3


def test_a_missing_game_and_a_private_game_not_seen_are_the_same_404(deck, make_player):
    _user, creator = make_player()
    _other, stranger = make_player()
    private = _create(creator, visibility="private")
    missing = error_of(stranger.post("/games/999999/bots"))
    hidden = stranger.post(f"/games/{private['id']}/bots")
    assert missing == error_of(hidden) == (404, "not_found")
    assert Seat.objects.filter(game_id=private["id"]).count() == 1
    # Its creator may.
    assert creator.post(f"/games/{private['id']}/bots").status_code == 201


def test_without_a_token_is_401(deck, make_player, anon):
    _user, client = make_player()
    game = _create(client)
    assert error_of(anon.post(f"/games/{game['id']}/bots")) == (401, "unauthorized")


def test_a_bot_cannot_log_in(client, deck, make_player):
    _user, api = make_player()
    game = _create(api)
    username = api.post(f"/games/{game['id']}/bots").json()["players"][1]["username"]
    page = client.post("/accounts/login/", {"username": username, "password": ""})
    assert "_auth_user_id" not in client.session and page.status_code == 200
    token = api.client.post("/api/v1/tokens", {"username": username, "password": "x"}, content_type="application/json")
    assert token.status_code in (400, 401)


def test_a_bot_name_a_player_holds_is_skipped(deck, make_player):
    make_player(username="ada", display_name="Bot Ada")
    _user, client = make_player()
    game = _create(client)
    view = client.post(f"/games/{game['id']}/bots").json()
    assert view["players"][1]["name"] == "Bot Alan"


# --- levels ------------------------------------------------------------------------------------


def test_a_bot_s_level_is_normal_by_default_and_shown_in_players(deck, make_player):
    _user, client = make_player()
    game = _create(client)
    view = client.post(f"/games/{game['id']}/bots").json()
    assert [p["bot_level"] for p in view["players"]] == [None, "normal"]
    assert Seat.objects.get(game_id=game["id"], position=1).bot_level == "normal"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_level_asked_for_is_the_bot_s(deck, make_player, level):
    _user, client = make_player()
    game = _create(client)
    response = client.post(f"/games/{game['id']}/bots", {"level": level})
    assert response.status_code == 201, response.content
    assert response.json()["players"][1]["bot_level"] == level
    assert client.get(f"/games/{game['id']}").json()["players"][1]["bot_level"] == level
    assert Seat.objects.get(game_id=game["id"], position=1).bot_level == level


@pytest.mark.parametrize(
    "body",
    [
        b'{"level": "expert"}',
        b'{"level": "Hard"}',
        b'{"level": 3}',
        b'{"level": ["hard"]}',
        b'{"level": "hard", "name": "Bot Zed"}',
        b'["hard"]',
        b'"hard"',
        b'{"level": "hard"',
        b"{level: hard}",
        b"\xff\xfe",
    ],
)
def test_any_other_level_or_body_is_bad_options_and_seats_nobody(deck, make_player, body):
    _user, client = make_player()
    game = _create(client)
    response = client.post(f"/games/{game['id']}/bots", raw=body)
    assert error_of(response) == (400, "bad_options"), response.content
    assert Seat.objects.filter(game_id=game["id"]).count() == 1
    assert not get_user_model().objects.filter(is_bot=True).exists()


# --- a Storyteller game's language: the bots' ------------------------------------------------------


def test_a_storyteller_game_has_a_language_asked_for_or_its_creator_s(deck, make_player):
    from django.utils import translation

    from games.services.errors import GameError
    from storyteller.services.game import storyteller_options_clean

    _user, client = make_player()
    game = _create(client, lang="sv")
    assert Game.objects.get(pk=game["id"]).options["lang"] == "sv"
    assert client.get(f"/games/{game['id']}").json()["options"]["lang"] == "sv"
    response = client.post("/games", {"seats": 4, "lang": "de"})
    assert response.status_code == 400 and Game.objects.count() == 1
    with translation.override("fi"):
        assert storyteller_options_clean({}, max_seats=4)["lang"] == "fi"
    with translation.override("de"):
        assert storyteller_options_clean({}, max_seats=4)["lang"] == "en"
    with pytest.raises(GameError) as refused:
        storyteller_options_clean({"lang": "klingon"}, max_seats=4)
    assert refused.value.code == "bad_options"
