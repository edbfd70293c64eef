import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.api.schemas import INVITE_CODE
from games.models import Game, Move, Seat
from games.models.game import new_invite_code
from games.services.errors import GameError
from games.services.games import game_act, game_create, game_join, game_leave, game_start
from storyteller.models import StorytellerRound

from .factories import UserFactory, deck_with_cards, started_game
from .page_queries import page_queries, page_queries_while_playing
from .play import play_to_end, view_for

pytestmark = pytest.mark.django_db


def snapshot(game: Game):
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).values_list("position", "score", "to_act").order_by("position"))
    return (
        game.state,
        game.version,
        game.phase,
        game.round,
        game.status,
        seats,
        Move.objects.filter(game=game).count(),
    )


def test_invite_codes_begin_and_end_with_a_letter_or_digit():
    # One in 32 plain token_urlsafe codes begins or ends with "-" or "_": 3,000 draws all but surely meet one.
    codes = {new_invite_code() for _ in range(3000)}
    assert len(codes) == 3000
    for code in codes:
        assert len(code) == 16 and re.fullmatch(INVITE_CODE, code), code
        assert code[0].isalnum() and code[-1].isalnum(), code


class TestLobby:
    def test_create_seats_the_creator(self):
        deck = deck_with_cards()
        user = UserFactory()
        game = game_create(creator=user, max_seats=4, options={"deck": deck.pk}, visibility="private")
        assert game.status == Game.Status.OPEN
        assert list(game.seats.values_list("user", "position")) == [(user.pk, 0)]
        assert game.invite_code

    @pytest.mark.parametrize("seats", [2, 7, "4", None])
    def test_create_refuses_bad_seat_counts(self, seats):
        deck = deck_with_cards()
        with pytest.raises(GameError) as error:
            game_create(creator=UserFactory(), max_seats=seats, options={"deck": deck.pk})
        assert error.value.kind == "invalid"
        assert Game.objects.count() == 0

    def test_async_deadline_is_one_hour_to_three_days(self):
        deck = deck_with_cards()
        with pytest.raises(GameError):
            game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, phase_seconds=600)
        with pytest.raises(GameError):
            game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, phase_seconds=4 * 24 * 3600)
        game = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, phase_seconds=7200)
        assert game.phase_seconds == 7200

    def test_live_games_get_the_short_deadline(self, settings):
        game = game_create(
            creator=UserFactory(), max_seats=3, options={"deck": deck_with_cards().pk}, pace="live", phase_seconds=7200
        )
        assert game.phase_seconds == settings.FABULA_LIVE_PHASE_SECONDS

    def test_last_seat_taken_starts_the_game(self):
        game, users = started_game(4)
        assert game.status == Game.Status.ACTIVE
        assert game.phase == "clue" and game.round == 1
        assert game.deadline_at is not None
        assert sorted(game.seats.values_list("position", flat=True)) == [0, 1, 2, 3]
        # Round 1: anyone may give the first clue.
        assert game.seats.filter(to_act=True).count() == 4

    def test_private_game_needs_the_invite_code(self):
        deck = deck_with_cards()
        game = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, visibility="private")
        stranger = UserFactory()
        for code in (None, "", "wrong"):
            with pytest.raises(GameError) as error:
                game_join(game_id=game.pk, user=stranger, invite_code=code)
            assert error.value.kind == "forbidden"
        game_join(game_id=game.pk, user=stranger, invite_code=game.invite_code)
        assert game.seats.count() == 2

    def test_join_twice_and_join_full_are_refused(self):
        deck = deck_with_cards()
        creator = UserFactory()
        game = game_create(creator=creator, max_seats=3, options={"deck": deck.pk})
        with pytest.raises(GameError) as error:
            game_join(game_id=game.pk, user=creator)
        assert error.value.code == "already_joined"
        game_join(game_id=game.pk, user=UserFactory())
        game_join(game_id=game.pk, user=UserFactory())
        with pytest.raises(GameError) as error:
            game_join(game_id=game.pk, user=UserFactory())
        assert error.value.code == "not_open"

    def test_creator_starts_with_three(self):
        deck = deck_with_cards()
        creator, second, third = UserFactory.create_batch(3)
        game = game_create(creator=creator, max_seats=6, options={"deck": deck.pk})
        game_join(game_id=game.pk, user=second)
        with pytest.raises(GameError) as error:
            game_start(game_id=game.pk, user=creator)
        assert error.value.code == "too_few_players"
        game_join(game_id=game.pk, user=third)
        with pytest.raises(GameError) as error:
            game_start(game_id=game.pk, user=second)
        assert error.value.code == "not_creator"
        game_start(game_id=game.pk, user=creator)
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        assert game.max_seats == 3
        hand = view_for(game, creator)["hand"]
        assert len(hand) == 7  # three players hold seven cards

    def test_leave_before_start_closes_the_gap_and_passes_creator(self):
        deck = deck_with_cards()
        a, b, c = UserFactory.create_batch(3)
        game = game_create(creator=a, max_seats=5, options={"deck": deck.pk})
        game_join(game_id=game.pk, user=b)
        game_join(game_id=game.pk, user=c)
        game_leave(game_id=game.pk, user=a)
        game.refresh_from_db()
        assert game.creator_id == b.pk
        assert list(game.seats.order_by("position").values_list("user", "position")) == [(b.pk, 0), (c.pk, 1)]
        game_leave(game_id=game.pk, user=b)
        game_leave(game_id=game.pk, user=c)
        game.refresh_from_db()
        assert game.status == Game.Status.CANCELLED

    def test_cannot_leave_a_started_game(self):
        game, users = started_game(3)
        with pytest.raises(GameError):
            game_leave(game_id=game.pk, user=users[1])


class TestPlay:
    def test_first_clue_makes_the_storyteller(self):
        game, users = started_game(4)
        second = users[2]
        card = view_for(game, second)["hand"][0]["id"]
        game_act(game_id=game.pk, user=second, action={"type": "clue", "card": card, "text": "  A long way home "})
        game.refresh_from_db()
        view = view_for(game, users[0])
        assert view["phase"] == "submit"
        assert view["storyteller"] == second.username
        assert view["clue"] == {"text": "A long way home", "media": None}
        assert set(view["waiting_for"]) == {users[0].username, users[1].username, users[3].username}
        assert Move.objects.get(game=game, kind="clue").seat.user == second

    @pytest.mark.parametrize("players, rounds", [(3, 13), (4, 15), (5, 11), (6, 8)])
    def test_whole_games_end_when_the_pile_runs_out(self, players, rounds):
        game, users = started_game(players)
        game = play_to_end(game, users, random.Random(players))
        assert game.status == Game.Status.FINISHED
        assert game.round == rounds
        records = list(StorytellerRound.objects.filter(game=game).order_by("number"))
        assert [r.number for r in records] == list(range(1, rounds + 1))
        # The scores on the seats are the sums of every round's points.
        totals = dict.fromkeys(range(players), 0)
        for record in records:
            for pos, pts in record.points.items():
                totals[int(pos)] += pts
        assert dict(game.seats.values_list("position", "score")) == totals
        winners = set(game.seats.filter(is_winner=True).values_list("position", flat=True))
        best = max(totals.values())
        assert winners == {pos for pos, score in totals.items() if score == best}
        assert game.deadline_at is None
        view = view_for(game, users[0])
        assert set(view["winners"]) == {users[pos].username for pos in winners}

    def test_storyteller_passes_clockwise(self):
        game, users = started_game(4)
        rng = random.Random(1)
        card = view_for(game, users[1])["hand"][0]["id"]
        game_act(game_id=game.pk, user=users[1], action={"type": "clue", "card": card, "text": "x"})
        from .play import play_step

        while view_for(game, users[0])["round"] == 1:
            play_step(game, users, rng)
        assert view_for(game, users[0])["storyteller"] == users[2].username

    def test_version_bumps_on_every_change(self):
        game, users = started_game(3)
        version = game.version
        card = view_for(game, users[0])["hand"][0]["id"]
        game_act(game_id=game.pk, user=users[0], action={"type": "clue", "card": card, "text": "x"})
        game.refresh_from_db()
        assert game.version == version + 1


def _to_vote_phase(players=4):
    game, users = started_game(players)
    teller = users[0]
    card = view_for(game, teller)["hand"][0]["id"]
    game_act(game_id=game.pk, user=teller, action={"type": "clue", "card": card, "text": "clue"})
    for user in users[1:]:
        view = view_for(game, user)
        game_act(
            game_id=game.pk,
            user=user,
            action={"type": "submit", "cards": [c["id"] for c in view["hand"][: view["cards_to_submit"]]]},
        )
    game.refresh_from_db()
    return game, users


class TestBadInput:
    """Every refused action leaves the game exactly as it was."""

    def assert_refused(self, game, user, action, code, **kwargs):
        before = snapshot(game)
        with pytest.raises(GameError) as error:
            game_act(game_id=game.pk, user=user, action=action, **kwargs)
        assert error.value.code == code, error.value.code
        assert snapshot(game) == before
        return error.value

    def test_clue_errors(self):
        game, users = started_game(4)
        me, other = users[0], users[1]
        mine = view_for(game, me)["hand"][0]["id"]
        theirs = view_for(game, other)["hand"][0]["id"]
        assert (
            self.assert_refused(game, me, {"type": "clue", "card": mine, "text": "   "}, "clue_empty").kind == "invalid"
        )
        self.assert_refused(game, me, {"type": "clue", "card": mine, "text": "x" * 201}, "clue_too_long")
        self.assert_refused(game, me, {"type": "clue", "card": theirs, "text": "ok"}, "not_in_hand")
        self.assert_refused(game, me, {"type": "clue", "card": "abc", "text": "ok"}, "bad_action")
        self.assert_refused(game, me, {"type": "vote", "position": 1}, "wrong_phase")
        self.assert_refused(game, me, {"type": "dance"}, "bad_action")
        self.assert_refused(game, me, {"type": "clue", "card": mine, "text": "ok"}, "stale", expected_round=7)

    def test_the_databases_guard_of_one_move_a_round_refuses_and_changes_nothing(self):
        # The engine would take this clue; the move's row is already there (as if written by a second
        # request the engine did not see), so the unique constraint refuses it, and the whole action goes.
        game, users = started_game(4)
        teller = users[0]
        card = view_for(game, teller)["hand"][0]["id"]
        seat = game.seats.get(user=teller)
        Move.objects.create(game=game, seat=seat, round=game.round, kind="clue", payload={}, version=game.version)
        self.assert_refused(game, teller, {"type": "clue", "card": card, "text": "ok"}, "already_acted")
        assert Move.objects.filter(game=game, kind="clue").count() == 1
        # The connection is still good for the next request.
        assert Game.objects.filter(pk=game.pk).exists()

    def test_stranger_cannot_act(self):
        game, users = started_game(3)
        card = view_for(game, users[0])["hand"][0]["id"]
        self.assert_refused(game, UserFactory(), {"type": "clue", "card": card, "text": "x"}, "not_a_player")

    def test_submit_errors(self):
        game, users = started_game(4)
        teller, player = users[0], users[1]
        card = view_for(game, teller)["hand"][0]["id"]
        game_act(game_id=game.pk, user=teller, action={"type": "clue", "card": card, "text": "x"})
        hand = [c["id"] for c in view_for(game, player)["hand"]]
        other = view_for(game, users[2])["hand"][0]["id"]
        self.assert_refused(
            game, teller, {"type": "submit", "cards": [view_for(game, teller)["hand"][0]["id"]]}, "not_your_turn"
        )
        self.assert_refused(game, player, {"type": "submit", "cards": [other]}, "not_in_hand")
        self.assert_refused(game, player, {"type": "submit", "cards": hand[:2]}, "wrong_card_count")
        self.assert_refused(game, player, {"type": "submit", "cards": []}, "wrong_card_count")
        game_act(game_id=game.pk, user=player, action={"type": "submit", "cards": hand[:1]})
        # A double click: the same submission again.
        self.assert_refused(game, player, {"type": "submit", "cards": hand[1:2]}, "already_submitted")

    def test_vote_errors(self):
        game, users = _to_vote_phase(4)
        teller, voter = users[0], users[1]
        table = view_for(game, voter)["table"]
        own = next(c["position"] for c in table if c["mine"])
        other = next(c["position"] for c in table if not c["mine"])
        self.assert_refused(game, voter, {"type": "vote", "position": own}, "own_card")
        self.assert_refused(game, voter, {"type": "vote", "position": 0}, "bad_position")
        self.assert_refused(game, voter, {"type": "vote", "position": 5}, "bad_position")
        self.assert_refused(game, voter, {"type": "vote", "position": "2"}, "bad_action")
        self.assert_refused(game, teller, {"type": "vote", "position": other}, "not_your_turn")
        game_act(game_id=game.pk, user=voter, action={"type": "vote", "position": other})
        self.assert_refused(game, voter, {"type": "vote", "position": other}, "already_voted")

    def test_finished_game_refuses_actions(self):
        game, users = started_game(6)
        game = play_to_end(game, users, random.Random(3))
        self.assert_refused(game, users[0], {"type": "vote", "position": 1}, "game_finished")


class TestSecrecy:
    def test_views_hold_only_what_the_viewer_may_see(self):
        game, users = _to_vote_phase(5)
        views = {u.username: view_for(game, u) for u in users}
        # An image names one card; another player's hand must show nowhere in a view.
        hands = {name: {c["image"] for c in v["hand"]} for name, v in views.items()}
        for name, view in views.items():
            text = repr(view)
            for other, images in hands.items():
                if other != name:
                    leaked = [image for image in images if image in text]
                    assert not leaked, (name, other, leaked)
            assert all(set(card) == {"position", "image", "alt", "alt_lang", "mine"} for card in view["table"])
            assert sum(card["mine"] for card in view["table"]) == (1 if name != users[0].username else 1)
        stranger_view = view_for(game, UserFactory())
        assert stranger_view["hand"] == [] and stranger_view["you"] is None
        assert not any(card["mine"] for card in stranger_view["table"])

    def test_table_order_is_not_seat_order(self):
        """Across games, the storyteller's card lands at every position."""
        positions = set()
        for _ in range(12):
            game, users = _to_vote_phase(4)
            state = game.state
            positions.add(state["table"].index(state["storyteller_card"]))
        assert len(positions) > 1


class TestQueries:
    def test_game_page_queries_do_not_grow(self, client):
        small, small_users = started_game(3)
        big, big_users = started_game(6)
        rng = random.Random(5)
        from .play import play_step

        for _ in range(3):
            play_step(small, small_users, rng)
        early = page_queries(client, small, small_users[0])
        tables = ((small, small_users), (big, big_users))
        playing, over = page_queries_while_playing(client, tables, play_step, rng, steps=40)
        assert playing == {early}
        assert all(count <= early for count in over)


class TestAnActionsStatements:
    """What an action costs the database, held: a change of phase (a clue: the others asked to act) and an
    action inside a phase (a card handed in while others still choose)."""

    @staticmethod
    def _statements(game, user, action) -> list[str]:
        game.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            game_act(game_id=game.pk, user=user, action=action, expected_round=game.round)
        return [query["sql"] for query in queries.captured_queries]

    def test_a_clue_and_a_card_take_so_many_statements_and_ask_nothing_of_the_users(self):
        game, users = started_game(4)
        teller = next(user for user in users if view_for(game, user)["you"]["to_act"])
        card = view_for(game, teller)["hand"][0]["id"]
        clue = self._statements(game, teller, {"type": "clue", "card": card, "text": "a fox"})
        other = next(user for user in users if user != teller)
        card = view_for(game, other)["hand"][0]["id"]
        submit = self._statements(game, other, {"type": "submit", "cards": [card]})
        # Which of those asked are bots is read from the seats' users, read with the seats under the lock.
        assert not any('"is_bot"' in sql.partition(" WHERE ")[2] for sql in clue + submit), clue + submit
        assert len(clue) <= 15, clue
        assert len(submit) <= 10, submit
