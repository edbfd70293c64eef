"""An asynchronous game's clock across weeks (issue 38): the deadline of a new phase, the time banks, and what a
passed deadline does first when someone it waits on is away or has time in their bank.

Called by ``games.services.games`` under the game's lock (its ``_start``, ``_persist`` and ``game_expire``);
the deadline itself is computed by ``games.deadlines``, the one place of the rule. A live game keeps its plain
clock: a phase of ``phase_seconds``, no bank, no quiet hours, no away days.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from games import deadlines, kinds, signals
from games.models import Game, Seat
from games.selectors.games import seats_of

from . import events

_SEAT_USER = Seat._meta.get_field("user")


def is_async(game: Game) -> bool:
    return game.pace == Game.Pace.ASYNC


def banks_fill(game: Game) -> None:
    """At the start: every player's bank holds the game's ``time_bank_seconds`` (an asynchronous game's only)."""
    Seat.objects.filter(game=game).update(time_bank_seconds=game.time_bank_seconds if is_async(game) else 0)


def waiting_seats(spec: kinds.GameKind, state, seats: list[Seat]) -> list[Seat]:
    """The seats the phase in ``state`` waits on: they must act and are present, and are people (not bots)."""
    positions = set(spec.engine.to_act(state)) & set(spec.engine.present_seats(state))
    return [seat for seat in seats if seat.position in positions and not seat.user.is_bot]


def with_users(game: Game, seats: list[Seat] | None) -> list[Seat]:
    """``seats`` with their users loaded (read again if they are not)."""
    if seats is not None and all(_SEAT_USER.is_cached(seat) for seat in seats):
        return seats
    return seats_of(game, with_users=True)


def new_phase_deadline(game: Game, spec: kinds.GameKind, state, seats: list[Seat], *, now: datetime) -> datetime:
    """The deadline of the phase that starts at ``now`` in ``state``: for an asynchronous game, outside the quiet
    hours of everyone it waits on and after the return of those away (``games.deadlines``)."""
    length = timedelta(seconds=game.phase_seconds)
    if not is_async(game):
        return now + length
    people = [seat.user for seat in waiting_seats(spec, state, seats)]
    return deadlines.phase_deadline(now=now, length=length, people=people)


def _bank_draw(seats: list[Seat], used: timedelta) -> None:
    """Take ``used`` from the banks of ``seats`` (none below zero)."""
    spent = max(0, int(used.total_seconds()))
    for seat in seats:
        left = max(0, seat.time_bank_seconds - spent)
        if left != seat.time_bank_seconds:
            seat.time_bank_seconds = left
            Seat.objects.filter(pk=seat.pk).update(time_bank_seconds=left)


def banks_settle(game: Game, spec: kinds.GameKind, *, before, after, seats: list[Seat], now: datetime) -> None:
    """A change to a phase that draws on banks (its own deadline passed): who acted late pays the time since it
    passed from their bank; once the phase is over, it draws no more. ``_persist`` calls it before writing."""
    if game.bank_since_at is None or before is None:
        return
    same_phase = str(after.phase) != "finished" and spec.phase_key(before) == spec.phase_key(after)
    still = set(spec.engine.to_act(after)) if same_phase else set()
    acted = set(spec.engine.to_act(before)) - still
    _bank_draw([seat for seat in seats if seat.position in acted], now - game.bank_since_at)
    if not same_phase:
        game.bank_since_at = None


def expiry_deferred(game: Game, spec: kinds.GameKind, state, seats: list[Seat], *, now: datetime) -> bool:
    """The deadline of an asynchronous phase passed (``game_expire``, under the lock): first, if someone it waits
    on is away, the phase does not run out (it has its length again from their return); else, if the late
    players have time in their banks, the deadline moves on by the most any of them has left. Returns whether the
    deadline moved (saved, version bumped); False: the phase expires now (the banks drawn on are paid)."""
    if not is_async(game) or game.deadline_at is None:
        return False
    waiting = waiting_seats(spec, state, seats)
    people = [seat.user for seat in waiting]
    if deadlines.away_until(people, now) is not None:
        length = timedelta(seconds=game.phase_seconds)
        game.bank_since_at = None  # no bank is spent while the table waits for someone away
        return _deadline_moved(game, seats, deadlines.phase_deadline(now=now, length=length, people=people), now)
    if game.bank_since_at is not None:  # the banks ran out too: each late player has spent what the wait lasted
        _bank_draw(waiting, game.deadline_at - game.bank_since_at)
        game.bank_since_at = None
        return False
    banks = [seat.time_bank_seconds for seat in waiting if seat.time_bank_seconds > 0]
    if not banks:
        return False
    since = game.deadline_at
    deadline = since + timedelta(seconds=max(banks))
    if deadline <= now:  # the sweep came later than every bank lasts: all spent, the phase expires
        _bank_draw(waiting, deadline - since)
        return False
    game.bank_since_at = since
    return _deadline_moved(game, seats, deadline, now)


def _deadline_moved(game: Game, seats: list[Seat], deadline: datetime, now: datetime) -> bool:
    game.deadline_at = deadline
    game.version += 1
    game.save(update_fields=["deadline_at", "bank_since_at", "version"])
    signals.deadline_moved.send(sender=Game, game=game, now=now)
    events.game_changed(game=game, user_ids=[seat.user_id for seat in seats])
    return True


def pause_ends_at(game: Game) -> datetime | None:
    """When a paused game ends as abandoned unless someone acts; None: it is not paused."""
    if not game.is_paused or game.paused_since_at is None:
        return None
    return game.paused_since_at + timedelta(seconds=settings.FABULA_PAUSED_GAME_ENDS_SECONDS)


def pause_noted(game: Game, *, paused: bool, now: datetime) -> None:
    """``_persist``: a paused game's clock toward its end starts again with every change (someone acted)."""
    game.paused_since_at = now if paused else None
    game.pause_warned_at = None
