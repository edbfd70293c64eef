"""What a request of live play costs in-process: Django's test client, no server, the CPU of this process.

Two measures, through the API (``--via api``: a bot's JSON, its bearer token) or the pages (``--via pages``: the
board fragment and the htmx action, signed in by a session cookie):

- **a request**: one player's fetch of its game again and again at the same version, its view kept, each
  answered whole (no ETag sent): what every request pays besides building its view (the middleware, the token
  or session, the rate count, the game's version and visibility, ninja or the view);
- **an action**: ``--games`` games of 4 play Storyteller, each action followed by the other three players'
  fetches, as in ``bench/live_latency.py`` (the same players and moves, without its sockets and server).

CPU is ``time.process_time()``: this process only, its threads included (the channel layer's sends). Compare
two commits in turn on the same machine, several times each (docs/operating/performance.md, "Method"):

    .venv/bin/python bench/request_cost.py --via api
    .venv/bin/python bench/request_cost.py --via pages
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_latency import make_games, next_action, prepare_environment  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--via", choices=["api", "pages"], default="api")
    parser.add_argument("--games", type=int, default=12, help="games of 4 played (12)")
    parser.add_argument("--requests", type=int, default=1000, help="fetches of one view, a repetition (1000)")
    parser.add_argument("--actions", type=int, default=150, help="actions played, a repetition (150)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; the least is reported (3)")
    parser.add_argument(
        "--push",
        action="store_true",
        help="the other players' views made as their sockets are sent them (games.pushes), not fetched",
    )
    parser.add_argument("--profile", metavar="FILE", help="write cProfile's statistics of the actions to FILE")
    args = parser.parse_args(argv)
    args.players, args.servers = 4, 1
    return args


class Browser:
    """A player's requests: its page's (session cookie, CSRF header) or its bot's (bearer token)."""

    def __init__(self, player, via: str):
        from django.test import Client

        self.player, self.via = player, via
        self.client = Client(enforce_csrf_checks=True)
        if via == "pages":
            self.client.cookies.load(player.cookie)

    def fetch(self) -> None:
        game = self.player.game_id
        if self.via == "api":
            answer = self.client.get(f"/api/v1/games/{game}", headers={"Authorization": f"Bearer {self.player.token}"})
        else:
            answer = self.client.get(f"/games/{game}/board/", headers={"HX-Request": "true"})
        if answer.status_code != 200:
            raise SystemExit(f"a fetch answered {answer.status_code}")

    def pushed(self) -> None:
        """The view this player's socket is sent after a change (``push=board`` or ``push=view``)."""
        from games.pushes import BOARD, VIEW, pushed

        if self.via == "api":
            found = pushed(self.scope, game_id=self.player.game_id, what=VIEW, token=self.player.token)
        else:
            found = pushed(self.scope, game_id=self.player.game_id, what=BOARD)
        if found is None:
            raise SystemExit("nothing was pushed")

    @property
    def scope(self) -> dict:
        headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
        if self.via == "pages":
            headers.append((b"cookie", self.player.cookie.encode()))
        else:
            headers.append((b"authorization", f"Bearer {self.player.token}".encode()))
        return {"type": "websocket", "scheme": "ws", "headers": headers, "server": ("testserver", 80)}

    def act(self, form: dict) -> None:
        game = self.player.game_id
        if self.via == "api":
            answer = self.client.post(
                f"/api/v1/games/{game}/actions",
                form,
                content_type="application/json",
                headers={"Authorization": f"Bearer {self.player.token}"},
            )
        else:
            headers = {"X-CSRFToken": self.player.csrf, "HX-Request": "true"}
            answer = self.client.post(f"/games/{game}/act/", form, headers=headers)
        if answer.status_code != 200:
            raise SystemExit(f"an action answered {answer.status_code}: {answer.content[:200]!r}")


def statements(call) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries.captured_queries)


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fabula-request-cost-"))
    prepare_environment(workdir)
    os.environ.pop("REDIS_URL", None)  # the embedded default: what bin/run serves with no environment
    # Every request counts in the rates as ever; the limits are only set past what this run asks.
    os.environ["FABULA_API_RATES"] = "requests=100000000/60,actions=100000000/60"
    import django

    django.setup()
    try:
        games = [[Browser(player, args.via) for player in players] for players in make_games(args)]
        rng = random.Random(7)

        from games.models import Game

        live = list(games)

        def action() -> tuple[float, float]:
            while True:
                if not live:
                    raise SystemExit("every game is over: ask fewer actions or more games")
                browsers = rng.choice(live)
                if Game.objects.filter(pk=browsers[0].player.game_id, status=Game.Status.ACTIVE).exists():
                    break
                live.remove(browsers)
            player, form, _version = next_action([browser.player for browser in browsers], rng)
            actor = next(browser for browser in browsers if browser.player is player)
            start = time.process_time()
            actor.act(form)
            acted = time.process_time()
            for browser in browsers:
                if browser is not actor:
                    browser.pushed() if args.push else browser.fetch()
            return acted - start, time.process_time() - acted

        for _ in range(12):  # warm: every template, statement and language loaded
            action()
        one = games[0][1]
        one.fetch()
        fetch_statements = statements(one.fetch)
        per_request = []
        for _ in range(args.repeat):
            start = time.process_time()
            for _ in range(args.requests):
                one.fetch()
            per_request.append((time.process_time() - start) / args.requests * 1000)
        per_action, per_fetch = [], []
        for _ in range(args.repeat):
            if args.profile:
                import cProfile

                with cProfile.Profile() as profile:
                    timed = [action() for _ in range(args.actions)]
                profile.dump_stats(args.profile)
            else:
                timed = [action() for _ in range(args.actions)]
            per_action.append(statistics.mean(acted for acted, _fetched in timed) * 1000)
            per_fetch.append(statistics.mean(fetched for _acted, fetched in timed) / 3 * 1000)
        best = min(range(args.repeat), key=lambda n: per_action[n] + 3 * per_fetch[n])
        pushed = " (the views pushed)" if args.push else ""
        print(f"via {args.via}{pushed}, load {os.getloadavg()[0]:.1f}, {args.games} games of 4, least of {args.repeat}")
        print(f"a request (a fetch of a kept view): {min(per_request):.3f} ms, {fetch_statements} statements")
        print(
            f"an action: {per_action[best]:.2f} ms, each fetch after it {per_fetch[best]:.2f} ms; "
            f"with its three fetches {per_action[best] + 3 * per_fetch[best]:.2f} ms"
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
