"""Bots: seating one in an open game, and playing a bot's turn through the same service as people.

A bot is a ``User`` with ``is_bot`` set: it takes a seat with ``game_join`` and acts
with ``game_act``, so every rule, lock and check that holds for people holds for it.
It never signs in (no usable password). One bot may sit in many games; a game asks
for a bot that is not seated in it yet, and a new one is made only when every bot
is.
"""

import json
import logging
import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import Colour, User
from games.models import Game, Seat
from games.services.errors import GameError
from games.services.games import game_act, game_create, game_join
from games.services.locking import game_lock

log = logging.getLogger(__name__)

# The shown names of bots, "Bot " and one of these (then a number, once every one is taken):
# pioneers of computing and of games, so a bot's name reads as a bot's.
BOT_NAMES = (
    "Ada", "Alan", "Grace", "Edsger", "Barbara", "Claude", "Hedy", "Donald", "Frances", "John",
    "Margaret", "Dennis", "Radia", "Ken", "Karen", "Niklaus", "Sophie", "Tim", "Annie", "Konrad",
)  # fmt: skip
NAME_PREFIX = "Bot"


def _bot_names():
    """Shown names in the order they are given out: each name, then each with a number."""
    yield from (f"{NAME_PREFIX} {name}" for name in BOT_NAMES)
    number = 2
    while True:
        yield from (f"{NAME_PREFIX} {name} {number}" for name in BOT_NAMES)
        number += 1


def bot_create() -> User:
    """A new bot user, with the first bot name no player holds (names are unique as ``accounts.names`` folds them)."""
    User = get_user_model()
    for name in _bot_names():
        username = "bot-" + name.removeprefix(f"{NAME_PREFIX} ").lower().replace(" ", "-")
        if User.objects.filter(username=username).exists():
            continue
        bot = User(username=username, display_name=name, is_bot=True, colour=secrets.choice(Colour.values))
        bot.set_unusable_password()
        try:
            with transaction.atomic():
                bot.save()
        except IntegrityError:  # a player (or another request's bot) holds this name: the next one
            continue
        return bot
    raise AssertionError("unreachable: the names never run out")


def bot_for_game(*, game: Game):
    """A bot not seated in ``game``: one of those there are, or a new one."""
    User = get_user_model()
    free = list(
        User.objects.filter(is_bot=True, deleted_at__isnull=True)
        .exclude(seats__game=game)
        .order_by("pk")
        .values_list("pk", flat=True)[:50]
    )
    if free:
        return User.objects.get(pk=secrets.choice(free))
    return bot_create()


LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def bot_level_clean(level) -> str:
    """A bot's level: easy, normal or hard (None: normal); anything else is 400 ``bad_options``."""
    if level is None:
        return DEFAULT_LEVEL
    if not isinstance(level, str) or level not in LEVELS:
        raise GameError("bad_options", _("A bot's level is easy, normal or hard."), "invalid")
    return level


def game_bot_add(*, game_id, user, level: str | None = None) -> Game:
    """The game's creator fills a seat with a bot of ``level`` (easy, normal or hard; default normal); the
    last seat taken starts the game, as with people.

    Refused, changing nothing: a level that is none of those (400 bad_options), a game that does not exist
    (not_found), not the creator (403 not_creator), a game no longer open (409 not_open) or full (409 game_full).
    """
    level = bot_level_clean(level)
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if user is None or not user.is_authenticated or game.creator_id != user.pk:
            raise GameError("not_creator", _("Only the game's creator can add a bot."), "forbidden")
        if game.status != Game.Status.OPEN:
            raise GameError("not_open", _("This game is no longer taking players."))
        if game.seats.count() >= game.max_seats:
            raise GameError("game_full", _("This game is full."))
        bot = bot_for_game(game=game)
        return game_join(game_id=game.pk, user=bot, invite_code=game.invite_code, bot_level=level)


def game_seats_fill_with_bots(*, game_id, creator, level: str | None = None) -> Game:
    """Bots of ``level`` take every empty seat of ``creator``'s open game (the last one starts it): the new-game
    form's "Bots take the empty seats". Refused as ``game_bot_add`` refuses, changing nothing."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        for _seat in range(game.max_seats - game.seats.count()):
            game = game_bot_add(game_id=game_id, user=creator, level=level)
    return game


PLAY_NOW_BOTS = 3


def game_with_bots_create(*, creator, kind: str | None = None, level: str | None = None) -> Game:
    """ "Play now with bots": a private live game of ``kind`` for ``creator`` and three bots of ``level``,
    started at once (the last seat taken starts it). All of it or nothing: one transaction."""
    with transaction.atomic():
        game = game_create(
            creator=creator,
            kind=kind,
            max_seats=1 + PLAY_NOW_BOTS,
            pace=Game.Pace.LIVE,
            visibility=Game.Visibility.PRIVATE,
        )
        return game_seats_fill_with_bots(game_id=game.pk, creator=creator, level=level)


def phase_key_json(key: tuple) -> list:
    """A phase key as a task's JSON argument brings it back (tuples become lists)."""
    return json.loads(json.dumps(list(key)))


def bot_turn_play(*, game_id: int, user_id: int, phase_key: list, rng=None) -> bool:
    """A bot's turn: if the game still waits for this bot in this phase, act; returns whether it acted.

    The kind's ``bot_action`` chooses; if that action fails (or the choosing does), a random
    legal one is tried; if that fails too, the bot is left to the phase's deadline, as a
    person who does not act is. Nothing here raises: a bot never stalls a game.
    """
    rng = rng or secrets.SystemRandom()
    try:
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return False
        kind = game.game_kind
        state = kind.engine.from_dict(game.state)
        if phase_key_json(kind.phase_key(state)) != phase_key:
            return False  # moved on: the change that moved it scheduled whoever is awaited now
        seat = Seat.objects.filter(game=game, user_id=user_id, user__is_bot=True).select_related("user").first()
        if seat is None or seat.position not in kind.engine.to_act(state):
            return False
    except Exception:
        log.exception("bot %s could not read game %s", user_id, game_id)
        return False
    choosers = (
        ("bot_action", lambda: kind.bot_action(state, seat=seat.position, rng=rng, game=game)),
        ("sample_action", lambda: kind.sample_action(state, seat=seat.position, rng=rng)),
    )
    for name, choose in choosers:
        try:
            action = choose()
            if action is None:
                continue
            game_act(game_id=game.pk, user=seat.user, action=action, expected_round=game.round)
            return True
        except GameError as error:
            if error.code == "stale":
                return False
            log.warning("bot %s in game %s: %s refused (%s)", user_id, game_id, name, error.code)
        except Exception:
            log.exception("bot %s in game %s: %s failed", user_id, game_id, name)
    return False
