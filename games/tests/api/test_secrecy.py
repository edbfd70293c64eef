"""In every phase, each player's API view holds nothing of another player's hand,
submissions or votes before the reveal (checked against the engine's state after
every single action of whole games)."""

import random

import pytest

from games.models import Game
from games.tests.factories import deck_with_cards
from storyteller.models import Card

from .conftest import load_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(db):
    return deck_with_cards(36)  # three or four rounds: every phase, several times, in a few seconds


# alt_lang: the language of the picture's words where they are not the viewer's, the same for every viewer
TABLE_CARD_KEYS = {"position", "image", "alt", "alt_lang", "mine"}


def cards_in(value, path=()):
    """Every card object in a view: (path, card)."""
    if isinstance(value, dict):
        if "image" in value:
            yield path, value
        for key, item in value.items():
            yield from cards_in(item, path + (key,))
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item, path)


def keys_in(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


def check_view(view: dict, state: dict, seat: int, card_of_image: dict[str, int]):
    seats = len(state["hands"])
    others = [s for s in range(seats) if s != seat]
    submissions = {int(s): cards for s, cards in state["submissions"].items()}
    storyteller = state["storyteller"]
    secret_hands = {card for s in others for card in state["hands"][s]}
    secret_played = {card for s in others for card in submissions.get(s, ())}
    if storyteller is not None and storyteller != seat and state["storyteller_card"] is not None:
        secret_played.add(state["storyteller_card"])
    mine_played = set(submissions.get(seat, ())) | (
        {state["storyteller_card"]} if storyteller == seat and state["storyteller_card"] else set()
    )
    revealed = {card for result in ([state["last_round"]] if state["last_round"] else []) for card in result["table"]}

    for path, card in cards_in(view):
        card_id = card_of_image[card["image"]]
        assert card_id not in secret_hands, f"seat {seat} sees a card of another hand at {path}"
        if card_id in secret_played and card_id not in revealed:
            # Another player's card in play: on the table only, anonymous.
            assert path == ("table",) and set(card) <= TABLE_CARD_KEYS and card["mine"] is False, path
        if path == ("table",):
            assert set(card) <= TABLE_CARD_KEYS, card
            assert card["mine"] == (card_id in mine_played)
        if "id" in card:
            assert card["id"] == str(card_id)

    hand_ids = {int(card["id"]) for card in view["hand"]}
    assert hand_ids == set(state["hands"][seat])
    # Votes of this round: the viewer's own at most; nothing says who voted for what.
    if state["phase"] == "vote":
        assert view["you"]["vote"] == state["votes"].get(str(seat))
        assert "voters" not in set(keys_in({k: v for k, v in view.items() if k != "last_round"}))
        assert "owner" not in set(keys_in({k: v for k, v in view.items() if k != "last_round"}))
    if view["last_round"] is not None:
        assert view["last_round"]["round"] < state["round"] or state["phase"] == "finished"


choose_action = load_bot().choose_action


def check_all(game_id, players, card_of_image):
    """Every player's view, each checked against the engine's state."""
    state = Game.objects.get(pk=game_id).state
    views = []
    for seat, (_user, client) in enumerate(players):
        view = client.get(f"/games/{game_id}").json()
        assert view["you"]["seat"] == seat
        if state is not None:
            check_view(view, state, seat, card_of_image)
        views.append((client, view))
    return state, views


@pytest.mark.parametrize("players", [3, 4, 6])
def test_no_view_leaks_before_the_reveal(seated, players):
    game_id, users = seated(players)
    card_of_image = {f"http://testserver{card.image.url}": card.pk for card in Card.objects.all()}
    rng = random.Random(players)
    phases_seen = set()
    for _ in range(500):
        state, views = check_all(game_id, users, card_of_image)
        if views[0][1]["status"] != "active":
            break
        phases_seen.add(views[0][1]["phase"])
        client, view = rng.choice([(c, v) for c, v in views if v["you"]["to_act"]])
        action = choose_action(view, rng)  # the example bot's random choice
        assert client.post(f"/games/{game_id}/actions", action).status_code == 200
    assert Game.objects.get(pk=game_id).status == "finished"
    assert phases_seen == {"clue", "submit", "vote"}
    assert state["last_round"] is not None


def test_spectators_see_no_hand_and_no_owner(seated, make_player):
    game_id, users = seated(3)
    _viewer, spectator = make_player()
    view = spectator.get(f"/games/{game_id}").json()
    assert view["hand"] == [] and view["you"]["to_act"] is False
    assert list(cards_in(view)) == []
