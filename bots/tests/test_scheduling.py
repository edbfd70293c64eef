"""A bot's turn: scheduled after the change that makes it its turn, a moment later; played only if still its turn."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from bots import scheduling, services
from bots.services import bot_turn_play, game_bot_add, phase_key_json
from games.models import Game, Move
from games.services.games import game_create
from games.tests.factories import UserFactory
from outbox.models import QueuedTask
from storyteller.engine import rules as engine

pytestmark = pytest.mark.django_db


def _game_with_bots(pace=Game.Pace.ASYNC, seats=3):
    person = UserFactory()
    game = game_create(creator=person, max_seats=seats, pace=pace)
    for _ in range(seats - 1):
        game_bot_add(game_id=game.pk, user=person)
    game.refresh_from_db()
    return game, person


@pytest.mark.parametrize(("pace", "low", "high"), [(Game.Pace.LIVE, 1, 3), (Game.Pace.ASYNC, 5, 50)])
def test_each_bot_awaited_gets_a_task_after_commit_with_its_delay(
    deck, monkeypatch, django_capture_on_commit_callbacks, pace, low, high
):
    sent = []
    monkeypatch.setattr(scheduling, "_run_at_once", lambda: False)
    monkeypatch.setattr(scheduling.play_turn, "apply_async", lambda **kw: sent.append(kw))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        before = timezone.now()
        game, _person = _game_with_bots(pace=pace)
    assert not sent  # nothing before the commit
    queued = QueuedTask.objects.filter(name=scheduling.play_turn.name)
    assert queued.count() == 2  # written with the change, in its transaction (outbox.services)
    for callback in callbacks:
        callback()
    assert not queued.exists()  # sent: the rows go
    # Round 1: whoever gives the first clue is the storyteller, so both bots are awaited.
    bots = set(game.seats.filter(user__is_bot=True).values_list("user_id", flat=True))
    assert {task["kwargs"]["user_id"] for task in sent} == bots and len(sent) == 2
    assert all(
        before + timedelta(seconds=low) <= task["eta"] <= timezone.now() + timedelta(seconds=high) for task in sent
    )
    assert all(task["kwargs"]["phase_key"] == phase_key_json((1, "clue", None, None)) for task in sent)


def test_a_bot_still_awaited_is_not_sent_again_by_another_seat_s_action(deck, monkeypatch):
    game, person = _game_with_bots(seats=4)
    kind = game.game_kind
    state = kind.engine.from_dict(game.state)
    seats = list(game.seats.all())
    after = engine.give_clue(state, seat=0, card=state.hands[0][0], text="moon")
    first = scheduling.bots_awaited(kind=kind, seats=seats, before=state, after=after)
    assert len(first) == 3 and set(first) == {s.user_id for s in seats if s.position != 0}
    submitted = engine.submit_cards(after, seat=1, cards=[after.hands[1][0]], rng=random.Random(1))
    assert scheduling.bots_awaited(kind=kind, seats=seats, before=after, after=submitted) == []


def test_the_bots_awaited_are_told_apart_without_a_query_when_the_seats_carry_their_users(
    deck, django_assert_num_queries
):
    """After a player's action the seats come with their users (read under the lock): which of the newly asked
    are bots is read from them, not asked of the database; seats without their users are still asked in SQL."""
    game, person = _game_with_bots(seats=4)
    kind = game.game_kind
    state = kind.engine.from_dict(game.state)
    storyteller = next(position for position in range(4) if position in kind.engine.to_act(state))
    after = engine.give_clue(state, seat=storyteller, card=state.hands[storyteller][0], text="moon")
    bots = {seat.user_id for seat in game.seats.filter(user__is_bot=True) if seat.position != storyteller}
    with_users = list(game.seats.select_related("user"))
    with django_assert_num_queries(0):
        found = scheduling.bots_awaited(kind=kind, seats=with_users, before=state, after=after)
    assert bots and set(found) == bots and len(found) == len(bots)
    without_users = list(game.seats.all())
    with django_assert_num_queries(1):
        assert sorted(scheduling.bots_awaited(kind=kind, seats=without_users, before=state, after=after)) == sorted(
            found
        )


def test_a_turn_is_played_once_and_not_after_the_phase_moved_on(deck):
    game, person = _game_with_bots()
    bot_seat = game.seats.filter(user__is_bot=True).first()
    key = phase_key_json(game.game_kind.phase_key(game.game_kind.engine.from_dict(game.state)))
    assert bot_turn_play(game_id=game.pk, user_id=bot_seat.user_id, phase_key=key)
    assert Move.objects.filter(game=game, seat=bot_seat, kind="clue").count() == 1
    # The phase moved on (the bot's clue): the same task again does nothing.
    assert not bot_turn_play(game_id=game.pk, user_id=bot_seat.user_id, phase_key=key)
    # A person's seat is never played, nor a game that does not exist.
    state_key = phase_key_json(game.game_kind.phase_key(game.game_kind.engine.from_dict(game.state)))
    game.refresh_from_db()
    assert not bot_turn_play(game_id=game.pk, user_id=person.pk, phase_key=state_key)
    assert not bot_turn_play(game_id=10**9, user_id=bot_seat.user_id, phase_key=state_key)


def test_a_failing_strategy_falls_back_to_a_legal_random_action(deck, monkeypatch, caplog):
    game, _person = _game_with_bots()
    bot_seat = game.seats.filter(user__is_bot=True).first()
    kind = game.game_kind
    key = phase_key_json(kind.phase_key(kind.engine.from_dict(game.state)))

    def broken(*args, **kwargs):
        raise ValueError("a bug in a strategy")

    monkeypatch.setattr(type(kind), "bot_action", broken)
    assert bot_turn_play(game_id=game.pk, user_id=bot_seat.user_id, phase_key=key)
    assert Move.objects.filter(game=game, seat=bot_seat).count() == 1
    assert any("bot_action failed" in r.getMessage() for r in caplog.records)


def test_a_bot_that_cannot_act_is_left_to_the_deadline_without_an_error(deck, monkeypatch, caplog):
    game, _person = _game_with_bots()
    bot_seat = game.seats.filter(user__is_bot=True).first()
    kind = game.game_kind
    key = phase_key_json(kind.phase_key(kind.engine.from_dict(game.state)))
    monkeypatch.setattr(type(kind), "bot_action", lambda *a, **k: {"type": "clue", "card": -1, "text": "x"})
    monkeypatch.setattr(type(kind), "sample_action", lambda *a, **k: {"type": "clue", "card": -1, "text": "x"})
    version = Game.objects.get(pk=game.pk).version
    assert not bot_turn_play(game_id=game.pk, user_id=bot_seat.user_id, phase_key=key)
    assert Game.objects.get(pk=game.pk).version == version
    assert Game.objects.get(pk=game.pk).deadline_at is not None  # the deadline still holds
    assert sum("refused" in r.getMessage() for r in caplog.records) == 2


@pytest.mark.django_db(transaction=True)
def test_run_at_once_bots_play_one_after_another_not_down_one_stack(monkeypatch):
    """Eager tasks (tests, no worker): each bot's task is queued by the one running, not run inside it."""
    from games.tests.factories import deck_with_cards

    deck_with_cards(30)
    depth = {"now": 0, "most": 0, "turns": 0}
    real = services.bot_turn_play

    def counted(**kwargs):
        depth["now"] += 1
        depth["most"] = max(depth["most"], depth["now"])
        try:
            played = real(**kwargs)
            depth["turns"] += played
            return played
        finally:
            depth["now"] -= 1

    monkeypatch.setattr("bots.tasks.bot_turn_play", counted)
    game, person = _game_with_bots(seats=3)
    # The bots raced for the first clue; one gave it and the other handed in a card: the person is awaited.
    assert depth["turns"] >= 2 and depth["most"] == 1
    game.refresh_from_db()
    state = game.game_kind.engine.from_dict(game.state)
    assert game.game_kind.engine.to_act(state) == frozenset({0})


def test_without_a_broker_a_timer_plays_the_turn_after_its_delay(settings, monkeypatch):
    """The embedded default runs tasks where they are sent: the delay is a timer's, not the task's."""
    settings.FABULA_BOTS_WAIT = True
    started = []

    class Timer:
        def __init__(self, interval, function, kwargs):
            self.interval, self.function, self.kwargs = interval, function, kwargs

        def start(self):
            started.append(self)

    monkeypatch.setattr(scheduling, "_run_at_once", lambda: True)
    monkeypatch.setattr(scheduling.threading, "Timer", Timer)
    played = []
    monkeypatch.setattr(scheduling.play_turn, "apply", lambda kwargs: played.append(kwargs))
    task = {"game_id": 1, "user_id": 2, "phase_key": [1, "clue", None, None]}
    scheduling._play_here(task, 2.5)
    assert not played and len(started) == 1 and started[0].interval == 2.5 and started[0].daemon
    started[0].function(**started[0].kwargs)  # the timer fires
    assert played == [task]


def test_which_users_are_bots_is_asked_in_sql_that_gives_what_its_queryset_gives():
    """``_bots_among`` (infrastructure.raw_sql): its SQL, written out, against the queryset it stands for."""
    people = UserFactory.create_batch(3)
    bots = UserFactory.create_batch(2, is_bot=True)
    ids = [user.pk for user in people + bots] + [10**12]
    for asked in (ids, ids[:3], []):
        assert sorted(scheduling._bots_among(asked)) == sorted(scheduling._bots_among.build(asked))
    assert sorted(scheduling._bots_among(ids)) == sorted(bot.pk for bot in bots)
