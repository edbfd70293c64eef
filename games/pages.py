"""Each viewer's board and API view, made once per game version and reused until it moves.

After an action every player's page fetches its board again (notify, then fetch); a
reload, a second tab, a socket heard twice or a bot polling the API asks for the same
version of the same game again. What a viewer sees depends only on the game's version
(every change to a game moves it), on who the viewer is, and on the language and time
zone it is shown in: that is the key. The visibility check is not cached: it runs on
every request, on the game and seats ``game_get_for_viewer`` gives.

A board holds forms, and a form holds the CSRF token of the browser that asked (a
user's two browsers have two). The board is cached with a placeholder in its place,
filled with the asking browser's token each time it is served.

The table (the seats and the score track) is the same for every viewer but for which
seat is theirs. It is rendered once per version and language from the spectator's view
(what anyone may see, by construction), with a placeholder where a seat would be marked
as the viewer's, and each viewer's board fills in its own: after an action, the other
players' boards render only their own parts.

A fetch of a version the viewer already has is answered 304 Not Modified: the board fragment and the API's
view carry an ETag made from their key at the version (``view_etag``), and a request that names it in
If-None-Match (a browser revalidating the board it keeps, a bot polling) gets no body (``not_modified``).
"""

import datetime
import functools
import hashlib
import re
import secrets

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.http import HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from infrastructure.caches import register as register_cache

from .models import Game, Seat
from .selectors.games import game_view

BOARD_TEMPLATE = "games/partials/board.html"
TABLE_TEMPLATE = "games/partials/players.html"
# The placeholders hold a secret drawn when the process starts. The cached boards are this process's
# own (the "views" cache is in its memory) and every placeholder is filled before a board is served,
# so the secret never leaves the process, and no text a player writes (a clue, a name) can be taken
# for a placeholder: a fixed one could be typed, and was filled in.
SLOT_SECRET = secrets.token_hex(8)
# What the {% csrf_token %} tags of a cached board hold until it is served, filled with the asking
# browser's token.
CSRF_SLOT = f"fabula-csrf-{SLOT_SECRET}"
# What the countdown of a cached board holds until it is served, filled with the time left then (a board is
# kept for as long as its version lasts, a day or more in an asynchronous game).
TIME_LEFT_SLOT = f"fabula-time-left-{SLOT_SECRET}"
# Where the shared table marks a seat, for the viewer who sits there, as theirs (" me"):
# ``{{ me_slot }}<seat>`` in a class attribute (players.html, score_track.html).
ME_SLOT_PREFIX = f" fabula-me-{SLOT_SECRET}-"
ME_SLOT = re.compile(re.escape(ME_SLOT_PREFIX) + r"(\d+)")


def cache():
    return caches["views"]


def view_key(what: str, *, game: Game, user=None, extra: str = "", version: bool = True) -> str:
    """The key of ``what`` (a board, an API view) of ``game`` at its version, as ``user`` sees it now
    (``None``: as anyone sees it). ``version=False``: the key of its one entry whatever the version, which
    ``kept`` and ``keep`` stamp with the version their value was made at."""
    return ":".join(
        (
            what,
            str(game.pk),
            str(game.version) if version else "",
            str(int(game.created_at.timestamp() * 1_000_000)),  # a game that had this id before is another
            str(user.pk or 0) if user is not None else "anyone",
            translation.get_language() or "",
            timezone.get_current_timezone_name(),
            extra,
        )
    )


# A board, an API view or the table is kept in one entry per game and viewer, stamped with the version it was
# made at, which the next version's replaces: what a game showed before its last move is never asked for again,
# and kept under keys of their own the old versions filled the cache up to its bound (bench/soak.py: about a
# megabyte a minute in the web process with ten live games through the API, for as long as it ran).


def kept(key: str, game: Game):
    """The value kept under ``key`` if it was made at ``game``'s version, else None."""
    entry = cache().get(key)
    if entry is not None and entry[0] == game.version:
        return entry[1]
    return None


def keep(key: str, game: Game, value) -> None:
    """Keep ``value``, made at ``game``'s version, under ``key``, in place of what an earlier version made."""
    cache().set(key, (game.version, value))


def board_html(
    request, *, game: Game, seats: list[Seat], error: str | None = None, csrf: str | None = None
) -> SafeString:
    """The game's board as the request's user sees it, at the game's version (from the cache when it can). Its
    forms hold ``csrf``, by default the request's CSRF token (a push holds none: games.pushes)."""
    key = view_key("board", game=game, user=request.user, version=False)
    html = None if error else kept(key, game)
    if html is None:
        view = game_view(game=game, seats=seats, user=request.user)
        context = {
            "game": game,
            "seats": seats,
            "view": view,
            "table": table_html(game=game, seats=seats, you=view["you"]),
            "error": error,
            "csrf_token": CSRF_SLOT,
            "time_left": TIME_LEFT_SLOT,
            # What the same for every viewer of this version (in this language and time zone) is cached under.
            "fragment": view_key("fragment", game=game),
            "urls": game_urls(game.pk),
            # All a board reads of the request: no context processor runs for it (render_to_string is given none).
            "request": request,
            "user": request.user,
        }
        html = render_to_string(BOARD_TEMPLATE, context)
        if not error:  # an error belongs to one answer only
            keep(key, game, html)
    html = html.replace(CSRF_SLOT, get_token(request) if csrf is None else csrf)
    if TIME_LEFT_SLOT in html:
        html = html.replace(TIME_LEFT_SLOT, time_left(game.deadline_at))
    return mark_safe(html)  # noqa: S308 (rendered by our templates)


def game_urls(game_pk: int) -> dict[str, str]:
    """The addresses a board of the game posts to and is fetched from (``urls.act``, ``urls.board``): reversed once
    per game (a board names the action's address in each of its forms)."""
    return _game_urls(game_pk, get_script_prefix())


@functools.lru_cache(maxsize=settings.FABULA_RECENT_GAMES_ENTRIES)
def _game_urls(game_pk: int, _prefix: str) -> dict[str, str]:
    return {"act": reverse("games:act", args=[game_pk]), "board": reverse("games:board", args=[game_pk])}


register_cache("games.pages._game_urls", _game_urls.cache_clear)


def table_html(*, game: Game, seats: list[Seat], you: dict | None) -> SafeString:
    """The seats and the score track, rendered once per version from what anyone may see; ``you`` (the
    viewer's part of their view, if they sit in the game) says which seat to mark as theirs."""

    def render():
        public = game_view(game=game, seats=seats, user=AnonymousUser())
        return render_to_string(TABLE_TEMPLATE, {"game": game, "view": public, "me_slot": ME_SLOT_PREFIX})

    return mark_mine(for_anyone("table", game=game, build=render), you)


def for_anyone(what: str, *, game: Game, build):
    """``build()``, made once per game version and language for every viewer: only for what anyone who
    may see the game may see (the table, what a deadline just did)."""
    key = view_key(what, game=game, version=False)
    value = kept(key, game)
    if value is None:
        value = build()
        keep(key, game, value)
    return value


def mark_mine(html: str, you: dict | None) -> SafeString:
    """The shared table with the viewer's own seat (``you["seat"]``; none for a spectator) marked " me"."""
    mine = you["seat"] if you else None
    return mark_safe(ME_SLOT.sub(lambda slot: " me" if int(slot.group(1)) == mine else "", html))  # noqa: S308


def cached_view(request, *, game: Game, seats: list[Seat], build, extra: str = ""):
    """What ``build(game, seats)`` makes for the request's user, once per game version (the API's view)."""
    key = view_key("api", game=game, user=request.user, extra=extra, version=False)
    value = kept(key, game)
    if value is None:
        value = build(game, seats)
        keep(key, game, value)
    return value


def view_etag(what: str, request, *, game: Game, extra: str = "") -> str:
    """The ETag of ``what`` (a board, an API view) of ``game`` at its version as the request's user sees it: its
    key, hashed (the key names the viewer; the header need not). A board holds the browser's CSRF token: its
    tag follows the browser's CSRF cookie too, so a board kept from before a new token is not reused."""
    if what == "board":
        extra = f"{extra}:{request.COOKIES.get(settings.CSRF_COOKIE_NAME, '')}"
    key = view_key(what, game=game, user=request.user, extra=extra)
    return '"' + hashlib.blake2b(key.encode(), digest_size=16).hexdigest() + '"'


def not_modified(request, etag: str) -> HttpResponseNotModified | None:
    """304, with ``etag``, when the request's If-None-Match names it (or ``*``); else None."""
    header = request.headers.get("If-None-Match")
    if not header:
        return None
    named = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    if etag not in named and "*" not in named:
        return None
    response = HttpResponseNotModified()
    return tagged(response, etag)


def tagged(response, etag: str):
    """``response`` with its ETag, kept by the asking browser only and asked again each time (the version moves)."""
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def time_left(moment, now: datetime.datetime | None = None) -> str:
    """The time left until ``moment`` as the page's countdown words it (games/static/js/live.js, Chromium's
    ``Intl.DurationFormat`` in its narrow style): days and hours ("2d 3h"), or hours and minutes ("23h 59m"),
    in the page's language; under an hour minutes and seconds as a clock ("4:05"); "0:00" once passed. So the
    line it stands in keeps its length when the countdown takes over after the page's first paint (the server's
    "23 hours, 59 minutes" took a second line on a phone, and the table jumped down and up again)."""
    if moment is None:
        return ""
    seconds = int((moment - (now or timezone.now())).total_seconds())
    if seconds <= 0:
        return "0:00"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return pgettext("time left, narrow", "%(days)sd %(hours)sh") % {"days": days, "hours": hours}
    if hours:
        return pgettext("time left, narrow", "%(hours)sh %(minutes)sm") % {"hours": hours, "minutes": minutes}
    return f"{minutes}:{seconds:02d}"
