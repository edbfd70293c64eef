"""Reads of a person's notifications: the bell's page, and what a daily letter tells."""

from dataclasses import dataclass, field
from datetime import datetime

from games.models import Game, Seat

from .models import GameMute, Notification


def bell_groups(*, user) -> list[tuple[Game, list[Notification]]]:
    """What still waits for ``user``, by game, the newest first: their unread items (an item that asked them to
    act closes once they have acted or its phase is over, ``services.notify_game_change``). Exactly what the
    bell counts (``services.unread_count``)."""
    groups: dict[int, tuple[Game, list[Notification]]] = {}
    unread = Notification.objects.filter(user=user, read_at__isnull=True).select_related("game", "actor")
    for note in unread:
        groups.setdefault(note.game_id, (note.game, []))[1].append(note)
    return list(groups.values())


@dataclass
class LetterGame:
    game: Game
    # The people the game waits for (their seats), the reader's first if it waits for them.
    waiting_for: list[Seat] = field(default_factory=list)
    mine: bool = False


@dataclass
class Letter:
    """What a daily letter tells one person: the games waiting for them, their other games in play, and the
    games that ended since their last letter."""

    yours: list[LetterGame]
    others: list[LetterGame]
    ended: list[Seat]

    def __bool__(self) -> bool:
        return bool(self.yours or self.others or self.ended)


def letter_content(*, user, since: datetime, now: datetime) -> Letter:
    """The asynchronous games in play that ``user`` plays in (not those they muted), and the games they played
    that ended after ``since`` and up to ``now``."""
    muted = GameMute.objects.filter(user=user).values_list("game_id", flat=True)
    playing = (
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, game__pace=Game.Pace.ASYNC)
        .exclude(game_id__in=muted)
        .select_related("game")
        .order_by("game__deadline_at", "game_id")
    )
    games = {seat.game_id: LetterGame(game=seat.game, mine=seat.to_act) for seat in playing}
    for seat in Seat.objects.filter(game_id__in=list(games), to_act=True).select_related("user").order_by("position"):
        games[seat.game_id].waiting_for.append(seat)
    ended = (
        Seat.objects.filter(
            user=user, game__status=Game.Status.FINISHED, game__finished_at__gt=since, game__finished_at__lte=now
        )
        .select_related("game")
        .order_by("game__finished_at", "game_id")
    )
    return Letter(
        yours=[entry for entry in games.values() if entry.mine],
        others=[entry for entry in games.values() if not entry.mine],
        ended=list(ended),
    )
