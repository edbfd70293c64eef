"""The boards players get, byte for byte, over recorded positions of both games: every viewer (each player and a
spectator) in English and French, at every step of a seeded game of Storyteller and of Think Alike.

The games are played with a seeded random source and a clock that moves a minute a step, on a database whose ids
start at one, so that each run draws the same positions; each board's digest is compared with the one recorded in
``boards_recorded.json``. A change to how the boards are made (caching, templates, tags) must keep them; a change
to what a board shows records them again, on purpose:

    FABULA_RECORD_BOARDS=1 bin/test games/tests/test_boards_recorded.py

(``FABULA_DUMP_BOARDS=DIR`` writes each board's HTML to DIR, to compare two runs with diff.)
"""

import datetime
import hashlib
import json
import os
import random
import re
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import games as game_services
from games.services.games import game_create, game_join

from .factories import UserFactory as Users
from .factories import deck_with_cards
from .play import play_step as storyteller_step

RECORDED = Path(__file__).with_name("boards_recorded.json")
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")')
START = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.UTC)
LANGUAGES = ("en", "fr")
STEPS = 80  # a game's first steps, every one recorded; then its end


def masked(html: str) -> str:
    """The board without the browser's CSRF token (drawn anew for each client)."""
    return CSRF.sub(r"\1token\2", html)


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now

    def tick(self):
        self.now += datetime.timedelta(minutes=1)


def boards_of(kind: str, clock: Clock, rng: random.Random) -> dict[str, str]:
    """Every viewer's board in each language, step by step through a seeded game of ``kind``."""
    users = [Users(username=f"{kind}-{n}", display_name=f"{kind.title()} Player {n}") for n in range(4)]
    if kind == "storyteller":
        options = {"deck": deck_with_cards(84, slug="recorded", name="Recorded").pk}
        step = storyteller_step
    else:
        from think_alike.tests.content import builtin_content
        from think_alike.tests.play import play_step as think_alike_step

        builtin_content()
        options = {}
        step = think_alike_step
    game = game_create(creator=users[0], kind=kind, max_seats=4, options=options)
    clients = {f"player{n}": _client(user) for n, user in enumerate(users)} | {"spectator": Client()}
    boards: dict[str, str] = {}

    def record(position: str, turn: int) -> None:
        names = list(clients)
        names = names[turn % len(names) :] + names[: turn % len(names)]  # who draws a version first varies
        for language in LANGUAGES:
            for name in names:
                client = clients[name]
                client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                answer = client.get(reverse("games:board", args=[game.pk]), headers={"HX-Request": "true"})
                assert answer.status_code == 200, (position, name, language)
                boards[f"{kind}/{position}/{name}/{language}"] = masked(answer.content.decode())

    record("open-1", 0)
    for n, user in enumerate(users[1:], start=2):
        clock.tick()
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
        if n < 4:
            record(f"open-{n}", n)
    for turn in range(STEPS):
        game.refresh_from_db()
        record(f"step-{turn:03d}", turn)
        clock.tick()
        if not step(game, users, rng):
            break
    while step(game, users, rng):
        clock.tick()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    record("end", 0)
    return boards


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("kind", ["storyteller", "think_alike"])
def test_the_boards_of_recorded_positions_are_the_same_byte_for_byte(kind):
    rng = random.Random(41)
    clock = Clock()
    with (
        mock.patch.object(game_services.secrets, "SystemRandom", lambda: rng),
        mock.patch("django.utils.timezone.now", clock),
    ):
        boards = boards_of(kind, clock, rng)
    english = {name.removesuffix("/en"): board for name, board in boards.items() if name.endswith("/en")}
    french = {name.removesuffix("/fr"): board for name, board in boards.items() if name.endswith("/fr")}
    assert all(french[name] != english[name] for name in english), "a board in French is the English one"
    if dump := os.environ.get("FABULA_DUMP_BOARDS"):
        for name, board in boards.items():
            path = Path(dump) / f"{name}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(board)
    digests = {name: hashlib.sha256(board.encode()).hexdigest() for name, board in boards.items()}
    recorded = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    if os.environ.get("FABULA_RECORD_BOARDS"):
        recorded = {name: digest for name, digest in recorded.items() if not name.startswith(f"{kind}/")} | digests
        RECORDED.write_text(json.dumps(recorded, indent=0, sort_keys=True) + "\n")
        return
    mine = {name: digest for name, digest in recorded.items() if name.startswith(f"{kind}/")}
    assert mine, "no boards recorded: FABULA_RECORD_BOARDS=1"
    assert sorted(digests) == sorted(mine)
    differ = [name for name in digests if digests[name] != mine[name]]
    assert not differ, f"{len(differ)} of {len(digests)} boards differ, the first: {differ[:5]}"
