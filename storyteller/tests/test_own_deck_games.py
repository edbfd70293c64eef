"""Playing on a player's own deck (issue 33): the options `deck` and `own_cards_only`, the top-up from the
site's deck, 409 `deck_too_small`, 404 for a deck one may not use, the dealing, the pictures' URLs."""

import random

import pytest
from django.urls import reverse

from accounts.services import token_create
from games.models import Game
from games.services.errors import GameError
from games.services.games import game_create, game_join, game_rematch
from games.tests.api.conftest import error_of
from games.tests.api.openapi import CheckedClient
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.play import play_step, view_for
from storyteller.decks.services.cards import own_cards_needed
from storyteller.engine import rules as engine
from storyteller.forms import StorytellerOptionsForm
from storyteller.models import Card, Deck

from .own_decks import own_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def dream(db):
    return deck_with_cards(84, slug="dream", name="Dreams")


def api_player(**kwargs):
    user = UserFactory(**kwargs)
    _token, secret = token_create(user=user, name="tests")
    return user, CheckedClient(secret, user=user)


def all_cards(state: engine.State) -> set[int]:
    return {card for hand in state.hands for card in hand} | set(state.draw_pile)


class TestOptionsByApi:
    def test_own_cards_only_on_a_deck_that_holds_the_deal_and_a_round(self, dream):
        anna, client = api_player()
        deck = own_deck(anna, own_cards_needed(4))  # 24 + 4
        response = client.post("/games", {"seats": 4, "deck": deck.pk, "own_cards_only": True})
        assert response.status_code == 201, response.content
        view = response.json()
        assert view["options"]["deck"] == deck.pk and view["options"]["own_cards_only"] is True
        assert "top_up" not in view["options"]
        assert view["deck"] == {
            "id": deck.pk,
            "name": "Holiday",
            "owned_by": anna.username,
            "owned_by_name": anna.name,
            "topped_up": False,
        }

    def test_own_cards_only_on_too_small_a_deck_is_409(self, dream):
        anna, client = api_player()
        deck = own_deck(anna, own_cards_needed(4) - 1)
        response = client.post("/games", {"seats": 4, "deck": deck.pk, "own_cards_only": True})
        assert error_of(response) == (409, "deck_too_small")
        assert "27 cards; 4 players need at least 28" in response.json()["error"]["message"]
        assert not Game.objects.exists()

    def test_a_site_deck_too_small_is_409_too(self, dream):
        _anna, client = api_player()
        small = deck_with_cards(20, name="Small")
        assert error_of(client.post("/games", {"seats": 4, "deck": small.pk})) == (409, "deck_too_small")

    def test_another_players_deck_is_404_as_a_deck_that_does_not_exist(self, dream):
        _anna, client = api_player()
        bert = UserFactory()
        hidden = own_deck(bert, 30)
        assert error_of(client.post("/games", {"seats": 4, "deck": hidden.pk})) == (404, "not_found")
        assert error_of(client.post("/games", {"seats": 4, "deck": 999999})) == (404, "not_found")
        assert error_of(client.post("/games", {"seats": 4, "deck": "mine"}))[0] == 400
        assert not Game.objects.exists()

    def test_a_removed_deck_of_ones_own_is_404(self, dream):
        anna, client = api_player()
        deck = own_deck(anna, 30)
        deck.removed_at = deck.created_at
        deck.save(update_fields=["removed_at"])
        assert error_of(client.post("/games", {"seats": 4, "deck": deck.pk})) == (404, "not_found")

    def test_a_deck_shared_with_you_is_yours_to_play(self, dream):
        bert = UserFactory()
        anna, client = api_player()
        deck = own_deck(bert, 30, name="Bert's beach", shared_with=[anna])
        # A private game: a public one is its owner's to make (409 deck_private: test_deck_privacy).
        body = {"seats": 4, "deck": deck.pk, "own_cards_only": True, "visibility": "private"}
        response = client.post("/games", body)
        assert response.status_code == 201, response.content
        assert response.json()["deck"]["owned_by"] == bert.username

    @pytest.mark.parametrize("value", ["yes", 1])
    def test_own_cards_only_is_a_boolean(self, dream, value):
        _anna, client = api_player()
        assert error_of(client.post("/games", {"seats": 4, "own_cards_only": value}))[0] == 400

    def test_own_cards_only_means_nothing_for_a_site_deck(self, dream):
        _anna, client = api_player()
        response = client.post("/games", {"seats": 4, "deck": dream.pk, "own_cards_only": True})
        assert response.status_code == 201
        assert Game.objects.get().options["deck"] == dream.pk
        assert "own_cards_only" not in Game.objects.get().options


class TestTopUp:
    def test_a_small_deck_is_topped_up_from_the_site_deck_to_its_size(self, dream):
        anna = UserFactory()
        deck = own_deck(anna, 10)
        game = game_create(creator=anna, max_seats=4, options={"deck": deck.pk})
        assert game.options["top_up"] == dream.pk and game.options["own_cards_only"] is False
        for user in UserFactory.create_batch(3):
            game_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        cards = all_cards(engine.from_dict(game.state))
        own = set(deck.cards.values_list("pk", flat=True))
        assert own <= cards  # every own picture is dealt
        assert len(cards) == 84  # and the game is as long as on the site's deck
        assert set(Card.objects.filter(pk__in=cards - own).values_list("deck_id", flat=True)) == {dream.pk}

    def test_a_deck_as_large_as_the_site_deck_is_not_topped_up(self, dream):
        anna = UserFactory()
        deck = own_deck(anna, 84)
        game = game_create(creator=anna, max_seats=3, options={"deck": deck.pk})
        assert "top_up" not in game.options

    def test_own_cards_only_deals_own_cards_only(self, dream):
        anna = UserFactory()
        deck = own_deck(anna, 30)
        game = game_create(creator=anna, max_seats=4, options={"deck": deck.pk, "own_cards_only": True})
        for user in UserFactory.create_batch(3):
            game_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        assert all_cards(engine.from_dict(game.state)) == set(deck.cards.values_list("pk", flat=True))

    def test_cards_removed_before_the_start_are_made_up_so_the_game_starts(self, dream):
        anna = UserFactory()
        deck = own_deck(anna, 28)
        game = game_create(creator=anna, max_seats=4, options={"deck": deck.pk, "own_cards_only": True})
        Card.objects.filter(pk=deck.cards.first().pk).update(removed_at=deck.created_at)
        for user in UserFactory.create_batch(3):
            game_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        cards = all_cards(engine.from_dict(game.state))
        assert len(cards) == 28 and len(cards - set(deck.cards.values_list("pk", flat=True))) == 1

    def test_a_game_on_an_own_deck_plays_to_its_end(self, dream):
        users = UserFactory.create_batch(3)
        deck = own_deck(users[0], 30)
        game = game_create(creator=users[0], max_seats=3, options={"deck": deck.pk, "own_cards_only": True})
        for user in users[1:]:
            game_join(game_id=game.pk, user=user)
        rng = random.Random(3)
        while play_step(game, users, rng):
            pass
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED

    def test_a_rematch_by_another_player_goes_on_with_the_deck(self, dream):
        users = UserFactory.create_batch(3)
        deck = own_deck(users[0], 30)
        game = game_create(creator=users[0], max_seats=3, options={"deck": deck.pk, "own_cards_only": True})
        for user in users[1:]:
            game_join(game_id=game.pk, user=user)
        rng = random.Random(4)
        while play_step(game, users, rng):
            pass
        rematch = game_rematch(game_id=game.pk, user=users[1])
        assert rematch.options["deck"] == deck.pk and rematch.options["own_cards_only"] is True
        assert "rematch_of" not in rematch.options
        # Not a way into a deck for anyone else: the option comes from the kind, never from a client.
        with pytest.raises(GameError) as error:
            game_create(creator=UserFactory(), max_seats=3, options={"deck": deck.pk, "rematch_of": 999})
        assert error.value.code == "not_found"


class TestDeckLabel:
    def test_a_game_on_a_deck_removed_since_names_no_deck(self, dream):
        anna = UserFactory()
        deck = own_deck(anna, 30)
        game = game_create(creator=anna, max_seats=3, options={"deck": deck.pk, "own_cards_only": True})
        Deck.objects.filter(pk=deck.pk).update(removed_at=deck.created_at, name="", owner=None)
        assert "deck" not in view_for(game, anna)

    def test_a_site_deck_is_named_without_an_owner(self, dream):
        anna = UserFactory()
        game = game_create(creator=anna, max_seats=3)
        assert view_for(game, anna)["deck"] == {
            "id": dream.pk,
            "name": "Dreams",
            "owned_by": None,
            "owned_by_name": "",
            "topped_up": False,
        }


class TestPictures:
    def test_a_hand_shows_the_own_decks_pictures_by_the_url_that_serves_them(self, dream):
        anna, client = api_player()
        deck = own_deck(anna, 30)
        created = client.post("/games", {"seats": 3, "deck": deck.pk, "own_cards_only": True}).json()
        for _ in range(2):
            _user, other = api_player()
            assert other.post(f"/games/{created['id']}/join", {}).status_code == 200
        view = client.get(f"/games/{created['id']}").json()
        assert len(view["hand"]) == 7
        for card in view["hand"]:
            assert card["image"].startswith("http://testserver/media/cards/own/"), card["image"]
            assert "removed" not in card and "hidden" not in card  # only sent (true) for a placeholder
        name = view["hand"][0]["image"].removeprefix("http://testserver/media/")
        assert reverse("card_picture", args=[name.removeprefix("cards/")]).endswith(name)


class TestForm:
    def test_the_form_offers_ones_own_and_shared_decks_never_anothers(self, dream):
        anna, bert, carl = UserFactory.create_batch(3)
        own_deck(anna, 12, name="Mine")
        own_deck(bert, 30, name="Shared", shared_with=[anna])
        own_deck(carl, 30, name="Carl's secret")
        html = StorytellerOptionsForm(user=anna).as_p()
        assert "Mine (12 cards)" in html
        assert f"Shared ({bert.name}&#x27;s deck, 30 cards)" in html
        assert "Carl" not in html and "Dreams" in html
        assert "Own cards only" in html
        assert "Mine" not in StorytellerOptionsForm(user=bert).as_p()
