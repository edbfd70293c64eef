"""games.services.events: what a change tells the open pages after commit, and in how many hops to the event loop."""

import pytest
from django.db import transaction

from games.models import Game
from games.services import events
from games.services.games import game_act, game_expire

from .factories import started_game
from .play import view_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def hops(monkeypatch) -> list[list]:
    """Each hop to the event loop (``events._send_many``): the (groups, message) pairs it carries."""
    sent: list[list] = []
    monkeypatch.setattr(events, "_send_many", lambda messages: sent.append(list(messages)))
    return sent


def delivered(hop_list) -> dict:
    """Every group's messages, over all the hops."""
    by_group: dict = {}
    for hop in hop_list:
        for groups, message in hop:
            for group in groups:
                by_group.setdefault(group, []).append(message)
    return by_group


def test_a_clue_tells_the_game_and_every_bell_it_changed_in_one_hop(hops, django_capture_on_commit_callbacks):
    game, users = started_game(4)
    teller = next(user for user in users if view_for(game, user)["you"]["to_act"])
    card = view_for(game, teller)["hand"][0]["id"]
    with django_capture_on_commit_callbacks(execute=True):
        game_act(game_id=game.pk, user=teller, action={"type": "clue", "card": card, "text": "a fox"})
    game.refresh_from_db()
    assert len(hops) == 1, hops  # the game's new version and the bells of those now asked: one hop for them all
    by_group = delivered(hops)
    changed = {"type": "game.changed", "game": game.pk, "version": game.version}
    assert by_group[events.game_group(game.pk)] == [changed]
    for user in users:
        group = events.user_group(user.pk)
        assert changed in by_group[group]
        if user != teller:  # asked for a card now: a "your turn" in the bell, and its count
            assert {"type": "notifications.changed", "unread": 1} in by_group[group], by_group[group]


def test_a_change_that_rolls_back_tells_nobody(hops, django_capture_on_commit_callbacks):
    game, users = started_game(3)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        with events.one_hop():
            events.game_changed(game=game, user_ids=[users[0].pk])
        raise RuntimeError
    assert hops == []


def test_a_block_that_raises_drops_its_own_messages_and_keeps_the_outer_blocks(
    hops, django_capture_on_commit_callbacks
):
    game, users = started_game(3)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic(), events.one_hop():
        events.game_changed(game=game, user_ids=[users[0].pk])
        try:
            with transaction.atomic(), events.one_hop():
                events.users_notified(unread={users[1].pk: 3})
                raise ValueError
        except ValueError:
            pass
        events.users_notified(unread={users[2].pk: 1})
    assert len(hops) == 1
    by_group = delivered(hops)
    assert events.user_group(users[1].pk) not in by_group
    assert by_group[events.user_group(users[2].pk)] == [{"type": "notifications.changed", "unread": 1}]
    assert by_group[events.game_group(game.pk)] == [{"type": "game.changed", "game": game.pk, "version": game.version}]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_each_message_goes_as_it_comes(hops):
    game, users = started_game(3)
    hops.clear()
    with events.one_hop():  # autocommit: nothing to wait for
        events.game_changed(game=game)
        assert len(hops) == 1
        events.users_notified(unread={users[0].pk: 2})
        assert len(hops) == 2


def test_a_deadline_that_passes_tells_everyone_in_one_hop(hops, django_capture_on_commit_callbacks):
    game, users = started_game(4)
    with django_capture_on_commit_callbacks(execute=True):
        Game.objects.filter(pk=game.pk).update(deadline_at=game.deadline_at.replace(year=2000))
        assert game_expire(game_id=game.pk, version=game.version)
    game.refresh_from_db()
    assert len(hops) == 1, hops
    assert delivered(hops)[events.game_group(game.pk)] == [
        {"type": "game.changed", "game": game.pk, "version": game.version}
    ]
