"""The games endpoints: list, create, join, leave, start, detail."""

import pytest

from games.models import Game

from .conftest import error_of

pytestmark = pytest.mark.django_db

VIEW_FIELDS = {
    "id",
    "kind",
    "status",
    "version",
    "round",
    "phase",
    "deadline_at",
    "storyteller",
    "clue",
    "players",
    "hand",
    "table",
    "you",
    "last_round",
    "winners",
}


class TestCreate:
    def test_the_creator_takes_the_first_seat(self, deck, make_player):
        user, client = make_player()
        response = client.post("/games", {"kind": "storyteller", "seats": 4, "pace": "live", "visibility": "public"})
        assert response.status_code == 201
        view = response.json()
        assert set(view) >= VIEW_FIELDS
        assert view["status"] == "open" and view["phase"] is None and view["round"] is None
        assert view["players"] == [view["players"][0]] and view["players"][0]["username"] == user.username
        assert view["players"][0]["seat"] == 0
        assert view["you"]["username"] == user.username and view["you"]["to_act"] is False
        assert "invite_code" not in view
        game = Game.objects.get(pk=view["id"])
        assert (game.max_seats, game.pace, game.creator) == (4, "live", user)

    def test_every_field_is_optional(self, deck, make_player):
        _user, client = make_player()
        response = client.post("/games")
        assert response.status_code == 201
        assert response.json()["seats"] == 4

    def test_a_private_games_view_carries_the_invite_code_for_its_creator(self, deck, make_player):
        _user, client = make_player()
        view = client.post("/games", {"seats": 3, "visibility": "private"}).json()
        assert view["invite_code"] == Game.objects.get(pk=view["id"]).invite_code
        _other, other = make_player()
        other.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]})
        assert "invite_code" not in other.get(f"/games/{view['id']}").json()
        assert client.get(f"/games/{view['id']}").json()["invite_code"] == view["invite_code"]

    def test_options(self, deck, make_player):
        _user, client = make_player()
        view = client.post("/games", {"seats": 3, "phase_seconds": 7200, "target_score": 10}).json()
        game = Game.objects.get(pk=view["id"])
        # Without a deck chosen, the game deals from a playable deck, named in its options.
        assert game.phase_seconds == 7200 and game.options == {
            "target_score": 10,
            "deck": deck.pk,
            "clue_modes": ["words"],
            "chat": True,
            "lang": "en",  # the request's language: the bots' clues are in it
        }
        assert view["options"] == game.options
        assert view["rules"] == {"hand_size": 7, "target_score": 10, "clue_modes": ["words"], "chat": True}

    @pytest.mark.parametrize(
        "body,code",
        [
            ({"seats": 2}, "bad_seats"),
            ({"seats": 7}, "bad_seats"),
            ({"pace": "slow"}, "bad_pace"),
            ({"visibility": "secret"}, "bad_visibility"),
            ({"kind": "chess"}, "bad_kind"),
            ({"phase_seconds": 10}, "bad_deadline"),
            ({"target_score": 1000}, "bad_options"),
            ({"seats": "4"}, "bad_request"),
            ({"seats": True}, "bad_request"),
            ({"seats": 4.5}, "bad_request"),
            ({"colour": "red"}, "bad_request"),
        ],
    )
    def test_bad_input_is_400_and_creates_nothing(self, deck, make_player, body, code):
        _user, client = make_player()
        assert error_of(client.post("/games", body)) == (400, code)
        assert not Game.objects.exists()

    def test_no_deck_is_400(self, db, make_player):
        _user, client = make_player()
        assert error_of(client.post("/games", {"seats": 3})) == (400, "no_deck")

    def test_needs_a_token(self, deck, anon):
        assert error_of(anon.post("/games", {"seats": 3})) == (401, "unauthorized")


class TestList:
    def test_open_public_games_by_default(self, deck, make_player, seated):
        creator, client = make_player()
        open_game = client.post("/games", {"seats": 4}).json()["id"]
        client.post("/games", {"seats": 4, "visibility": "private"})
        active_game, _users = seated(3)
        _viewer, viewer = make_player()
        games = viewer.get("/games").json()["games"]
        assert [g["id"] for g in games] == [open_game]
        assert games[0] | {"deadline_at": None} == games[0] | {
            "id": open_game,
            "kind": "storyteller",
            "status": "open",
            "seats": 4,
            "seated": 1,
            "creator": creator.username,
            "joined": False,
            "to_act": False,
            "phase": None,
            "round": None,
        }
        assert [g["id"] for g in viewer.get("/games", status="active").json()["games"]] == [active_game]
        assert viewer.get("/games", status="finished").json()["games"] == []

    def test_mine(self, deck, make_player, seated):
        game_id, users = seated(3)
        _user, client = users[0]
        other_game = client.post("/games", {"seats": 5, "visibility": "private"}).json()["id"]
        seated(3)  # someone else's
        games = client.get("/games", mine="true").json()["games"]
        assert {g["id"] for g in games} == {game_id, other_game}
        assert all(g["joined"] for g in games)
        active = client.get("/games", mine="true", status="active").json()["games"]
        assert [(g["id"], g["seated"], g["to_act"]) for g in active] == [(game_id, 3, True)]

    def test_limit(self, deck, make_player):
        _user, client = make_player()
        for _ in range(3):
            client.post("/games", {"seats": 4})
        assert len(client.get("/games", mine="true", limit=2).json()["games"]) == 2

    @pytest.mark.parametrize(
        "params", [{"status": "lost"}, {"mine": "perhaps"}, {"limit": 0}, {"limit": "x"}, {"status": "a\x00"}]
    )
    def test_bad_parameters_are_400(self, make_player, params):
        _user, client = make_player()
        assert error_of(client.get("/games", **params)) == (400, "bad_request")


class TestJoin:
    def test_join_then_the_last_seat_starts_the_game(self, deck, make_player):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        second, second_client = make_player()
        view = second_client.post(f"/games/{game_id}/join").json()
        assert view["status"] == "open" and [p["username"] for p in view["players"]][1] == second.username
        _third, third_client = make_player()
        view = third_client.post(f"/games/{game_id}/join", {}).json()
        assert view["status"] == "active" and view["phase"] == "clue" and view["round"] == 1
        assert len(view["hand"]) == 7 and view["you"]["to_act"] is True

    def test_private_games_need_their_invite_code(self, deck, make_player):
        _creator, client = make_player()
        view = client.post("/games", {"seats": 3, "visibility": "private"}).json()
        _user, other = make_player()
        # Without its code, a private game answers as if there were none (issue 13).
        assert error_of(other.post(f"/games/{view['id']}/join")) == (404, "not_found")
        assert error_of(other.post(f"/games/{view['id']}/join", {"invite_code": "guess"})) == (404, "not_found")
        assert other.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]}).status_code == 200

    def test_conflicts(self, deck, make_player, seated):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        assert error_of(client.post(f"/games/{game_id}/join")) == (409, "already_joined")
        full_game, _users = seated(3)
        _late, late = make_player()
        assert error_of(late.post(f"/games/{full_game}/join")) == (409, "not_open")

    def test_a_player_of_a_private_game_joining_it_again_is_told_so_without_its_invite(self, deck, make_player):
        """As a bot that goes on playing its game (examples/bot.py --game N) does: not 404/403 but 409."""
        _creator, client = make_player()
        view = client.post("/games", {"seats": 3, "visibility": "private"}).json()
        assert error_of(client.post(f"/games/{view['id']}/join")) == (409, "already_joined")
        _user, other = make_player()
        _third, third = make_player()
        for player in (other, third):
            assert player.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]}).status_code == 200
        # Started now (three of three): still "already joined" for its players, and still hidden from others.
        assert error_of(other.post(f"/games/{view['id']}/join")) == (409, "already_joined")
        _stranger, stranger = make_player()
        assert error_of(stranger.post(f"/games/{view['id']}/join")) == (404, "not_found")

    def test_unknown_games_are_404(self, make_player):
        _user, client = make_player()
        assert error_of(client.post("/games/999999/join")) == (404, "not_found")
        assert error_of(client.post("/games/abc/join")) == (404, "not_found")

    def test_bad_bodies_are_400(self, deck, make_player):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        _user, other = make_player()
        assert error_of(other.post(f"/games/{game_id}/join", {"invite_code": 5})) == (400, "bad_request")
        assert error_of(other.post(f"/games/{game_id}/join", raw="[")) == (400, "malformed_json")


class TestLeave:
    def test_leave_an_open_game(self, deck, make_player):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 4}).json()["id"]
        _user, other = make_player()
        other.post(f"/games/{game_id}/join")
        response = other.post(f"/games/{game_id}/leave")
        assert response.status_code == 200 and response.json() == {"id": game_id, "status": "open"}
        assert len(client.get(f"/games/{game_id}").json()["players"]) == 1
        assert client.post(f"/games/{game_id}/leave").json()["status"] == "cancelled"

    def test_errors(self, deck, make_player, seated):
        game_id, users = seated(3)
        assert error_of(users[0][1].post(f"/games/{game_id}/leave")) == (409, "not_open")
        _creator, client = make_player()
        open_game = client.post("/games", {"seats": 4}).json()["id"]
        _user, stranger = make_player()
        assert error_of(stranger.post(f"/games/{open_game}/leave")) == (403, "not_a_player")
        assert error_of(stranger.post("/games/424242/leave")) == (404, "not_found")


class TestStart:
    def test_the_creator_starts_with_three_or_more(self, deck, make_player, seated):
        game_id, users = seated(3, seats=5)
        assert error_of(users[1][1].post(f"/games/{game_id}/start")) == (403, "not_creator")
        view = users[0][1].post(f"/games/{game_id}/start").json()
        assert view["status"] == "active" and len(view["players"]) == 3 and len(view["hand"]) == 7
        assert error_of(users[0][1].post(f"/games/{game_id}/start")) == (409, "not_open")

    def test_too_few_players(self, deck, make_player):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 4}).json()["id"]
        assert error_of(client.post(f"/games/{game_id}/start")) == (409, "too_few_players")
        assert error_of(client.post("/games/31337/start")) == (404, "not_found")


class TestDetail:
    def test_a_spectator_sees_a_public_game_without_any_hand(self, seated, make_player):
        game_id, _users = seated(3)
        viewer, client = make_player()
        view = client.get(f"/games/{game_id}").json()
        assert view["hand"] == [] and view["you"] == {"username": viewer.username, "to_act": False, "seat": None}

    def test_private_and_unknown_games_are_404(self, seated, make_player):
        game_id, _users = seated(3, visibility="private")
        _user, client = make_player()
        assert error_of(client.get(f"/games/{game_id}")) == (404, "not_found")
        assert error_of(client.get("/games/0")) == (404, "not_found")
        assert error_of(client.get("/games/" + "9" * 40)) == (404, "not_found")
        assert error_of(client.get("/games/-1")) == (404, "not_found")

    def test_card_ids_are_strings_and_images_absolute(self, seated):
        game_id, users = seated(4)
        view = users[0][1].get(f"/games/{game_id}").json()
        assert len(view["hand"]) == 6
        for card in view["hand"]:
            assert isinstance(card["id"], str) and card["id"].isdigit()
            assert card["image"].startswith("http://testserver/media/cards/")

    def test_unknown_paths_and_methods(self, make_player):
        _user, client = make_player()
        assert error_of(client.get("/nothing/here")) == (404, "not_found")
        assert client.delete("/games").status_code == 405
        client.client = type(client.client)(enforce_csrf_checks=True)
        assert error_of(client.post("/nothing/here", {})) == (404, "not_found")


def test_a_view_asked_again_at_its_version_is_the_kept_json_and_nobody_elses(deck, make_player, monkeypatch):
    """The JSON of a user's view is kept per version: asked again, it is neither built nor checked again;
    someone else's view of the same version (a spectator here) is built for them, never the first user's."""
    from games.api import games as api_games

    user, client = make_player()
    _other, other = make_player()
    view = client.post("/games", {"seats": 3}).json()
    first = client.get(f"/games/{view['id']}")
    built = []
    real = api_games._view_json
    monkeypatch.setattr(
        api_games, "_view_json", lambda view, request: built.append(view["you"]["username"]) or real(view, request)
    )
    again = client.get(f"/games/{view['id']}")
    assert again.status_code == 200 and again.content == first.content and built == []
    theirs = other.get(f"/games/{view['id']}").json()
    assert built == [theirs["you"]["username"]] and theirs["you"]["username"] != user.username
