"""Across weeks (issue 38): a nudge, a player away and back, and the paused games that end.

Each change under the game's lock, in one transaction, as every write of a game; the deadlines themselves are
computed by ``games.deadlines``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from games import deadlines, signals
from games.models import Game, Nudge, Seat
from games.selectors.games import seats_of

from . import events, timekeeping
from .errors import GameError
from .games import game_pause_end
from .locking import game_lock

log = logging.getLogger(__name__)

NOT_WAITING = _("The game is not waiting for that player.")
TOO_EARLY = _("You can nudge a player once half of the phase has run.")


def nudge_send(*, game_id, user, seat: object, now: datetime) -> Nudge:
    """``user``, a player, nudges the player at ``seat``, who must still act: once half of the phase has run, once
    per phase per nudged player. Refused, changing nothing: 403 ``not_a_player``; 409 ``not_started`` or
    ``game_finished``; 400 ``not_waiting`` for a seat that need not act (or the nudger's own); 409 ``too_early``;
    409 ``already_nudged``. ``signals.player_nudged`` tells the nudged player (notifications)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seats = seats_of(game, with_users=True)
        mine = next((s for s in seats if user is not None and s.user_id == user.pk), None)
        if mine is None:
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        if game.status == Game.Status.FINISHED:
            raise GameError("game_finished", _("This game is over."))
        if game.status != Game.Status.ACTIVE:
            raise GameError("not_started", _("This game has not started yet."))
        target = next((s for s in seats if not isinstance(seat, bool) and s.position == seat), None)
        if target is None or target.pk == mine.pk or not target.to_act:
            raise GameError("not_waiting", NOT_WAITING, "invalid")
        if game.deadline_at is None:  # paused: no phase runs
            raise GameError("too_early", TOO_EARLY)
        started = game.phase_started_at or game.deadline_at - timedelta(seconds=game.phase_seconds)
        if now < started + (game.deadline_at - started) / 2:
            raise GameError("too_early", TOO_EARLY)
        try:
            with transaction.atomic():
                nudge = Nudge.objects.create(
                    game=game, seat=target, by=user, round=game.round or 0, phase=game.phase, created_at=now
                )
        except IntegrityError:
            raise GameError("already_nudged", _("That player has already been nudged in this phase.")) from None
        spec = game.game_kind
        signals.player_nudged.send(
            sender=Game,
            game=game,
            seat=target,
            by=user,
            phase_key=spec.phase_key(spec.engine.from_dict(game.state)),
            now=now,
        )
    return nudge


def games_away_moved(*, user, until: datetime | None, previous: datetime | None, now: datetime) -> list[int]:
    """``user`` is away until ``until`` (None: back), having been until ``previous``: in each asynchronous game in
    play whose phase waits on them, the deadline moves to give them, from their return, at least the time the
    phase had left (never earlier than it was); every game they sit in that is open or in play moves on its
    version (the table sees "away until"). Each game under its lock, in the order of their ids. The ids moved."""
    game_ids = sorted(
        Seat.objects.filter(user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).values_list(
            "game_id", flat=True
        )
    )
    with transaction.atomic():
        for game_id in game_ids:
            game = game_lock(game_id=game_id)
            seats = seats_of(game, with_users=True)
            fields = ["version"]
            if until is not None and _waits_on(game, user) and game.deadline_at is not None:
                # The time the phase had left when they went (if they were away already, when that began).
                since = previous if previous is not None and previous > now else now
                left = max(game.deadline_at - since, timedelta(0))
                spec = game.game_kind
                people = [
                    seat.user for seat in timekeeping.waiting_seats(spec, spec.engine.from_dict(game.state), seats)
                ]
                deadline = deadlines.phase_deadline(now=now, length=left, people=people)
                if deadline > game.deadline_at:
                    game.deadline_at = deadline
                    game.bank_since_at = None  # no bank is spent while the table waits for someone away
                    fields += ["deadline_at", "bank_since_at"]
            game.version += 1
            game.save(update_fields=fields)
            if "deadline_at" in fields:
                signals.deadline_moved.send(sender=Game, game=game, now=now)
            events.game_changed(game=game, user_ids=[seat.user_id for seat in seats])
    return game_ids


def _waits_on(game: Game, user) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.pace == Game.Pace.ASYNC
        and Seat.objects.filter(game=game, user=user, to_act=True, is_absent=False).exists()
    )


DAY = timedelta(days=1)


def paused_games_sweep(*, now: datetime, limit: int = 200) -> tuple[int, int]:
    """Beat: tell the table of each paused game that will end within a day (``signals.paused_game_ending``,
    once: ``pause_warned_at``), and end those whose time is up (``game_pause_end``). Returns (told, ended)."""
    ends_after = timedelta(seconds=settings.FABULA_PAUSED_GAME_ENDS_SECONDS)
    paused = Game.objects.filter(status=Game.Status.ACTIVE, is_paused=True, paused_since_at__isnull=False)
    told = ended = 0
    for game_id in paused.filter(paused_since_at__lte=now - ends_after).values_list("pk", flat=True)[:limit]:
        try:
            ended += game_pause_end(game_id=game_id, now=now)
        except Exception:
            log.exception("could not end the paused game %s", game_id)
    warn = paused.filter(paused_since_at__lte=now - ends_after + DAY, pause_warned_at__isnull=True)
    for game_id in warn.values_list("pk", flat=True)[:limit]:
        told += _pause_warn(game_id=game_id, now=now)
    return told, ended


def _pause_warn(*, game_id: int, now: datetime) -> bool:
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        ends_at = timekeeping.pause_ends_at(game)
        if game.status != Game.Status.ACTIVE or ends_at is None or game.pause_warned_at is not None:
            return False
        if ends_at - DAY > now:
            return False
        game.pause_warned_at = now
        game.save(update_fields=["pause_warned_at"])
        user_ids = list(
            Seat.objects.filter(game=game, has_resigned=False, user__is_bot=False).values_list("user_id", flat=True)
        )
        signals.paused_game_ending.send(sender=Game, game=game, ends_at=ends_at, user_ids=user_ids, now=now)
    return True
