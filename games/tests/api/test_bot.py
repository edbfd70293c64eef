"""Whole games through the API, played by the example bot (examples/bot.py) over real HTTP."""

import random

import pytest

from games.models import Game
from games.tests.factories import deck_with_cards

from .conftest import load_bot

bot = load_bot()


@pytest.fixture
def site(live_server, transactional_db):
    deck_with_cards(48)
    return live_server.url


def sign_up_bots(url, count, prefix="bot"):
    apis = []
    for n in range(count):
        api = bot.Api(url)
        assert bot.sign_up(api, username=f"{prefix}{n}", password="a long pass phrase")
        bot.get_token(api, username=f"{prefix}{n}", password="a long pass phrase")
        apis.append(api)
    return apis


@pytest.mark.parametrize("players", [3, 4])
def test_bots_play_a_whole_game(site, players):
    apis = sign_up_bots(site, players)
    first = bot.join_or_create(apis[0], seats=players)  # nothing open: creates
    assert first["status"] == "open"
    for api in apis[1:]:
        view = bot.join_or_create(api, seats=players)  # finds and joins the open game
        assert view["id"] == first["id"]
    rng = random.Random(players)
    views = {}
    for _ in range(1000):  # each pass: every bot looks once and acts if the game waits for it
        views = {n: bot.play_turn(api, first["id"], rng) for n, api in enumerate(apis)}
        if all(view["status"] == "finished" for view in views.values()):
            break
    game = Game.objects.get(pk=first["id"])
    assert game.status == "finished" and game.round > 1
    final = views[0]
    assert final["winners"] and set(final["winners"]) <= {p["username"] for p in final["players"]}
    assert sum(p["score"] for p in final["players"]) == sum(s.score for s in game.seats.all())
    assert "game" in bot.describe(final) and "winners" in bot.describe(final)


def test_the_bots_command_line(site, capsys):
    """main(): sign up, create a private game; two more bots join it by id and invite code; all play to the end."""
    creator = sign_up_bots(site, 1, prefix="host")[0]
    view = bot.create_game(creator, seats=3, private=True)
    code = view["invite_code"]
    helpers = sign_up_bots(site, 1, prefix="guest")
    bot.join_game(helpers[0], view["id"], code)
    rng = random.Random(1)
    # The third player is main() itself, signed up from the command line. The other two play
    # in the same thread: whenever main() looks at the game they take their turn first, so
    # the test needs no thread and no sleep (main() polls with --poll 0).
    original = bot.play_turn

    def play_turn_with_company(api, game_id, rng_):
        for other in (creator, helpers[0]):
            original(other, game_id, rng)
        return original(api, game_id, rng_)

    bot.play_turn = play_turn_with_company
    try:
        code_ = bot.main(
            [
                "--url",
                site,
                "--username",
                "cli",
                "--password",
                "a long pass phrase",
                "--game",
                str(view["id"]),
                f"--invite={code}",  # an invite code may begin with "-"
                "--poll",
                "0",
                "--seed",
                "3",
            ]
        )
    finally:
        bot.play_turn = original
    out = capsys.readouterr().out
    assert code_ == 0, out
    assert "signed up as cli" in out and "is over: winners" in out
    assert Game.objects.get(pk=view["id"]).status == "finished"


def test_the_bot_reports_api_errors(site, capsys):
    assert bot.main(["--url", site, "--token", "fab_wrong", "--game", "1"]) == 1
    assert "401 unauthorized" in capsys.readouterr().err


def test_the_bot_goes_on_playing_a_started_game_it_sits_in_and_refuses_one_it_does_not(site, capsys):
    apis = sign_up_bots(site, 3, prefix="seat")
    view = bot.create_game(apis[0], seats=3)
    for api in apis[1:]:
        bot.join_game(api, view["id"])  # the last seat starts the game
    assert Game.objects.get(pk=view["id"]).status == "active"
    rng = random.Random(5)
    original = bot.play_turn

    def play_turn_with_company(api, game_id, rng_):
        for other in apis[1:]:
            original(other, game_id, rng)
        return original(api, game_id, rng_)

    bot.play_turn = play_turn_with_company
    try:
        code = bot.main(["--url", site, "--token", apis[0].token, "--game", str(view["id"]), "--poll", "0"])
    finally:
        bot.play_turn = original
    assert code == 0, capsys.readouterr()
    assert Game.objects.get(pk=view["id"]).status == "finished"
    outsider = sign_up_bots(site, 1, prefix="late")[0]
    other = bot.create_game(apis[1], seats=3)
    for api in (apis[0], apis[2]):
        bot.join_game(api, other["id"])
    capsys.readouterr()
    assert bot.main(["--url", site, "--token", outsider.token, "--game", str(other["id"])]) == 1
    assert "not_open" in capsys.readouterr().err
