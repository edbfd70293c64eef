"""POST /api/v1/games/{id}/actions: clue, submit, vote, resign, and every way to get them wrong."""

import hashlib
import os
import time

import pytest

from games.models import Game

from .conftest import error_of

pytestmark = pytest.mark.django_db


def views(game_id, users):
    return [client.get(f"/games/{game_id}").json() for _user, client in users]


def give_clue(game_id, users, who=0):
    client = users[who][1]
    card = client.get(f"/games/{game_id}").json()["hand"][0]["id"]
    response = client.post(f"/games/{game_id}/actions", {"type": "clue", "card": card, "text": "a quiet storm"})
    assert response.status_code == 200, response.content
    return response.json()


def submit_all(game_id, users, storyteller=0):
    for index, (_user, client) in enumerate(users):
        if index == storyteller:
            continue
        view = client.get(f"/games/{game_id}").json()
        cards = [card["id"] for card in view["hand"][: view["cards_to_submit"]]]
        response = client.post(f"/games/{game_id}/actions", {"type": "submit", "cards": cards})
        assert response.status_code == 200, response.content


class TestPlay:
    def test_a_whole_round(self, seated):
        game_id, users = seated(4)
        view = give_clue(game_id, users)
        assert view["phase"] == "submit" and view["storyteller"] == users[0][0].username
        assert view["clue"] == {"text": "a quiet storm", "media": None} and view["you"]["to_act"] is False
        submit_all(game_id, users)
        vote_views = views(game_id, users)
        assert {v["phase"] for v in vote_views} == {"vote"}
        for (_user, client), view in list(zip(users, vote_views))[1:]:
            assert sum(card["mine"] for card in view["table"]) == 1
            position = next(card["position"] for card in view["table"] if not card["mine"])
            after = client.post(f"/games/{game_id}/actions", {"type": "vote", "position": position, "round": 1})
            assert after.status_code == 200
        view = users[0][1].get(f"/games/{game_id}").json()
        assert view["round"] == 2 and view["phase"] == "clue" and view["storyteller"] == users[1][0].username
        last = view["last_round"]
        assert last["round"] == 1 and last["clue"]["text"] == "a quiet storm" and len(last["table"]) == 4
        assert sum(last["points"].values()) == sum(p["score"] for p in view["players"])
        assert {card["owner"] for card in last["table"]} == {user.username for user, _client in users}
        assert all(isinstance(card["id"], str) for card in last["table"])
        # Each player's points with the reasons, which add up to them; just revealed, so fresh.
        assert last["fresh"] is True
        breakdown = last["breakdown"]
        assert [line["player"] for line in breakdown] == [user.username for user, _client in users]
        for line in breakdown:
            assert line["points"] == last["points"][line["player"]] == sum(r["points"] for r in line["reasons"])
            assert line["reasons"] and all(r["text"] for r in line["reasons"])
        storyteller_codes = {r["code"] for r in breakdown[0]["reasons"]}
        assert storyteller_codes <= {"storyteller_some_found", "storyteller_all_found", "storyteller_none_found"}
        # Once the next clue is given the round is no longer fresh.
        give_clue(game_id, users, who=1)
        assert users[0][1].get(f"/games/{game_id}").json()["last_round"]["fresh"] is False

    def test_card_ids_as_ints_are_accepted_too(self, seated):
        game_id, users = seated(3)
        card = users[0][1].get(f"/games/{game_id}").json()["hand"][0]["id"]
        response = users[0][1].post(f"/games/{game_id}/actions", {"type": "clue", "card": int(card), "text": "x"})
        assert response.status_code == 200

    def test_three_players_submit_two_cards(self, seated):
        game_id, users = seated(3)
        give_clue(game_id, users)
        view = users[1][1].get(f"/games/{game_id}").json()
        assert view["cards_to_submit"] == 2
        one = [view["hand"][0]["id"]]
        assert error_of(users[1][1].post(f"/games/{game_id}/actions", {"type": "submit", "cards": one})) == (
            400,
            "wrong_card_count",
        )
        submit_all(game_id, users)
        assert len(users[1][1].get(f"/games/{game_id}").json()["table"]) == 5

    def test_resign(self, seated):
        game_id, users = seated(4)
        response = users[3][1].post(f"/games/{game_id}/actions", {"type": "resign"})
        assert response.status_code == 200
        assert [p for p in response.json()["players"] if p["username"] == users[3][0].username][0]["resigned"]
        assert error_of(users[3][1].post(f"/games/{game_id}/actions", {"type": "resign"})) == (409, "resigned")

    def test_resigning_to_two_players_ends_the_game(self, seated):
        game_id, users = seated(3)
        view = users[2][1].post(f"/games/{game_id}/actions", {"type": "resign"}).json()
        assert view["status"] == "finished" and view["phase"] is None
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", {"type": "resign"})) == (409, "game_finished")


class TestConflicts:
    def test_wrong_phase_and_not_your_turn(self, seated):
        game_id, users = seated(4)
        assert error_of(users[1][1].post(f"/games/{game_id}/actions", {"type": "vote", "position": 1})) == (
            409,
            "wrong_phase",
        )
        give_clue(game_id, users)
        card = users[1][1].get(f"/games/{game_id}").json()["hand"][0]["id"]
        # Round 1's race lost: the refusal says so (issue 15).
        assert error_of(users[1][1].post(f"/games/{game_id}/actions", {"type": "clue", "card": card, "text": "t"})) == (
            409,
            "clue_taken",
        )
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", {"type": "submit", "cards": [card]})) == (
            409,
            "not_your_turn",
        )

    def test_not_in_hand_already_submitted_own_card_already_voted(self, seated):
        game_id, users = seated(4)
        give_clue(game_id, users)
        someone_elses = users[2][1].get(f"/games/{game_id}").json()["hand"][0]["id"]
        assert error_of(
            users[1][1].post(f"/games/{game_id}/actions", {"type": "submit", "cards": [someone_elses]})
        ) == (
            409,
            "not_in_hand",
        )
        submit_all(game_id, users)
        view = users[1][1].get(f"/games/{game_id}").json()
        own = next(card["position"] for card in view["table"] if card["mine"])
        other = next(card["position"] for card in view["table"] if not card["mine"])
        assert error_of(users[1][1].post(f"/games/{game_id}/actions", {"type": "vote", "position": own})) == (
            409,
            "own_card",
        )
        assert users[1][1].post(f"/games/{game_id}/actions", {"type": "vote", "position": other}).status_code == 200
        assert error_of(users[1][1].post(f"/games/{game_id}/actions", {"type": "vote", "position": other})) == (
            409,
            "already_voted",
        )
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", {"type": "vote", "position": other})) == (
            409,
            "not_your_turn",
        )

    def test_a_stale_round_is_refused(self, seated):
        game_id, users = seated(4)
        card = users[0][1].get(f"/games/{game_id}").json()["hand"][0]["id"]
        body = {"type": "clue", "card": card, "text": "t", "round": 2}
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", body)) == (409, "stale")

    def test_before_the_start(self, deck, make_player):
        _user, client = make_player()
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        assert error_of(client.post(f"/games/{game_id}/actions", {"type": "resign"})) == (409, "not_started")

    def test_not_a_player_and_unknown_game(self, seated, make_player):
        game_id, _users = seated(3)
        _user, stranger = make_player()
        assert error_of(stranger.post(f"/games/{game_id}/actions", {"type": "resign"})) == (403, "not_a_player")
        assert error_of(stranger.post("/games/987654/actions", {"type": "resign"})) == (404, "not_found")


class TestBadInput:
    @pytest.mark.parametrize(
        "body,code",
        [
            ({}, "bad_action"),
            ({"type": "dance"}, "bad_action"),
            ({"type": 5}, "bad_action"),
            ({"type": "clue", "card": "abc", "text": "t"}, "bad_action"),
            ({"type": "clue", "card": True, "text": "t"}, "bad_action"),
            ({"type": "clue", "card": "1", "text": 5}, "bad_action"),
            ({"type": "clue", "card": "1"}, "bad_action"),
            ({"type": "clue", "card": "1", "text": "t", "extra": 1}, "bad_action"),
            ({"type": "clue", "card": "1", "text": "   "}, "clue_empty"),
            ({"type": "clue", "card": "1", "text": "x" * 201}, "clue_too_long"),
            ({"type": "clue", "card": "1", "text": "a\x00b"}, "bad_action"),
            ({"type": "clue", "card": "1", "text": "t", "round": "one"}, "bad_action"),
            ({"type": "clue", "card": "1", "text": "t", "round": True}, "bad_action"),
            ({"type": "clue", "card": "9" * 40, "text": "t"}, "bad_action"),
            ({"type": "clue", "card": 10**40, "text": "t"}, "not_in_hand"),
            ({"type": "submit", "cards": "12"}, "bad_action"),
            ({"type": "vote", "position": "1"}, "bad_action"),
            ({"type": "vote", "position": 1.5}, "bad_action"),
        ],
    )
    def test_is_400_or_409_and_changes_nothing(self, seated, body, code):
        game_id, users = seated(4)
        before = Game.objects.get(pk=game_id)
        status, got = error_of(users[0][1].post(f"/games/{game_id}/actions", body))
        assert got == code
        assert status == (409 if code == "not_in_hand" else 400)
        after = Game.objects.get(pk=game_id)
        assert (after.version, after.state) == (before.version, before.state)

    @pytest.mark.parametrize(
        "raw,code",
        [
            ("", "bad_request"),
            ("{", "malformed_json"),
            ("[1, 2]", "bad_request"),
            ('"clue"', "bad_request"),
            ("null", "bad_request"),
            ("NaN", "bad_request"),
            ('{"type": "vote", "position": ' + "9" * 5000 + "}", "malformed_json"),
            ("[" * 100_000 + "]" * 100_000, "too_large"),
            ('{"type": "submit", "cards": ' + "[" * 5000 + "]" * 5000 + "}", "malformed_json"),
            # Deep, but far enough from Python's recursion limit whatever the middleware's frames.
            ('{"type": "submit", "cards": ' + "[" * 500 + "]" * 500 + "}", "bad_action"),
            (b"\xff\xfe{}", "malformed_json"),
        ],
    )
    def test_malformed_bodies_are_400(self, seated, raw, code):
        game_id, users = seated(3)
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", raw=raw)) == (400, code)

    def test_a_body_over_the_servers_limit_is_400(self, seated, settings):
        game_id, users = seated(3)
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
        raw = '{"type": "clue", "card": "1", "text": "' + "x" * 2000 + '"}'
        assert error_of(users[0][1].post(f"/games/{game_id}/actions", raw=raw)) == (400, "too_large")

    def test_actions_are_rate_limited_per_account(self, seated, settings):
        game_id, users = seated(3)
        settings.FABULA_API_RATES = {"actions": (3, 60)}
        codes = [users[0][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code for _ in range(4)]
        assert codes == [400, 400, 400, 429]
        assert users[1][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code == 400
        assert users[0][1].get(f"/games/{game_id}").status_code == 200  # looking is counted apart

    def test_the_counts_live_in_the_rates_cache_and_the_next_window_starts_afresh(self, seated, settings):
        from django.core.cache import caches

        game_id, users = seated(3)
        settings.FABULA_API_RATES = {"actions": (2, 60)}
        codes = [users[0][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code for _ in range(3)]
        assert codes == [400, 400, 429]
        digest = hashlib.sha256(f"user:{users[0][0].pk}".encode()).hexdigest()[:32]
        keys = [f"api-rate:actions:{digest}:{int(time.time() // 5) - ago}" for ago in range(14)]  # 5 s slices
        assert sum(caches["rates"].get(key) or 0 for key in keys) == 3  # counted here (the third refused)...
        assert {caches["default"].get(key) for key in keys} == {None}  # ...and not in the shared default cache
        caches["rates"].clear()  # a new window: the counts begin again
        assert users[0][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code == 400

    @pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
    def test_on_redis_the_counts_refuse_alike(self, seated, settings):
        from django.core.cache import caches

        game_id, users = seated(3)
        settings.CACHES = {
            **settings.CACHES,
            "rates": {
                "BACKEND": "infrastructure.resilience.ResilientRedisCache",
                "LOCATION": os.environ["REDIS_URL"],
                "KEY_PREFIX": f"fabula-test-rates-{os.getpid()}-{time.time_ns()}",
            },
        }
        settings.FABULA_API_RATES = {"actions": (3, 60)}
        codes = [users[0][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code for _ in range(4)]
        assert codes == [400, 400, 400, 429]
        assert users[1][1].post(f"/games/{game_id}/actions", {"type": "dance"}).status_code == 400
        digest = hashlib.sha256(f"user:{users[0][0].pk}".encode()).hexdigest()[:32]
        keys = [f"api-rate:actions:{digest}:{int(time.time() // 5) - ago}" for ago in range(14)]  # 5 s slices
        assert sum(caches["rates"].get(key) or 0 for key in keys) == 4  # in Redis, the refused one counted too

    def test_no_token(self, seated, anon):
        game_id, _users = seated(3)
        assert error_of(anon.post(f"/games/{game_id}/actions", {"type": "resign"})) == (401, "unauthorized")


class TestOneMessageOnEveryPath:
    @pytest.mark.parametrize(
        "json, form",
        [
            ({"type": "vote"}, {"type": "vote"}),
            ({"type": "clue", "card": "abc", "text": "t"}, {"type": "clue", "card": "abc", "text": "t"}),
            ({"type": "dance"}, {"type": "dance"}),
            ({"type": "submit", "cards": ["1", "x"]}, {"type": "submit", "cards": ["1", "x"]}),
        ],
    )
    def test_the_page_shows_what_the_api_answers(self, seated, json, form):
        from django.test import Client
        from django.urls import reverse
        from django.utils.html import escape

        game_id, users = seated(3)
        answer = users[0][1].post(f"/games/{game_id}/actions", json)
        assert error_of(answer)[1] == "bad_action"
        browser = Client()
        browser.force_login(users[0][0])
        page = browser.post(reverse("games:act", args=[game_id]), form, HTTP_HX_REQUEST="true").content.decode()
        assert escape(answer.json()["error"]["message"]) in page
