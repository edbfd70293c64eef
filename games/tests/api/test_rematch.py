"""POST /games/{id}/rematch and the finished game's ``rematch`` (issue 15)."""

import pytest

from accounts.services import token_create
from games.models import Game
from games.tests.factories import started_game
from games.tests.test_rematch import finished_game

from .conftest import ApiClient, error_of

pytestmark = pytest.mark.django_db


class TestApi:
    def test_rematch_answers_201_with_the_new_games_view(self, make_player):
        old, users = finished_game(3, visibility="private")
        clients = [ApiClient(token_create(user=user, name="t")[1]) for user in users]
        before = clients[1].get(f"/games/{old.pk}").json()
        assert before["rematch"] is None
        response = clients[1].post(f"/games/{old.pk}/rematch")
        assert response.status_code == 201, response.content
        new = response.json()
        assert new["id"] != old.pk and new["status"] == "open" and new["creator"] == users[1].username
        assert new["rematch"] is None
        again = clients[0].post(f"/games/{old.pk}/rematch")  # the same one, the second presser seated
        assert again.status_code == 201 and again.json()["id"] == new["id"]
        assert [p["username"] for p in again.json()["players"]] == [users[1].username, users[0].username]
        seen = clients[2].get(f"/games/{old.pk}").json()
        assert seen["rematch"] == new["id"]
        assert seen["rematch_invite_code"] == Game.objects.get(pk=new["id"]).invite_code
        assert Game.objects.count() == 2

    def test_refusals(self, make_player):
        game, users = started_game(3, visibility="public")
        player = ApiClient(token_create(user=users[0], name="t")[1])
        _stranger, outsider = make_player()
        assert error_of(player.post(f"/games/{game.pk}/rematch")) == (409, "not_finished")
        old, _ = finished_game(3, visibility="public")
        assert error_of(outsider.post(f"/games/{old.pk}/rematch")) == (403, "not_a_player")
        private, _ = finished_game(3, visibility="private")
        assert outsider.post(f"/games/{private.pk}/rematch").status_code == 404
        assert outsider.post("/games/999999/rematch").status_code == 404
        assert Game.objects.filter(rematch__isnull=False).count() == 0
        assert Game.objects.count() == 3


class TestHeldSeats:
    """Issue 30's contract: the held seat in `GET /games?mine=true`, join, decline, open-seats, `seat_held`."""

    def players(self, users):
        return [ApiClient(token_create(user=user, name="t")[1]) for user in users]

    def test_the_old_players_find_it_at_once_and_take_it_by_joining(self, make_player):
        old, users = finished_game(3, visibility="private")
        clients = self.players(users)
        new = clients[0].post(f"/games/{old.pk}/rematch").json()
        assert new["seats_held"] == 2 and new["holds_until_at"] and new["seat_held_for_you"] is False
        mine = clients[1].get("/games", mine="true").json()["games"]
        row = next(game for game in mine if game["id"] == new["id"])
        assert (row["seat_held"], row["joined"], row["status"]) == (True, False, "open")
        assert all(game["seat_held"] is False for game in mine if game["id"] != new["id"])
        assert clients[0].get("/games", mine="true").json()["games"][0]["seat_held"] is False  # seated, not held
        # The private rematch's view is theirs to see, without its code.
        view = clients[1].get(f"/games/{new['id']}").json()
        assert view["seat_held_for_you"] is True and "invite_code" not in view
        joined = clients[1].post(f"/games/{new['id']}/join")  # no code needed
        assert joined.status_code == 200 and joined.json()["seats_held"] == 1
        joined = clients[2].post(
            f"/games/{new['id']}/join", {"invite_code": Game.objects.get(pk=new["id"]).invite_code}
        )
        assert joined.status_code == 200 and joined.json()["status"] == "active"  # every seat taken
        assert error_of(clients[2].post(f"/games/{new['id']}/join")) == (409, "already_joined")

    def test_a_stranger_is_refused_a_held_seat_and_the_lobby_hides_it(self, make_player):
        old, users = finished_game(3, visibility="public")
        clients = self.players(users)
        new = clients[0].post(f"/games/{old.pk}/rematch").json()
        _stranger, outsider = make_player()
        assert new["id"] not in [game["id"] for game in outsider.get("/games").json()["games"]]
        assert error_of(outsider.post(f"/games/{new['id']}/join")) == (403, "seat_held")
        assert error_of(outsider.post(f"/games/{new['id']}/decline")) == (403, "no_seat_held")
        assert error_of(outsider.post(f"/games/{new['id']}/open-seats")) == (403, "not_creator")
        assert Game.objects.get(pk=new["id"]).version == new["version"]
        # A private rematch's stranger hears of no game at all.
        private, private_users = finished_game(3, visibility="private")
        hidden = self.players(private_users)[0].post(f"/games/{private.pk}/rematch").json()
        for route in ("join", "decline", "open-seats"):
            assert error_of(outsider.post(f"/games/{hidden['id']}/{route}")) == (404, "not_found")

    def test_decline_then_the_seat_opens_and_declining_again_or_joining_is_refused(self, make_player):
        old, users = finished_game(3, visibility="public")
        clients = self.players(users)
        new = clients[0].post(f"/games/{old.pk}/rematch").json()
        declined = clients[1].post(f"/games/{new['id']}/decline")
        assert declined.status_code == 200 and declined.json() == {"id": new["id"], "status": "open"}
        assert error_of(clients[1].post(f"/games/{new['id']}/decline")) == (409, "already_declined")
        assert error_of(clients[1].post(f"/games/{new['id']}/join")) == (409, "declined")
        assert error_of(clients[0].post(f"/games/{new['id']}/decline")) == (409, "already_joined")
        view = clients[1].get(f"/games/{new['id']}").json()
        assert view["you_declined"] is True and view["seats_held"] == 1
        assert all(game["id"] != new["id"] for game in clients[1].get("/games", mine="true").json()["games"])
        _stranger, outsider = make_player()
        assert outsider.post(f"/games/{new['id']}/join").status_code == 200  # the declined seat
        assert error_of(outsider.post(f"/games/{new['id']}/join")) == (409, "already_joined")

    def test_the_creator_opens_the_held_seats(self, make_player):
        old, users = finished_game(3, visibility="public")
        clients = self.players(users)
        new = clients[0].post(f"/games/{old.pk}/rematch").json()
        assert error_of(clients[1].post(f"/games/{new['id']}/open-seats")) == (403, "not_creator")
        opened = clients[0].post(f"/games/{new['id']}/open-seats")
        assert opened.status_code == 200 and opened.json()["seats_held"] == 0
        assert error_of(clients[0].post(f"/games/{new['id']}/open-seats")) == (409, "no_seats_held")
        _stranger, outsider = make_player()
        assert new["id"] in [game["id"] for game in outsider.get("/games").json()["games"]]
        assert outsider.post(f"/games/{new['id']}/join").status_code == 200

    def test_the_schema_documents_the_routes_and_the_field(self, anon):
        schema = anon.get("/openapi.json").json()
        paths = schema["paths"]
        decline = paths["/api/v1/games/{game_id}/decline"]["post"]
        assert set(decline["responses"]) >= {"200", "403", "404", "409"} and "no_seat_held" in decline["description"]
        assert "not_creator" in paths["/api/v1/games/{game_id}/open-seats"]["post"]["description"]
        assert "seat_held" in paths["/api/v1/games/{game_id}/join"]["post"]["description"]
        summary = schema["components"]["schemas"]["GameSummary"]["properties"]["seat_held"]
        assert summary["type"] == "boolean" and "decline" in summary["description"]


class TestThePresserLeaves:
    """Issue 37, item 10, through the API: the presser leaves, the rematch stays open for the old table."""

    def test_leaving_hands_the_rematch_to_the_next_old_player(self, make_player):
        old, users = finished_game(3, visibility="private")
        clients = [ApiClient(token_create(user=user, name="t")[1]) for user in users]
        new = clients[0].post(f"/games/{old.pk}/rematch").json()
        left = clients[0].post(f"/games/{new['id']}/leave")
        assert left.status_code == 200 and left.json() == {"id": new["id"], "status": "open"}
        assert clients[1].post(f"/games/{new['id']}/join", {}).status_code == 200
        view = clients[1].get(f"/games/{new['id']}").json()
        assert view["creator"] == users[1].username and view["you"]["is_creator"] is True
        assert view["status"] == "open" and view["seats_held"] == 1  # users[2]'s seat, still theirs
        assert clients[2].post(f"/games/{new['id']}/join", {}).status_code == 200
