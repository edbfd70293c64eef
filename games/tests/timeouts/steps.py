"""Moving a Storyteller game to the situation a timeout test needs, with an injected clock.

Seats are the users' indexes: ``started_game`` seats its users in order.
"""

from datetime import datetime, timedelta

from games.models import Game
from games.services.games import game_act, game_expire
from storyteller.engine import rules as engine


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def due(game: Game) -> datetime:
    """A moment just after the game's deadline."""
    game.refresh_from_db()
    return game.deadline_at + timedelta(seconds=1)


def expire(game: Game, now: datetime | None = None) -> bool:
    """Let the current phase's deadline pass, as the beat task would."""
    game.refresh_from_db()
    return game_expire(game_id=game.pk, version=game.version, now=now or due(game))


def clue(game: Game, user, seat: int, now: datetime | None = None) -> None:
    card = state_of(game).hands[seat][0]
    game_act(game_id=game.pk, user=user, action={"type": "clue", "card": card, "text": "far away"}, now=now)


def submit(game: Game, user, seat: int, now: datetime | None = None) -> None:
    state = state_of(game)
    cards = list(state.hands[seat][: engine.cards_to_submit(state)])
    game_act(game_id=game.pk, user=user, action={"type": "submit", "cards": cards}, now=now)


def vote(game: Game, user, position: int, now: datetime | None = None) -> None:
    game_act(game_id=game.pk, user=user, action={"type": "vote", "position": position}, now=now)


def storyteller_position(game: Game) -> int:
    state = state_of(game)
    return state.table.index(state.storyteller_card) + 1


def position_of_card_of(game: Game, seat: int) -> int:
    state = state_of(game)
    return state.table.index(state.submissions[seat][0]) + 1


def any_other_position(game: Game, seat: int) -> int:
    """A position ``seat`` may vote for (not its own card)."""
    state = state_of(game)
    own = set(state.submissions.get(seat, ()))
    return next(p for p, card in enumerate(state.table, start=1) if card not in own)


def to_vote(game: Game, users, teller: int = 0) -> None:
    """``teller`` gives the first clue and everyone else hands in a card."""
    clue(game, users[teller], teller)
    for seat, user in enumerate(users):
        if seat != teller:
            submit(game, user, seat)


def leave_absent(game: Game, users, absent: set[int], teller: int = 1) -> None:
    """Round 1: ``teller`` gives the first clue; the seats in ``absent`` miss the
    submission and the vote, two deadlines in a row, and are absent after it."""
    clue(game, users[teller], teller)
    present = [seat for seat in range(len(users)) if seat != teller and seat not in absent]
    for seat in present:
        submit(game, users[seat], seat)
    assert expire(game)
    for seat in present:
        vote(game, users[seat], any_other_position(game, seat))
    assert expire(game)
