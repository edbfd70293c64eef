"""Creating, joining, starting and playing games."""

import secrets
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Colour
from games import kinds, signals
from games.engine.errors import RuleError
from games.models import Game, Move, Seat, SeatHold
from games.selectors.games import game_remember, seats_of
from games.selectors.timeouts import note_no_timeouts
from infrastructure.raw_sql import raw_sql_insert, raw_sql_update

from . import admission, events, timekeeping
from .errors import GameError, from_rule_error
from .locking import game_lock

# A colour per seat: the players' own eight, and two more for games of nine or ten.
SEAT_COLOURS = [*Colour.values, "teal", "brown"]

ASYNC_MIN_SECONDS = 3600
ASYNC_MAX_SECONDS = 3 * 24 * 3600


def default_phase_seconds(pace: str) -> int:
    if pace == Game.Pace.LIVE:
        return settings.FABULA_LIVE_PHASE_SECONDS
    return 24 * 3600


def kind_get(slug) -> kinds.GameKind:
    kind = kinds.get(slug) if isinstance(slug, str) else None
    if kind is None:
        raise GameError("bad_kind", _("There is no such game to play."), "invalid")
    return kind


def game_create(
    *,
    creator,
    kind: str | None = None,
    max_seats: int,
    pace: str = Game.Pace.ASYNC,
    phase_seconds: int | None = None,
    visibility: str = Game.Visibility.PUBLIC,
    options: dict | None = None,
    time_bank_hours: int | None = None,
    min_reliability: float | None = None,
    with_bots: bool = False,
) -> Game:
    """A new game with its creator in the first seat; ``options`` are the kind's own. ``time_bank_hours``: each
    player's time bank in an asynchronous game (0-72, default 24); ``min_reliability``: the least share of games
    finished (0-1) a player with 5 counted games needs to join (``games.services.admission``); ``with_bots``: bots
    take the other seats at once (``signals.bots_wanted``), which starts the game. All of it or nothing."""
    spec = kind_get(kind or kinds.default_slug())
    if not isinstance(max_seats, int) or not spec.min_seats <= max_seats <= spec.max_seats:
        raise GameError(
            "bad_seats",
            _("Choose from %(min)d to %(max)d seats.") % {"min": spec.min_seats, "max": spec.max_seats},
            "invalid",
        )
    if pace not in Game.Pace.values:
        raise GameError("bad_pace", _("Choose a live or an asynchronous pace."), "invalid")
    if visibility not in Game.Visibility.values:
        raise GameError("bad_visibility", _("Choose a public or a private game."), "invalid")
    if pace == Game.Pace.LIVE:
        phase_seconds = settings.FABULA_LIVE_PHASE_SECONDS
    elif phase_seconds is None:
        phase_seconds = default_phase_seconds(pace)
    elif not isinstance(phase_seconds, int) or not ASYNC_MIN_SECONDS <= phase_seconds <= ASYNC_MAX_SECONDS:
        raise GameError("bad_deadline", _("An asynchronous phase lasts from one hour to three days."), "invalid")
    if not isinstance(options, (dict, type(None))):
        raise GameError("bad_options", _("Game options must be an object."), "invalid")
    options = spec.clean_options_for(options or {}, max_seats=max_seats, creator=creator, visibility=visibility)
    time_bank_seconds = admission.time_bank_seconds_of(time_bank_hours)
    min_reliability = admission.min_reliability_of(min_reliability)
    admission.async_games_cap_check(user=creator, pace=pace)
    with transaction.atomic():
        game = Game.objects.create(
            kind=spec.slug,
            max_seats=max_seats,
            pace=pace,
            phase_seconds=phase_seconds,
            visibility=visibility,
            creator=creator,
            options=options,
            time_bank_seconds=time_bank_seconds,
            min_reliability=min_reliability,
        )
        Seat.objects.create(game=game, user=creator, position=0, colour=creator.colour)
        events.game_changed(game=game, user_ids=[creator.pk], lobby=visibility == Game.Visibility.PUBLIC)
        if with_bots:
            signals.bots_wanted.send(sender=Game, game=game, creator=creator)
            game.refresh_from_db()
    return game


def game_join(
    *, game_id, user, invite_code: str | None = None, now: datetime | None = None, bot_level: str = ""
) -> Game:
    """Take a seat. A seat a rematch holds for a player of the old table (``SeatHold``) is theirs alone: they
    take it with or without the invite code; anyone else gets 403 ``seat_held`` while only held seats are left,
    and a player who declined theirs is not let in again (409 ``declined``). ``bot_level``: a bot's level at
    the seat (the bots app checks it), stored with the seat."""
    now = now or timezone.now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seats = list(game.seats.select_related("user"))
        # A player of the game is told so first: they may see it, invited or not, open or started
        # (a bot that goes on playing its private game joins it again without the invite).
        if any(seat.user_id == user.pk for seat in seats):
            raise GameError("already_joined", _("You are already in this game."))
        fields = ["version"]
        released = _holds_due(game, now)
        if released:  # ended, and beat has not been by yet: they are gone all the same
            _holds_release(game)
            fields.append("holds_until_at")
        holds = list(SeatHold.objects.filter(game=game))
        mine = next((hold for hold in holds if hold.user_id == user.pk), None)
        if mine is not None and mine.declined_at is not None:
            raise GameError("declined", _("You declined this rematch."))
        if (
            mine is None
            and game.visibility == Game.Visibility.PRIVATE
            and not (invite_code and secrets.compare_digest(str(invite_code), game.invite_code))
        ):
            raise GameError("invite_required", _("This game is private: you need its invite link."), "forbidden")
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("This game is no longer taking players."))
        if len(seats) >= game.max_seats:
            raise GameError("game_full", _("This game is full."))
        admission.async_games_cap_check(user=user, pace=game.pace)
        admission.reliability_check(user=user, game=game, now=now)
        held = [hold for hold in holds if hold.declined_at is None]
        if mine is None and len(seats) + len(held) >= game.max_seats:
            raise GameError("seat_held", SEAT_HELD, "forbidden")
        taken = {seat.colour for seat in seats}
        colour = user.colour if user.colour not in taken else next(c for c in SEAT_COLOURS if c not in taken)
        try:
            with transaction.atomic():
                Seat.objects.create(
                    game=game, user=user, position=len(seats), colour=colour, bot_level=bot_level if user.is_bot else ""
                )
        except IntegrityError:
            raise GameError("already_joined", _("You are already in this game.")) from None
        listed = game.visibility == Game.Visibility.PUBLIC  # the lobby hears of it, even if it goes private now
        if released and not user.is_bot:  # a creator whose seat was held went with the rest: it goes to one seated
            fields += _creator_hand_on(game, seats=list(game.seats.select_related("user")), leaving=None)
        if mine is not None:  # the held seat is taken: it holds no more
            mine.delete()
            if len(held) == 1:
                game.holds_until_at = None
                fields.append("holds_until_at")
        game.version += 1
        game.save(update_fields=fields)
        user_ids = [seat.user_id for seat in seats] + [user.pk]
        if len(seats) + 1 == game.max_seats:
            _start(game, now=now)  # "the game started" tells everyone, the joiner included
        else:
            signals.player_joined.send(sender=Game, game=game, user=user, seats=seats, now=now)
        events.game_changed(game=game, user_ids=user_ids, lobby=listed)
    return game


SEAT_HELD = _("The seats left are held for the players of the last game; try again once they are opened.")


def _holds_due(game: Game, now: datetime) -> bool:
    return game.holds_until_at is not None and game.holds_until_at <= now


def _holds_release(game: Game) -> list[int]:
    """The seats still held in ``game`` are held no more: they follow its visibility (public: the lobby; private:
    the invite code). Declined holds stay, to keep their players out. The caller holds the lock and saves
    ``holds_until_at``. Returns the users whose seats were held (their "My games" changes)."""
    held = SeatHold.objects.filter(game=game, declined_at__isnull=True)
    user_ids = list(held.values_list("user_id", flat=True))
    held.delete()
    game.holds_until_at = None
    return user_ids


def game_decline(*, game_id, user, now: datetime | None = None) -> Game:
    """A player of the old table declines the seat a rematch holds for them: it opens as the rematch's
    visibility says. Refused (nothing changes): no seat held for them (403 ``no_seat_held``), declined already
    (409 ``already_declined``), seated already (409 ``already_joined``), a game no longer open (409 ``not_open``)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if user is None or not user.is_authenticated:
            raise GameError("no_seat_held", NO_SEAT_HELD, "forbidden")
        seated = list(game.seats.values_list("user_id", flat=True))
        if user.pk in seated:
            raise GameError("already_joined", _("You are already in this game."))
        hold = SeatHold.objects.filter(game=game, user=user).first()
        if hold is not None and hold.declined_at is not None:
            raise GameError("already_declined", _("You have already declined this rematch."))
        if hold is None or _holds_due(game, now):
            raise GameError("no_seat_held", NO_SEAT_HELD, "forbidden")
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("This game is no longer taking players."))
        hold.declined_at = now
        hold.save(update_fields=["declined_at"])
        fields = ["version"]
        if not SeatHold.objects.filter(game=game, declined_at__isnull=True).exists():
            game.holds_until_at = None
            fields.append("holds_until_at")
        # A player whose seat was held may have become its creator (the presser left): the part goes on.
        listed = game.visibility == Game.Visibility.PUBLIC
        fields += _creator_hand_on(game, seats=list(game.seats.select_related("user")), leaving=user.pk)
        game.version += 1
        game.save(update_fields=fields)
        events.game_changed(game=game, user_ids=[*seated, user.pk], lobby=listed)
    return game


NO_SEAT_HELD = _("No seat is held for you in this game.")


def game_holds_open(*, game_id, user) -> Game:
    """The creator of a rematch opens the seats still held, before their time: they follow the rematch's
    visibility at once. Refused: not the creator (403 ``not_creator``), a game no longer open (409 ``not_open``),
    no seat held (409 ``no_seats_held``)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if user is None or not user.is_authenticated or game.creator_id != user.pk:
            raise GameError("not_creator", _("Only the game's creator can open the held seats."), "forbidden")
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("This game is no longer taking players."))
        _creator_seated(game, user)
        if not SeatHold.objects.filter(game=game, declined_at__isnull=True).exists():
            raise GameError("no_seats_held", _("No seat is held in this game."))
        _holds_open_now(game)
    return game


def _holds_open_now(game: Game) -> None:
    """Under the game's lock: the held seats open as the rematch's visibility says, and everyone concerned (the
    seated, those whose seat was held, the lobby for a public game) hears of the new version."""
    released = _holds_release(game)
    listed = game.visibility == Game.Visibility.PUBLIC
    # A creator whose seat was held (the presser left) and who has not taken it: the part goes to one seated.
    changed = _creator_hand_on(game, seats=list(game.seats.select_related("user")), leaving=None)
    game.version += 1
    game.save(update_fields=["holds_until_at", "version", *changed])
    events.game_changed(game=game, user_ids=[*game.seats.values_list("user_id", flat=True), *released], lobby=listed)


def game_holds_expire(*, game_id, now: datetime | None = None) -> bool:
    """Beat: a rematch's held seats whose time is up open as its visibility says. Idempotent: a game whose
    holds are gone already, or not due, is left as it is. Returns whether it released any."""
    now = now or timezone.now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if not _holds_due(game, now):
            return False
        _holds_open_now(game)
    return True


def game_leave(*, game_id, user) -> Game:
    """Leave a game before it starts. The creator's part goes on (``_creator_hand_on``): a rematch's to the
    next player of the old table, its held seats still held; the game is cancelled only when nobody is left to
    play it (no person seated, no seat held)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("You can only leave a game that has not started; resign instead."))
        seats = list(game.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        mine.delete()
        rest = [seat for seat in seats if seat.pk != mine.pk]
        # Close the gap in seat order; two passes keep (game, position) unique at every step.
        Seat.objects.filter(pk__in=[seat.pk for seat in rest]).update(position=F("position") + 100)
        for position, seat in enumerate(rest):
            Seat.objects.filter(pk=seat.pk).update(position=position)
        was_public = game.visibility == Game.Visibility.PUBLIC
        fields = ["version", *_creator_hand_on(game, seats=rest, leaving=user.pk)]
        game.version += 1
        game.save(update_fields=fields)
        events.game_changed(game=game, user_ids=[*(s.user_id for s in seats), *_holders(game)], lobby=was_public)
    return game


def _holders(game: Game) -> list[int]:
    """The users a game still holds a seat for (their "My games" shows it)."""
    return list(SeatHold.objects.filter(game=game, declined_at__isnull=True).values_list("user_id", flat=True))


def _creator_hand_on(game: Game, *, seats: list[Seat], leaving: int | None) -> list[str]:
    """Under the game's lock, before the start: the seats are ``seats`` (with their users) and ``leaving`` has
    just gone (left their seat, declined the one held for them); the seats still held are the game's holds.

    Whoever is left to play keeps the game going: if the creator is gone (``leaving``, or no longer seated nor
    held), their part goes to the next player of the old table (a rematch's; seat order after theirs, round the
    table) who sits in the game, else to the next whose seat is held, else to the first person seated. The held
    seats stay held. Nobody left to play it (no person seated, no seat held; bots start nothing): cancelled.
    Returns the fields of ``game`` it changed."""
    people = [seat.user_id for seat in seats if not seat.user.is_bot]
    held = _holders(game)
    if not people and not held:
        game.status = Game.Status.CANCELLED
        return ["status"]
    creator = game.creator_id
    if creator != leaving and (creator in people or creator in held):
        return []
    order = [*people, *held]
    old = Game.objects.filter(rematch=game).first()
    if old is not None:
        table = list(old.seats.order_by("position").values_list("user_id", flat=True))
        after = table.index(creator) + 1 if creator in table else 0
        table = table[after:] + table[:after]
        order = [user for user in table if user in people] + [user for user in table if user in held] + order
    game.creator_id = order[0]
    changed = ["creator"]
    # What the new creator may not play in public (another player's private deck) goes private.
    visibility = game.game_kind.visibility_for(game.options or {}, visibility=game.visibility, creator_id=order[0])
    if visibility != game.visibility:
        game.visibility = visibility
        changed.append("visibility")
    return changed


def game_start(*, game_id, user) -> Game:
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if game.creator_id != user.pk:
            raise GameError("not_creator", _("Only the game's creator can start it."), "forbidden")
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("This game has already started."))
        _creator_seated(game, user)
        spec = game.game_kind
        if game.seats.count() < spec.min_seats:
            raise GameError(
                "too_few_players", _("At least %(min)d players are needed to start.") % {"min": spec.min_seats}
            )
        if game.holds_until_at is not None:  # started without them: the seats still held go with the free ones
            _holds_release(game)
        _start(game, now=timezone.now())
        events.game_changed(
            game=game,
            user_ids=list(game.seats.values_list("user_id", flat=True)),
            lobby=game.visibility == Game.Visibility.PUBLIC,
        )
    return game


def _creator_seated(game: Game, user) -> None:
    """A creator whose seat is held (the rematch was handed to them) takes it before they start or open seats."""
    if not game.seats.filter(user=user).exists():
        raise GameError("not_a_player", _("You do not play in this game."), "forbidden")


def _start(game: Game, *, now: datetime) -> None:
    """Deal and open round 1; the caller holds the lock."""
    spec = game.game_kind
    game.started_at = now  # a time limit counts from here
    seated = game.seats.count()
    state = spec.new_state(game=game, seats=seated, rng=secrets.SystemRandom(), now=now)
    game.status = Game.Status.ACTIVE
    # The table closes at the seats taken: the game is as big as its players.
    game.max_seats = seated
    timekeeping.banks_fill(game)
    _persist(game, spec, before=None, after=state, now=now)


def game_act(*, game_id, user, action: dict, expected_round: int | None = None, now: datetime | None = None) -> Game:
    """Apply one player's action: a clue, a submission, a vote...

    ``expected_round`` guards forms built for an earlier round (a vote position
    means another card in another round).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) or _holds_nul(action):
        raise GameError("bad_action", _("That request is not understood."), "invalid")
    now = now or timezone.now()
    with transaction.atomic(), events.one_hop():
        game = game_lock(game_id=game_id)
        seats = seats_of(game, with_users=True)  # their users for the views asked next (game_remember)
        seat = _seat_of(game, user, seats)
        if game.status == Game.Status.FINISHED:
            raise GameError("game_finished", _("This game is over."))
        if game.status != Game.Status.ACTIVE:
            raise GameError("not_started", _("This game has not started yet."))
        if expected_round is not None and expected_round != game.round:
            raise from_rule_error(RuleError("stale", "stale"))
        spec = game.game_kind
        before = spec.engine.from_dict(game.state)
        try:
            after = spec.apply(before, seat=seat.position, action=action, rng=secrets.SystemRandom(), now=now)
        except RuleError as error:
            message = spec.rule_message(error, state=before, seats=seats)
            raise from_rule_error(error, spec, message=message) from None
        _record_move(game, seat, before, action, by_timeout=False)
        played_for_absent = _played_for_absent(spec, before, after, actor=seat.position)
        _record_timeouts(game, seats, before, played_for_absent)
        _persist(game, spec, before=before, after=after, now=now, seats=seats)
        if not played_for_absent:
            note_no_timeouts(game)
        transaction.on_commit(partial(game_remember, game, seats))
    return game


def _holds_nul(value) -> bool:
    """Whether a NUL character hides anywhere in the value: PostgreSQL cannot store one in JSON."""
    pending = [value]  # a loop, not recursion: a client may nest as deep as its JSON parses
    while pending:
        item = pending.pop()
        if isinstance(item, str) and "\x00" in item:
            return True
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return False


def game_rematch(*, game_id, user, now: datetime | None = None) -> Game:
    """Play a finished game again with the same people: a new game of the same kind, pace, seats, visibility
    and options, the presser its creator and first player; the old game points to it (``Game.rematch``).

    Every other player of the old table gets a seat held (``SeatHold``) for FABULA_REMATCH_HOLD_SECONDS and is
    told so (``signals.seats_held``: the bell, an email, a push); they take it by joining, or decline it. Bots
    come back as bots, seated at once (the last seat taken starts the game, as ever). Pressed again, or by
    another player, it gives the rematch already made, the presser seated in it (their held seat taken);
    409 ``rematch_closed`` when it is full or under way, ``declined`` for a player who declined it."""
    now = now or timezone.now()
    with transaction.atomic():
        old = game_lock(game_id=game_id)
        seats = list(old.seats.select_related("user"))
        if not any(seat.user_id == user.pk for seat in seats) or user.is_bot or user.deleted_at is not None:
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        if old.status != Game.Status.FINISHED:
            raise GameError("not_finished", _("Only a finished game can be played again."))
        if old.rematch_id is not None:
            # Pressed again, or by another player: the rematch already made, the presser seated in it.
            # (The old game's lock is taken first, then the new one's: always in that order.)
            rematch = Game.objects.get(pk=old.rematch_id)
            if not rematch.seats.filter(user=user).exists():
                try:
                    rematch = game_join(game_id=rematch.pk, user=user, invite_code=rematch.invite_code, now=now)
                except GameError as error:
                    if error.code == "already_joined":
                        return rematch
                    if error.code == "declined":
                        raise
                    closed = _("The rematch is already full or under way.")
                    raise GameError("rematch_closed", closed, "conflict") from None
            return rematch
        spec = kind_get(old.kind)
        options = spec.rematch_options(dict(old.options), old=old)
        game = game_create(
            creator=user,
            kind=old.kind,
            max_seats=old.max_seats,
            pace=old.pace,
            phase_seconds=old.phase_seconds,
            visibility=spec.visibility_for(options, visibility=old.visibility, creator_id=user.pk),
            options=options,
            time_bank_hours=old.time_bank_seconds // 3600,
            min_reliability=old.min_reliability,
        )
        others = [seat.user for seat in seats if seat.user_id != user.pk and seat.user.deleted_at is None]
        held = [other for other in others if not other.is_bot and other.is_active]
        if held:
            SeatHold.objects.bulk_create(SeatHold(game=game, user=other, created_at=now) for other in held)
            game.holds_until_at = now + timedelta(seconds=settings.FABULA_REMATCH_HOLD_SECONDS)
            game.save(update_fields=["holds_until_at"])
            signals.seats_held.send(sender=Game, game=game, user_ids=[other.pk for other in held], by=user, now=now)
        levels = {seat.user_id: seat.bot_level for seat in seats}
        for bot in (other for other in others if other.is_bot):  # at the level it played at
            game = game_join(game_id=game.pk, user=bot, invite_code=game.invite_code, now=now, bot_level=levels[bot.pk])
        old.rematch = game
        old.version += 1  # its views (cached by version) now show the rematch
        old.save(update_fields=["rematch", "version"])
        events.game_changed(game=old, user_ids=[seat.user_id for seat in seats], lobby=False)
        events.game_changed(game=game, user_ids=[other.pk for other in held])  # their "My games"
    return game


def game_resign(*, game_id, user) -> Game:
    return game_act(game_id=game_id, user=user, action={"type": "resign"})


def game_expire(*, game_id, version: int, now: datetime | None = None) -> bool:
    """The deadline of the phase seen at ``version`` passed: apply the timeout rules.

    Idempotent: if the game moved on (another version), is not due, or is paused,
    nothing changes. Returns whether it expired the phase.
    """
    now = now or timezone.now()
    with transaction.atomic(), events.one_hop():
        game = game_lock(game_id=game_id)
        if (
            game.version != version
            or game.status != Game.Status.ACTIVE
            or game.deadline_at is None
            or game.deadline_at > now
        ):
            return False
        spec = game.game_kind
        before = spec.engine.from_dict(game.state)
        seats = seats_of(game, with_users=True)
        if timekeeping.expiry_deferred(game, spec, before, seats, now=now):  # someone away; the late players' banks
            return False
        after = spec.expire(before, rng=secrets.SystemRandom(), now=now)
        _record_timeouts(game, seats, before, spec.timeout_outcomes(before))
        _persist(game, spec, before=before, after=after, now=now, seats=seats)
    return True


def game_pause_end(*, game_id, now: datetime | None = None) -> bool:
    """A game paused for too few players present since FABULA_PAUSED_GAME_ENDS_SECONDS ago, where nobody acted
    since, ends as abandoned: the absent players resign (a ``Move`` each, ``by_timeout``), as the rules end a
    game with too few players left, and nothing of it is rated. Idempotent: a game no longer paused, or paused
    anew since (someone acted), is left as it is. Returns whether it ended the game."""
    now = now or timezone.now()
    with transaction.atomic(), events.one_hop():
        game = game_lock(game_id=game_id)
        ends_at = timekeeping.pause_ends_at(game)
        if game.status != Game.Status.ACTIVE or ends_at is None or ends_at > now:
            return False
        spec = game.game_kind
        before = spec.engine.from_dict(game.state)
        seats = seats_of(game, with_users=True)
        state, rng = before, secrets.SystemRandom()
        present = set(spec.engine.present_seats(before))
        for seat in seats:
            if str(state.phase) == "finished":
                break
            if seat.position not in present and not seat.has_resigned:
                state = spec.apply(state, seat=seat.position, action={"type": "resign"}, rng=rng, now=now)
                _record_move(game, seat, before, {"type": "resign", "why": "paused"}, by_timeout=True)
        if str(state.phase) != "finished":  # cannot be: paused is too few present, and the absent are gone
            return False
        _persist(game, spec, before=before, after=state, now=now, seats=seats, abandon=True)
    return True


@raw_sql_update(Seat, lambda sql, seat_ids: (sql.is_in(sql.column(Seat, "pk"), seat_ids), seat_ids))
def _seats_by_id(seat_ids: list[int]):
    return Seat.objects.filter(pk__in=seat_ids)


@raw_sql_update(Game, lambda sql, game_id: (f"{sql.column(Game, 'pk')} = %s", [game_id]))
def _game_by_id(game_id: int):
    return Game.objects.filter(pk=game_id)


# What a move or a timeout changes in a game's row (``_persist``); the rest is written when it starts.
PLAYED_FIELDS = (
    "state",
    "round",
    "phase",
    "version",
    "status",
    "finished_at",
    "deadline_at",
    "is_paused",
    "abandoned",
    "phase_started_at",
    "bank_since_at",
    "paused_since_at",
    "pause_warned_at",
)


def _played_for_absent(spec: kinds.GameKind, before, after, *, actor: int) -> dict[int, str]:
    """The absent seats an action's phase was waiting for, which the engine then played by the
    timeout rules (an absent seat holds no phase up): what that did for each, as a deadline would."""
    if spec.phase_key(before) == spec.phase_key(after):
        return {}
    absent = set(spec.engine.to_act(before)) - set(spec.engine.present_seats(before)) - {actor}
    return {position: outcome for position, outcome in spec.timeout_outcomes(before).items() if position in absent}


# Every action's move and every timeout's, their INSERT written once (infrastructure.raw_sql).
_moves_insert = raw_sql_insert(Move)


def _record_timeouts(game: Game, seats: list[Seat], before, outcomes: dict[int, str]) -> None:
    """A ``Move`` with ``by_timeout`` for each seat the expired phase waited for: history tells
    a timeout from an action, and says what the deadline did for the player (``outcome``)."""
    by_position = {seat.position: seat for seat in seats}
    _moves_insert(
        Move(
            game=game,
            seat=by_position[position],
            round=before.round,
            kind="timeout",
            payload={"phase": str(before.phase), "outcome": outcome},
            by_timeout=True,
            version=game.version + 1,
        )
        for position, outcome in sorted(outcomes.items())
        if position in by_position
    )


def _seat_of(game: Game, user, seats: list[Seat] | None = None) -> Seat:
    if user is None or not user.is_authenticated:
        raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
    if seats is not None:
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    else:
        seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
    return seat


def _record_move(game: Game, seat: Seat, before, action: dict, *, by_timeout: bool) -> None:
    kind = action["type"]
    payload = {key: value for key, value in action.items() if key != "type"}
    try:
        # No savepoint of its own (two statements more for every action): the error below leaves the
        # caller's transaction, which rolls it all back. Its SQL written once (nothing reads the row back).
        _moves_insert(
            [
                Move(
                    game=game,
                    seat=seat,
                    round=before.round,
                    kind=kind,
                    payload=payload,
                    by_timeout=by_timeout,
                    version=game.version + 1,
                )
            ]
        )
    except IntegrityError:
        # The engine already refuses a second action; this is the database's word on it.
        raise GameError("already_acted", _("You have already done that this round.")) from None


def _persist(
    game: Game,
    spec: kinds.GameKind,
    *,
    before,
    after,
    now: datetime,
    seats: list[Seat] | None = None,
    abandon: bool = False,
) -> None:
    """Write the engine's new state, mirrors, records, deadline, version; notify after commit.

    ``before`` is None at the game's start, which changes more of the game than a move does: the whole row
    is saved then; a move or a timeout writes only ``PLAYED_FIELDS``, by an UPDATE written out once
    (infrastructure.raw_sql).
    ``seats``: the game's seats as the caller read them under the lock, if it did. ``abandon``: the game ends as
    abandoned whatever was scored (a paused game nobody came back to)."""
    engine = spec.engine
    deadline_before = game.deadline_at
    finished = str(after.phase) == "finished"
    paused = (not finished) and engine.is_paused(after)
    if game.bank_since_at is not None:  # late players acted while their banks ran: they pay what they used
        seats = seats if seats is not None else list(game.seats.all())
        timekeeping.banks_settle(game, spec, before=before, after=after, seats=seats, now=now)
    game.state = engine.to_dict(after)
    game.round = after.round
    game.phase = str(after.phase)
    game.version += 1
    if finished:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.deadline_at = None
        game.abandoned = abandon or not spec.round_scored(after)
    elif paused:
        game.deadline_at = None
    elif (
        before is None or game.is_paused or spec.phase_key(before) != spec.phase_key(after) or game.deadline_at is None
    ):
        seats = timekeeping.with_users(game, seats)
        game.deadline_at = timekeeping.new_phase_deadline(game, spec, after, seats, now=now)
        game.phase_started_at = now
        game.bank_since_at = None
    timekeeping.pause_noted(game, paused=paused, now=now)
    game.is_paused = paused
    if before is None:
        game.save()
    else:
        _game_by_id(game.pk, **{name: getattr(game, name) for name in PLAYED_FIELDS})

    spec.record(game=game, before=before, after=after, now=now, seats=seats)

    to_act = engine.to_act(after) if not finished else frozenset()
    # An abandoned game has no winner: a 0-0 "shared win" of a game nobody played is no win.
    winners = set(engine.winners(after)) if finished and not game.abandoned else set()
    present = engine.present_seats(after)
    seats = seats if seats is not None else list(game.seats.all())
    # Only what changed is written, one UPDATE per set of new values (most actions change
    # one seat's to_act): cheaper than rewriting every seat with a CASE per column.
    changes: dict[tuple, list[int]] = {}
    for seat in seats:
        mirror = {
            "score": after.scores[seat.position],
            "to_act": seat.position in to_act,
            "is_absent": seat.position not in present and seat.position not in after.resigned,
            "has_resigned": seat.position in after.resigned,
            "is_winner": seat.position in winners,
        }
        changed = tuple((name, value) for name, value in mirror.items() if getattr(seat, name) != value)
        for name, value in changed:
            setattr(seat, name, value)
        if changed:
            changes.setdefault(changed, []).append(seat.pk)
    for changed, pks in changes.items():
        _seats_by_id(pks, **dict(changed))
    events.game_changed(game=game, user_ids=[seat.user_id for seat in seats])
    signals.state_changed.send(
        sender=Game,
        game=game,
        kind=spec,
        seats=seats,
        before=before,
        after=after,
        phase_key=spec.phase_key(after),
        now=now,
        deadline_moved=game.deadline_at != deadline_before,
    )
    if finished:
        signals.game_finished.send(sender=Game, game=game)


def games_show_player_anew(*, user_id: int) -> list[int]:
    """Move on the version of every game ``user_id`` sits in or made, so that no process serves a view of it
    cached before: after what the others see of the account changed (it was deleted, or renamed).

    Each game under its lock, in the order of their ids (as every lock of several games is taken), inside
    the caller's transaction when there is one: the new name commits with the new versions, so no request
    can cache the old name under a new version. Pages hear of each after commit. The ids moved."""
    game_ids = sorted(
        set(Seat.objects.filter(user_id=user_id).values_list("game_id", flat=True))
        | set(Game.objects.filter(creator_id=user_id).values_list("pk", flat=True))
    )
    with transaction.atomic():
        for game_id in game_ids:
            game = game_lock(game_id=game_id)
            game.version += 1
            _game_by_id(game.pk, version=game.version)
            seated = list(Seat.objects.filter(game_id=game.pk).values_list("user_id", flat=True))
            events.game_changed(game=game, user_ids=seated, lobby=game.status == Game.Status.OPEN)
    return game_ids
