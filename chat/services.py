"""Writes of the table talk: say something, mute or unmute a player, report a message, moderate.

A message is said under the game row's lock (``games.services.locking.game_lock``):
whether the table may talk depends on the game's phase (Storyteller's secret vote
closes it), and a vote that opens at the same moment must not let a message slip in.
After commit the game's open pages hear that its chat changed (no text, no name) and
fetch their panel again.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.text import TextRefused, text_clean, text_storable
from games.models import Game, Seat
from games.services import events
from games.services.errors import GameError
from games.services.locking import game_lock

from .models import REASON_MAX_LENGTH, TEXT_MAX_LENGTH, ChatMessage, ChatMute, ChatReport

CHAT_OFF = _("This game is played without chat.")


def chat_allowed(game: Game) -> bool:
    """Whether the game has a chat at all (the house rule ``chat``, on unless the creator turned it off)."""
    return game.options.get("chat", True) is not False


def chat_closed_reason(game: Game):
    """Why no one may say anything in ``game`` now (words for a person), or None: the table may talk."""
    if game.status == Game.Status.CANCELLED:
        return _("This game was cancelled.")
    if game.status != Game.Status.ACTIVE or game.state is None:
        return None
    kind = game.game_kind
    return kind.presentation.chat_closed(kind.engine.from_dict(game.state))


def chat_seat(*, game: Game, user, seats=None) -> Seat:
    """The user's seat in ``game``; ``GameError`` "not_a_player" (403) for anyone else."""
    if user is None or not user.is_authenticated:
        raise GameError("not_a_player", _("Only the players of this game take part in its chat."), "forbidden")
    if seats is not None:
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    else:
        seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise GameError("not_a_player", _("Only the players of this game take part in its chat."), "forbidden")
    return seat


def text_checked(text, *, max_length: int, allow_empty: bool = False) -> str:
    """``text`` as the site keeps it (``accounts.text``'s policy, outer spaces trimmed), or ``GameError`` (400)."""
    if not isinstance(text, str):
        raise GameError("bad_text", _("Write some text."), "invalid")
    try:
        kept = text_clean(text).strip()
    except TextRefused as refused:
        raise GameError("bad_text", refused.message, "invalid") from None
    if not kept and not allow_empty:
        raise GameError("text_empty", _("Write something first."), "invalid")
    if len(kept) > max_length:
        raise GameError(
            "text_too_long", _("That is too long: %(max)d characters at most.") % {"max": max_length}, "invalid"
        )
    return kept


def chat_post(*, game_id, user, text, now=None) -> ChatMessage:
    """Say ``text`` to the table of ``game_id`` as ``user``, a player of the game.

    Refusals (nothing is written): 400 ``bad_text``/``text_empty``/``text_too_long``,
    403 ``not_a_player``/``resigned``, 404 ``not_found``, 409 ``chat_off`` (the game
    has no chat) and ``chat_closed`` (not now: the vote is open, or the game was cancelled).
    """
    kept = text_checked(text, max_length=TEXT_MAX_LENGTH)
    now = now or timezone.now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = chat_seat(game=game, user=user)
        if seat.has_resigned:
            raise GameError("resigned", _("You have resigned from this game."), "forbidden")
        if not chat_allowed(game):
            raise GameError("chat_off", CHAT_OFF, "conflict")
        reason = chat_closed_reason(game)
        if reason:
            raise GameError("chat_closed", reason, "conflict")
        message = ChatMessage.objects.create(
            game=game,
            user=user,
            text=kept,
            round=game.round if game.status == Game.Status.ACTIVE else None,
            created_at=now,
        )
        _tell_readers(game_id=game.pk)
    return message


def _tell_readers(*, game_id: int) -> None:
    """After commit, the pages of those who may read the game's talk (its players: ``chat_seat``) hear it changed."""
    readers = Seat.objects.filter(game_id=game_id, user__is_bot=False).values_list("user_id", flat=True)
    events.chat_changed(game_id=game_id, reader_ids=list(readers))


def _other_player(*, game: Game, username):
    if not isinstance(username, str) or not username:
        raise GameError("bad_username", _("Name the player to mute."), "invalid")
    if not text_storable(username):  # no one's name, and PostgreSQL takes no NUL to look for one
        raise GameError("no_such_player", _("There is no such player in this game."), "invalid")
    seat = Seat.objects.filter(game=game, user__username=username).select_related("user").first()
    if seat is None:
        raise GameError("no_such_player", _("There is no such player in this game."), "invalid")
    return seat.user


def chat_mute(*, game_id, user, username, muted: bool = True) -> bool:
    """``user`` mutes (or, ``muted=False``, unmutes) the player ``username`` in this game; whether anything changed.

    Muting is one player's own choice: no one else hears of it, and the muted player still talks to the others.
    """
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        chat_seat(game=game, user=user)
        other = _other_player(game=game, username=username)
        if other.pk == user.pk:
            raise GameError("mute_self", _("You cannot mute yourself."), "invalid")
        if not muted:
            deleted, _rows = ChatMute.objects.filter(game=game, muter=user, muted=other).delete()
            return bool(deleted)
        _mute, created = ChatMute.objects.get_or_create(game=game, muter=user, muted=other)
        return created


def chat_report(*, game_id, user, message_id, reason="", now=None) -> ChatReport:
    """``user``, a player of the game, reports a message someone else said to it; the admins see it."""
    kept = text_checked(reason, max_length=REASON_MAX_LENGTH, allow_empty=True)
    now = now or timezone.now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        chat_seat(game=game, user=user)
        message = ChatMessage.objects.filter(game=game, pk=_int_or_none(message_id), removed_at__isnull=True).first()
        if message is None:
            raise GameError("no_such_message", _("There is no such message in this game."), "not_found_message")
        if message.user_id == user.pk:
            raise GameError("own_message", _("You cannot report your own message."), "invalid")
        try:
            with transaction.atomic():
                return ChatReport.objects.create(message=message, reporter=user, reason=kept, created_at=now)
        except IntegrityError:
            raise GameError("already_reported", _("You have reported this message already."), "conflict") from None


def _int_or_none(value):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**63 else None


def chat_reports_resolve(*, reports, now=None) -> int:
    """Mark ``reports`` (a queryset) as dealt with; how many were open."""
    return reports.filter(resolved=False).update(resolved=True, resolved_at=now or timezone.now())


def chat_messages_remove(*, messages, now=None) -> int:
    """Take ``messages`` (a queryset) out of the chat, for everyone; their reports are resolved. How many."""
    now = now or timezone.now()
    with transaction.atomic():
        chosen = list(messages.filter(removed_at__isnull=True).values_list("pk", "game_id"))
        ids = [pk for pk, _game in chosen]
        ChatMessage.objects.filter(pk__in=ids).update(removed_at=now)
        chat_reports_resolve(reports=ChatReport.objects.filter(message_id__in=ids), now=now)
        for game_id in {game for _pk, game in chosen}:
            _tell_readers(game_id=game_id)
    return len(ids)
