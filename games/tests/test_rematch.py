"""Play again with the same people: the service, the page and the API (issues 15 and 30: a seat held for each
player of the old table)."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat, SeatHold
from games.selectors.games import games_held_for, games_open_public
from games.services.errors import GameError
from games.services.games import (
    game_decline,
    game_holds_expire,
    game_holds_open,
    game_join,
    game_leave,
    game_rematch,
    game_resign,
    game_start,
)
from games.tasks import expire_due_games, holds_expire_due

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
        # The others take their held seats by joining, the code or not.
        game_join(game_id=first.pk, user=users[2], invite_code=first.invite_code)
        game_join(game_id=first.pk, user=users[3])
        first.refresh_from_db()
        assert first.seats.count() == 4 and first.status == Game.Status.ACTIVE
        assert not SeatHold.objects.filter(game=first).exists() and first.holds_until_at is None

    def test_a_full_rematch_is_refused_to_a_late_presser(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_decline(game_id=new.pk, user=users[1])
        game_decline(game_id=new.pk, user=users[2])
        for user in UserFactory.create_batch(2):
            game_join(game_id=new.pk, user=user, invite_code=new.invite_code)
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=old.pk, user=UserFactory())
        assert caught.value.code == "not_a_player"
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=old.pk, user=users[1])
        assert (caught.value.code, caught.value.kind) == ("declined", "conflict")

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


def make_bot(user):
    """``user`` is a bot from now on (as ``bots.services.bot_create`` makes one)."""
    get_user_model().objects.filter(pk=user.pk).update(is_bot=True)
    user.refresh_from_db()
    return user


class TestHeldSeats:
    def test_bots_sit_again_at_the_level_they_played_at(self):
        old, users = finished_game(4, visibility="public")
        make_bot(users[2])
        make_bot(users[3])
        Seat.objects.filter(game=old, user=users[2]).update(bot_level="hard")
        Seat.objects.filter(game=old, user=users[3]).update(bot_level="easy")
        new = game_rematch(game_id=old.pk, user=users[0])
        levels = dict(new.seats.values_list("user", "bot_level"))
        assert levels == {users[0].pk: "", users[2].pk: "hard", users[3].pk: "easy"}

    def test_every_other_player_gets_a_seat_held_for_48_hours_and_bots_sit_at_once(self):
        old, users = finished_game(4, visibility="public")
        make_bot(users[3])
        before = timezone.now()
        new = game_rematch(game_id=old.pk, user=users[1])
        new.refresh_from_db()
        assert list(new.seats.order_by("position").values_list("user", flat=True)) == [users[1].pk, users[3].pk]
        held = SeatHold.objects.filter(game=new)
        assert sorted(held.values_list("user", flat=True)) == sorted([users[0].pk, users[2].pk])
        assert not held.filter(declined_at__isnull=False).exists()
        assert before + timedelta(hours=48) <= new.holds_until_at <= timezone.now() + timedelta(hours=48)
        assert new.status == Game.Status.OPEN
        # The old players find it in their list; nobody else does, and the lobby does not show it while held.
        assert [game.pk for game in games_held_for(user=users[0])] == [new.pk]
        assert list(games_held_for(user=UserFactory())) == []
        assert new.pk not in [game.pk for game in games_open_public()]

    @override_settings(FABULA_REMATCH_HOLD_SECONDS=3600)
    def test_the_hold_lasts_as_long_as_the_setting_says(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0], now=old.finished_at)
        new.refresh_from_db()
        assert new.holds_until_at == old.finished_at + timedelta(hours=1)

    def test_a_rematch_of_one_player_and_bots_starts_at_once(self):
        old, users = finished_game(3)
        for bot in users[1:]:
            make_bot(bot)
        new = game_rematch(game_id=old.pk, user=users[0])
        new.refresh_from_db()
        assert new.status == Game.Status.ACTIVE and new.seats.count() == 3 and new.holds_until_at is None
        assert not SeatHold.objects.filter(game=new).exists()

    @pytest.mark.parametrize("visibility", ["public", "private"])
    def test_a_stranger_cannot_take_a_held_seat_the_holder_can_without_the_code(self, visibility):
        old, users = finished_game(3, visibility=visibility)
        new = game_rematch(game_id=old.pk, user=users[0])
        stranger = UserFactory()
        version = Game.objects.get(pk=new.pk).version
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=stranger, invite_code=new.invite_code)
        assert (caught.value.code, caught.value.kind) == ("seat_held", "forbidden")
        if visibility == "private":  # without the code a stranger is not even told that much
            with pytest.raises(GameError) as caught:
                game_join(game_id=new.pk, user=stranger)
            assert caught.value.code == "invite_required"
        assert Game.objects.get(pk=new.pk).version == version and new.seats.count() == 1
        game_join(game_id=new.pk, user=users[1])  # no code needed: the seat is theirs
        game_join(game_id=new.pk, user=users[2], invite_code=new.invite_code)
        new.refresh_from_db()
        assert new.status == Game.Status.ACTIVE  # every seat taken: it starts, as any game
        assert sorted(new.seats.values_list("user", flat=True)) == sorted(u.pk for u in users)

    def test_declining_opens_the_seat_and_keeps_the_decliner_out(self):
        old, users = finished_game(4, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        version = Game.objects.get(pk=new.pk).version
        game_decline(game_id=new.pk, user=users[1])
        new.refresh_from_db()
        assert new.version == version + 1
        assert SeatHold.objects.get(game=new, user=users[1]).declined_at is not None
        assert new.holds_until_at is not None  # two seats still held
        assert new.pk not in [game.pk for game in games_open_public()]  # not in the lobby while any is
        assert list(games_held_for(user=users[1])) == []
        # The declined seat is anyone's now; the held ones are still not.
        stranger, other = UserFactory(), UserFactory()
        game_join(game_id=new.pk, user=stranger)
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=other)
        assert caught.value.code == "seat_held"
        # Declining twice, joining after declining, declining what is not held: clear errors, nothing changes.
        new.refresh_from_db()
        version = new.version
        for user, code in ((users[1], "already_declined"), (other, "no_seat_held"), (stranger, "already_joined")):
            with pytest.raises(GameError) as caught:
                game_decline(game_id=new.pk, user=user)
            assert caught.value.code == code
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=users[1])
        assert (caught.value.code, caught.value.kind) == ("declined", "conflict")
        assert Game.objects.get(pk=new.pk).version == version
        # The last holders decline: nothing is held, the public rematch is in the lobby.
        game_decline(game_id=new.pk, user=users[2])
        game_decline(game_id=new.pk, user=users[3])
        new.refresh_from_db()
        assert new.holds_until_at is None
        assert new.pk in [game.pk for game in games_open_public()]

    def test_the_creator_opens_the_held_seats_early_once(self):
        old, users = finished_game(3, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        with pytest.raises(GameError) as caught:
            game_holds_open(game_id=new.pk, user=users[1])
        assert (caught.value.code, caught.value.kind) == ("not_creator", "forbidden")
        game_holds_open(game_id=new.pk, user=users[0])
        new.refresh_from_db()
        assert new.holds_until_at is None and not SeatHold.objects.filter(game=new).exists()
        assert new.pk in [game.pk for game in games_open_public()]
        version = new.version
        with pytest.raises(GameError) as caught:
            game_holds_open(game_id=new.pk, user=users[0])  # a double click
        assert caught.value.code == "no_seats_held"
        assert Game.objects.get(pk=new.pk).version == version
        # Anyone may join now; an old player too, as anyone (there is no hold left to decline).
        game_join(game_id=new.pk, user=UserFactory())
        with pytest.raises(GameError) as caught:
            game_decline(game_id=new.pk, user=users[1])
        assert caught.value.code == "no_seat_held"
        game_join(game_id=new.pk, user=users[1])
        with pytest.raises(GameError) as caught:
            game_rematch(game_id=old.pk, user=users[2])  # full and under way
        assert caught.value.code == "rematch_closed"

    def test_a_private_rematchs_opened_seats_go_by_the_invite_code_only(self):
        old, users = finished_game(3, visibility="private")
        new = game_rematch(game_id=old.pk, user=users[0])
        game_holds_open(game_id=new.pk, user=users[0])
        assert new.pk not in [game.pk for game in games_open_public()]
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=UserFactory())
        assert caught.value.code == "invite_required"
        game_join(game_id=new.pk, user=UserFactory(), invite_code=new.invite_code)

    def test_beat_opens_the_seats_when_the_hold_ends_once(self):
        old, users = finished_game(3, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        new.refresh_from_db()
        ends = new.holds_until_at
        assert holds_expire_due(now=ends - timedelta(seconds=1)) == 0
        assert not game_holds_expire(game_id=new.pk, now=ends - timedelta(seconds=1))
        assert SeatHold.objects.filter(game=new).count() == 2
        game_decline(game_id=new.pk, user=users[1])  # a declined hold stays: its player stays out
        assert holds_expire_due(now=ends) == 1
        assert holds_expire_due(now=ends) == 0  # again: nothing more to do
        assert not game_holds_expire(game_id=new.pk, now=ends)
        new.refresh_from_db()
        assert new.holds_until_at is None
        assert list(SeatHold.objects.filter(game=new).values_list("user", flat=True)) == [users[1].pk]
        assert new.pk in [game.pk for game in games_open_public()]
        game_join(game_id=new.pk, user=UserFactory())

    def test_the_beat_task_expires_held_seats_with_the_phases(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        Game.objects.filter(pk=new.pk).update(holds_until_at=timezone.now() - timedelta(seconds=1))
        expire_due_games()
        new.refresh_from_db()
        assert new.holds_until_at is None and not SeatHold.objects.filter(game=new).exists()

    def test_a_hold_past_its_time_holds_nothing_even_before_beat_comes(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        new.refresh_from_db()
        stranger = UserFactory()
        game_join(game_id=new.pk, user=stranger, now=new.holds_until_at)
        new.refresh_from_db()
        assert new.holds_until_at is None and not SeatHold.objects.filter(game=new).exists()
        with pytest.raises(GameError) as caught:
            game_decline(game_id=new.pk, user=users[1])
        assert caught.value.code == "no_seat_held"

    def test_starting_early_lets_the_held_seats_go(self):
        old, users = finished_game(4)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_join(game_id=new.pk, user=users[1])
        game_join(game_id=new.pk, user=users[2])
        from games.services.games import game_start

        game_start(game_id=new.pk, user=users[0])
        new.refresh_from_db()
        assert new.status == Game.Status.ACTIVE and new.holds_until_at is None
        assert list(games_held_for(user=users[3])) == []
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=users[3])
        assert caught.value.code == "not_open"

    def test_a_holder_who_joined_and_left_frees_an_ordinary_seat(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_join(game_id=new.pk, user=users[1])
        game_leave(game_id=new.pk, user=users[1])
        game_join(game_id=new.pk, user=UserFactory())  # the seat users[1] left is no longer held
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=UserFactory())
        assert caught.value.code == "seat_held"  # the last seat is still held for users[2]
        assert SeatHold.objects.filter(game=new, user=users[2]).exists()


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


class TestHeldSeatsOfAPerson:
    def test_the_export_lists_them_and_a_deleted_account_declines_them(self):
        from accounts.services import account_delete, account_export

        old, users = finished_game(3, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        exported = account_export(user=users[1])["seats_held"]
        assert [(row["game"], row["declined_at"]) for row in exported] == [(new.pk, None)]
        account_delete(user=users[1])
        hold = SeatHold.objects.get(game=new, user=users[1])
        assert hold.declined_at is not None  # the seat is open now, not in 48 hours
        game_join(game_id=new.pk, user=UserFactory())
        assert SeatHold.objects.filter(game=new, declined_at__isnull=True).count() == 1


class TestHeldSeatPages:
    def test_my_games_offers_join_and_decline_and_declining_opens_the_seat(self, client):
        old, users = finished_game(3, visibility="private")
        new = game_rematch(game_id=old.pk, user=users[0])
        client.force_login(users[1])
        page = client.get(reverse("games:mine")).content.decode()
        assert 'id="held-seats"' in page and f"{users[0].name} wants to play again: your seat is held until" in page
        assert reverse("games:join", args=[new.pk]) in page and reverse("games:decline", args=[new.pk]) in page
        fragment = client.get(reverse("games:mine_fragment")).content.decode()  # the live refresh shows it too
        assert reverse("games:decline", args=[new.pk]) in fragment
        # The private rematch's page is theirs to see, with the same two buttons.
        detail = client.get(new.get_absolute_url()).content.decode()
        assert "A seat is held for you in this rematch." in detail
        response = client.post(reverse("games:decline", args=[new.pk]))
        assert response.status_code == 302 and response.url == reverse("games:mine")
        assert SeatHold.objects.get(game=new, user=users[1]).declined_at is not None
        page = client.get(reverse("games:mine")).content.decode()
        assert 'id="held-seats"' not in page
        assert "You declined the rematch: your seat is open to others now." in page
        again = client.post(reverse("games:decline", args=[new.pk]), follow=True).content.decode()
        assert "You have already declined this rematch." in again
        assert "You declined this rematch." in client.get(new.get_absolute_url()).content.decode()

    def test_a_stranger_sees_the_seats_are_held_and_is_refused_then_the_creator_opens_them(self, client):
        old, users = finished_game(3, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        stranger = UserFactory()
        client.force_login(stranger)
        page = client.get(new.get_absolute_url()).content.decode()
        assert 'id="seats-held"' in page and 'id="seat-held-note"' in page
        assert reverse("games:join", args=[new.pk]) not in page
        refused = client.post(reverse("games:join", args=[new.pk]), follow=True).content.decode()
        assert "The seats left are held for the players of the last game" in refused
        assert not new.seats.filter(user=stranger).exists()
        client.force_login(users[0])
        page = client.get(new.get_absolute_url()).content.decode()
        assert reverse("games:open_seats", args=[new.pk]) in page
        assert reverse("bots:add", args=[new.pk]) not in page  # no free seat for a bot while they are held
        client.force_login(users[1])
        assert client.post(reverse("games:open_seats", args=[new.pk])).status_code == 302
        assert Game.objects.get(pk=new.pk).holds_until_at is not None  # not the creator: nothing changed
        client.force_login(users[0])
        client.post(reverse("games:open_seats", args=[new.pk]))
        assert Game.objects.get(pk=new.pk).holds_until_at is None
        client.force_login(stranger)
        assert reverse("games:join", args=[new.pk]) in client.get(new.get_absolute_url()).content.decode()
        client.post(reverse("games:join", args=[new.pk]))
        assert new.seats.filter(user=stranger).exists()

    def test_a_stranger_cannot_decline_or_open_a_private_rematch_it_is_not_found(self, client):
        old, users = finished_game(3, visibility="private")
        new = game_rematch(game_id=old.pk, user=users[0])
        client.force_login(UserFactory())
        assert client.post(reverse("games:decline", args=[new.pk])).status_code == 404
        assert client.post(reverse("games:open_seats", args=[new.pk])).status_code == 404
        assert client.get(new.get_absolute_url()).status_code == 404
        assert SeatHold.objects.filter(game=new, declined_at__isnull=True).count() == 2


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


def at_once(*calls):
    """Run the calls in threads released together; each one's result or GameError code, in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except GameError as error:
            outcomes[index] = error.code
        except Exception as error:  # noqa: BLE001 - reported by the assertions
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="writers at once need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
class TestHeldSeatRaces:
    def test_ten_joins_at_once_for_a_held_seat_let_in_only_its_holder(self):
        old, users = finished_game(3, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        strangers = UserFactory.create_batch(9)
        calls = [lambda user=user: game_join(game_id=new.pk, user=user).pk for user in [*strangers[:4], users[1]]]
        calls += [lambda user=user: game_join(game_id=new.pk, user=user).pk for user in strangers[4:]]
        outcomes = at_once(*calls)
        assert outcomes[4] == new.pk
        assert outcomes[:4] + outcomes[5:] == ["seat_held"] * 9
        assert sorted(new.seats.values_list("user", flat=True)) == sorted([users[0].pk, users[1].pk])
        assert list(SeatHold.objects.filter(game=new).values_list("user", flat=True)) == [users[2].pk]

    def test_a_double_click_on_join_or_on_decline_changes_the_game_once(self):
        old, users = finished_game(4)
        new = game_rematch(game_id=old.pk, user=users[0])
        version = Game.objects.get(pk=new.pk).version
        joined = at_once(*[lambda: game_join(game_id=new.pk, user=users[1]).pk] * 2)
        assert sorted(joined, key=str) == sorted([new.pk, "already_joined"], key=str)
        declined = at_once(*[lambda: game_decline(game_id=new.pk, user=users[2]).pk] * 2)
        assert sorted(declined, key=str) == sorted([new.pk, "already_declined"], key=str)
        assert Game.objects.get(pk=new.pk).version == version + 2
        assert new.seats.count() == 2

    def test_joining_and_declining_at_once_do_one_of_them(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        outcomes = at_once(
            lambda: game_join(game_id=new.pk, user=users[1]).pk, lambda: game_decline(game_id=new.pk, user=users[1]).pk
        )
        seated = new.seats.filter(user=users[1]).exists()
        declined = SeatHold.objects.filter(game=new, user=users[1], declined_at__isnull=False).exists()
        assert seated != declined
        assert outcomes == ([new.pk, "already_joined"] if seated else ["declined", new.pk])

    def test_the_expiry_and_a_holders_join_at_once(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        new.refresh_from_db()
        ends = new.holds_until_at
        outcomes = at_once(
            lambda: game_holds_expire(game_id=new.pk, now=ends),
            lambda: game_join(game_id=new.pk, user=users[1], now=ends - timedelta(seconds=1)).pk,
        )
        assert outcomes[1] == new.pk  # a seat held or not, they are let in
        new.refresh_from_db()
        assert new.holds_until_at is None and not SeatHold.objects.filter(game=new).exists()
        assert new.seats.filter(user=users[1]).exists()


class TestThePresserLeaves:
    """Issue 37, item 10: the rematch survives its presser. Leaving it before the start hands it to the next player
    of the old table; the seats it holds stay held."""

    def test_the_next_old_player_takes_it_over_and_the_held_seats_stay_held(self):
        old, users = finished_game(4, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[1])
        new.refresh_from_db()
        until = new.holds_until_at
        game_leave(game_id=new.pk, user=users[1])
        new.refresh_from_db()
        assert new.status == Game.Status.OPEN and new.seats.count() == 0
        assert new.creator_id == users[2].pk  # the next seat of the old table after the presser's
        assert new.holds_until_at == until
        held = SeatHold.objects.filter(game=new, declined_at__isnull=True)
        assert sorted(held.values_list("user", flat=True)) == sorted([users[0].pk, users[2].pk, users[3].pk])
        assert new.pk not in [game.pk for game in games_open_public()]  # still not in the lobby while held
        # The seat the presser left is an ordinary one now; the held ones are still their players' only.
        game_join(game_id=new.pk, user=UserFactory())
        with pytest.raises(GameError) as caught:
            game_join(game_id=new.pk, user=UserFactory())
        assert caught.value.code == "seat_held"
        # Its new creator takes their seat and may do what a creator does; the others come as before.
        game_join(game_id=new.pk, user=users[2])
        game_join(game_id=new.pk, user=users[0])
        game_holds_open(game_id=new.pk, user=users[2])
        new.refresh_from_db()
        assert new.holds_until_at is None and new.creator_id == users[2].pk

    def test_an_old_player_already_seated_comes_before_one_whose_seat_is_held(self):
        old, users = finished_game(4)
        new = game_rematch(game_id=old.pk, user=users[2])
        game_join(game_id=new.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[2])
        new.refresh_from_db()
        assert new.creator_id == users[0].pk  # users[3] is next round the table, but not there yet
        assert sorted(SeatHold.objects.filter(game=new).values_list("user", flat=True)) == [users[1].pk, users[3].pk]
        assert list(new.seats.values_list("user", "position")) == [(users[0].pk, 0)]

    def test_a_creator_whose_seat_is_held_sits_down_before_starting_or_opening_seats(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[0])
        new.refresh_from_db()
        assert new.creator_id == users[1].pk
        version = new.version
        for act in (game_holds_open, game_start):
            with pytest.raises(GameError) as caught:
                act(game_id=new.pk, user=users[1])
            assert (caught.value.code, caught.value.kind) == ("not_a_player", "forbidden")
        assert Game.objects.get(pk=new.pk).version == version and new.holds_until_at is not None

    def test_declining_hands_it_on_and_the_last_decline_cancels_a_rematch_nobody_is_left_in(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[0])
        game_decline(game_id=new.pk, user=users[1])
        new.refresh_from_db()
        assert new.status == Game.Status.OPEN and new.creator_id == users[2].pk
        game_decline(game_id=new.pk, user=users[2])
        new.refresh_from_db()
        assert new.status == Game.Status.CANCELLED

    def test_when_the_holds_end_a_creator_who_never_came_hands_it_to_one_seated(self):
        old, users = finished_game(4, visibility="public")
        new = game_rematch(game_id=old.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[0])
        stranger = UserFactory()
        game_join(game_id=new.pk, user=stranger)  # the seat the presser left
        new.refresh_from_db()
        assert new.creator_id == users[1].pk
        assert game_holds_expire(game_id=new.pk, now=new.holds_until_at)
        new.refresh_from_db()
        assert new.status == Game.Status.OPEN and new.creator_id == stranger.pk
        assert new.pk in [game.pk for game in games_open_public()]

    def test_when_the_holds_end_with_nobody_seated_it_is_cancelled(self):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[0])
        new.refresh_from_db()
        game_holds_expire(game_id=new.pk, now=new.holds_until_at)
        new.refresh_from_db()
        assert new.status == Game.Status.CANCELLED

    def test_left_with_bots_only_the_game_is_cancelled(self):
        old, users = finished_game(3)
        make_bot(users[2])
        new = game_rematch(game_id=old.pk, user=users[0])
        game_decline(game_id=new.pk, user=users[1])
        game_leave(game_id=new.pk, user=users[0])
        new.refresh_from_db()
        assert new.status == Game.Status.CANCELLED  # a bot starts nothing, and no seat is held

    def test_my_games_tells_the_new_creator_the_rematch_is_theirs(self, client):
        old, users = finished_game(3)
        new = game_rematch(game_id=old.pk, user=users[0])
        game_leave(game_id=new.pk, user=users[0])
        client.force_login(users[1])
        page = client.get(reverse("games:mine")).content.decode()
        assert "The player who asked for this rematch left it: it is yours now." in page
        assert reverse("games:join", args=[new.pk]) in page
        client.force_login(users[2])
        assert f"{users[1].name} wants to play again" in client.get(reverse("games:mine")).content.decode()
