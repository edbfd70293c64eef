"""Races on PostgreSQL: real row locks, real threads, each with its own connection."""

import threading

import pytest
from django.db import connection, connections

from games.models import Move
from games.services.errors import GameError
from games.services.games import game_act, game_expire
from games.tasks import games_expire_due
from games.tests.factories import deck_with_cards, started_game
from storyteller.engine import rules as engine
from storyteller.models import StorytellerRound

from .steps import any_other_position, due, state_of, to_vote, vote

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="races need PostgreSQL's row locks; SQLite runs one writer at a time (IMMEDIATE transactions)",
    ),
    pytest.mark.django_db(transaction=True),
]

TIMES = 5  # each race is run a few times: either side may win it


def together(*calls):
    """Run the calls in threads released at the same moment; ("ok", result) or ("error", exception) each."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = ("ok", call())
        except Exception as error:  # noqa: BLE001 - the outcome is what the test looks at
            results[index] = ("error", error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(result is not None for result in results), "a thread did not finish"
    return results


def voting(deck, *, voted):
    """Four players in round 1's vote (seat 0 tells); the seats in ``voted`` have voted."""
    game, users = started_game(4, deck=deck)
    to_vote(game, users, teller=0)
    for seat in voted:
        vote(game, users[seat], any_other_position(game, seat))
    game.refresh_from_db()
    return game, users


def test_a_vote_and_the_expiry_of_its_phase_leave_one_result():
    deck = deck_with_cards()
    for _ in range(TIMES):
        game, users = voting(deck, voted=(1, 2))
        version, now, position = game.version, due(game), any_other_position(game, 3)

        voted, expired = together(
            lambda: game_act(
                game_id=game.pk, user=users[3], action={"type": "vote", "position": position}, expected_round=1
            ),
            lambda: game_expire(game_id=game.pk, version=version, now=now),
        )

        game.refresh_from_db()
        state = state_of(game)
        assert game.version == version + 1
        assert StorytellerRound.objects.filter(game=game, number=1).count() == 1
        assert state.round == 2 and str(state.phase) == "clue"
        vote_counted = voted[0] == "ok"
        if vote_counted:
            assert expired == ("ok", False)
            assert state.last_round.votes[3] == position and state.misses[3] == 0
        else:
            assert isinstance(voted[1], GameError) and expired == ("ok", True)
            assert 3 not in state.last_round.votes and state.misses[3] == 1
        assert Move.objects.filter(game=game, kind="vote", seat__position=3).exists() == vote_counted


def test_two_votes_at_once_both_count_and_close_the_phase_once():
    deck = deck_with_cards()
    for _ in range(TIMES):
        game, users = voting(deck, voted=(1,))
        version = game.version
        positions = {seat: any_other_position(game, seat) for seat in (2, 3)}

        results = together(
            *(
                (
                    lambda seat=seat: game_act(
                        game_id=game.pk,
                        user=users[seat],
                        action={"type": "vote", "position": positions[seat]},
                        expected_round=1,
                    )
                )
                for seat in (2, 3)
            )
        )

        assert [outcome for outcome, _ in results] == ["ok", "ok"]
        game.refresh_from_db()
        state = state_of(game)
        assert game.version == version + 2
        assert state.round == 2 and state.phase == engine.Phase.CLUE
        assert state.last_round.votes == {1: state.last_round.votes[1], **positions}
        assert StorytellerRound.objects.filter(game=game, number=1).count() == 1


def test_two_expiries_at_once_change_the_game_once():
    game, users = started_game(4)
    version, now = game.version, due(game)
    results = together(*(lambda: game_expire(game_id=game.pk, version=version, now=now) for _ in range(3)))
    assert sorted(result for _, result in results) == [False, False, True]
    game.refresh_from_db()
    assert game.version == version + 1


def test_workers_share_the_due_games_without_doing_one_twice():
    deck = deck_with_cards()
    games = [started_game(3, deck=deck)[0] for _ in range(6)]
    versions = {game.pk: game.version for game in games}
    now = max(due(game) for game in games)
    results = together(*(lambda: games_expire_due(now=now) for _ in range(3)))
    assert all(outcome == "ok" for outcome, _ in results)
    assert sum(count for _, count in results) == len(games)
    for game in games:
        game.refresh_from_db()
        assert game.version == versions[game.pk] + 1
