"""The new-game form's starting values fit who creates it (issue 39): a newcomer (no finished game with another
person) gets a game that starts soon: live, bots in the empty seats, four seats; a player who has played with
others starts from the settings of the last game they created. "Bots take the empty seats" fills them at once."""

import re

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.selectors.games import game_create_defaults, has_played_with_others
from games.services.errors import GameError
from games.services.games import game_create
from games.tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def checked(page: str, name: str) -> list[str]:
    """The values of the checked inputs called ``name`` in ``page``."""
    inputs = re.findall(rf"<input[^>]*name=\"{name}\"[^>]*>", page)
    return [
        re.search(r'value="([^"]*)"', tag).group(1) if "value=" in tag else "on" for tag in inputs if "checked" in tag
    ]


def selected(page: str, name: str) -> str:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return re.search(r'<option value="([^"]*)"[^>]*selected', select).group(1)


def finish(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)


def test_a_newcomer_s_form_starts_a_live_game_with_bots_soon(client, deck):
    me = UserFactory()
    client.force_login(me)
    page = client.get(reverse("games:create")).content.decode()
    assert checked(page, "pace") == ["live"]
    assert checked(page, "with_bots") == ["on"]
    assert selected(page, "max_seats") == "4"
    # Posted as it stands: a live game, started at once, the three other seats bots'.
    response = client.post(
        reverse("games:create"),
        {"kind": "storyteller", "max_seats": "4", "pace": "live", "phase_hours": "24", "visibility": "public",
         "with_bots": "on", "deck": deck.pk, "chat": "on"},
    )  # fmt: skip
    game = Game.objects.get(creator=me)
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert game.status == Game.Status.ACTIVE and game.pace == Game.Pace.LIVE
    seats = Seat.objects.filter(game=game).select_related("user").order_by("position")
    assert [seat.user.is_bot for seat in seats] == [False, True, True, True]


def test_invite_friends_leaves_the_seats_to_them_and_gives_them_time(client, deck):
    client.force_login(UserFactory())
    page = client.get(reverse("games:create") + "?visibility=private").content.decode()
    assert checked(page, "visibility") == ["private"]
    assert checked(page, "with_bots") == []
    assert checked(page, "pace") == ["async"]


def test_games_with_bots_alone_or_unfinished_leave_a_player_a_newcomer(deck):
    me = UserFactory()
    alone = game_create(creator=me, max_seats=3, options={"deck": deck.pk}, with_bots=True)
    assert alone.status == Game.Status.ACTIVE
    finish(alone)
    assert not has_played_with_others(user=me)  # only bots at the table
    game, users = started_game(3)
    assert not has_played_with_others(user=users[1])  # with people, not finished
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, abandoned=True)
    assert not has_played_with_others(user=users[1])  # abandoned: nothing was played
    assert game_create_defaults(user=users[1]) == ({"pace": "live", "max_seats": 4, "with_bots": True}, {})
    Game.objects.filter(pk=game.pk).update(abandoned=False)
    assert has_played_with_others(user=users[1])


def test_a_player_who_played_with_others_starts_from_their_last_game(client, deck):
    from think_alike.tests.content import small_content

    small_content()
    game, users = started_game(3)
    finish(game)
    me = users[2]
    game_create(creator=me, max_seats=3, options={"deck": deck.pk})  # an older one
    game_create(
        creator=me, kind="think_alike", max_seats=5, phase_seconds=48 * 3600, visibility="private",
        options={"lang": "fr", "stop": "tasks", "count": 7}, time_bank_hours=12, min_reliability=0.6,
    )  # fmt: skip
    client.force_login(me)
    page = client.get(reverse("games:create")).content.decode()
    assert checked(page, "kind") == ["think_alike"]
    assert selected(page, "max_seats") == "5"
    assert checked(page, "pace") == ["async"]
    assert selected(page, "phase_hours") == "48"
    assert checked(page, "visibility") == ["private"]
    assert checked(page, "with_bots") == []
    assert re.search(r'name="time_bank_hours" value="12"', page)
    assert re.search(r'name="min_reliability" value="60"', page)
    assert checked(page, "lang") == ["fr"] and checked(page, "stop") == ["tasks"]
    assert re.search(r'name="count" value="7"', page)
    # The lobby's kind and "Invite friends" still choose over the last game.
    page = client.get(reverse("games:create") + "?kind=storyteller").content.decode()
    assert checked(page, "kind") == ["storyteller"] and selected(page, "max_seats") == "5"


def test_a_regular_whose_last_game_had_bots_gets_them_again(client, deck):
    game, users = started_game(3)
    finish(game)
    me = users[0]
    game_create(creator=me, max_seats=5, pace="live", options={"deck": deck.pk}, with_bots=True)
    initial, _options = game_create_defaults(user=me)
    assert initial["with_bots"] is True and initial["pace"] == "live" and initial["max_seats"] == 5
    assert "phase_hours" not in initial  # a live game's phase is the site's, not a choice


def test_bots_that_cannot_sit_leave_no_game_behind(deck, monkeypatch):
    import bots.services

    def refuse(**kwargs):
        raise GameError("game_full", "full")

    monkeypatch.setattr(bots.services, "game_bot_add", refuse)
    with pytest.raises(GameError):
        game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, with_bots=True)
    assert Game.objects.count() == 0
