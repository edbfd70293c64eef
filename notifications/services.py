"""In-site notifications, made from the games' own changes.

The game services send ``games.signals.state_changed`` when they persist a new
state and ``player_joined`` when someone takes a seat, under the game's lock and in
its transaction (``notifications.receivers`` passes them on here): the rows commit
together with the change they tell of, and the message that makes open pages refresh their bell goes out after commit
(``events.user_notified``). Emails are sent later, from the ``Turn`` rows, by
``notifications.emails``; a newly asked seat's devices get a push after commit
(``notifications.push``).
"""

from datetime import datetime, timedelta

from django.db.models import Count

from games.kinds import GameKind
from games.models import Game, Seat
from games.services import events
from infrastructure.raw_sql import raw_sql, raw_sql_insert, raw_sql_update
from outbox.services import task_queue

from .models import Notice, Notification, Turn
from .push import turn_pushes_queue


def notify_game_change(
    *,
    game: Game,
    kind: GameKind,
    seats: list[Seat],
    before,
    after,
    phase_key: tuple,
    now: datetime,
    deadline_moved: bool = True,
) -> None:
    """Record what the change from ``before`` to ``after`` means for each player.

    ``seats`` already mirror ``after`` (to_act, has_resigned, is_winner);
    ``before`` is None when the game has just started; ``phase_key`` tells this
    phase apart from every other one of the game.
    """
    key = "-".join(str(part) for part in phase_key)
    waiting = [seat for seat in seats if seat.to_act]
    # Seats that acted, and every seat of a phase that is over, are no longer asked.
    # By the seats' ids, not through a join to the game: a plain UPDATE, cheaper to build and to run.
    seat_ids = [seat.pk for seat in seats]
    if waiting:  # (with none, the ORM folds the exclusion away, and its phase key with it: a statement of its own)
        _open_turns_but(seat_ids, key, [seat.pk for seat in waiting], closed_at=now)
    else:
        _open_turns(seat_ids, closed_at=now)
    asked = kind.presentation.asked(after)
    waited = kind.engine.to_act(before) if before is not None and kind.phase_key(before) == phase_key else None
    if waited is not None and all(seat.position in waited for seat in waiting):
        # The same phase, nobody asked who was not asked before (most actions): nothing to add.
        newly_asked = []
    else:
        asked_already = set(_asked_already(seat_ids, key))
        newly_asked = [seat for seat in waiting if seat.pk not in asked_already]
        _turns_insert(Turn(seat=seat, phase_key=key, asked=asked, asked_at=now) for seat in newly_asked)
        if game.status == Game.Status.ACTIVE:
            turn_pushes_queue(game=game, phase_key=key, seats=newly_asked)
    if (deadline_moved or newly_asked) and game.pace == Game.Pace.ASYNC:
        # A new deadline (a new phase, a pause, a resumed game), or turns made just now. (A live game's turns hold
        # no reminder time, ever: ``_remind_at``, and its pace never changes; nothing to move.)
        _open_turns(seat_ids, remind_at=_remind_at(game))
    # What asked a player to act closes once they have acted or the phase is over: the bell lists only what
    # still waits for them (a new phase's "your turn" comes below).
    done = [seat.user_id for seat in seats if not seat.to_act]
    # Whose bell changed: one count for them all, once the change's notes are in (below).
    told = set(done) if done and _asking_unread(game.pk, done, read_at=now) else set()

    def note(seat, kind, **fields):
        fields.setdefault("round", after.round)
        return Notification(user_id=seat.user_id, game=game, kind=kind, created_at=now, **fields)

    notes = []
    if before is None:
        # "The game started" also says it is everyone's turn for the first clue.
        notes += [note(seat, Notification.Kind.GAME_STARTED) for seat in seats]
    else:
        notes += [note(seat, Notification.Kind.YOUR_TURN, asked=asked) for seat in newly_asked]
    if game.status == Game.Status.FINISHED:
        # The last round's reveal is on the finished game's page.
        notes += [note(seat, Notification.Kind.GAME_FINISHED, won=seat.is_winner) for seat in seats]
    else:
        for number in kind.presentation.revealed_rounds(before, after):
            notes += [
                note(seat, Notification.Kind.ROUND_REVEALED, round=number) for seat in seats if not seat.has_resigned
            ]
    told.update(_deliver_rows(notes))
    _tell(sorted(told))


def notify_player_joined(*, game: Game, user, seats: list[Seat], now: datetime) -> None:
    """``user`` took a seat; ``seats`` are the players who sat there before."""
    _deliver(
        Notification(user_id=seat.user_id, game=game, kind=Notification.Kind.PLAYER_JOINED, actor=user, created_at=now)
        for seat in seats
    )


def notify_seats_held(*, game: Game, user_ids: list[int], by, now: datetime) -> None:
    """A rematch holds a seat for each of ``user_ids``: a bell item each now, and after commit an email (as each
    chose) and a push to their devices (``notifications.invitations``)."""
    _deliver(
        Notification(user_id=user_id, game=game, kind=Notification.Kind.REMATCH_INVITED, actor=by, created_at=now)
        for user_id in user_ids
    )
    from .tasks import send_rematch_invitations

    task_queue(task=send_rematch_invitations, kwargs={"game_id": game.pk, "user_ids": list(user_ids)})


def notify_nudged(*, game: Game, seat: Seat, by, phase_key, now: datetime) -> None:
    """``by`` nudged the player of ``seat``, who must still act in the phase ``phase_key``: an item in their bell
    ("<name> is waiting for your clue") and, beyond the bell, an email and a push (``notices``) sent by beat,
    after their quiet hours if they are in them."""
    key = phase_key if isinstance(phase_key, str) else "-".join(str(part) for part in phase_key)
    asked = Turn.objects.filter(seat=seat, phase_key=key).values_list("asked", flat=True).first() or ""
    fields = {"user_id": seat.user_id, "game": game, "kind": Notification.Kind.NUDGED, "actor": by, "asked": asked}
    _deliver([Notification(round=game.round, created_at=now, **fields)])
    Notice.objects.create(created_at=now, due_at=now, **fields)


def notify_game_ending(*, game: Game, ends_at: datetime, user_ids: list[int], now: datetime) -> None:
    """The paused game ends as abandoned at ``ends_at`` unless someone acts: its table hears it in the bell and,
    beyond it, by email (as each chose) and push, sent by beat (``notices``)."""
    fields = {"game": game, "kind": Notification.Kind.GAME_ENDING, "ends_at": ends_at, "created_at": now}
    _deliver(Notification(user_id=user_id, round=game.round, **fields) for user_id in user_ids)
    Notice.objects.bulk_create(Notice(user_id=user_id, due_at=now, **fields) for user_id in user_ids)


def notify_deadline_moved(*, game: Game, now: datetime) -> None:
    """The phase's deadline moved with no change of its state (a player away, a bank drawn on): the reminders not
    yet sent follow it (a quarter of the phase before the new deadline)."""
    Turn.objects.filter(seat__game=game, closed_at__isnull=True, reminded_at__isnull=True).update(
        remind_at=_remind_at(game)
    )


def unread_count(*, user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notification_open(*, user, notification_id: int, now: datetime) -> Notification:
    """Mark one of the user's notifications read; raises ``Notification.DoesNotExist``."""
    notification = Notification.objects.select_related("game").get(pk=notification_id, user=user)
    if notification.read_at is None:
        notification.read_at = now
        notification.save(update_fields=["read_at"])
        _tell([user.pk])
    return notification


def notifications_read_all(*, user, now: datetime, game_id: int | None = None, tell: bool = True) -> int:
    """Mark the user's unread notifications read (only those of one game, if given);
    ``tell``: push the new count to the user's open pages."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if game_id is not None:
        unread = unread.filter(game_id=game_id)
    count = unread.update(read_at=now)
    if count and tell:
        _tell([user.pk])
    return count


def _remind_at(game: Game) -> datetime | None:
    if game.pace != Game.Pace.ASYNC or game.deadline_at is None:
        return None
    return game.deadline_at - timedelta(seconds=game.phase_seconds / 4)


# Which of a change's notes a player sees when it brings several (the round revealed and
# their turn in the next): the one that asks the most of them.
_WEIGHT: dict[str, int] = {  # by kind: a Kind is the string a row holds
    Notification.Kind.GAME_FINISHED: 5,
    Notification.Kind.YOUR_TURN: 4,
    Notification.Kind.GAME_STARTED: 3,
    Notification.Kind.ROUND_REVEALED: 2,
    Notification.Kind.PLAYER_JOINED: 1,
    Notification.Kind.REMATCH_INVITED: 2,
    Notification.Kind.NUDGED: 4,
    Notification.Kind.GAME_ENDING: 3,
}
_FIELDS = ("kind", "round", "asked", "actor", "won", "ends_at", "created_at")
# What asks a player to act: it closes when they have acted or its phase is over.
ASKING = (Notification.Kind.YOUR_TURN, Notification.Kind.GAME_STARTED, Notification.Kind.NUDGED)


def _deliver(notes) -> None:
    """``_deliver_rows``, and after commit each player concerned hears their unread count."""
    _tell(_deliver_rows(notes))


def _deliver_rows(notes) -> list[int]:
    """One unread item per player and game, brought up to date as the game moves: a game
    that waits for someone shows once in their bell, not once per phase it went through.

    A change's weightiest note per player replaces what that player has not read yet of
    the game (the database holds one unread row per player and game); read rows stay as
    the history of the list. Returns the players whose bell changed (to tell: ``_tell``).
    """
    newest: dict[tuple[int, int], Notification] = {}
    for note in notes:
        key = (note.user_id, note.game_id)
        if key not in newest or _WEIGHT[note.kind] > _WEIGHT[newest[key].kind]:
            newest[key] = note
    if not newest:
        return []
    unread = {
        (row.user_id, row.game_id): row
        for row in _unread_of(
            sorted({game_id for _user, game_id in newest}), sorted({user_id for user_id, _game in newest})
        )
    }
    # The rows brought up to date, grouped by their new values: a change usually brings its players the
    # same note (the round revealed, the game over), so one UPDATE serves them all. A bulk_update builds a
    # CASE per field and row, which cost more to compile than these plain UPDATEs cost to run.
    changed: dict[tuple, list[int]] = {}
    new = []
    for key, note in newest.items():
        row = unread.get(key)
        if row is None:
            new.append(note)
            continue
        values = tuple((field, getattr(note, field)) for field in _FIELDS)
        changed.setdefault(values, []).append(row.pk)
    for values, pks in changed.items():
        _notifications(pks, **dict(values))
    _notifications_insert(new)
    return sorted({user_id for user_id, _game in newest})


def _tell(user_ids: list[int]) -> None:
    """After commit, tell each user's open pages their unread count."""
    if not user_ids:
        return
    counts = dict(_unread_counts(user_ids))
    events.users_notified(unread={user_id: counts.get(user_id, 0) for user_id in user_ids})


# The reads and writes of every action, their SQL written once (infrastructure.raw_sql). The rows inserted are
# read back by nothing in the same change (their keys stay unknown).
_turns_insert = raw_sql_insert(Turn)
_notifications_insert = raw_sql_insert(Notification)


def _open_turns_where(sql, seat_ids):
    return f"{sql.is_in(sql.column(Turn, 'seat'), seat_ids)} AND {sql.column(Turn, 'closed_at')} IS NULL", seat_ids


@raw_sql_update(Turn, _open_turns_where)
def _open_turns(seat_ids: list[int]):
    return Turn.objects.filter(seat_id__in=seat_ids, closed_at__isnull=True)


@raw_sql_update(
    Turn,
    lambda sql, seat_ids, phase_key, waiting_ids: (
        f"{_open_turns_where(sql, seat_ids)[0]} AND NOT ({sql.column(Turn, 'phase_key')} = %s"
        f" AND {sql.is_in(sql.column(Turn, 'seat'), waiting_ids)})",
        [*seat_ids, phase_key, *waiting_ids],
    ),
)
def _open_turns_but(seat_ids: list[int], phase_key: str, waiting_ids: list[int]):
    """The open turns of these seats but those of the waiting seats in this phase."""
    return _open_turns.build(seat_ids).exclude(phase_key=phase_key, seat_id__in=waiting_ids)


@raw_sql_update(
    Notification,
    lambda sql, game_id, user_ids: (
        f"{sql.column(Notification, 'game')} = %s AND {sql.column(Notification, 'read_at')} IS NULL"
        f" AND {sql.is_in(sql.column(Notification, 'kind'), ASKING)}"
        f" AND {sql.is_in(sql.column(Notification, 'user'), user_ids)}",
        [game_id, *(str(kind) for kind in ASKING), *user_ids],
    ),
)
def _asking_unread(game_id: int, user_ids: list[int]):
    """The game's unread items of these players that ask them to act."""
    return Notification.objects.filter(game_id=game_id, read_at__isnull=True, kind__in=ASKING, user_id__in=user_ids)


@raw_sql_update(Notification, lambda sql, ids: (sql.is_in(sql.column(Notification, "pk"), ids), ids))
def _notifications(ids: list[int]):
    return Notification.objects.filter(pk__in=ids)


@raw_sql(
    lambda sql, seat_ids, phase_key: (
        f"SELECT {sql.column(Turn, 'seat')} FROM {sql.table(Turn)} WHERE "
        f"{sql.is_in(sql.column(Turn, 'seat'), seat_ids)} AND {sql.column(Turn, 'phase_key')} = %s",
        [*seat_ids, phase_key],
    ),
    flat=True,
)
def _asked_already(seat_ids: list[int], phase_key: str):
    return Turn.objects.filter(seat_id__in=seat_ids, phase_key=phase_key).values_list("seat_id", flat=True)


@raw_sql(
    lambda sql, game_ids, user_ids: sql.select(
        Notification,
        where=f"{sql.column(Notification, 'read_at')} IS NULL"
        f" AND {sql.is_in(sql.column(Notification, 'game'), game_ids)}"
        f" AND {sql.is_in(sql.column(Notification, 'user'), user_ids)}",
        params=[*game_ids, *user_ids],
        order_by=Notification._meta.ordering,
    ),
    model=Notification,
)
def _unread_of(game_ids: list[int], user_ids: list[int]):
    return Notification.objects.filter(read_at__isnull=True, game_id__in=game_ids, user_id__in=user_ids)


@raw_sql(
    lambda sql, user_ids: (
        f"SELECT {sql.column(Notification, 'user')}, COUNT({sql.column(Notification, 'pk')})"
        f" FROM {sql.table(Notification)} WHERE {sql.is_in(sql.column(Notification, 'user'), user_ids)}"
        f" AND {sql.column(Notification, 'read_at')} IS NULL GROUP BY {sql.column(Notification, 'user')}",
        user_ids,
    )
)
def _unread_counts(user_ids: list[int]):
    return (
        Notification.objects.filter(user_id__in=user_ids, read_at__isnull=True)
        .order_by()
        .values("user_id")
        .annotate(unread=Count("id"))
        .values_list("user_id", "unread")
    )
