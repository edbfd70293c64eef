"""Every process publishes: what the Celery worker, beat's deadlines or a management command change reaches an open
page's socket within a second, on the embedded default as on Redis (issue 30).

The site runs as ``bin/run`` starts it (web server, Celery worker and beat, in processes of their own, on the test
database); a spectator's socket follows a public live game. A change's moment is its ``Move``'s ``created_at``,
written in the process that made it; the socket notes when it heard of each version.
"""

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts.services import token_create
from games.models import Game, Move
from games.services.games import game_create

from ..factories import UserFactory, deck_with_cards, started_game
from ..play import action_for, view_for
from .server import ROOT, Site, celery_command, database_url

pytestmark = [pytest.mark.django_db(transaction=True)]

AT_ONCE = 1.0  # seconds: the aim, from a change's commit to a page hearing of it


@pytest.fixture(scope="module")
def site(django_db_setup, tmp_path_factory):
    """Web server, Celery worker and beat, as ``bin/run`` starts them, on the test database (and Redis if the
    tests run with REDIS_URL); beat looks for due deadlines every half second."""
    from django.db import connection

    folder = tmp_path_factory.mktemp("site")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url(connection.settings_dict),
        "FABULA_VAR_DIR": str(folder / "var"),
        "FABULA_EXPIRY_INTERVAL_SECONDS": "0.5",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    running = Site(env=env, log_folder=folder)
    running.start()
    yield running
    running.stop()


class Page:
    """An open page's socket on the site, read in a thread: each message it heard and when (wall clock)."""

    def __init__(self, site: Site, query: str):
        self.closing = contextlib.ExitStack()
        self.socket = self.closing.enter_context(
            connect(f"ws://127.0.0.1:{site.server.port}/ws/live/?{query}", origin=site.url, open_timeout=30)
        )
        self.heard: list[tuple[dict, float]] = []
        self.news = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                raw = self.socket.recv()
                with self.news:
                    self.heard.append((json.loads(raw), time.time()))
                    self.news.notify_all()

    def versions(self, game_id: int) -> dict[int, float]:
        """Each version of the game it heard of, and when it first did."""
        with self.news:
            heard = [
                (m["version"], at) for m, at in self.heard if m.get("type") == "game.changed" and m["game"] == game_id
            ]
        first: dict[int, float] = {}
        for version, at in heard:
            first.setdefault(version, at)
        return first

    def wait_for_version(self, game_id: int, version: int, timeout: float) -> bool:
        with self.news:
            return self.news.wait_for(lambda: version in self.versions(game_id), timeout)

    def close(self) -> None:
        self.closing.close()
        self.reader.join(timeout=5)


def made_at(game_id: int, version: int) -> float:
    """When the change that made ``version`` was written (its moves' ``created_at``, the newest)."""
    moves = Move.objects.filter(game_id=game_id, version=version)
    return max(move.created_at for move in moves).timestamp()


def test_the_site_runs_its_worker_and_beat_as_bin_run_does():
    """The site the tests start is bin/run's: the same Celery command lines."""
    script = (ROOT / "bin" / "run").read_text()
    worker = " ".join(celery_command("worker")[3:])  # after "python -m celery"
    beat = " ".join(celery_command("beat", schedule=ROOT / "x")[3:-1])
    assert f"celery {worker} &" in script
    assert f"celery {beat} " in script


def test_bots_moves_made_in_the_worker_reach_an_open_page_at_once(site):
    """Alone with three bots in a live game: every bot's move, made in the Celery worker, reaches a spectator's
    socket within a second of its commit, and no version is missed."""
    human = UserFactory()
    token = token_create(user=human, name="test")[1]
    game = game_create(
        creator=human, max_seats=4, pace="live", visibility="public", options={"deck": deck_with_cards().pk}
    )
    page = Page(site, f"game={game.pk}")
    api = httpx.Client(base_url=f"{site.url}/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    rng = random.Random(3)
    try:
        for _ in range(3):  # the last bot starts the game, in the web process
            assert api.post(f"/games/{game.pk}/bots").status_code == 201
        give_up_at = time.monotonic() + 90
        bot_versions: set[int] = set()
        while len(bot_versions) < 6 and time.monotonic() < give_up_at:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            view = view_for(game, human)
            if view["you"]["to_act"]:
                action = action_for(view, rng)
                answer = api.post(f"/games/{game.pk}/actions", json={**action, "round": view["round"]})
                if answer.status_code == 409 and answer.json()["error"]["code"] == "clue_taken":
                    continue  # the first clue is open to every seat: a bot gave it between the view and the post
                assert answer.status_code == 200, answer.text
                continue
            # The game waits for the bots: the worker's next move.
            assert page.wait_for_version(game.pk, view["version"] + 1, timeout=30), site.logs()
            moves = Move.objects.filter(game_id=game.pk, version=view["version"] + 1).select_related("seat__user")
            if moves and all(move.seat is not None and move.seat.user.is_bot for move in moves):
                bot_versions.add(view["version"] + 1)
    finally:
        api.close()
        page.close()

    heard = page.versions(game.pk)
    assert len(bot_versions) >= 6, site.logs()
    late = {
        v: round(heard[v] - made_at(game.pk, v), 3) for v in bot_versions if heard[v] - made_at(game.pk, v) > AT_ONCE
    }
    assert not late, late
    # Nothing lost: every change a move made (each a commit of its own) was heard.
    assert set(Move.objects.filter(game_id=game.pk).values_list("version", flat=True)) <= set(heard)


def test_a_deadline_expired_by_beat_and_the_worker_reaches_an_open_page_at_once(site):
    game, _users = started_game(3, pace="live", visibility="public")
    page = Page(site, f"game={game.pk}")
    try:
        # The phase's time is up: beat's next look (every half second here) has the worker expire it.
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
        assert page.wait_for_version(game.pk, game.version + 1, timeout=30), site.logs()
    finally:
        page.close()
    assert Move.objects.filter(game_id=game.pk, version=game.version + 1, by_timeout=True).exists()
    assert page.versions(game.pk)[game.version + 1] - made_at(game.pk, game.version + 1) <= AT_ONCE


def test_a_management_command_s_change_reaches_an_open_page_at_once(site):
    """An operator's ``manage.py shell -c``: a process with no server and no worker of its own publishes too."""
    game, _users = started_game(3, pace="live", visibility="public")
    page = Page(site, f"game={game.pk}")
    command = (
        "from games.models import Game; from games.services.games import game_expire; "
        f"game = Game.objects.get(pk={game.pk}); "
        "print(game_expire(game_id=game.pk, version=game.version, now=game.deadline_at))"
    )
    try:
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", command],
            cwd=ROOT,
            env=site.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.stdout.split()[-1:] == ["True"], done.stdout + done.stderr
        assert page.wait_for_version(game.pk, game.version + 1, timeout=5), site.logs()
    finally:
        page.close()
    assert page.versions(game.pk)[game.version + 1] - made_at(game.pk, game.version + 1) <= AT_ONCE
