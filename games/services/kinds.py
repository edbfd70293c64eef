"""What the services need to know about each kind of game, beside its engine."""

from dataclasses import dataclass
from typing import Callable

from django.utils.translation import gettext_lazy as _

from games.engine import storyteller, think_alike
from games.models import Card, CardDeal, Game, StorytellerRound, StorytellerTableCard

from games.engine.errors import RuleError

from .errors import GameError, from_rule_error
from .think_alike import think_alike_new_state, think_alike_record


@dataclass(frozen=True)
class KindSpec:
    engine: object
    min_seats: int
    max_seats: int
    new_state: Callable  # (game, rng) -> engine state
    record_rounds: Callable  # (game, before, after, now) -> None: rounds and card figures
    timed: bool = False  # the engine's apply, expire and resign take ``now`` (a time limit)


def _storyteller_new_state(game: Game, rng):
    card_ids = list(Card.objects.in_play().filter(deck_id=game.deck_id).values_list("id", flat=True))
    options = storyteller.Options(
        hand_size=game.options.get("hand_size"),
        target_score=game.options.get("target_score"),
    )
    try:
        return storyteller.new_game(seats=game.seats.count(), deck=card_ids, rng=rng, options=options)
    except RuleError as error:
        raise from_rule_error(error) from None


def storyteller_cards_needed(seats: int) -> int:
    """Cards a deck must hold in play to deal a game of ``seats`` players.

    The engine deals every hand at the start (rules: 7 cards each with 3
    players, 6 otherwise) and refuses a smaller deck; a test keeps the two agreeing.
    """
    return (7 if seats == 3 else 6) * seats


def _storyteller_record(game: Game, before, after, now) -> None:
    _storyteller_record_deals(game, before, after, now)
    _storyteller_record_rounds(game, before, after, now)


def _storyteller_record_deals(game: Game, before, after, now) -> None:
    """A row per card that left the draw pile for a hand: the only way cards leave it."""
    if before is None:
        dealt = [card for hand in after.hands for card in hand]
    else:
        still = set(after.draw_pile)
        dealt = [card for card in before.draw_pile if card not in still]
    CardDeal.objects.bulk_create(CardDeal(game=game, card_id=card, dealt_at=now) for card in dealt)


def _storyteller_record_rounds(game: Game, before, after, now) -> None:
    done = len(before.history) if before is not None else 0
    new_rounds = after.history[done:]
    if not new_rounds:
        return
    rows = []
    # Scores after each new round: the final scores minus the points of later new rounds.
    running = list(after.scores)
    after_scores = []
    for result in reversed(new_rounds):
        after_scores.append(list(running))
        for seat, pts in result.points.items():
            running[seat] -= pts
    after_scores.reverse()
    for result, scores in zip(new_rounds, after_scores):
        votes_by_position: dict[int, list[int]] = {}
        for voter, position in sorted(result.votes.items()):
            votes_by_position.setdefault(position, []).append(voter)
        table = [
            {
                "position": index + 1,
                "card": card,
                "owner": result.owners[card],
                "voters": votes_by_position.get(index + 1, []),
            }
            for index, card in enumerate(result.table)
        ]
        rows.append(
            StorytellerRound(
                game=game,
                number=result.round,
                storyteller=result.storyteller,
                clue=result.clue or "",
                storyteller_card_id=result.storyteller_card,
                skipped=result.skipped,
                table=table,
                points={str(seat): pts for seat, pts in result.points.items()},
                scores_after={str(seat): score for seat, score in enumerate(scores)},
                revealed_at=now,
            )
        )
    StorytellerRound.objects.bulk_create(rows)
    seat_ids = dict(game.seats.values_list("position", "pk"))
    StorytellerTableCard.objects.bulk_create(
        StorytellerTableCard(
            round=row,
            card_id=entry["card"],
            owner_id=seat_ids[entry["owner"]],
            position=entry["position"],
            is_storyteller_card=entry["card"] == row.storyteller_card_id,
            votes=len(entry["voters"]),
            votes_cast=sum(len(other["voters"]) for other in row.table),
        )
        for row in rows
        for entry in row.table
    )


KINDS = {
    Game.Kind.STORYTELLER: KindSpec(
        engine=storyteller,
        min_seats=3,
        max_seats=6,
        new_state=_storyteller_new_state,
        record_rounds=_storyteller_record,
    ),
    Game.Kind.THINK_ALIKE: KindSpec(
        engine=think_alike,
        min_seats=think_alike.MIN_SEATS,
        max_seats=think_alike.MAX_SEATS,
        new_state=think_alike_new_state,
        record_rounds=think_alike_record,
        timed=True,
    ),
}


def kind_spec(kind: str) -> KindSpec:
    try:
        return KINDS[kind]
    except KeyError:
        raise GameError("bad_kind", _("There is no such game to play."), "invalid") from None
