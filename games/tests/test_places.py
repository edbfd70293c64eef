import pytest

from accounts.services import token_create
from games.places import competition_places, standing_places
from games.selectors.common import replay_standings
from games.services.games import game_resign
from games.tests.factories import started_game


def test_ties_share_a_place_and_the_next_place_is_skipped():
    assert competition_places([-12, -9, -9, -3]) == [1, 2, 2, 4]
    assert competition_places([-5, -5, -5]) == [1, 1, 1]
    assert competition_places([-1, -7, -7, -9]) == [4, 2, 2, 1]
    assert competition_places([]) == []


def test_resigned_players_come_after_everyone_still_in_the_game():
    players = [
        {"score": 20, "resigned": True},
        {"score": 8},
        {"score": 8, "resigned": False},
        {"score": 3},
    ]
    assert standing_places(players) == [4, 1, 1, 3]


def test_a_replayed_round_gives_tied_scores_one_place():
    rows = replay_standings(
        {"points": {"0": 3, "1": 0, "2": 3, "3": 1}, "scores_after": {"0": 7, "1": 2, "2": 7, "3": 5}},
        lambda seat: {"seat": seat, "name": f"P{seat}"},
    )
    assert [(row["seat"], row["place"]) for row in rows] == [(0, 1), (2, 1), (3, 3), (1, 4)]


@pytest.mark.django_db
def test_a_finished_game_shows_tied_players_in_one_place_on_its_page_and_in_the_api(client):
    game, users = started_game(3)
    game_resign(game_id=game.pk, user=users[1])  # two players left: the game ends, 0 to 0
    client.force_login(users[0])
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count('<li value="1">') == 2 and page.count('<li value="3">') == 1
    _token, secret = token_create(user=users[0], name="tests")
    view = client.get(f"/api/v1/games/{game.pk}", headers={"Authorization": f"Bearer {secret}"}).json()
    assert [(p["username"], p["place"]) for p in view["standings"]] == [
        (users[0].username, 1),
        (users[2].username, 1),
        (users[1].username, 3),
    ]
