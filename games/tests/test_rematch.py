"""Play again with the same people: the service, the page and the API (issue 15)."""

import threading

import pytest
from django.db import connection, connections
from django.urls import reverse

from games.models import Game
from games.services.errors import GameError
from games.services.games import game_join, game_rematch, game_resign

from .factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def finished_game(players: int = 4, **create_kwargs):
    """A started game that ends as its players resign, one after another, until too few are left."""
    game, users = started_game(players, **create_kwargs)
    for user in users[1:]:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        game_resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, users


class TestService:
    def test_rematch_copies_the_game_and_seats_the_presser(self):
        old, users = finished_game(4, pace="async", phase_seconds=7200, visibility="private")
        new = game_rematch(game_id=old.pk, user=users[2])
        assert new.pk != old.pk
        assert (new.kind, new.pace, new.phase_seconds, new.visibility, new.max_seats, new.options) == (
            old.kind,
            old.pace,
            old.phase_seconds,
            old.visibility,
            old.max_seats,
            old.options,
        )
        assert new.status == Game.Status.OPEN
        assert new.creator == users[2]
        assert list(new.seats.values_list("user", flat=True)) == [users[2].pk]
        version = old.version
        old.refresh_from_db()
        assert old.rematch_id == new.pk
        assert old.version == version + 1  # its cached views move on

    def test_pressed_twice_or_by_two_players_gives_the_same_game(self):
        old, users = finished_game()
        first = game_rematch(game_id=old.pk, user=users[0])
        assert game_rematch(game_id=old.pk, user=users[0]).pk == first.pk
        assert game_rematch(game_id=old.pk, user=users[1]).pk == first.pk  # and seats the second presser
        assert game_rematch(game_id=old.pk, user=users[1]).pk == first.pk
        assert Game.objects.filter(kind=old.kind, status=Game.Status.OPEN).count() == 1
        assert list(first.seats.values_list("user", flat=True).order_by("position")) == [users[0].pk, users[1].pk]
        # The others join it as any game.
        game_join(game_id=first.pk, user=users[2], invite_code=first.invite_code)
        assert first.seats.count() == 3

    def test_a_full_rematch_is_refused_to_a_late_presser(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        for user in UserFactory.create_batch(2):
            game_join(game_id=new.pk, user=user, invite_code=new.invite_code)
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=old.pk, user=users[1])
        assert (caught.value.code, caught.value.kind) == ("rematch_closed", "conflict")

    def test_a_game_not_finished_is_refused(self):
        game, users = started_game(4)
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=game.pk, user=users[0])
        assert (caught.value.code, caught.value.kind) == ("not_finished", "conflict")
        game.refresh_from_db()
        assert game.rematch_id is None
        assert Game.objects.count() == 1

    def test_a_non_player_is_refused(self):
        old, _users = finished_game()
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=old.pk, user=UserFactory())
        assert (caught.value.code, caught.value.kind) == ("not_a_player", "forbidden")
        old.refresh_from_db()
        assert old.rematch_id is None
        assert Game.objects.count() == 1

    def test_a_missing_game_is_not_found(self):
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=999999, user=UserFactory())
        assert caught.value.kind == "not_found"


class TestPages:
    def test_the_finished_page_offers_it_then_links_the_others(self, client):
        old, users = finished_game(4, visibility="public")
        client.force_login(users[1])
        page = client.get(old.get_absolute_url()).content.decode()
        assert reverse("games:rematch", args=[old.pk]) in page
        assert "Play again with the same people" in page

        response = client.post(reverse("games:rematch", args=[old.pk]))
        new = Game.objects.get(rematch_of=old)
        assert response.status_code == 302 and response.url == new.get_absolute_url()
        assert new.creator == users[1]

        client.force_login(users[3])
        page = client.get(old.get_absolute_url()).content.decode()
        assert f"{users[1].name} started a rematch." in page
        assert f'href="{new.get_absolute_url()}"' in page
        assert "Play again with the same people" not in page

        # A spectator of a public game sees the link too (no code is needed to join).
        client.force_login(UserFactory())
        page = client.get(old.get_absolute_url()).content.decode()
        assert f'href="{new.get_absolute_url()}"' in page

    def test_a_private_rematch_gives_its_invite_to_the_old_players(self, client):
        old, users = finished_game(3, visibility="private")
        new = game_rematch(game_id=old.pk, user=users[0])
        client.force_login(users[2])
        page = client.get(old.get_absolute_url()).content.decode()
        assert new.get_invite_url() in page
        join = client.get(new.get_invite_url())
        assert join.status_code == 200

    def test_a_non_player_posting_is_refused(self, client):
        old, _users = finished_game(3, visibility="private")
        client.force_login(UserFactory())
        assert client.post(reverse("games:rematch", args=[old.pk])).status_code == 404
        old.refresh_from_db()
        assert old.rematch_id is None

    def test_an_open_private_game_has_copy_and_share_buttons(self, client):
        game, users = started_game(3, visibility="private")
        game.refresh_from_db()
        # Not full yet: a new one with a free seat.
        from games.services.games import game_create

        open_game = game_create(creator=users[0], max_seats=4, options=dict(game.options), visibility="private")
        client.force_login(users[0])
        page = client.get(open_game.get_absolute_url()).content.decode()
        assert 'data-copy="#invite-link"' in page
        assert '<template data-share-button><button type="button" class="secondary" data-share="#invite-link"' in page
        assert "data-copy-status" in page and 'aria-live="polite"' in page


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two writers at once need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_at_once_make_one_rematch():
    old, users = finished_game(4)
    barrier = threading.Barrier(2)
    made, failed = [], []

    def press(user):
        try:
            barrier.wait()
            made.append(game_rematch(game_id=old.pk, user=user).pk)
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press, args=(user,)) for user in users[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed
    assert len(set(made)) == 1
    rematch = Game.objects.get(pk=made[0])
    assert sorted(rematch.seats.values_list("user", flat=True)) == sorted(u.pk for u in users[:2])
    assert Game.objects.count() == 2
