"""How long from a player's action to the other players' pages hearing of it.

N live games of P simulated players play against a real server (uvicorn, as bin/run; --server daphne to compare) serving
``config.asgi`` with the configured channel layer (Redis when REDIS_URL is set,
else the in-memory one). Each player holds the socket its game page would hold
(its game and its user group, signed in by a session cookie). In each game one
player at a time acts as a page does, an htmx POST to the game's act URL, and
the other players' sockets must hear of the new version; then each fetches its
own board fragment over HTTP, as its page would (notify, then fetch). The player
who acted fetches nothing: the answer to its action is its board at the version
it made, and its page (live.js) fetches only what someone else did meanwhile
(``--actor-fetches`` counts its fetch too, as pages did until 4 December 2026).

For every action and every other player of its game it reports:
- notified: from just before the POST to the message on that player's socket;
- page updated: to that player's fresh board fragment;
- lost: a message not there ``--timeout`` seconds after the action;
and how long the server took to answer the action itself.

The baseline, measured in the same run with the same games, pace and fan-out:
a trivial WebSocket server inside this process relays each action to the game's
other players. No Django, database or channel layer: what this machine and the
client library cost by themselves.

The benchmark makes its own throw-away database: an SQLite file in a temporary
folder or, when DATABASE_URL names a PostgreSQL database, a database of that
name plus ``_bench``, dropped at the end. It exits with 1 when the aim is missed
(issue 12: nothing lost, no errors, pages updated with a p95 under 250 ms on
PostgreSQL + Redis and 500 ms on the embedded default, and at most 15 ms of server
CPU per action with its refreshes).
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

AIM_P95_SECONDS = {"postgresql": 0.25, "sqlite": 0.5}
AIM_CPU_SECONDS = 0.015
VERSION = re.compile(r'data-version="(\d+)"')


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="live games played at once (50)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds each game plays (1)")
    parser.add_argument(
        "--think",
        type=float,
        default=6.0,
        help="mean seconds between two actions in one game (6: a live round of 4, seven actions, in about 40 s)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes, players spread over them (Redis only)"
    )
    parser.add_argument(
        "--server", choices=("uvicorn", "daphne"), default="uvicorn", help="the ASGI server (uvicorn, as bin/run)"
    )
    parser.add_argument(
        "--via",
        choices=("pages", "api"),
        default="pages",
        help="act and fetch as the web pages do (htmx posts, board fragments) or as a bot does (the JSON API)",
    )
    parser.add_argument(
        "--actor-fetches",
        action="store_true",
        help="the actor fetches the version of its own action too, as pages did until 4 December 2026 "
        "(they now wait for their action's answer, which brings that version)",
    )
    parser.add_argument(
        "--no-fetch",
        action="store_true",
        help="the other players only hear of a change and fetch nothing: what the others' fetches cost, by "
        "difference with a run that fetches (a measure of the design's notify-then-fetch, not a way to play)",
    )
    parser.add_argument(
        "--fetch",
        action="store_true",
        help="the other players' sockets ask for no view (no push=): they hear of a change and fetch their view "
        "over HTTP, as pages did until 7 December 2026 (a socket of older code is sent no view anyway)",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="the sockets ask for no compression (browsers ask for permessage-deflate, and the server deflates "
        "every frame it sends them): what deflating the pushed boards costs, by difference",
    )
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds after which a message counts as lost (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.servers > 1 and not os.environ.get("REDIS_URL"):
        parser.error("several servers share groups only through Redis: set REDIS_URL")
    return args


# ---- A throw-away database, players and games --------------------------------------


def prepare_environment(workdir: Path) -> str | None:
    """Point this process, and the servers that inherit its environment, at a fresh database.

    Returns the name of the PostgreSQL database to drop at the end, if one was made.
    """
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    os.environ["FABULA_VAR_DIR"] = str(workdir)
    os.environ["FABULA_LIVE_PHASE_SECONDS"] = "86400"  # no phase times out while the benchmark plays
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        os.environ.pop("DATABASE_URL", None)  # SQLite, in the work folder
        return None
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_bench"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # a run killed midway left it
        connection.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + name))
    return name


@contextlib.contextmanager
def throwaway_site(prefix: str):
    """A benchmark's work folder and fresh database (``prepare_environment``), and a list for the servers it starts:
    yields (folder, servers); at the end, whatever happened, the servers are stopped, the database dropped and the
    folder removed."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    bench_database = prepare_environment(workdir)
    servers: list = []
    try:
        yield workdir, servers
    finally:
        for server in servers:
            server.stop()
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)


def drop_database(name: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    parts = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Player:
    user_id: int
    game_id: int
    cookie: str  # the session and CSRF cookies a signed-in browser sends
    csrf: str
    token: str = ""  # an API token, for --via api
    server: int = 0
    heard: dict = field(default_factory=dict)  # version -> when the socket heard of it
    fetched: dict = field(default_factory=dict)  # version -> when the page had it
    waiters: dict = field(default_factory=dict)  # (what, version) -> future
    acting: bool = False  # its own action is on its way
    shown: int = 0  # the version its page shows (its last answer or fetch)
    awaited: int = 0  # the newest version its socket heard meanwhile

    def mark(self, what: str, version: int) -> None:
        getattr(self, what)[version] = time.perf_counter()
        waiter = self.waiters.get((what, version))
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def until(self, what: str, version: int) -> asyncio.Future:
        """A future done once this player has ``heard`` or ``fetched`` ``version``."""
        if (what, version) not in self.waiters:
            waiter = asyncio.get_running_loop().create_future()
            if version in getattr(self, what):
                waiter.set_result(None)
            self.waiters[(what, version)] = waiter
        return self.waiters[(what, version)]

    def fresh(self) -> "Player":
        return Player(self.user_id, self.game_id, self.cookie, self.csrf, self.token, self.server)


def make_games(args) -> list[list[Player]]:
    """Users with sessions, and started live games of ``args.players`` each."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.services import token_create
    from games.services.games import game_create, game_join
    from games.tests.factories import deck_with_cards

    call_command("migrate", verbosity=0)
    deck = deck_with_cards()
    User = get_user_model()
    games = []
    for g in range(args.games):
        users = [
            User.objects.create(username=f"bench{g}x{p}", display_name=f"Player {g}.{p + 1}")
            for p in range(args.players)
        ]
        game = game_create(
            creator=users[0], max_seats=args.players, pace="live", visibility="private", options={"deck": deck.pk}
        )
        for user in users[1:]:
            game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
        players = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "accounts.backends.CachedModelBackend"  # as a log-in makes it
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            csrf = secrets.token_hex(16)
            cookie = f"sessionid={session.session_key}; csrftoken={csrf}"
            # Like a load balancer: each browser sticks to one server.
            token = token_create(user=user, name="bench")[1]
            players.append(
                Player(user.pk, game.pk, cookie, csrf, token, server=(g * args.players + len(players)) % args.servers)
            )
        games.append(players)
    return games


def next_action(players: list[Player], rng: random.Random) -> tuple[Player, dict, int]:
    """Who acts next in this game, the form their page posts, and the version it makes."""
    from games.models import Game
    from games.selectors.games import game_view

    game = Game.objects.get(pk=players[0].game_id)
    seats = {seat.user_id: seat for seat in game.seats.select_related("user").order_by("position")}
    player = rng.choice([p for p in players if seats[p.user_id].to_act])
    view = game_view(game=game, seats=list(seats.values()), user=seats[player.user_id].user)
    form = {"type": view["phase"], "round": view["round"]}
    if view["phase"] == "clue":
        form.update(card=rng.choice(view["hand"])["id"], text=f"clue {rng.randint(1, 999)}")
    elif view["phase"] == "submit":
        form["cards"] = rng.sample([card["id"] for card in view["hand"]], view["cards_to_submit"])
    else:
        form["position"] = rng.choice([card["position"] for card in view["table"] if not card["mine"]])
    return player, form, game.version + 1


# ---- Playing ------------------------------------------------------------------------


@dataclass
class Results:
    answered: list = field(default_factory=list)
    notified: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    expected: int = 0
    lost: int = 0
    failed_actions: int = 0
    fetches: int = 0  # the fresh views the players asked the server for
    pushes: int = 0  # the fresh views their sockets were sent


async def play(games, args, *, connect, act, fetch=None, on_open=None) -> Results:
    """Every game plays at once; each action is timed to every other player of its game.

    ``on_open()`` is called once every page's socket is open, before the first action."""
    results = Results()
    if fetch is not None:
        fetch_view = fetch

        async def fetch(player, version):
            results.fetches += 1
            await fetch_view(player, version)

    everyone = [player for players in games for player in players]
    sockets = [await connect(player) for player in everyone]
    if on_open is not None:
        on_open()
    fetches = set()  # asyncio keeps only weak references to tasks
    readers = [asyncio.create_task(listen(s, p, fetch, fetches, results)) for s, p in zip(sockets, everyone)]
    actions = args.rounds * (1 + 2 * (args.players - 1))  # a round: a clue, the others' cards, their votes

    async def one_game(players, rng):
        await asyncio.sleep(rng.uniform(0, args.think))  # the games do not move in step
        for _ in range(actions):
            actor, form, version = await act.prepare(players, rng)
            others = [p for p in players if p is not actor]
            heard = [other.until("heard", version) for other in others]
            started = time.perf_counter()
            actor.acting = not args.actor_fetches
            shown = await act.send(actor, form, version)
            actor.acting = False
            actor.shown = max(actor.shown, shown)
            if shown < version:
                results.failed_actions += 1
            results.answered.append(time.perf_counter() - started)
            if fetch is not None and actor.awaited > shown:  # someone else acted meanwhile (live.js)
                task = asyncio.create_task(fetch(actor, actor.awaited))
                fetches.add(task)
                task.add_done_callback(fetches.discard)
            actor.awaited = 0
            done, _pending = await asyncio.wait(heard, timeout=args.timeout)
            results.expected += len(others)
            results.lost += len(others) - len(done)
            results.notified += [o.heard[version] - started for o in others if version in o.heard]
            if fetch is not None:
                fetched = [o.until("fetched", version) for o in others if version in o.heard]
                if fetched:
                    await asyncio.wait(fetched, timeout=args.timeout)
                results.updated += [o.fetched[version] - started for o in others if version in o.fetched]
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))

    seeds = random.Random(args.seed)
    await asyncio.gather(*(one_game(players, random.Random(seeds.random())) for players in games))
    for reader in readers:
        reader.cancel()
    for socket in sockets:
        await socket.close()
    return results


PUSHED = ("game.board", "game.view")  # a socket that asks for its view is sent it (games.pushes)


async def listen(socket, player: Player, fetch, fetches: set, results: Results | None = None):
    """What a game page's live.js does: note each new version of its game, then fetch, or take the view its
    socket was sent."""
    async for raw in socket:
        message = json.loads(raw)
        if message.get("type") in PUSHED and message.get("game") == player.game_id:
            version = message["version"]
            if version not in player.heard:
                player.mark("heard", version)
            if results is not None:
                results.pushes += 1
            player.shown = max(player.shown, version)
            if version not in player.fetched:
                player.mark("fetched", version)
            continue
        if message.get("type") != "game.changed" or message.get("game") != player.game_id:
            continue
        version = message["version"]
        if version in player.heard:
            continue  # the same change again, through another of the page's groups
        player.mark("heard", version)
        if version <= player.shown:  # as live.js: the page already shows it (an answer came first)
            player.mark("fetched", version)
            continue
        if player.acting:  # as live.js: the answer to its own action brings that board
            player.awaited = max(player.awaited, version)
            continue
        if fetch is not None:
            task = asyncio.create_task(fetch(player, version))
            fetches.add(task)
            task.add_done_callback(fetches.discard)


class LiveActions:
    """Actions as pages post them, to the real servers."""

    def __init__(self, http, servers):
        self.http = http
        self.servers = servers

    async def prepare(self, players, rng):
        return await asyncio.to_thread(next_action, players, rng)

    async def send(self, player, form, version) -> int:
        """The version the answer shows (0 when refused)."""
        response = await self.http.post(
            f"{self.servers[player.server].url}/games/{player.game_id}/act/",
            data=form,
            headers={"Cookie": player.cookie, "X-CSRFToken": player.csrf, "HX-Request": "true"},
        )
        shown = VERSION.search(response.text)
        return int(shown.group(1)) if response.status_code == 200 and shown is not None else 0


class ApiActions(LiveActions):
    """Actions as a bot posts them: JSON to the API."""

    async def send(self, player, form, version) -> int:
        response = await self.http.post(
            f"{self.servers[player.server].url}/api/v1/games/{player.game_id}/actions",
            json=form,
            headers={"Authorization": f"Bearer {player.token}"},
        )
        return response.json().get("version", 0) if response.status_code == 200 else 0


class RelayActions:
    """The baseline's actions: one frame to the in-process relay."""

    def __init__(self, sockets):
        self.sockets = sockets
        self.versions = {}

    async def prepare(self, players, rng):
        game_id = players[0].game_id
        self.versions[game_id] = self.versions.get(game_id, 0) + 1
        return rng.choice(players), {}, self.versions[game_id]

    async def send(self, player, form, version) -> int:
        message = {"type": "game.changed", "game": player.game_id, "version": version}
        await self.sockets[id(player)].send(json.dumps(message))
        return version


async def run_baseline(games, args) -> Results:
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    rooms = {}

    async def relay(socket):
        room = rooms.setdefault(socket.request.path, set())
        room.add(socket)
        try:
            async for frame in socket:
                for other in list(room):
                    if other is not socket:
                        await other.send(frame)
        finally:
            room.discard(socket)

    sockets = {}
    async with serve(relay, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]

        async def connect_player(player):
            sockets[id(player)] = await connect(f"ws://127.0.0.1:{port}/game/{player.game_id}")
            return sockets[id(player)]

        fresh_games = [[player.fresh() for player in players] for players in games]
        return await play(fresh_games, args, connect=connect_player, act=RelayActions(sockets))


async def open_pages(games, servers) -> None:
    """Everyone opens their game page, as before play (and so the servers warm up).

    A few at a time: two hundred requests in the same instant would want as many
    database connections (Django opens one per request thread), more than
    PostgreSQL allows by default.
    """
    import httpx

    at_once = asyncio.Semaphore(10)
    async with httpx.AsyncClient(timeout=60) as http:

        async def open_page(player):
            url = f"{servers[player.server].url}/games/{player.game_id}/"
            async with at_once:
                (await http.get(url, headers={"Cookie": player.cookie})).raise_for_status()

        await asyncio.gather(*(open_page(player) for players in games for player in players))


async def run_live(games, args, servers, on_open=None) -> Results:
    import httpx
    from websockets.asyncio.client import connect

    # A connection idle for 2 s is not reused: uvicorn closes one idle for 5 s (--timeout-keep-alive), and
    # httpx's own limit is the same 5 s, so a request sent as the server closed its connection got no answer
    # (httpx.ReadError; a browser sends it again, httpx does not).
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400, keepalive_expiry=2.0)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:

        async def connect_player(player):
            server = servers[player.server]
            url = f"ws://127.0.0.1:{server.port}/ws/live/?game={player.game_id}"
            headers = {"Cookie": player.cookie}
            if not (args.fetch or args.no_fetch):  # as live.js asks (a bot: its view, by its token)
                url += "&push=view" if args.via == "api" else "&push=board"
                if args.via == "api":
                    headers["Authorization"] = f"Bearer {player.token}"
            deflate = {"compression": None} if args.no_deflate else {}
            return await connect(url, origin=server.url, additional_headers=headers, open_timeout=60, **deflate)

        async def fetch(player, version):
            if args.via == "api":
                response = await http.get(
                    f"{servers[player.server].url}/api/v1/games/{player.game_id}",
                    headers={"Authorization": f"Bearer {player.token}"},
                )
                seen = response.json().get("version", 0) if response.status_code == 200 else 0
            else:
                response = await http.get(
                    f"{servers[player.server].url}/games/{player.game_id}/board/",
                    headers={"Cookie": player.cookie, "HX-Request": "true"},
                )
                shown = VERSION.search(response.text)
                seen = int(shown.group(1)) if response.status_code == 200 and shown else 0
            player.shown = max(player.shown, seen)
            if seen >= version:
                player.mark("fetched", version)

        actions = ApiActions(http, servers) if args.via == "api" else LiveActions(http, servers)
        return await play(
            games, args, connect=connect_player, act=actions, fetch=None if args.no_fetch else fetch, on_open=on_open
        )


# ---- Report -------------------------------------------------------------------------


def figures(seconds: list[float]) -> dict:
    if not seconds:
        return {"median": None, "p95": None, "max": None}
    ordered = sorted(seconds)
    return {
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max": ordered[-1],
    }


def stat_cpu_seconds(stat: Path) -> float:
    """User and system CPU time in a /proc ``stat`` file (a process's or one of its threads', Linux)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process and its living children have used so far (Linux)."""
    own = stat_cpu_seconds(Path(f"/proc/{pid}/stat"))
    children = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        children.update(int(child) for child in task.read_text().split())
    return own + sum(cpu_seconds(child) for child in children)


def report(args, setup: dict, baseline: Results, live: Results) -> bool:
    rows = {
        "echo baseline (in-process)": (baseline.expected, baseline.lost, figures(baseline.notified)),
        "live: action answered": (len(live.answered), live.failed_actions, figures(live.answered)),
        "live: socket notified": (live.expected, live.lost, figures(live.notified)),
        "live: page updated": (live.expected, live.expected - len(live.updated), figures(live.updated)),
    }
    if args.no_fetch:
        del rows["live: page updated"]
    p95 = rows["live: page updated" if not args.no_fetch else "live: socket notified"][2]["p95"]
    aim_p95 = AIM_P95_SECONDS.get(setup["database"], 0.5)
    cpu = setup.get("server_cpu_per_action")
    met = (
        live.lost == 0
        and live.failed_actions == 0
        and (args.no_fetch or len(live.updated) == live.expected)
        and (p95 is not None and p95 < aim_p95)
        and (cpu is not None and cpu <= AIM_CPU_SECONDS)
    )

    def ms(value):
        return f"{value * 1000:9.1f}ms" if value is not None else f"{'-':>11}"

    print()
    print(
        f"{args.games} live games of {args.players}, {args.rounds} round(s), an action every ~{args.think:g}s a game, "
        f"via {'the API' if args.via == 'api' else 'the web pages'}; "
        f"{setup['servers']} {args.server} on {setup['layer']}, {setup['database']}; "
        f"{setup['cores']} cores, load {setup['load_before']:.1f} before"
    )
    print(f"{'':28} {'count':>7} {'lost':>6} {'median':>11} {'p95':>11} {'max':>11}")
    for label, (count, missing, numbers) in rows.items():
        print(f"{label:28} {count:>7} {missing:>6} {ms(numbers['median'])} {ms(numbers['p95'])} {ms(numbers['max'])}")
    print("(lost for 'action answered': actions refused or answered oddly; for 'page updated': fetches missing)")
    if live.answered:
        print(
            f"fresh views fetched: {live.fetches} ({live.fetches / len(live.answered):.2f} an action); "
            f"pushed: {live.pushes} ({live.pushes / len(live.answered):.2f} an action)"
        )
    if setup.get("server_cpu_per_action"):
        per_action = setup["server_cpu_per_action"]
        what_else = (
            "; nobody fetched"
            if args.no_fetch
            else ", the others' fetches"
            if args.fetch
            else ", the views pushed to every socket and any fetches"
        )
        print(
            f"server CPU: {per_action * 1000:.1f} ms per action (its POST, the fan-out{what_else}): "
            f"one {args.server} process, one core, keeps up with ~{1 / per_action:.0f} actions/s; "
            f"this run asked {setup['actions_per_second']:.1f}/s"
        )
        print(
            f"            opening the pages' sockets before play: "
            f"{setup['server_cpu_per_socket'] * 1000:.1f} ms a socket "
            f"({setup['server_cpu_per_action_with_sockets'] * 1000:.1f} ms per action with them counted in)"
        )
    print(
        f"aim (nothing lost, no errors, pages updated with p95 < {aim_p95 * 1000:.0f} ms, "
        f"server CPU <= {AIM_CPU_SECONDS * 1000:.0f} ms an action): {'met' if met else 'MISSED'}"
    )
    if args.json:
        document = {
            "args": {k: v for k, v in vars(args).items() if k != "json"},
            "setup": setup,
            "rows": {label: {"count": c, "lost": m, **n} for label, (c, m, n) in rows.items()},
            "fetches": live.fetches,
            "pushes": live.pushes,
            "aim_met": met,
        }
        args.json.write_text(json.dumps(document, indent=2))
    return met


def main(argv=None) -> int:
    args = parse_args(argv)
    with throwaway_site("fabula-bench-") as (workdir, servers):
        try:
            import django

            django.setup()
            from django.conf import settings
            from django.db import connection

            from games.tests.live.server import AsgiServer, free_port

            print(f"setting up {args.games} games ({connection.vendor}) ...", flush=True)
            games = make_games(args)
            for index in range(args.servers):
                server = AsgiServer(
                    env=dict(os.environ), port=free_port(), log_path=workdir / f"server-{index}.log", server=args.server
                )
                server.start()
                servers.append(server)
            setup = {
                "servers": args.servers,
                "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1],
                "database": connection.vendor,
                "cores": os.cpu_count(),
                "load_before": os.getloadavg()[0],
            }
            print("baseline ...", flush=True)
            baseline = asyncio.run(run_baseline(games, args))
            print("live ...", flush=True)
            asyncio.run(open_pages(games, servers))
            marks = {}

            def mark(what):
                marks[what] = (sum(cpu_seconds(server.process.pid) for server in servers), time.monotonic())

            mark("before")
            live = asyncio.run(run_live(games, args, servers, on_open=lambda: mark("open")))
            mark("after")
            if live.answered:
                # An action's cost counts from the moment every page's socket is open: opening them (a
                # session, a user and a visibility check each) is a page load's cost, reported on its own.
                (cpu_before, _), (cpu_open, started) = marks["before"], marks["open"]
                cpu_after, ended = marks["after"]
                sockets = sum(len(players) for players in games)
                setup["server_cpu_per_socket"] = (cpu_open - cpu_before) / sockets
                setup["server_cpu_per_action"] = (cpu_after - cpu_open) / len(live.answered)
                setup["server_cpu_per_action_with_sockets"] = (cpu_after - cpu_before) / len(live.answered)
                setup["actions_per_second"] = len(live.answered) / (ended - started)
            return 0 if report(args, setup, baseline, live) else 1
        except Exception:
            for log in sorted(workdir.glob("server-*.log")):
                print(f"--- the end of {log.name}:\n{log.read_text()[-3000:]}", file=sys.stderr)
            raise


if __name__ == "__main__":
    sys.exit(main())
