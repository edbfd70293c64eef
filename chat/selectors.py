"""Reads of the table talk, for one viewer: what they may read, without the players they muted."""

from __future__ import annotations

from django.db.models import Q

from games.models import Game, Seat

from .models import ChatMessage, ChatMute
from .services import chat_allowed, chat_closed_reason, chat_seat

# The newest messages a panel or the API shows (the replay shows them all).
RECENT = 200


def chat_muted_ids(*, game: Game, user) -> set[int]:
    """The users ``user`` muted in ``game``."""
    return set(ChatMute.objects.filter(game=game, muter=user).values_list("muted_id", flat=True))


def _visible(*, game: Game, user, muted: set[int] | None = None):
    messages = ChatMessage.objects.filter(game=game, removed_at__isnull=True).select_related("user")
    muted = chat_muted_ids(game=game, user=user) if muted is None else muted
    if muted:
        messages = messages.exclude(Q(user_id__in=muted))
    return messages


def chat_messages(*, game: Game, user, limit: int = RECENT, muted: set[int] | None = None) -> list[ChatMessage]:
    """The newest ``limit`` messages of ``game`` that ``user`` reads, oldest first (muted players' left out)."""
    newest = list(_visible(game=game, user=user, muted=muted).order_by("-created_at", "-pk")[:limit])
    return newest[::-1]


def chat_state(*, game: Game, seats: list[Seat], user) -> dict:
    """Everything a player's chat panel shows: raises ``GameError`` 403 for anyone not seated in the game."""
    seat = chat_seat(game=game, user=user, seats=seats)
    muted = chat_muted_ids(game=game, user=user)
    others = [
        {"username": s.user.username, "name": s.user.name, "muted": s.user_id in muted}
        for s in seats
        if s.user_id != user.pk
    ]
    allowed = chat_allowed(game)
    closed = chat_closed_reason(game) if allowed else None
    messages = chat_messages(game=game, user=user, muted=muted)
    mine = [message.pk for message in messages if message.user_id == user.pk]
    return {
        "game": game,
        "seat": seat,
        "allowed": allowed,
        "closed": closed,
        "can_post": allowed and not closed and not seat.has_resigned,
        "messages": messages,
        "others": others,
        "said": mine[-1] if mine else 0,  # the form's key: a new one (an empty form) once the player has said something
    }


def chat_replay(*, game: Game, user) -> list[dict] | None:
    """The game's talk in parts, by when it was said: before the game, round by round, after it.

    Only for the game's players (table talk stays at the table; a public replay shows
    the rounds, not the talk); None for anyone else and for a game without chat.
    """
    if user is None or not user.is_authenticated or not Seat.objects.filter(game=game, user=user).exists():
        return None
    messages = list(_visible(game=game, user=user).order_by("created_at", "pk"))
    if not messages:
        return None if not chat_allowed(game) else []
    parts: list[dict] = []
    for message in messages:
        if message.round is not None:
            key = ("round", message.round)
        elif game.started_at is None or message.created_at < game.started_at:
            key = ("before", None)
        else:
            key = ("after", None)
        if not parts or parts[-1]["key"] != key:
            parts.append({"key": key, "when": key[0], "round": key[1], "messages": []})
        parts[-1]["messages"].append(message)
    return parts
