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
