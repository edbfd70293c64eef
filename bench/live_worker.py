"""How long from a change made outside the web process to an open page hearing of it (issue 30).

The whole site runs as ``bin/run`` starts it (``games.tests.live.server.Site``): the web server (uvicorn), a
Celery worker and beat, on the embedded default (SQLite, the file-system broker, ``infrastructure.layers``' local
socket layer) or, with DATABASE_URL and REDIS_URL, on PostgreSQL + Redis. N live public games each seat one
simulated person and three bots. A spectator's socket follows each game, as an open page does. The person
acts through the API when the game waits for them, or now and then (``--idle``) lets the phase's deadline
pass: beat then has the worker expire it. The bots play in the worker, a moment after their turn comes.

Every change is a ``Move`` row written in the process that made it; its ``created_at`` is the change's
moment (written just before its commit, so the figures include the commit). For each version of each game
it reports when the spectator's socket first heard of it, by who made the change:
- worker: a bot's move (Celery worker);
- beat: a deadline expired (beat's run, in the worker);
- web: the person's own action (a request to the web server), for comparison;
and "lost": a change the socket had not heard of ``--timeout`` seconds after the end. The clocks are the
same machine's. It exits with 1 when the aim is missed: nothing lost, the worker's and beat's p95 <= 1 s.

    .venv/bin/python bench/live_worker.py                       # the embedded default
    DATABASE_URL=postgres://postgres@127.0.0.1/fabula REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/live_worker.py                   # PostgreSQL + Redis
"""

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_latency import drop_database, figures, prepare_environment  # noqa: E402

AIM_P95_SECONDS = 1.0


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="live games played at once, each a person and 3 bots")
    parser.add_argument("--seconds", type=float, default=90.0, help="how long they play (90)")
    parser.add_argument("--phase", type=int, default=8, help="seconds a live phase lasts before it expires (8)")
    parser.add_argument(
        "--idle", type=float, default=0.3, help="share of the person's turns left to expire by the deadline (0.3)"
    )
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds after the end a change may still come (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    return parser.parse_args(argv)


def make_games(args) -> list[tuple[int, object, str]]:
    """``(game id, person, API token)`` for each game: open, public, live; its bots are added over the API."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from accounts.services import token_create
    from games.services.games import game_create
    from games.tests.factories import deck_with_cards

    call_command("migrate", verbosity=0)
    deck = deck_with_cards()
    games = []
    for number in range(args.games):
        person = get_user_model().objects.create(username=f"person{number}", display_name=f"Person {number + 1}")
        game = game_create(creator=person, max_seats=4, pace="live", visibility="public", options={"deck": deck.pk})
        games.append((game.pk, person, token_create(user=person, name="bench")[1]))
    return games


def person_action(game_id: int, person, rng: random.Random) -> dict | None:
    """The person's action if the game waits for them now, else None; "done" once the game is over."""
    from games.models import Game
    from games.tests.play import action_for, view_for

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        return {"type": "done"}
    view = view_for(game, person)
    if not view["you"]["to_act"]:
        return None
    return {**action_for(view, rng), "round": view["round"]}


async def play(args, site, games) -> dict[int, dict[int, float]]:
    """Every game plays for ``args.seconds``; for each game, each version its spectator heard and when."""
    import httpx
    from websockets.asyncio.client import connect

    heard: dict[int, dict[int, float]] = defaultdict(dict)
    news = asyncio.Event()

    async def spectate(game_id: int):
        async with connect(
            f"ws://127.0.0.1:{site.server.port}/ws/live/?game={game_id}", origin=site.url, open_timeout=60
        ) as socket:
            async for raw in socket:
                message = json.loads(raw)
                if message.get("type") == "game.changed":
                    heard[game_id].setdefault(message["version"], time.time())
                    news.set()

    async def person(game_id: int, who, token: str, rng: random.Random, http, ends_at: float):
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(3):  # the last bot starts the game
            (await http.post(f"/games/{game_id}/bots", headers=headers)).raise_for_status()
        left_to_expire: set[int] = set()  # the versions whose turn the person lets pass
        while time.monotonic() < ends_at:
            action = await asyncio.to_thread(person_action, game_id, who, rng)
            if action is not None and action["type"] == "done":
                return
            if action is not None:
                version = max(heard[game_id], default=0)
                if version in left_to_expire or rng.random() < args.idle:
                    left_to_expire.add(version)  # beat will expire the phase
                else:
                    await asyncio.sleep(rng.uniform(0.2, 1.0))  # a person reads, then acts
                    await http.post(f"/games/{game_id}/actions", json=action, headers=headers)
                    continue
            await asyncio.sleep(0.25)

    listeners = [asyncio.create_task(spectate(game_id)) for game_id, _person, _token in games]
    await asyncio.sleep(1)  # the sockets are open
    seeds = random.Random(args.seed)
    ends_at = time.monotonic() + args.seconds
    async with httpx.AsyncClient(base_url=f"{site.url}/api/v1", timeout=60) as http:
        await asyncio.gather(
            *(person(g, who, token, random.Random(seeds.random()), http, ends_at) for g, who, token in games)
        )
    played_until = time.time()
    await asyncio.sleep(args.timeout)  # what is still on its way
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return heard, played_until


def measure(games, heard, played_until: float) -> dict[str, dict]:
    """Per maker (worker, beat, web): each change's delay from its moves' ``created_at`` to being heard, and
    how many were never heard. Only the changes made while the run played count: the bots play on in the
    worker after it, while the sockets are closing, and a move then is no message lost."""
    from games.models import Move

    delays: dict[str, list[float]] = defaultdict(list)
    lost: dict[str, int] = defaultdict(int)
    for game_id, _person, _token in games:
        moves = defaultdict(list)
        for move in Move.objects.filter(game_id=game_id).select_related("seat__user"):
            moves[move.version].append(move)
        for version, made in moves.items():
            by_someone = [move for move in made if not move.by_timeout]
            if not by_someone:
                maker = "beat (a deadline expired)"
            elif by_someone[0].seat is not None and by_someone[0].seat.user.is_bot:
                maker = "worker (a bot's move)"
            else:
                maker = "web (the person's action)"
            at = max(move.created_at for move in made).timestamp()
            if at > played_until:
                continue
            if version in heard[game_id]:
                delays[maker].append(heard[game_id][version] - at)
            else:
                lost[maker] += 1
    return {
        maker: {"count": len(delays[maker]) + lost[maker], "lost": lost[maker], **figures(delays[maker])}
        for maker in sorted(set(delays) | set(lost))
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fabula-bench-"))
    bench_database = prepare_environment(workdir)
    os.environ["FABULA_LIVE_PHASE_SECONDS"] = str(args.phase)
    site = None
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.db import connection

        from games.tests.live.server import Site

        print(f"setting up {args.games} games ({connection.vendor}) ...", flush=True)
        games = make_games(args)
        site = Site(env=dict(os.environ), log_folder=workdir)
        site.start()
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
        print(f"playing for {args.seconds:g} s ...", flush=True)
        heard, played_until = asyncio.run(play(args, site, games))
        rows = measure(games, heard, played_until)
    except Exception:
        if site is not None:
            print(site.logs(), file=sys.stderr)
        raise
    finally:
        if site is not None:
            site.stop()
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)

    def ms(value):
        return f"{value * 1000:9.1f}ms" if value is not None else f"{'-':>11}"

    print()
    print(
        f"{args.games} live games of a person and 3 bots for {args.seconds:g} s, phases of {args.phase} s, "
        f"{args.idle:.0%} of the person's turns left to expire; {layer}, {connection.vendor}; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'change made by':28} {'count':>7} {'lost':>6} {'median':>11} {'p95':>11} {'max':>11}")
    for maker, row in rows.items():
        print(f"{maker:28} {row['count']:>7} {row['lost']:>6} {ms(row['median'])} {ms(row['p95'])} {ms(row['max'])}")
    outside = [row for maker, row in rows.items() if not maker.startswith("web")]
    met = (
        bool(outside)
        and all(row["lost"] == 0 for row in rows.values())
        and all(row["p95"] is not None and row["p95"] <= AIM_P95_SECONDS for row in outside)
    )
    print(f"aim (nothing lost, worker's and beat's p95 <= {AIM_P95_SECONDS:g} s): {'met' if met else 'MISSED'}")
    if args.json:
        document = {
            "args": {k: v for k, v in vars(args).items() if k != "json"},
            "layer": layer,
            "rows": rows,
            "aim_met": met,
        }
        args.json.write_text(json.dumps(document, indent=2))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
