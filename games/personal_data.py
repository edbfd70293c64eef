"""What the games keep about a person: their part in a data export, and their leaving when
they delete their account (``accounts.signals``)."""

import logging

from django.dispatch import receiver

from accounts.signals import account_deleting, account_shown_changed, personal_data
from games.models import Game, Move, Seat, SeatHold
from games.services.errors import GameError
from games.services.games import game_decline, game_leave, game_resign, games_show_player_anew

logger = logging.getLogger(__name__)


def _iso(moment):
    return moment.isoformat() if moment else None


@receiver(personal_data, dispatch_uid="games.personal_data")
def games_personal_data(sender, *, user, **kwargs) -> dict:
    """The person's seats (with the games they were in) and the moves they made: their own, no one else's."""
    seats = Seat.objects.filter(user=user).select_related("game").order_by("joined_at", "pk")
    moves = Move.objects.filter(seat__user=user).order_by("created_at", "pk")
    return {
        "games": [
            {
                "game": seat.game_id,
                "kind": seat.game.kind,
                "status": seat.game.status,
                "created_by_you": seat.game.creator_id == user.pk,
                "created_at": _iso(seat.game.created_at),
                "finished_at": _iso(seat.game.finished_at),
                "seat": seat.position,
                "colour": seat.colour,
                "score": seat.score,
                "winner": seat.is_winner,
                "resigned": seat.has_resigned,
                "joined_at": _iso(seat.joined_at),
            }
            for seat in seats
        ],
        "moves": [
            {
                "game": move.game_id,
                "round": move.round,
                "kind": move.kind,
                "payload": move.payload,
                "by_timeout": move.by_timeout,
                "created_at": _iso(move.created_at),
            }
            for move in moves
        ],
    }


@receiver(account_deleting, dispatch_uid="games.account_deleting")
def games_let_go(sender, *, user, **kwargs) -> None:
    """Leave the games not started and resign from those in play; finished games keep the seat."""
    playing = Seat.objects.filter(user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
    for game_id, status in playing.values_list("game_id", "game__status"):
        try:
            if status == Game.Status.OPEN:
                game_leave(game_id=game_id, user=user)
            else:
                game_resign(game_id=game_id, user=user)
        except GameError as error:  # the game moved on meanwhile, or its rules say no: the seat stays
            logger.info("Account %s deleted: game %s kept its seat (%s).", user.pk, game_id, error.code)


@receiver(account_shown_changed, dispatch_uid="games.account_shown_changed")
def games_show_anew(sender, *, user, **kwargs) -> None:
    """The account's games move on their versions: every process's cached views of them are left behind."""
    games_show_player_anew(user_id=user.pk)


@receiver(personal_data, dispatch_uid="games.seat_holds_personal_data")
def seat_holds_personal_data(sender, *, user, **kwargs) -> dict:
    """The rematches that held a seat for the person, and whether they declined it."""
    holds = SeatHold.objects.filter(user=user).order_by("created_at", "pk")
    return {
        "seats_held": [
            {"game": hold.game_id, "held_at": _iso(hold.created_at), "declined_at": _iso(hold.declined_at)}
            for hold in holds
        ]
    }


@receiver(account_deleting, dispatch_uid="games.seat_holds_let_go")
def seat_holds_let_go(sender, *, user, now=None, **kwargs) -> None:
    """A deleted account declines the seats rematches hold for it: they open now, not when the hold ends."""
    for game_id in SeatHold.objects.filter(user=user, declined_at__isnull=True).values_list("game_id", flat=True):
        try:
            game_decline(game_id=game_id, user=user, now=now)
        except GameError as error:  # the hold ended or the game started meanwhile: nothing to let go
            logger.info("Account %s deleted: game %s kept no seat for it (%s).", user.pk, game_id, error.code)
