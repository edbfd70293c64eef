"""Think Alike through the services: creating games with every option, whole games to
the end for each stop condition and board, bad input, secrecy, timeouts, records."""

import json
import random
from datetime import timedelta

import pytest

from games.models import Game, Move
from games.services.errors import GameError
from games.services.games import game_act, game_create, game_expire, game_join, game_resign
from games.tests.factories import UserFactory
from games.tests.page_queries import page_queries, page_queries_while_playing
from games.tests.play import view_for
from think_alike.models import BoardField, TaskCard, ThinkAlikeRound

from .content import builtin_content, course_ids, small_content, think_alike_game
from .play import play_step, play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def content():
    return small_content()


def act(game, user, type_, **payload):
    return game_act(game_id=game.pk, user=user, action={"type": type_, **payload})


def turn_holder(game, users):
    view = view_for(game, users[0])
    return next(user for user in users if user.username == view["turn"])


def to_answers(game, users, direction="cw"):
    """The turn holder rolls and moves; on an action field, the first choice offered is taken."""
    holder = turn_holder(game, users)
    act(game, holder, "roll")
    act(game, holder, "move", direction=direction)
    view = view_for(game, holder)
    choices = view["choices"]
    if view["phase"] == "swap":
        act(game, holder, "swap", remove=int(choices["remove"][0]["id"]), add=int(choices["add"][0]["id"]))
    elif view["phase"] == "move_to":
        act(game, holder, "move_to", position=choices["positions"][0])
    elif view["phase"] == "duel":
        act(game, holder, "duel", opponent=choices["opponents"][0]["seat"], position=choices["positions"][0])
    assert view_for(game, holder)["phase"] == "answer"
    return holder


class TestCreate:
    def test_defaults(self, content):
        creator = UserFactory()
        game = game_create(creator=creator, kind="think_alike", max_seats=4)
        assert (game.kind, game.options) == (
            "think_alike",
            {"stop": "points", "board": "random", "lang": "en", "chat": True},
        )
        game, users = think_alike_game(4)
        state = game.state
        assert state["options"]["target"] == 24  # players x 6
        assert len(state["board"]) == 16 and state["board"][0] == content["start"].pk
        assert state["phase"] == "roll" and game.status == "active" and game.deadline_at is not None
        assert sorted(t["id"] for t in state["tasks"]) == sorted(t.pk for t in content["tasks"])

    @pytest.mark.parametrize(
        "options, kept",
        [
            ({"stop": "points", "target": 9}, {"stop": "points", "target": 9}),
            ({"stop": "tasks", "count": 5}, {"stop": "tasks", "count": 5}),
            ({"stop": "time", "minutes": 90}, {"stop": "time", "minutes": 90}),
            ({"board": "draft"}, {"board": "draft"}),
            ({"lang": "da"}, {"lang": "da"}),
            ({"stop": "points", "target": None, "count": 3}, {"stop": "points"}),  # other stops' values go
        ],
    )
    def test_options_are_kept_cleaned(self, content, options, kept):
        game = game_create(creator=UserFactory(), kind="think_alike", max_seats=5, options=options)
        assert kept.items() <= game.options.items()
        assert set(game.options) <= {"stop", "target", "count", "minutes", "board", "course", "lang", "chat"}
        assert "count" not in game.options or options.get("stop") == "tasks"

    def test_a_course(self, content):
        course = course_ids(content, "swap", "move", "duel2", "duel4")
        game, _users = think_alike_game(3, options={"board": "course", "course": [str(i) for i in course]})
        assert game.options["course"] == course
        assert game.state["board"] == course

    @pytest.mark.parametrize(
        "options, words",
        [
            ({"stop": "never"}, "how the game ends"),
            ({"stop": "points", "target": 0}, "point target"),
            ({"stop": "points", "target": "9"}, "point target"),
            ({"stop": "points", "target": True}, "point target"),
            ({"stop": "tasks"}, "task cards"),
            ({"stop": "tasks", "count": 41}, "from 1 to 40 task cards"),
            ({"stop": "time", "minutes": 2}, "time limit"),
            ({"stop": "time"}, "time limit"),
            ({"board": "spiral"}, "how the board is laid"),
            ({"board": "course"}, "list of 16 fields"),
            ({"board": "course", "course": [1, 2]}, "exactly 16"),
            ({"lang": "de"}, "language of the task cards"),
        ],
    )
    def test_bad_options_are_refused_clearly(self, content, options, words):
        with pytest.raises(GameError) as refused:
            game_create(creator=UserFactory(), kind="think_alike", max_seats=3, options=options)
        assert refused.value.code == "bad_options" and refused.value.kind == "invalid"
        assert words in str(refused.value.message)
        assert not Game.objects.exists()

    def test_bad_courses(self, content):
        good = course_ids(content, "swap")
        other_start = list(reversed(good))
        twice = good[:15] + [good[1]]
        retired = content["associations"][-1]
        retired.is_retired = True
        retired.save()
        with_retired = good[:15] + [retired.pk]
        unknown = good[:15] + [999999]
        for course, words in [
            (other_start, "begins with the start field"),
            (twice, "every field once"),
            (with_retired, "fields in play"),
            (unknown, "fields in play"),
            (good[:15] + ["x"], "by their ids"),
        ]:
            with pytest.raises(GameError) as refused:
                game_create(
                    creator=UserFactory(),
                    kind="think_alike",
                    max_seats=3,
                    options={"board": "course", "course": course},
                )
            assert words in str(refused.value.message), course

    @pytest.mark.parametrize("seats", [2, 11])
    def test_seats(self, content, seats):
        with pytest.raises(GameError) as refused:
            game_create(creator=UserFactory(), kind="think_alike", max_seats=seats)
        assert refused.value.code == "bad_seats"
        game_create(creator=UserFactory(), kind="think_alike", max_seats=10)  # ten is fine here...
        with pytest.raises(GameError):
            game_create(creator=UserFactory(), kind="storyteller", max_seats=10)  # ...not in Storyteller

    def test_no_content_no_game(self, db):
        with pytest.raises(GameError) as refused:
            game_create(creator=UserFactory(), kind="think_alike", max_seats=3)
        assert "no task cards" in str(refused.value.message)
        TaskCard.objects.create(key="one", text_en="One", text_da="En")
        with pytest.raises(GameError) as refused:
            game_create(creator=UserFactory(), kind="think_alike", max_seats=3)
        assert "not enough board fields" in str(refused.value.message)

    def test_a_game_deals_only_what_is_in_play_and_keeps_it(self, content):
        retired_task, retired_field = content["tasks"][0], content["associations"][0]
        TaskCard.objects.filter(pk=retired_task.pk).update(is_retired=True)
        BoardField.objects.filter(pk=retired_field.pk).update(is_retired=True)
        game, users = think_alike_game(3)
        state = game.state
        assert retired_task.pk not in {t["id"] for t in state["tasks"]}
        assert retired_field.pk not in {f["id"] for f in state["fields"]}
        # Retiring what a running game holds changes nothing for it.
        TaskCard.objects.update(is_retired=True)
        BoardField.objects.exclude(is_start=True).update(is_retired=True, text_en="Changed")
        game = play_to_end(game, users, random.Random(1))
        assert game.status == "finished"
        assert all(f["text"] != "Changed" for f in game.state["fields"])


def test_the_last_round_is_fresh_until_the_next_round_s_answers_begin_and_at_the_end(content):
    """What folds the last round's answers on the page (``fresh``, think_alike/partials/round.html): open while the
    next turn holder rolls and moves, folded from the answers on, open again once the game is over."""
    game, users = think_alike_game(3)
    rng = random.Random(5)
    seen = {}
    while play_step(game, users, rng):
        view = view_for(game, users[0])
        if view.get("last_round") and view["phase"] != "finished":
            seen.setdefault(view["phase"], set()).add(view["last_round"]["fresh"])
    assert seen["roll"] == {True} and seen["answer"] == {False} and seen["review"] == {False}
    assert view_for(game, users[0])["last_round"]["fresh"] is True


class TestWholeGames:
    def _check_finished(self, game, users):
        assert game.status == Game.Status.FINISHED and game.deadline_at is None
        records = list(ThinkAlikeRound.objects.filter(game=game).order_by("number"))
        assert [r.number for r in records] == list(range(1, len(records) + 1))
        totals = dict.fromkeys(range(len(users)), 0)
        for record in records:
            for seat, points in record.points.items():
                totals[int(seat)] += points
            assert record.scores_after == {str(s): t for s, t in totals.items()}
        seats = dict(game.seats.values_list("position", "score"))
        assert seats == totals
        best = max(totals.values())
        assert set(game.seats.filter(is_winner=True).values_list("position", flat=True)) == {
            seat for seat, score in totals.items() if score == best
        }
        view = view_for(game, users[0])
        assert view["status"] == "finished" and view["phase"] is None
        assert set(view["winners"]) == {users[s].username for s, score in totals.items() if score == best}
        return records

    def test_to_a_point_target(self, content):
        game, users = think_alike_game(4, options={"stop": "points", "target": 6})
        game = play_to_end(game, users, random.Random(2))
        records = self._check_finished(game, users)
        scores = [record.scores_after for record in records]
        assert max(scores[-1].values()) >= 6
        assert all(max(s.values()) < 6 for s in scores[:-1])  # no earlier round reached it

    def test_to_a_number_of_task_cards(self, content):
        game, users = think_alike_game(3, options={"stop": "tasks", "count": 4})
        game = play_to_end(game, users, random.Random(3))
        records = self._check_finished(game, users)
        assert len(records) == 4
        assert len({r.task_id for r in records}) == 4

    def test_to_a_time_limit(self, content):
        game, users = think_alike_game(3, options={"stop": "time", "minutes": 30})
        started = game.started_at
        rng = random.Random(4)
        while ThinkAlikeRound.objects.filter(game=game).count() < 2:
            play_step(game, users, rng, now=started + timedelta(minutes=1))
        play_step(game, users, rng, now=started + timedelta(minutes=31))  # the time is up: this round is the last
        game = play_to_end(game, users, rng, now=started + timedelta(minutes=32))
        records = self._check_finished(game, users)
        assert len(records) == 3
        assert view_for(game, users[0])["stop"]["ends_at"] == (started + timedelta(minutes=30)).isoformat()

    def test_when_the_task_cards_run_out(self, db):
        small_content(tasks=3)
        game, users = think_alike_game(3, options={"stop": "points", "target": 999})
        game = play_to_end(game, users, random.Random(5))
        assert len(self._check_finished(game, users)) == 3

    def test_a_drafted_board(self, content):
        game, users = think_alike_game(3, options={"board": "draft", "stop": "tasks", "count": 2})
        assert game.phase == "draft" and game.round == 0
        drafters, deadlines = [], set()
        while game.phase == "draft":
            view = view_for(game, users[0])
            drafters.append(view["drafter"])
            deadlines.add(game.deadline_at)
            assert len(view["board"]) == 1 + len(drafters) - 1
            play_step(game, users, random.Random(len(drafters)))
            game.refresh_from_db()
        assert len(drafters) == 15
        # From the starter on, in seat order: everyone lays fields in turn.
        starter = view_for(game, users[0])["starter"]
        order = [u.username for u in users]
        first = order.index(starter)
        assert drafters == [order[(first + n) % 3] for n in range(15)]
        assert len(deadlines) == 15  # each drafter had a deadline of their own
        assert len(game.state["board"]) == 16 and game.phase == "roll"
        self._check_finished(play_to_end(game, users, random.Random(6)), users)

    def test_a_course_every_field_kind_and_danish(self, db, monkeypatch):
        # The services' dice, seeded: every kind of field is reached in this game.
        seeded = random.Random(11)
        monkeypatch.setattr("games.services.games.secrets.SystemRandom", lambda: seeded)
        content = small_content(answers=2)
        course = course_ids(content, "swap", "move", "duel2", "duel4")
        game, users = think_alike_game(
            5, options={"board": "course", "course": course, "lang": "da", "stop": "tasks", "count": 30}
        )
        assert game.state["board"] == course
        view = view_for(game, users[0])
        assert [f["text"] for f in view["board"][:5]] == ["Start", "Byt", "Flyt", "Duel om 2", "Duel om 4"]
        game = play_to_end(game, users, random.Random(7))
        records = self._check_finished(game, users)
        assert all(r.task_text.startswith("Opgave") and r.answers_asked == 2 for r in records)
        kinds = {r.landed_kind for r in records}
        assert {"association", "swap", "move", "duel"} <= kinds, kinds

    def test_ten_players_with_the_builtin_content(self, db):
        builtin_content()
        game, users = think_alike_game(10, options={"stop": "tasks", "count": 3, "board": "draft"})
        self._check_finished(play_to_end(game, users, random.Random(8)), users)


class TestRounds:
    def test_answers_grouped_merged_and_scored(self, content):
        game, users = think_alike_game(4, options={"board": "course", "course": course_ids(content)})
        holder = to_answers(game, users)
        texts = {0: ["Apple"], 1: ["apples"], 2: ["pear"], 3: ["PEAR!"]}
        by_seat = {seat.position: seat.user for seat in game.seats.all()}
        for seat, answers in texts.items():
            act(game, by_seat[seat], "answer", answers=answers)
        view = view_for(game, users[0])
        assert view["phase"] == "review"
        groups = {g["key"]: g for g in view["groups"]}
        assert {k: len(g["answers"]) for k, g in groups.items()} == {"apple": 2, "pear": 2}
        act(game, holder, "merge", groups=[g["id"] for g in view["groups"]])
        merged = view_for(game, users[1])["groups"]
        assert len(merged) == 1 and merged[0]["merged"] and merged[0]["points_each"] == 3
        act(game, holder, "confirm")
        record = ThinkAlikeRound.objects.get(game=game)
        assert record.points == {"0": 3, "1": 3, "2": 3, "3": 3}  # four alike: 3 each
        assert [r["kind"] for r in record.rulings] == ["merge"]
        assert record.answers == {str(s): a for s, a in texts.items()}
        assert record.hint and record.hint_field_id and record.landed_kind == "association"
        # The merge holds for the rest of the game: "apple" and "pear" are one answer now.
        view = view_for(game, users[0])
        assert view["equivalences"] == [["apple", "apples", "pear"]]
        assert view["last_round"]["groups"][0]["merged"] is True

    def test_a_duel_and_its_bonus(self, content):
        duels = [
            BoardField.objects.create(key=f"duel-x{n}", kind="duel", bonus=4, text_en="Duel for 4", text_da="Duel om 4")
            for n in range(12)
        ]
        course = [
            content["start"].pk,
            *[d.pk for d in duels[:6]],
            *[a.pk for a in content["associations"][:3]],
            *[d.pk for d in duels[6:]],
        ]
        game, users = think_alike_game(3, options={"board": "course", "course": course})
        holder = turn_holder(game, users)
        act(game, holder, "roll")
        act(game, holder, "move", direction="cw")
        view = view_for(game, holder)
        assert view["phase"] == "duel" and view["task"] is not None  # the card is drawn first
        assert view["choices"]["positions"] == [7, 8, 9]
        others = [u for u in users if u != holder]
        opponent_seat = next(o["seat"] for o in view["choices"]["opponents"] if o["player"] == others[0].username)
        with pytest.raises(GameError) as refused:
            act(game, holder, "duel", opponent=opponent_seat, position=1)
        assert refused.value.code == "not_association"
        act(game, holder, "duel", opponent=opponent_seat, position=8)
        # The turn holder and the third player think alike; the opponent does not.
        act(game, holder, "answer", answers=["moon"])
        act(game, others[1], "answer", answers=["Moon"])
        act(game, others[0], "answer", answers=["sun"])
        act(game, holder, "confirm")
        record = ThinkAlikeRound.objects.get(game=game)
        seat = {u.pk: s.position for s in game.seats.all() for u in [s.user]}
        assert (record.duel_opponent, record.duel_bonus, record.duel_winner) == (opponent_seat, 4, seat[holder.pk])
        assert record.points[str(seat[holder.pk])] == 1 + 4
        assert record.hint_field_id == content["associations"][1].pk  # position 8

    def test_two_answers_to_one_group_count_once(self, db):
        content = small_content(answers=2)
        game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
        holder = to_answers(game, users)
        act(game, users[0], "answer", answers=["dog", "dogs"])
        act(game, users[1], "answer", answers=["Dog", "cat"])
        act(game, users[2], "answer", answers=["", "cat"])  # a blank answer matches nothing
        act(game, holder, "confirm")
        points = ThinkAlikeRound.objects.get(game=game).points
        seat = {s.user_id: str(s.position) for s in game.seats.all()}
        assert (points[seat[users[0].pk]], points[seat[users[1].pk]], points[seat[users[2].pk]]) == (1, 2, 1)


class TestBadInput:
    def test_bad_actions_change_nothing(self, content):
        game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
        holder = turn_holder(game, users)
        other = next(u for u in users if u != holder)
        stranger = UserFactory()

        def refused(user, action, code):
            game.refresh_from_db()
            before = (game.version, json.dumps(game.state, sort_keys=True), Move.objects.count())
            with pytest.raises(GameError) as error:
                game_act(game_id=game.pk, user=user, action=action)
            assert error.value.code == code, (action, error.value.code)
            game.refresh_from_db()
            assert (game.version, json.dumps(game.state, sort_keys=True), Move.objects.count()) == before

        refused(other, {"type": "roll"}, "not_your_turn")
        refused(holder, {"type": "move", "direction": "cw"}, "wrong_phase")
        refused(holder, {"type": "roll", "extra": 1}, "bad_action")
        refused(holder, {"type": "fly"}, "bad_action")
        refused(holder, {"type": "answer", "answers": ["x"]}, "wrong_phase")
        refused(stranger, {"type": "roll"}, "not_a_player")
        act(game, holder, "roll")
        refused(holder, {"type": "move", "direction": "up"}, "bad_action")
        refused(holder, {"type": "roll"}, "wrong_phase")
        act(game, holder, "move", direction="cw")
        refused(holder, {"type": "answer", "answers": ["a", "b"]}, "wrong_answer_count")
        refused(holder, {"type": "answer", "answers": ["a" * 61]}, "answer_too_long")
        refused(holder, {"type": "answer", "answers": "abc"}, "bad_action")
        refused(holder, {"type": "answer", "answers": ["a\x00"]}, "bad_action")
        act(game, holder, "answer", answers=["a"])
        refused(holder, {"type": "answer", "answers": ["b"]}, "already_answered")
        for user in users:
            if user != holder:
                act(game, user, "answer", answers=["b"])
        refused(other, {"type": "confirm"}, "not_your_turn")
        refused(holder, {"type": "merge", "groups": [1]}, "bad_merge")
        refused(holder, {"type": "merge", "groups": [1, 99]}, "unknown_group")
        refused(holder, {"type": "split", "group": 1, "items": [[9, 9]]}, "bad_split")
        refused(holder, {"type": "split", "group": 1, "items": "x"}, "bad_action")
        refused(holder, {"type": "rejoin"}, "not_absent")
        with pytest.raises(GameError) as stale:
            game_act(game_id=game.pk, user=holder, action={"type": "confirm"}, expected_round=5)
        assert stale.value.code == "stale"


class TestSecrecy:
    def test_nobody_sees_another_answer_before_the_review(self, content):
        game, users = think_alike_game(4, options={"board": "course", "course": course_ids(content)})
        spectator = UserFactory()
        holder = to_answers(game, users)
        secret = {user.pk: f"secret-{n}-zebra" for n, user in enumerate(users)}
        for n, user in enumerate(users[:3]):
            act(game, user, "answer", answers=[secret[user.pk]])
            game.refresh_from_db()
            for viewer in [*users, spectator]:
                seen = json.dumps(view_for(game, viewer))
                for answered in users[: n + 1]:
                    assert (secret[answered.pk] in seen) == (viewer == answered), (viewer, answered)
            mine = view_for(game, user)["you"]["answers"]
            assert mine == [secret[user.pk]]
        assert view_for(game, users[3])["you"]["answers"] is None
        act(game, users[3], "answer", answers=[secret[users[3].pk]])
        for viewer in [*users, spectator]:
            seen = json.dumps(view_for(game, viewer))
            assert all(text in seen for text in secret.values())  # the review: all out, for all
        assert holder in users

    def test_an_answer_is_shown_as_text(self, content, client):
        game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
        to_answers(game, users)
        for user in users:
            act(game, user, "answer", answers=["<b>bold</b><script>x()</script>"])
        client.force_login(users[0])
        page = client.get(game.get_absolute_url()).content.decode()
        assert "<script>x()</script>" not in page and "&lt;script&gt;x()&lt;/script&gt;" in page


class TestTimeouts:
    def test_every_phase_expires_by_the_rules(self, content):
        game, users = think_alike_game(4, options={"board": "course", "course": course_ids(content, "swap", "move")})
        deadline = game.deadline_at
        assert game_expire(game_id=game.pk, version=game.version, now=deadline) is True  # roll, move... at random
        game.refresh_from_db()
        assert game.phase == "answer" and game.deadline_at > deadline
        view = view_for(game, users[0])
        assert view["current"]["auto"] is True and view["current"]["die"] is not None
        holder = turn_holder(game, users)
        act(game, holder, "answer", answers=["x"])
        assert game_expire(game_id=game.pk, version=game.version - 1, now=game.deadline_at) is False  # stale version
        game.refresh_from_db()
        assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at - timedelta(seconds=1)) is False
        assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at) is True
        game.refresh_from_db()
        assert game.phase == "review"
        assert len(view_for(game, users[1])["no_answer"]) == 3
        assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at) is True  # scored as it stands
        record = ThinkAlikeRound.objects.get(game=game)
        assert record.auto and sum(record.points.values()) == 0
        assert [a is None for a in record.answers.values()].count(True) == 3
        # Missed deadlines in a row mark players absent; with fewer than 3 present the game pauses.
        for _ in range(20):
            game.refresh_from_db()
            if game.is_paused:
                break
            assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at) is True
        assert game.is_paused and game.deadline_at is None
        assert not game_expire(game_id=game.pk, version=game.version, now=game.started_at + timedelta(days=9))
        for seat in game.seats.filter(is_absent=True):
            act(game, seat.user, "rejoin")
        game.refresh_from_db()
        assert not game.is_paused and game.deadline_at is not None

    def test_resigning(self, content):
        game, users = think_alike_game(4)
        holder = turn_holder(game, users)
        game_resign(game_id=game.pk, user=holder)
        game.refresh_from_db()
        assert game.status == "active" and turn_holder(game, users) != holder
        game_resign(game_id=game.pk, user=turn_holder(game, users))
        game.refresh_from_db()
        assert game.status == "finished"  # two left


class TestJoinAndStart:
    def test_the_starter_is_rolled_for_and_shown(self, content):
        game, users = think_alike_game(3)
        view = view_for(game, users[1])
        rolls = view["start_rolls"]
        assert rolls and {r["player"] for r in rolls[0]} == {u.username for u in users}
        last = {r["player"]: r["roll"] for r in rolls[-1]}
        assert last[view["starter"]] == max(last.values())
        assert view["turn"] == view["starter"]

    def test_a_game_whose_content_went_away_cannot_start(self, content):
        users = UserFactory.create_batch(3)
        game = game_create(creator=users[0], kind="think_alike", max_seats=3)
        TaskCard.objects.update(is_retired=True)
        game_join(game_id=game.pk, user=users[1])
        with pytest.raises(GameError) as refused:
            game_join(game_id=game.pk, user=users[2])
        assert refused.value.code == "bad_tasks"
        game.refresh_from_db()
        assert game.status == "open" and game.seats.count() == 2


class TestQueries:
    def test_game_page_queries_do_not_grow(self, client, content):
        small, small_users = think_alike_game(3)
        big, big_users = think_alike_game(8)
        rng = random.Random(9)
        early = page_queries(client, small, small_users[0])
        tables = ((small, small_users), (big, big_users))
        playing, over = page_queries_while_playing(client, tables, play_step, rng, steps=60)
        assert playing == {early}
        assert all(count <= early for count in over)
