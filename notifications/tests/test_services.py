"""Notifications made from the games' changes: once each, after commit."""

from datetime import timedelta

import pytest

from games.models import Game
from games.services.events import user_group
from games.services.games import game_act, game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.layers import heard
from games.tests.timeouts.steps import clue, expire, storyteller_position, submit, to_vote, vote
from notifications.models import Notification, Turn

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


def notes(user, **filters):
    return list(Notification.objects.filter(user=user, **filters).order_by("id").values_list("kind", "asked", "round"))


def test_joining_tells_the_players_already_seated_and_the_full_table_hears_the_start():
    deck = deck_with_cards()
    a, b, c, d = UserFactory.create_batch(4)
    game = game_create(creator=a, max_seats=4, options={"deck": deck.pk})
    game_join(game_id=game.pk, user=b)
    game_join(game_id=game.pk, user=c)
    joined = Notification.objects.filter(kind=Kind.PLAYER_JOINED).order_by("id")
    # One unread item per player and game: the creator's "b joined" became "c joined".
    assert [(n.user, n.actor) for n in joined] == [(a, c), (b, c)]
    game_join(game_id=game.pk, user=d)
    for user in (a, b, c, d):
        # "started" says it is everyone's turn for the first clue: no "your turn" besides.
        assert notes(user, kind__in=[Kind.GAME_STARTED, Kind.YOUR_TURN]) == [(Kind.GAME_STARTED, "", 1)]
    assert all(n.get_absolute_url() for n in Notification.objects.all())


def test_your_turn_comes_once_per_phase_to_those_asked():
    game, users = started_game(4)
    clue(game, users[0], 0)
    for seat in (1, 2, 3):
        assert notes(users[seat], kind=Kind.YOUR_TURN) == [(Kind.YOUR_TURN, "submit", 1)]
    assert notes(users[0], kind=Kind.YOUR_TURN) == []
    submit(game, users[1], 1)
    submit(game, users[2], 2)
    assert Notification.objects.filter(kind=Kind.YOUR_TURN).count() == 3  # nobody asked twice
    submit(game, users[3], 3)
    for seat in (1, 2, 3):
        assert notes(users[seat], kind=Kind.YOUR_TURN)[-1] == (Kind.YOUR_TURN, "vote", 1)
    # One turn per seat and phase; those of the submit phase are closed.
    assert Turn.objects.filter(seat__game=game, closed_at__isnull=True).count() == 3
    assert Turn.objects.filter(seat__game=game, asked="submit", closed_at__isnull=False).count() == 3


def test_the_storyteller_named_by_the_deadline_is_asked_for_a_clue():
    game, users = started_game(4)
    assert expire(game)
    assert notes(users[0], kind=Kind.YOUR_TURN) == [(Kind.YOUR_TURN, "clue", 1)]
    for user in users[1:]:
        assert notes(user, kind=Kind.YOUR_TURN) == []
    open_turns = Turn.objects.filter(seat__game=game, closed_at__isnull=True)
    assert [(t.seat.position, t.asked) for t in open_turns] == [(0, "clue")]


def test_a_revealed_round_and_a_finished_game_are_told_to_everyone():
    game, users = started_game(4)
    to_vote(game, users, teller=0)
    for seat in (1, 2, 3):
        vote(game, users[seat], storyteller_position(game))
    for user in (users[0], users[2], users[3]):
        assert notes(user, read_at__isnull=True) == [(Kind.ROUND_REVEALED, "", 1)]
    # The next storyteller's one item asks for the clue: the reveal is on the page it leads to.
    assert notes(users[1], read_at__isnull=True) == [(Kind.YOUR_TURN, "clue", 2)]

    game_act(game_id=game.pk, user=users[3], action={"type": "resign"})
    game_act(game_id=game.pk, user=users[2], action={"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    finished = Notification.objects.filter(game=game, kind=Kind.GAME_FINISHED)
    assert sorted((n.user_id, n.won) for n in finished) == sorted(
        (seat.user_id, seat.is_winner) for seat in game.seats.all()
    )
    assert Turn.objects.filter(seat__game=game, closed_at__isnull=True).count() == 0


def test_the_bell_hears_the_unread_count_after_commit(django_capture_on_commit_callbacks):
    game, users = started_game(3)
    Notification.objects.filter(user=users[1]).update(read_at=game.started_at)  # seen the start
    unread = Notification.objects.filter(user=users[1], read_at__isnull=True).count()

    def change():
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            clue(game, users[0], 0)
        assert Notification.objects.filter(user=users[1], read_at__isnull=True).count() == unread + 1
        assert callbacks  # the message waits for the commit
        for callback in callbacks:
            callback()

    (message,) = heard([user_group(users[1].pk)], change, of_type="notifications.changed")
    assert message == {"type": "notifications.changed", "unread": unread + 1}


def test_a_change_of_phase_counts_the_bells_once_and_a_live_game_moves_no_reminder():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for pace in (Game.Pace.LIVE, Game.Pace.ASYNC):
        game, users = started_game(4, pace=pace)
        with CaptureQueriesContext(connection) as queries:
            clue(game, users[0], 0)  # the teller's "game started" read, the others' "your turn" to hand in a card
        sql = [query["sql"] for query in queries.captured_queries]
        counts = [one for one in sql if one.startswith("SELECT") and "COUNT(" in one]
        assert len(counts) == 1, sql  # every bell that changed, counted at once
        reminders = [one for one in sql if one.startswith("UPDATE") and '"remind_at"' in one]
        assert len(reminders) == (pace == Game.Pace.ASYNC), sql
        game.refresh_from_db()
        turns = Turn.objects.filter(seat__game=game, closed_at__isnull=True)
        assert turns.count() == 3
        if pace == Game.Pace.LIVE:
            assert not turns.exclude(remind_at=None).exists()  # a live game's turns are never reminded
        else:
            quarter = timedelta(seconds=game.phase_seconds / 4)
            assert set(turns.values_list("remind_at", flat=True)) == {game.deadline_at - quarter}
