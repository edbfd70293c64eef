"""The timeout rules (rules/storyteller.md, "Online play") through ``game_expire``,
with an injected clock."""

from datetime import timedelta

import pytest

from games.models import Game, Seat
from games.services.games import game_act, game_expire
from games.tests.factories import started_game
from games.tests.test_services import snapshot
from storyteller.models import StorytellerRound

from .steps import (
    any_other_position,
    clue,
    due,
    expire,
    leave_absent,
    position_of_card_of,
    state_of,
    storyteller_position,
    submit,
    to_vote,
    vote,
)

pytestmark = pytest.mark.django_db


def seat_flags(game: Game, flag: str) -> set[int]:
    return set(Seat.objects.filter(game=game, **{flag: True}).values_list("position", flat=True))


class TestFirstClue:
    def test_seat_order_names_the_storyteller_with_a_fresh_deadline(self):
        game, users = started_game(4)
        version, now = game.version, due(game)
        assert expire(game, now)
        game.refresh_from_db()
        state = state_of(game)
        assert (state.round, str(state.phase), state.storyteller) == (1, "clue", 0)
        assert game.deadline_at == now + timedelta(seconds=game.phase_seconds)
        assert game.version == version + 1
        assert seat_flags(game, "to_act") == {0}
        assert state.misses == (0, 0, 0, 0)  # the race is nobody's own turn: no one missed it (issue 15)

    def test_seat_order_passes_over_a_resigned_player(self):
        game, users = started_game(4)
        game_act(game_id=game.pk, user=users[0], action={"type": "resign"})
        assert expire(game)
        assert state_of(game).storyteller == 1


class TestStoryteller:
    def test_a_silent_storyteller_loses_the_turn(self):
        game, users = started_game(4)
        to_vote(game, users, teller=1)
        for seat in (0, 2, 3):
            vote(game, users[seat], storyteller_position(game))
        state = state_of(game)
        assert (state.round, state.storyteller) == (2, 2)
        scores = state.scores
        now = due(game)
        assert expire(game, now)
        game.refresh_from_db()
        state = state_of(game)
        assert (state.round, str(state.phase), state.storyteller) == (3, "clue", 3)
        assert state.scores == scores
        skipped = StorytellerRound.objects.get(game=game, number=2)
        assert skipped.skipped and skipped.storyteller == 2 and set(skipped.points.values()) == {0}
        assert game.deadline_at == now + timedelta(seconds=game.phase_seconds)
        assert state.misses[2] == 1


class TestSubmissions:
    @pytest.mark.parametrize("players", [3, 4])
    def test_a_missing_submission_is_drawn_from_the_hand(self, players):
        game, users = started_game(players)
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        before = state_of(game)
        assert expire(game)
        state = state_of(game)
        assert str(state.phase) == "vote"
        late = range(2, players)
        for seat in late:
            drawn = state.submissions[seat]
            assert len(drawn) == (2 if players == 3 else 1)
            assert set(drawn) <= set(before.hands[seat])
            assert set(state.hands[seat]) == set(before.hands[seat]) - set(drawn)
            assert state.misses[seat] == 1
        assert state.misses[1] == 0
        assert sorted(state.table) == sorted(
            [state.storyteller_card, *(c for cs in state.submissions.values() for c in cs)]
        )
        assert seat_flags(game, "to_act") == set(range(1, players))


class TestVotes:
    """Seat 0 tells; seats 1 and 2 vote as given, seat 3 abstains (or everyone does)."""

    @pytest.mark.parametrize(
        "votes, expected",
        [
            # Every vote cast found it: all-or-none counts only the votes cast.
            ({1: "teller", 2: "teller"}, {0: 0, 1: 2, 2: 2, 3: 0}),
            # One found it; the abstainer still earns 1 for the vote on their card.
            ({1: "teller", 2: "card of 3"}, {0: 3, 1: 3, 2: 0, 3: 1}),
            # Nobody who voted found it: 2 each for the voters, 1 per vote on a card.
            ({1: "card of 3", 2: "card of 3"}, {0: 0, 1: 2, 2: 2, 3: 2}),
            # Nobody voted: the round scores nothing.
            ({}, {0: 0, 1: 0, 2: 0, 3: 0}),
        ],
    )
    def test_a_missing_vote_abstains(self, votes, expected):
        game, users = started_game(4)
        to_vote(game, users, teller=0)
        for seat, target in votes.items():
            position = storyteller_position(game) if target == "teller" else position_of_card_of(game, 3)
            vote(game, users[seat], position)
        assert expire(game)
        state = state_of(game)
        assert state.round == 2
        assert state.last_round.points == expected
        assert set(state.last_round.votes) == set(votes)
        assert dict(Seat.objects.filter(game=game).values_list("position", "score")) == expected
        record = StorytellerRound.objects.get(game=game, number=1)
        assert not record.skipped and {int(k): v for k, v in record.points.items()} == expected


class TestAbsence:
    def test_two_misses_in_a_row_mark_absent_and_acting_brings_them_back(self):
        game, users = started_game(4)
        clue(game, users[1], 1)
        submit(game, users[0], 0)
        submit(game, users[2], 2)
        assert expire(game)  # seat 3 misses the submission
        assert seat_flags(game, "is_absent") == set()
        vote(game, users[0], any_other_position(game, 0))
        vote(game, users[2], any_other_position(game, 2))
        assert expire(game)  # ... and the vote
        assert seat_flags(game, "is_absent") == {3}
        game.refresh_from_db()
        assert not game.is_paused  # three present players go on

        # Round 2: the absent player is played by the timeout rules as soon as only
        # they hold the game up.
        clue(game, users[2], 2)
        submit(game, users[0], 0)
        submit(game, users[1], 1)
        state = state_of(game)
        assert str(state.phase) == "vote" and 3 in state.submissions
        # Acting brings them back.
        vote(game, users[3], any_other_position(game, 3))
        assert seat_flags(game, "is_absent") == set()
        assert state_of(game).misses[3] == 0


class TestPause:
    def test_fewer_than_three_present_pauses_and_a_returning_player_resumes(self, client):
        game, users = started_game(4)
        leave_absent(game, users, {2, 3})
        game.refresh_from_db()
        assert seat_flags(game, "is_absent") == {2, 3}
        state = state_of(game)
        assert (state.round, str(state.phase), state.storyteller) == (2, "clue", 2)
        assert game.is_paused and game.deadline_at is None
        assert not game_expire(game_id=game.pk, version=game.version, now=game.started_at + timedelta(days=30))
        client.force_login(users[0])
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Paused" in page and "missed two turns in a row and are marked absent" in page

        back_at = game.started_at + timedelta(days=5)
        clue(game, users[2], 2, now=back_at)
        game.refresh_from_db()
        assert not game.is_paused
        assert game.deadline_at == back_at + timedelta(seconds=game.phase_seconds)
        assert seat_flags(game, "is_absent") == {3}
        assert str(state_of(game).phase) == "submit"


class TestResign:
    def test_the_game_goes_on_while_three_remain_and_ends_below(self):
        game, users = started_game(4)
        game_act(game_id=game.pk, user=users[3], action={"type": "resign"})
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.deadline_at is not None
        assert seat_flags(game, "has_resigned") == {3}
        assert seat_flags(game, "to_act") == {0, 1, 2}
        game_act(game_id=game.pk, user=users[2], action={"type": "resign"})
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.deadline_at is None
        assert seat_flags(game, "has_resigned") == {2, 3}
        # Nobody scored yet: the game is abandoned (issue 30), with no winner, not a shared win of the two left.
        assert game.abandoned and seat_flags(game, "is_winner") == set()

    def test_a_player_who_resigns_mid_phase_has_a_card_drawn(self):
        game, users = started_game(4)
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        game_act(game_id=game.pk, user=users[2], action={"type": "resign"})
        state = state_of(game)
        assert str(state.phase) == "submit" and 2 in state.submissions
        assert seat_flags(game, "to_act") == {3}

    def test_a_storyteller_who_resigns_passes_the_role_on(self):
        game, users = started_game(4)
        assert expire(game)  # seat 0 is named storyteller
        game_act(game_id=game.pk, user=users[0], action={"type": "resign"})
        state = state_of(game)
        assert (state.round, str(state.phase), state.storyteller) == (2, "clue", 1)
        assert StorytellerRound.objects.get(game=game, number=1).skipped


class TestIdempotence:
    def test_expiring_twice_changes_once(self):
        game, users = started_game(4)
        version, now = game.version, due(game)
        assert game_expire(game_id=game.pk, version=version, now=now)
        after = snapshot(game)
        assert not game_expire(game_id=game.pk, version=version, now=now)
        assert not game_expire(game_id=game.pk, version=version, now=now + timedelta(days=9))
        assert snapshot(game) == after

    def test_a_late_expiry_moves_one_phase_on(self):
        game, users = started_game(4)
        late = game.deadline_at + timedelta(days=10)
        assert expire(game, late)
        game.refresh_from_db()
        state = state_of(game)
        assert (state.round, str(state.phase), state.storyteller) == (1, "clue", 0)
        assert game.deadline_at == late + timedelta(seconds=game.phase_seconds)

    def test_a_stale_version_or_an_early_call_changes_nothing(self):
        game, users = started_game(4)
        clue(game, users[0], 0)
        before = snapshot(game)
        game.refresh_from_db()
        assert not game_expire(game_id=game.pk, version=game.version - 1, now=due(game))
        assert not game_expire(game_id=game.pk, version=game.version, now=game.deadline_at - timedelta(seconds=1))
        assert snapshot(game) == before

    def test_a_finished_game_does_not_expire(self):
        game, users = started_game(3)
        game_act(game_id=game.pk, user=users[2], action={"type": "resign"})
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        before = snapshot(game)
        assert not game_expire(game_id=game.pk, version=game.version, now=game.started_at + timedelta(days=9))
        assert snapshot(game) == before
