"""Storyteller rounds played through the services with every choice made by the test."""

from games.services.games import game_act
from storyteller.engine import rules as engine


def state_of(game):
    game.refresh_from_db()
    return engine.from_dict(game.state)


def play_round(game, users, *, storyteller: int, votes_for):
    """The storyteller tells their first card, the others hand in their first cards,
    and each voter votes for the card ``votes_for(voter, told, submitted)`` names."""
    state = state_of(game)
    told = state.hands[storyteller][0]
    game_act(game_id=game.pk, user=users[storyteller], action={"type": "clue", "card": told, "text": "a dream"})
    state = state_of(game)
    submitted = {}
    for seat, user in enumerate(users):
        if seat != storyteller:
            cards = list(state.hands[seat][: engine.cards_to_submit(state)])
            submitted[seat] = cards
            game_act(game_id=game.pk, user=user, action={"type": "submit", "cards": cards})
    state = state_of(game)
    for seat, user in enumerate(users):
        if seat != storyteller:
            card = votes_for(seat, told, submitted)
            game_act(game_id=game.pk, user=user, action={"type": "vote", "position": state.table.index(card) + 1})
    return told, submitted


def play_three_rounds(game, users):
    """Three players, three rounds: the storyteller's card found by one voter of
    two, then by both, then by neither (each voter takes the other's decoy)."""
    return (
        play_round(game, users, storyteller=0, votes_for=lambda seat, told, sub: told if seat == 1 else sub[1][0]),
        play_round(game, users, storyteller=1, votes_for=lambda seat, told, sub: told),
        play_round(game, users, storyteller=2, votes_for=lambda seat, told, sub: sub[1 - seat][0]),
    )
