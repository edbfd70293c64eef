"""Which deck a new game is dealt from, and what retiring does to games."""

import random

import pytest

from games.engine.errors import RuleError
from games.models import Game
from games.services.errors import GameError
from games.services.games import game_create
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_step
from storyteller.decks.services.cards import cards_restore, cards_retire, decks_set_active, storyteller_cards_needed
from storyteller.engine import rules as engine
from storyteller.models import Card

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_cards_needed_agrees_with_the_engine(seats):
    needed = storyteller_cards_needed(seats)
    engine.new_game(seats=seats, deck=range(needed), rng=random.Random(0))
    with pytest.raises(RuleError) as error:
        engine.new_game(seats=seats, deck=range(needed - 1), rng=random.Random(0))
    assert error.value.code == "deck_too_small"


class TestDefaultDeck:
    def test_the_illustrated_deck_is_the_default(self):
        deck_with_cards(40, name="Older")
        dream = deck_with_cards(84, slug="dream", name="Dreams")
        game = game_create(creator=UserFactory(), max_seats=4)
        assert game.options["deck"] == dream.pk

    def test_without_it_the_oldest_deck_that_can_deal_the_game(self):
        deck_with_cards(20, name="Too small for four")
        deck_with_cards(40, name="Retired", is_active=False)
        playable = deck_with_cards(30, name="Playable")
        deck_with_cards(30, name="Younger")
        assert game_create(creator=UserFactory(), max_seats=4).options["deck"] == playable.pk

    def test_a_retired_or_small_illustrated_deck_is_passed_over(self):
        other = deck_with_cards(40)
        dream = deck_with_cards(84, slug="dream")
        decks_set_active(decks=[dream], is_active=False)
        assert game_create(creator=UserFactory(), max_seats=4).options["deck"] == other.pk
        decks_set_active(decks=[dream], is_active=True)
        cards_retire(cards=dream.cards.all()[:70])
        assert game_create(creator=UserFactory(), max_seats=4).options["deck"] == other.pk

    def test_no_deck_at_all(self):
        deck_with_cards(20)
        with pytest.raises(GameError) as error:
            game_create(creator=UserFactory(), max_seats=4)
        assert error.value.code == "no_deck"
        assert "no card deck with enough cards for 4 players" in str(error.value.message)
        assert Game.objects.count() == 0


class TestChosenDeck:
    def test_a_retired_deck_is_refused(self):
        deck = deck_with_cards(40, name="Old pictures", is_active=False)
        with pytest.raises(GameError) as error:
            game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk})
        assert error.value.code == "deck_retired" and error.value.kind == "invalid"
        assert "“Old pictures” is retired" in str(error.value.message)
        assert Game.objects.count() == 0

    def test_a_deck_too_small_for_the_seats_is_refused(self):
        deck = deck_with_cards(30, name="Small")
        game_create(creator=UserFactory(), max_seats=5, options={"deck": deck.pk})  # 5 × 6 = 30
        with pytest.raises(GameError) as error:
            game_create(creator=UserFactory(), max_seats=6, options={"deck": deck.pk})
        assert error.value.code == "deck_too_small"
        assert "“Small” has 30 cards; 6 players need at least 36" in str(error.value.message)

    def test_retired_cards_do_not_count(self):
        deck = deck_with_cards(24)
        cards_retire(cards=deck.cards.all()[:1])
        with pytest.raises(GameError):
            game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk})


class TestRetiring:
    def test_retiring_cards_leaves_a_running_game_as_it_was(self):
        deck = deck_with_cards(40)
        game, users = started_game(4, deck=deck)
        rng = random.Random(5)
        for _ in range(7):  # into the second round
            play_step(game, users, rng)
        game.refresh_from_db()
        before = (game.state, game.version)
        retired = cards_retire(cards=deck.cards.all())
        assert retired == 40
        game.refresh_from_db()
        assert (game.state, game.version) == before
        # ... and the game plays on with the cards it holds, to its end.
        while play_step(game, users, rng):
            pass
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED

    def test_a_retired_card_is_dealt_in_no_new_game(self):
        deck = deck_with_cards(25)
        retired = list(deck.cards.order_by("pk")[:4])
        cards_retire(cards=retired)
        for _ in range(3):
            game, _ = started_game(3, deck=deck)  # 21 of the 21 cards in play
            state = engine.from_dict(game.state)
            dealt = {card for hand in state.hands for card in hand} | set(state.draw_pile)
            assert dealt.isdisjoint(card.pk for card in retired)
            assert len(dealt) == 21

    def test_restore_needs_an_alt_text(self):
        deck = deck_with_cards(3)
        first, second, third = deck.cards.order_by("pk")
        Card.objects.filter(pk=second.pk).update(alt_text="")
        cards_retire(cards=[first, second])
        assert cards_restore(cards=[first, second, third]) == (1, 1)
        assert list(deck.cards.order_by("pk").values_list("is_retired", flat=True)) == [False, True, False]
