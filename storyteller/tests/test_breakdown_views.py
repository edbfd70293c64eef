"""A round's points with their reasons where people see them: the board's reveal and the replay."""

import random

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.tests.factories import started_game
from games.tests.play import play_step, play_to_end, view_for
from storyteller.replay import storyteller_replay

pytestmark = pytest.mark.django_db


def test_the_replay_gives_every_round_its_reasons_and_they_add_up():
    game, users = started_game(4)
    game = play_to_end(game, users, random.Random(5))
    assert game.status == Game.Status.FINISHED
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
    rounds = storyteller_replay(game=game, seats=seats)["rounds"]
    assert rounds
    for round_ in rounds:
        points = {row["username"]: row["points"] for row in round_["standings"]}
        for entry in round_["breakdown"]:
            assert entry["points"] == points[entry["player"]["username"]]
            assert entry["points"] == sum(reason["points"] for reason in entry["reasons"])
        storyteller = next(e for e in round_["breakdown"] if e["player"] == round_["storyteller"])
        assert storyteller["reasons"][0]["code"].startswith("storyteller_")
    # The page shows them in words.
    client = game_client(users[0])
    page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert page.count('class="breakdown"') == len(rounds)
    assert "storyteller: " in page


def test_the_board_shows_the_fresh_reveal_open_then_folded_in_the_same_place():
    game, users = started_game(4)
    rng = random.Random(3)
    while view_for(game, users[0])["round"] == 1:
        play_step(game, users, rng)
    client = game_client(users[1])
    board = client.get(reverse("games:board", args=[game.pk])).content.decode()
    last = view_for(game, users[1])["last_round"]
    assert last["fresh"] is True
    assert 'class="panel reveal reveal-fresh"' in board
    assert board.index('id="status"') < board.index('id="last-round"') < board.index('id="play"')
    for entry in last["breakdown"]:
        for reason in entry["reasons"]:
            assert reason["text"] in board.replace("&#x27;", "'")
    # The next clue given: the reveal folds, in the same place (a live page morphs into what a reload shows).
    while view_for(game, users[0])["phase"] == "clue":
        play_step(game, users, rng)
    board = client.get(reverse("games:board", args=[game.pk])).content.decode()
    assert "reveal-fresh" not in board
    assert board.index('id="status"') < board.index('id="last-round"') < board.index('id="play"')
    assert '<details class="reveal-details">' in board  # folded, a click away


def game_client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_every_reason_has_its_own_words():
    from storyteller.engine import rules as engine
    from storyteller.selectors import reason_text

    texts = {code: reason_text(engine.Reason(0, code, 0)) for code in engine.REASONS}
    assert len(set(texts.values())) == len(engine.REASONS) and all(texts.values())
    assert reason_text(engine.Reason(1, engine.VOTES_ON_CARD, 1, 1)) == "1 vote on their card"
    assert reason_text(engine.Reason(1, engine.VOTES_ON_CARD, 3, 3)) == "3 votes on their card"
    assert "three-player rule" in reason_text(engine.Reason(0, engine.STORYTELLER_SOME_FOUND, 4, 1))
    assert "three-player rule" in reason_text(engine.Reason(1, engine.FOUND, 4))
    assert (
        reason_text(engine.Reason(0, engine.STORYTELLER_SOME_FOUND, 3, 2)) == "storyteller: some found it, not everyone"
    )


def test_a_finished_game_says_why_it_ended():
    """Issue 39: an 18-card game ended after two rounds with "The game is over." and no reason."""
    from games.tests.play import play_to_end

    game, users = started_game(3)
    game = play_to_end(game, users, random.Random(4))
    view = view_for(game, users[0])
    assert view["end_reason"] == "The draw pile ran out: the hands could no longer be refilled."
    board = game_client(users[0]).get(reverse("games:board", args=[game.pk])).content.decode()
    assert "The game is over. The draw pile ran out: the hands could no longer be refilled." in board
