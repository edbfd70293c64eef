"""Live pace (issue 15) and recorded timeouts (issue 13): the race for the first clue is
nobody's missed turn, a missed deadline is written down as a ``Move`` with ``by_timeout``
and told in the replay and the data export, and the banners say what happened and what
happens next."""

import json

import pytest
from django.urls import reverse

from accounts.services import account_export
from games.models import Game, Move, Seat
from games.services.errors import GameError
from games.services.games import game_act
from games.tests.factories import started_game

from .steps import any_other_position, clue, expire, leave_absent, state_of, storyteller_position, submit, vote

pytestmark = pytest.mark.django_db


def game_version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def timeouts(game: Game) -> list[tuple[int, int, str, str]]:
    return [
        (move.round, move.seat.position, move.payload["phase"], move.payload["outcome"])
        for move in Move.objects.filter(game=game, by_timeout=True).select_related("seat").order_by("id")
    ]


class TestTheFirstClueRace:
    def test_running_out_of_the_race_is_nobodys_miss(self):
        game, users = started_game(4)
        assert expire(game)
        state = state_of(game)
        assert state.storyteller == 0 and str(state.phase) == "clue"
        assert state.misses == (0, 0, 0, 0)
        assert timeouts(game) == [(1, 0, "clue", "named_storyteller")]

    def test_a_player_is_absent_only_after_missing_two_phases_of_their_own(self):
        game, users = started_game(4)
        assert expire(game)  # the race: no one's miss
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        submit(game, users[2], 2)
        assert expire(game)  # seat 3's own submission: its first miss
        assert state_of(game).misses == (0, 0, 0, 1)
        assert not Seat.objects.get(game=game, position=3).is_absent  # the old rule made it absent here

    def test_the_race_lost_says_who_won_it_and_what_to_do_now(self, client):
        game, users = started_game(4)
        users[1].display_name = "Bo"
        users[1].save()
        clue(game, users[1], 1)  # Bo is first
        card = state_of(game).hands[0][0]
        with pytest.raises(GameError) as refused:
            game_act(game_id=game.pk, user=users[0], action={"type": "clue", "card": card, "text": "late"})
        assert refused.value.code == "clue_taken"
        assert str(refused.value.message) == "Bo gave the first clue before you: now pick a card that fits it."
        # The same on the page, and nothing changed.
        version = Game.objects.get(pk=game.pk).version
        client.force_login(users[0])
        response = client.post(
            reverse("games:act", args=[game.pk]),
            {"type": "clue", "card": card, "text": "late", "round": 1},
            follow=True,
        )
        assert "Bo gave the first clue before you: now pick a card that fits it." in response.content.decode()
        assert Game.objects.get(pk=game.pk).version == version

    def test_the_race_banner_says_what_the_deadline_does(self, client):
        game, users = started_game(4)
        client.force_login(users[2])
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Be the first to give a clue" in page
        assert f"{users[0].name} becomes the storyteller by seat order; nobody misses a turn." in page


class TestTimeoutsRecorded:
    def test_each_seat_the_deadline_passed_over_gets_a_move_saying_what_it_did(self):
        game, users = started_game(4)
        clue(game, users[1], 1)
        submit(game, users[0], 0)
        assert expire(game)  # seats 2 and 3 had a card drawn
        vote(game, users[0], any_other_position(game, 0))
        vote(game, users[2], any_other_position(game, 2))
        assert expire(game)  # seat 3 abstained
        assert state_of(game).storyteller == 2
        assert expire(game)  # the storyteller of round 2 gave no clue
        assert timeouts(game) == [
            (1, 2, "submit", "random_card"),
            (1, 3, "submit", "random_card"),
            (1, 3, "vote", "abstained"),
            (2, 2, "clue", "lost_turn"),
        ]
        assert not Move.objects.filter(game=game, by_timeout=False, seat__position=3).exists()
        # The actions people took are not timeouts.
        assert Move.objects.filter(game=game, by_timeout=False).count() == 4

    def test_an_absent_seat_played_by_the_timeout_rules_gets_its_move_too(self):
        game, users = started_game(4)
        leave_absent(game, users, {3})  # seat 3 missed its card and its vote: absent
        assert Seat.objects.get(game=game, position=3).is_absent
        before = len(timeouts(game))
        clue(game, users[2], 2)  # round 2
        submit(game, users[0], 0)
        submit(game, users[1], 1)  # the last present card: the absent one's is drawn at once
        assert str(state_of(game).phase) == "vote"
        assert timeouts(game)[before:] == [(2, 3, "submit", "random_card")]
        assert Move.objects.filter(game=game, by_timeout=True, round=2).get().version == game_version(game)

    def test_the_replay_tells_who_ran_out_of_time(self, client):
        game, users = started_game(3)
        users[2].display_name = "Ada"
        users[2].save()
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        assert expire(game)  # Ada's card is drawn at random
        vote(game, users[1], storyteller_position(game))
        vote(game, users[2], storyteller_position(game))
        client.force_login(users[0])
        page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        assert "Ada ran out of time: a card was drawn at random from their hand." in page

    def test_the_status_line_tells_what_the_deadline_just_did_until_the_game_moves_on(self, client):
        game, users = started_game(4)
        users[3].display_name = "Di"
        users[3].save()
        clue(game, users[1], 1)
        submit(game, users[0], 0)
        submit(game, users[2], 2)
        assert expire(game)
        client.force_login(users[0])
        said = "Di ran out of time: a card was drawn at random from their hand."
        assert said in client.get(game.get_absolute_url()).content.decode()
        vote(game, users[0], any_other_position(game, 0))
        assert said not in client.get(game.get_absolute_url()).content.decode()

    def test_the_data_export_lists_ones_timeouts(self):
        game, users = started_game(4)
        clue(game, users[1], 1)
        submit(game, users[0], 0)
        submit(game, users[2], 2)
        assert expire(game)
        data = json.loads(json.dumps(account_export(user=users[3]), default=str))
        timed_out = [move for move in data["moves"] if move["by_timeout"]]
        assert timed_out == [
            {
                "game": game.pk,
                "round": 1,
                "kind": "timeout",
                "payload": {"phase": "submit", "outcome": "random_card"},
                "by_timeout": True,
                "created_at": timed_out[0]["created_at"],
            }
        ]


class TestThePauseBanner:
    def test_it_names_the_absent_and_who_brings_the_game_back(self, client):
        game, users = started_game(4)
        for user, name in zip(users, ["Ada", "Bo", "Cy", "Di"]):
            user.display_name = name
            user.save()
        leave_absent(game, users, {2, 3})  # Cy and Di missed the submission and the vote
        game.refresh_from_db()
        assert game.is_paused and state_of(game).storyteller == 2  # Cy tells round 2
        client.force_login(users[0])
        page = " ".join(client.get(game.get_absolute_url()).content.decode().split())
        assert "The game is paused because Cy and Di missed two turns in a row and are marked absent." in page
        assert "It goes on as soon as Cy plays." in page  # Di cannot: nothing is asked of Di now
        assert "No deadline runs while the game is paused." in page
        assert "fewer than three players are present" not in page

        client.force_login(users[2])
        page = " ".join(client.get(game.get_absolute_url()).content.decode().split())
        assert "You are marked absent: play now and the game goes on." in page


@pytest.mark.django_db
def test_what_the_deadline_just_did_is_known_without_a_query_after_a_players_action(
    django_capture_on_commit_callbacks, django_assert_num_queries
):
    from games.selectors.timeouts import timeouts_just_now

    game, users = started_game(4)
    users[3].display_name = "Di"
    users[3].save()
    with django_capture_on_commit_callbacks(execute=True):
        clue(game, users[1], 1)
    game.refresh_from_db()
    with django_assert_num_queries(0):
        assert timeouts_just_now(game) == []
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, users[0], 0)
        submit(game, users[2], 2)
        assert expire(game)  # a deadline's version: asked of the database, and it says what it did
    game.refresh_from_db()
    with django_assert_num_queries(1):
        assert timeouts_just_now(game) == ["Di ran out of time: a card was drawn at random from their hand."]
