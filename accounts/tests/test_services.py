"""What the others see of an account changes everywhere at once: its games move on their versions (the key
every process caches their views under) and their pages hear of it; a deleted player has no profile link."""

import random

import pytest
from django.urls import reverse

from accounts.forms import ProfileForm
from accounts.services import account_delete, profile_save
from games.models import Game
from games.services import events
from games.services.games import game_create
from games.tests.factories import deck_with_cards, started_game
from games.tests.layers import heard
from games.tests.play import play_to_end
from stats.services import stats_rebuild

pytestmark = pytest.mark.django_db


def versions(*games) -> list[int]:
    return [Game.objects.get(pk=game.pk).version for game in games]


def test_deleting_moves_on_every_game_of_the_account_and_no_other():
    deck = deck_with_cards()
    playing, (ann, bob, cy, di) = started_game(4, deck=deck)
    finished, (eve, fay, gil) = started_game(3, deck=deck)
    play_to_end(finished, [eve, fay, gil], random.Random(1))
    made = game_create(creator=eve, max_seats=4, options={"deck": deck.pk})
    other, _others = started_game(3, deck=deck)
    before = versions(playing, finished, made, other)

    account_delete(user=eve)

    after = versions(playing, finished, made, other)
    assert after[1] > before[1]  # a finished game she sat in
    assert after[2] > before[2]  # the game she made (and left: it is cancelled)
    assert after[0] == before[0] and after[3] == before[3]


def test_the_pages_of_each_game_hear_of_it_after_commit(django_capture_on_commit_callbacks):
    game, (ann, bob, cy, di) = started_game(4)
    play_to_end(game, [ann, bob, cy, di], random.Random(2))
    game.refresh_from_db()

    def change():
        with django_capture_on_commit_callbacks(execute=True):
            account_delete(user=ann)

    (message,) = heard([events.game_group(game.pk)], change)
    assert message == {"type": "game.changed", "game": game.pk, "version": Game.objects.get(pk=game.pk).version}


def test_a_new_display_name_or_colour_moves_the_games_on_and_an_unchanged_profile_does_not():
    game, (ann, *_others) = started_game(3)
    version = versions(game)[0]
    profile_save(form=_valid(ProfileForm({"display_name": ann.display_name, "colour": ann.colour}, instance=ann)))
    assert versions(game)[0] == version
    profile_save(form=_valid(ProfileForm({"display_name": "Annika", "colour": ann.colour}, instance=ann)))
    assert versions(game)[0] == version + 1
    profile_save(form=_valid(ProfileForm({"display_name": "Annika", "colour": "green"}, instance=ann)))
    assert versions(game)[0] == version + 2


def _valid(form):
    assert form.is_valid(), form.errors
    return form


def test_a_deleted_player_is_named_but_never_linked(client):
    game, users = started_game(3)
    play_to_end(game, users, random.Random(3))
    stats_rebuild(now=Game.objects.get(pk=game.pk).finished_at)
    gone, bob = users[0], users[1]
    account_delete(user=gone)
    client.force_login(bob)
    for url in (
        reverse("games:board", args=[game.pk]),
        reverse("stats:replay", args=[game.pk]),
        reverse("stats:leaderboard", args=["storyteller", "rating"]),
        reverse("stats:player", args=[bob.username]),
    ):
        page = client.get(url).content.decode()
        assert "deleted player" in page, url
        assert "/players/~deleted" not in page, url
