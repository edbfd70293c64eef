"""Think Alike through /api/v1/: creating with options, the view, every action and its
errors, secrecy before the review, and whole games played by the example bot over HTTP."""

import json
import random

import pytest

from games.models import Game
from games.tests.api.conftest import ApiClient, error_of, fresh_rate_counts, load_bot, make_player  # noqa: F401
from think_alike.models import ThinkAlikeRound

from .content import course_ids, small_content

pytestmark = pytest.mark.django_db
bot = load_bot()


@pytest.fixture
def content(db):
    return small_content()


@pytest.fixture
def table(content, make_player):
    """``table(n, **create)``: a Think Alike game created through the API, n players seated (started when full)."""

    def make(players: int, **create):
        users = [make_player() for _ in range(players)]
        created = users[0][1].post("/games", {"kind": "think_alike", "seats": players, **create})
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for _user, client in users[1:]:
            assert client.post(f"/games/{game_id}/join").status_code == 200
        return game_id, users

    return make


def post(client, game_id, action):
    return client.post(f"/games/{game_id}/actions", action)


def holder_of(game_id, users):
    view = users[0][1].get(f"/games/{game_id}").json()
    return next(client for user, client in users if user.username == view["turn"])


class TestCreate:
    def test_create_with_options_and_see_the_view(self, content, make_player):
        _user, client = make_player()
        course = [str(i) for i in course_ids(content, "duel2")]
        response = client.post(
            "/games",
            {
                "kind": "think_alike",
                "seats": 3,
                "stop": "tasks",
                "count": 5,
                "board": "course",
                "course": course,
                "lang": "da",
            },
        )
        assert response.status_code == 201, response.content
        view = response.json()
        assert view["kind"] == "think_alike" and view["status"] == "open"
        assert view["stop"]["stop"] == "tasks" and view["stop"]["count"] == 5 and view["lang"] == "da"
        game = Game.objects.get(pk=view["id"])
        assert game.options == {
            "stop": "tasks",
            "count": 5,
            "board": "course",
            "course": [int(i) for i in course],
            "lang": "da",
            "chat": True,
        }

    @pytest.mark.parametrize(
        "body, status, code",
        [
            ({"seats": 11}, 400, "bad_seats"),
            ({"stop": "forever"}, 400, "bad_request"),
            ({"stop": "tasks"}, 400, "bad_options"),
            ({"stop": "time", "minutes": 1}, 400, "bad_options"),
            ({"board": "course", "course": ["1"]}, 400, "bad_options"),
            ({"lang": "de"}, 400, "bad_request"),  # not a content language: refused by the schema
            ({"target": "nine"}, 400, "bad_request"),
        ],
    )
    def test_bad_options(self, content, make_player, body, status, code):
        _user, client = make_player()
        response = client.post("/games", {"kind": "think_alike", "seats": 3, **body})
        assert error_of(response) == (status, code)
        assert not Game.objects.exists()

    def test_the_fields_for_a_course(self, content, make_player):
        _user, client = make_player()
        fields = client.get("/think-alike/fields", lang="da").json()["fields"]
        assert fields[0] == {
            "id": str(content["start"].pk),
            "kind": "swap",
            "text": "Start",
            "bonus": None,
            "start": True,
        }
        assert {f["text"] for f in fields} >= {"Tema 0", "Byt", "Flyt", "Duel om 2"}
        assert ApiClient().get("/think-alike/fields").status_code == 401


class TestPlay:
    def test_every_action_through_the_api(self, table, content):
        game_id, users = table(3, board="course", course=course_ids(content))
        view = users[1][1].get(f"/games/{game_id}").json()
        assert view["phase"] == "roll" and len(view["board"]) == 16 and view["token"] == 0
        assert view["board"][0]["start"] is True and isinstance(view["board"][0]["id"], str)
        assert view["start_rolls"] and view["starter"] == view["turn"]
        holder = holder_of(game_id, users)
        view = post(holder, game_id, {"type": "roll", "round": 1}).json()
        assert view["phase"] == "move" and 1 <= view["current"]["die"] <= 6
        assert view["choices"] == {"directions": ["cw", "ccw"]}
        view = post(holder, game_id, {"type": "move", "direction": "ccw"}).json()
        assert view["phase"] == "answer" and view["token"] == 16 - view["current"]["die"]
        assert view["hint"] and view["task"]["answers"] == 1 and isinstance(view["task"]["id"], str)
        for n, (_user, client) in enumerate(users):
            view = post(client, game_id, {"type": "answer", "answers": ["pear" if n else "apple"]}).json()
            if n < 2:
                assert view["you"]["answers"] == ["pear" if n else "apple"] and view["groups"] == []
        assert view["phase"] == "review"
        assert [len(g["answers"]) for g in view["groups"]] == [2, 1]
        ids = [g["id"] for g in view["groups"]]
        view = post(holder, game_id, {"type": "merge", "groups": ids}).json()
        merged = view["groups"][0]
        assert len(view["groups"]) == 1 and merged["merged"]
        items = [[a["seat"], a["index"]] for a in merged["answers"] if a["text"] == "apple"]
        view = post(holder, game_id, {"type": "split", "group": merged["id"], "items": items}).json()
        assert len(view["groups"]) == 2 and all(g["split"] for g in view["groups"])
        view = post(holder, game_id, {"type": "confirm"}).json()
        last = view["last_round"]
        assert view["round"] == 2 and view["phase"] == "roll"
        assert sorted(last["points"].values()) == [0, 1, 1]
        assert [r["kind"] for r in last["rulings"]] == ["merge", "split"]

    def test_field_ids_as_strings_for_a_draft_and_a_swap(self, table, content):
        game_id, users = table(3, board="draft")
        for _ in range(15):
            view = users[0][1].get(f"/games/{game_id}").json()
            drafter = next(client for user, client in users if user.username == view["drafter"])
            field = drafter.get(f"/games/{game_id}").json()["choices"]["fields"][0]["id"]
            assert post(drafter, game_id, {"type": "place_field", "field": field}).status_code == 200
        view = users[0][1].get(f"/games/{game_id}").json()
        assert view["phase"] == "roll" and len(view["board"]) == 16

    def test_errors(self, table, content):
        game_id, users = table(3, board="course", course=course_ids(content))
        holder = holder_of(game_id, users)
        other = next(client for _user, client in users if client is not holder)
        assert error_of(post(other, game_id, {"type": "roll"})) == (409, "not_your_turn")
        assert error_of(post(holder, game_id, {"type": "move", "direction": "cw"})) == (409, "wrong_phase")
        assert error_of(post(holder, game_id, {"type": "roll", "round": 3})) == (409, "stale")
        assert error_of(post(holder, game_id, {"type": "roll", "dice": 6})) == (400, "bad_action")
        post(holder, game_id, {"type": "roll"})
        assert error_of(post(holder, game_id, {"type": "move", "direction": "left"})) == (400, "bad_action")
        post(holder, game_id, {"type": "move", "direction": "cw"})
        assert error_of(post(other, game_id, {"type": "answer", "answers": ["a", "b"]})) == (400, "wrong_answer_count")
        assert error_of(post(other, game_id, {"type": "answer", "answers": ["a" * 61]})) == (400, "answer_too_long")
        assert error_of(post(other, game_id, {"type": "answer", "answers": "a"})) == (400, "bad_action")
        assert post(other, game_id, {"type": "answer", "answers": ["a"]}).status_code == 200
        assert error_of(post(other, game_id, {"type": "answer", "answers": ["a"]})) == (409, "already_answered")


class TestSecrecy:
    def test_answers_stay_secret_until_the_review_in_every_view(self, table, content, make_player):
        game_id, users = table(4, board="course", course=course_ids(content))
        _spectator, watcher = make_player()
        holder = holder_of(game_id, users)
        post(holder, game_id, {"type": "roll"})
        post(holder, game_id, {"type": "move", "direction": "cw"})
        secrets_ = [f"hidden-{n}-okapi" for n in range(4)]
        for n, (_user, client) in enumerate(users[:3]):
            post(client, game_id, {"type": "answer", "answers": [secrets_[n]]})
            for m, (_viewer, viewer) in enumerate([*users, (None, watcher)]):
                seen = json.dumps(viewer.get(f"/games/{game_id}").json())
                for k in range(n + 1):
                    assert (secrets_[k] in seen) == (m == k)
        post(users[3][1], game_id, {"type": "answer", "answers": [secrets_[3]]})
        seen = json.dumps(watcher.get(f"/games/{game_id}").json())
        assert all(text in seen for text in secrets_)


@pytest.fixture
def site(live_server, transactional_db):
    small_content(tasks=12, answers=1)
    return live_server.url


def sign_up_bots(url, count, prefix):
    apis = []
    for n in range(count):
        api = bot.Api(url)
        assert bot.sign_up(api, username=f"{prefix}{n}", password="a long pass phrase")
        bot.get_token(api, username=f"{prefix}{n}", password="a long pass phrase")
        apis.append(api)
    return apis


@pytest.mark.parametrize(
    "players, options", [(3, {"board": "draft", "stop": "tasks", "count": 5}), (5, {"stop": "points", "target": 8})]
)
def test_bots_play_a_whole_game_of_think_alike(site, players, options):
    apis = sign_up_bots(site, players, prefix=f"ta{players}-")
    first = bot.create_game(apis[0], seats=players, kind="think_alike", **options)
    assert first["kind"] == "think_alike" and first["status"] == "open"
    for api in apis[1:]:
        assert bot.join_or_create(api, seats=players, kind="think_alike")["id"] == first["id"]
    rng = random.Random(players)
    views = {}
    for _ in range(2000):
        views = {n: bot.play_turn(api, first["id"], rng) for n, api in enumerate(apis)}
        if all(view["status"] == "finished" for view in views.values()):
            break
    game = Game.objects.get(pk=first["id"])
    assert game.status == "finished"
    final = views[0]
    assert final["winners"] and set(final["winners"]) <= {p["username"] for p in final["players"]}
    assert sum(p["score"] for p in final["players"]) == sum(s.score for s in game.seats.all())
    rounds = ThinkAlikeRound.objects.filter(game=game).count()
    if options["stop"] == "tasks":
        assert rounds == 5
    else:
        assert max(p["score"] for p in final["players"]) >= 8 or rounds == 12
    assert "is over: winners" in bot.describe(final)


def test_the_bots_command_line_plays_think_alike(site, capsys):
    host, guest = sign_up_bots(site, 2, prefix="tahost")
    view = bot.create_game(host, seats=3, kind="think_alike", private=True, stop="tasks", count=3)
    bot.join_game(guest, view["id"], view["invite_code"])
    rng = random.Random(2)
    original = bot.play_turn

    def play_turn_with_company(api, game_id, rng_):
        for other in (host, guest):
            original(other, game_id, rng)
        return original(api, game_id, rng_)

    bot.play_turn = play_turn_with_company
    try:
        code = bot.main(
            [
                "--url",
                site,
                "--username",
                "tacli",
                "--password",
                "a long pass phrase",
                "--kind",
                "think_alike",
                "--game",
                str(view["id"]),
                "--invite",
                view["invite_code"],
                "--poll",
                "0",
                "--seed",
                "1",
            ]
        )
    finally:
        bot.play_turn = original
    out = capsys.readouterr().out
    assert code == 0, out
    assert "is over: winners" in out
