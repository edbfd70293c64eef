"""A RAM-only Storyteller clone beside Fabula, on the same work in one run: the server CPU per action (issue 41).

The clone is what issue 41 measures Fabula against: a Dixit clone as one would write it with Flask-SocketIO
(its default async mode for a plain install, threading, WebSockets through simple-websocket, served by
Werkzeug as ``socketio.run`` does), games in a dict in memory, nothing persisted. Each game has P players
with hands of 6 cards and plays Storyteller's phases: clue, submit, vote, then the round is scored, hands
are refilled and the storyteller passes on (round 1: the first player with a clue tells the story). Each
player holds one Socket.IO connection and is in its game's room and a room of its own. An action is a
Socket.IO event (``clue``, ``submit``, ``vote``) with an acknowledgement; the server checks the phase, whose
turn it is and the card or position, changes the game in memory, then emits to every player of the game,
each in its own room, that player's own view (its hand, nobody else's): the clone's "notify, then fetch".

The work is ``bench/live_latency.py``'s: N games of P players at once, one action at a time in each game,
about ``--think`` seconds apart, ``--rounds`` rounds; the server's CPU (user and system of its process and
children, ``/proc``) from the moment every player is connected to the end, divided by the actions. It exits
1 when an action is refused or unanswered or a player does not receive its view of an action.

``--with-fabula`` runs, after the clone, ``bench/live_latency.py`` on the same work through the API and
then through the pages, K times in turn (``--rounds-pairs K``: clone, Fabula API, Fabula pages, ...) and
prints one table of the three, each run's and the medians, with Fabula's ratios to the clone.

The clone's libraries are not the project's: the first run makes a venv of its own in
``var/bench-ram-peer-venv`` (pinned below, from PyPI); the clone's server and its clients run there.

    .venv/bin/python bench/ram_peer.py --games 4 --players 4 --think 1 --rounds 2
    .venv/bin/python bench/ram_peer.py --games 4 --players 4 --think 1 --rounds 2 --with-fabula --rounds-pairs 3
"""

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_latency import cpu_seconds, figures  # noqa: E402  (both standard library only)

VENV = ROOT / "var" / "bench-ram-peer-venv"
# What pip resolved for flask flask-socketio simple-websocket python-socketio[asyncio_client] aiohttp, pinned.
PINS = (
    "aiohappyeyeballs==2.7.1",
    "aiohttp==3.14.5",
    "aiosignal==1.4.0",
    "attrs==26.1.0",
    "bidict==0.24.1",
    "blinker==1.9.0",
    "click==8.5.1",
    "Flask==3.1.3",
    "Flask-SocketIO==5.7.0",
    "frozenlist==1.8.0",
    "h11==0.16.0",
    "idna==3.21",
    "itsdangerous==2.2.0",
    "Jinja2==3.1.6",
    "MarkupSafe==3.0.4",
    "multidict==7.2.1",
    "propcache==0.5.4",
    "python-engineio==4.15.1",
    "python-socketio==5.18.1",
    "simple-websocket==1.1.0",
    "typing_extensions==4.16.0",
    "Werkzeug==3.1.9",
    "wsproto==1.3.2",
    "yarl==1.25.1",
)
HAND = 6
DECK = 84  # the box's cards; more when the rounds asked for would empty it


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games played at once (4)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between two actions in a game (1)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds each game plays (2)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds after which a view counts as lost (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--with-fabula", action="store_true", help="also run bench/live_latency.py on the same work (API, pages)"
    )
    parser.add_argument(
        "--rounds-pairs", type=int, default=1, help="runs of each, in turn (clone, Fabula API, Fabula pages); medians"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--role", choices=("main", "clone", "server"), default="main", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--deck", type=int, default=DECK, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.players < 3:
        parser.error("Storyteller needs at least 3 players")
    return args


# ---- The clone's server: Flask-SocketIO, games in memory -----------------------------


@dataclass
class Game:
    """One Storyteller game, in memory only."""

    id: int
    players: int
    deck: list
    hands: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    phase: str = "clue"
    round: int = 1
    storyteller: int | None = None  # round 1: whoever gives the first clue
    clue: str = ""
    clue_card: int = 0
    submitted: dict = field(default_factory=dict)  # seat -> card
    table: list = field(default_factory=list)  # (card, seat), position = index + 1
    votes: dict = field(default_factory=dict)  # seat -> position
    last_round: dict = field(default_factory=dict)
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def deal(cls, game_id: int, players: int, deck_size: int) -> "Game":
        deck = list(range(1, deck_size + 1))
        random.Random(game_id).shuffle(deck)
        game = cls(game_id, players, deck, scores=[0] * players)
        game.hands = [[game.deck.pop() for _ in range(HAND)] for _ in range(players)]
        return game

    def to_act(self, seat: int) -> bool:
        if self.phase == "clue":
            return self.storyteller is None or seat == self.storyteller
        if self.phase == "submit":
            return seat != self.storyteller and seat not in self.submitted
        if self.phase == "vote":
            return seat != self.storyteller and seat not in self.votes
        return False

    def act(self, seat: int, phase: str, data: dict) -> str | None:
        """Play ``data`` for ``seat``; the reason when refused."""
        if self.phase != phase or data.get("round") != self.round:
            return "not this phase"
        if not self.to_act(seat):
            return "not your turn"
        if phase in ("clue", "submit"):
            card = data.get("card")
            if card not in self.hands[seat]:
                return "not in your hand"
            if phase == "clue":
                text = str(data.get("text", "")).strip()
                if not text or len(text) > 200:
                    return "a clue has 1 to 200 characters"
                self.storyteller, self.clue, self.clue_card = seat, text, card
                self.hands[seat].remove(card)
                self.phase = "submit"
            else:
                self.hands[seat].remove(card)
                self.submitted[seat] = card
                if len(self.submitted) == self.players - 1:
                    self.table = [(self.clue_card, self.storyteller), *((c, s) for s, c in self.submitted.items())]
                    random.shuffle(self.table)
                    self.phase = "vote"
        else:
            position = data.get("position")
            if not isinstance(position, int) or not 1 <= position <= len(self.table):
                return "no such card"
            if self.table[position - 1][1] == seat:
                return "not your own card"
            self.votes[seat] = position
            if len(self.votes) == self.players - 1:
                self.score()
        self.version += 1
        return None

    def score(self) -> None:
        teller = self.storyteller
        owner = {position: seat for position, (_card, seat) in enumerate(self.table, 1)}
        found = [seat for seat, position in self.votes.items() if owner[position] == teller]
        gained = [0] * self.players
        if len(found) in (0, len(self.votes)):
            for seat in range(self.players):
                if seat != teller:
                    gained[seat] += 2
        else:
            gained[teller] += 3
            for seat in found:
                gained[seat] += 3
        for position in self.votes.values():
            if owner[position] != teller:
                gained[owner[position]] += 1
        for seat in range(self.players):
            self.scores[seat] += gained[seat]
        self.last_round = {
            "clue": self.clue,
            "storyteller": teller,
            "table": [{"position": p, "card": c, "seat": s} for p, (c, s) in enumerate(self.table, 1)],
            "votes": {str(seat): position for seat, position in self.votes.items()},
            "gained": gained,
        }
        for hand in self.hands:
            while len(hand) < HAND and self.deck:
                hand.append(self.deck.pop())
        self.submitted, self.votes, self.table, self.clue = {}, {}, [], ""
        if any(len(hand) < HAND for hand in self.hands):
            self.phase = "end"
        else:
            self.phase, self.round, self.storyteller = "clue", self.round + 1, (teller + 1) % self.players

    def view(self, seat: int) -> dict:
        """The game as ``seat`` may see it: its own hand, nobody else's; whose card is whose only once scored."""
        return {
            "game": self.id,
            "version": self.version,
            "round": self.round,
            "phase": self.phase,
            "you": seat,
            "storyteller": self.storyteller,
            "clue": self.clue,
            "to_act": self.to_act(seat),
            "cards_to_submit": 1,
            "hand": [{"id": card} for card in self.hands[seat]],
            "table": [{"position": p, "card": c, "mine": s == seat} for p, (c, s) in enumerate(self.table, 1)],
            "players": [
                {
                    "seat": s,
                    "name": f"Player {self.id}.{s + 1}",
                    "score": self.scores[s],
                    "to_act": self.to_act(s),
                    "cards": len(self.hands[s]),
                }
                for s in range(self.players)
            ],
            "deck_left": len(self.deck),
            "last_round": self.last_round,
            "my_vote": self.votes.get(seat),
            "my_card": self.submitted.get(seat, self.clue_card if seat == self.storyteller else None),
        }


def serve(port: int, deck_size: int) -> None:
    from flask import Flask, request
    from flask_socketio import SocketIO, join_room

    app = Flask(__name__)
    socketio = SocketIO(app)  # a plain install: async_mode "threading", WebSockets through simple-websocket
    games: dict[int, Game] = {}
    seated: dict[str, tuple[Game, int]] = {}  # sid -> its game and seat
    games_lock = threading.Lock()

    def room(game: Game, seat: int) -> str:
        return f"game-{game.id}-seat-{seat}"

    @socketio.on("connect")
    def connect(auth):
        game_id, seat, players = int(auth["game"]), int(auth["seat"]), int(auth["players"])
        with games_lock:
            if game_id not in games:
                games[game_id] = Game.deal(game_id, players, deck_size)
            game = games[game_id]
        if not 0 <= seat < game.players:
            return False
        seated[request.sid] = (game, seat)
        join_room(f"game-{game.id}")
        join_room(room(game, seat))
        with game.lock:
            view = game.view(seat)
        socketio.emit("view", view, to=room(game, seat))
        return True

    @socketio.on("disconnect")
    def disconnect(*_reason):
        seated.pop(request.sid, None)

    def act(phase: str, data: dict) -> dict:
        game, seat = seated[request.sid]
        with game.lock:
            refused = game.act(seat, phase, data if isinstance(data, dict) else {})
            if refused is not None:
                return {"ok": False, "error": refused, "version": game.version}
            version = game.version
            views = [game.view(s) for s in range(game.players)]
        for s, view in enumerate(views):
            socketio.emit("view", view, to=room(game, s))
        return {"ok": True, "version": version}

    def handler(phase: str):
        def on_action(data):
            return act(phase, data)

        return on_action

    for phase in ("clue", "submit", "vote"):
        socketio.on_event(phase, handler(phase))

    socketio.run(app, host="127.0.0.1", port=port, allow_unsafe_werkzeug=True, log_output=False)


# ---- The clone's players: python-socketio's asyncio client ----------------------------


class Seat:
    """One player's connection, and the views it has received."""

    def __init__(self, game: int, seat: int):
        import socketio

        self.game, self.seat = game, seat
        self.client = socketio.AsyncClient(reconnection=False)
        self.view: dict = {}
        self.heard: dict[int, float] = {}  # version -> when its view arrived
        self.waiters: dict[int, asyncio.Future] = {}
        self.client.on("view", self.receive)

    async def receive(self, view):
        version = view["version"]
        if version >= self.view.get("version", -1):
            self.view = view
        self.heard.setdefault(version, time.perf_counter())
        waiter = self.waiters.get(version)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def until(self, version: int) -> asyncio.Future:
        if version not in self.waiters:
            self.waiters[version] = asyncio.get_running_loop().create_future()
            if version in self.heard:
                self.waiters[version].set_result(None)
        return self.waiters[version]


def next_action(seats: list[Seat], rng: random.Random) -> tuple[Seat, str, dict]:
    """Who acts next, chosen as Fabula's bench chooses: one of those who must act, the form from its view."""
    actor = rng.choice([seat for seat in seats if seat.view.get("to_act")])
    view = actor.view
    data = {"round": view["round"]}
    if view["phase"] == "clue":
        data.update(card=rng.choice(view["hand"])["id"], text=f"clue {rng.randint(1, 999)}")
    elif view["phase"] == "submit":
        data["card"] = rng.choice(view["hand"])["id"]
    else:
        data["position"] = rng.choice([card["position"] for card in view["table"] if not card["mine"]])
    return actor, view["phase"], data


@dataclass
class Results:
    answered: list = field(default_factory=list)
    notified: list = field(default_factory=list)
    expected: int = 0
    lost: int = 0
    failed_actions: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the clone's server ended with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the clone's server did not listen in time")


async def play(args, port: int, server_pid: int) -> tuple[Results, dict]:
    url = f"http://127.0.0.1:{port}"
    games = [[Seat(g, s) for s in range(args.players)] for g in range(args.games)]
    everyone = [seat for seats in games for seat in seats]
    for seat in everyone:
        await seat.client.connect(
            url,
            auth={"game": seat.game, "seat": seat.seat, "players": args.players},
            transports=["websocket"],
            wait_timeout=30,
        )
    await asyncio.wait_for(asyncio.gather(*(seat.until(0) for seat in everyone)), args.timeout)
    cpu_open, started = cpu_seconds(server_pid), time.monotonic()
    results = Results()
    actions = args.rounds * (1 + 2 * (args.players - 1))  # a round: a clue, the others' cards, their votes

    async def one_game(seats: list[Seat], rng: random.Random):
        await asyncio.sleep(rng.uniform(0, args.think))  # the games do not move in step
        for _ in range(actions):
            actor, phase, data = next_action(seats, rng)
            version = actor.view["version"] + 1
            views = [seat.until(version) for seat in seats]
            begun = time.perf_counter()
            try:
                answer = await actor.client.call(phase, data, timeout=args.timeout)
            except Exception:  # socketio's TimeoutError, or the connection gone
                answer = {}
            results.answered.append(time.perf_counter() - begun)
            if not answer.get("ok") or answer.get("version") != version:
                results.failed_actions += 1
                return  # the game's views no longer say who acts next
            done, _pending = await asyncio.wait(views, timeout=args.timeout)
            results.expected += len(seats)
            results.lost += len(seats) - len(done)
            results.notified += [s.heard[version] - begun for s in seats if s is not actor and version in s.heard]
            if len(done) < len(seats):
                return
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))

    seeds = random.Random(args.seed)
    await asyncio.gather(*(one_game(seats, random.Random(seeds.random())) for seats in games))
    cpu_end, ended = cpu_seconds(server_pid), time.monotonic()
    for seat in everyone:
        await seat.client.disconnect()
    planned = args.games * actions
    results.failed_actions += planned - len(results.answered)  # actions a stopped game never made
    measured = {
        "actions": len(results.answered),
        "server_cpu_per_action": (cpu_end - cpu_open) / len(results.answered) if results.answered else None,
        "actions_per_second": len(results.answered) / (ended - started),
    }
    return results, measured


def run_clone(args) -> int:
    """One run of the clone: its server in a process of its own, the players here."""
    deck = max(DECK, args.players * (HAND + args.rounds + 1))
    port = free_port()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(
            [sys.executable, __file__, "--role", "server", "--port", str(port), "--deck", str(deck)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for_port(port, server)
            results, measured = asyncio.run(play(args, port, server.pid))
        except BaseException:
            log.seek(0)
            print(f"--- the clone server's output:\n{log.read()[-3000:]}", file=sys.stderr)
            raise
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    ok = results.lost == 0 and results.failed_actions == 0 and bool(results.answered)
    document = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items() if k != "json"},
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        **measured,
        "views_expected": results.expected,
        "views_lost": results.lost,
        "actions_failed": results.failed_actions,
        "answered": figures(results.answered),
        "notified": figures(results.notified),
        "ok": ok,
    }
    cpu = measured["server_cpu_per_action"]

    def ms(value):
        return f"{value * 1000:.1f} ms" if value is not None else "-"

    print(
        f"RAM-only clone (Flask-SocketIO, threading): {args.games} games of {args.players}, {args.rounds} round(s), "
        f"an action every ~{args.think:g}s a game; load {load_before:.1f} before\n"
        f"  actions {len(results.answered)} (failed {results.failed_actions}), views {results.expected} "
        f"(lost {results.lost}); answered median {ms(document['answered']['median'])}, "
        f"others' views p95 {ms(document['notified']['p95'])}\n"
        f"  server CPU per action: {ms(cpu)}",
        flush=True,
    )
    if args.json:
        args.json.write_text(json.dumps(document, indent=2))
    return 0 if ok else 1


# ---- Orchestration: the clone's venv, and Fabula beside it -----------------------------


def peer_python() -> Path:
    """The clone's venv, made (or remade, when the pins changed) on first use."""
    python = VENV / "bin" / "python"
    stamp = VENV / "pins.txt"
    wanted = "\n".join(PINS) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    print(f"making the clone's venv in {VENV} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-qq", "--disable-pip-version-check", *PINS], check=True)
    stamp.write_text(wanted)
    return python


def work_args(args) -> list[str]:
    return [
        *("--games", str(args.games), "--players", str(args.players)),
        *("--think", str(args.think), "--rounds", str(args.rounds), "--seed", str(args.seed)),
    ]


def run_json(command: list[str], path: Path) -> tuple[int, dict | None]:
    path.unlink(missing_ok=True)
    code = subprocess.run(command, cwd=ROOT).returncode
    return code, (json.loads(path.read_text()) if path.exists() else None)


def fabula_lost(document: dict) -> int:
    """Actions refused, messages lost and fetches missing in one run of bench/live_latency.py."""
    return sum(row["lost"] for label, row in document["rows"].items() if label.startswith("live:"))


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.role == "server":
        serve(args.port, args.deck)
        return 0
    if args.role == "clone":
        return run_clone(args)
    python = peer_python()
    fabula = ROOT / ".venv" / "bin" / "python"
    kinds = ["clone", "api", "pages"] if args.with_fabula else ["clone"]
    runs, failures = [], []
    with tempfile.TemporaryDirectory(prefix="fabula-ram-peer-") as folder:
        out = Path(folder) / "run.json"
        for index in range(args.rounds_pairs):
            run = {"load_before": os.getloadavg()[0]}
            for kind in kinds:
                print(f"--- run {index + 1}/{args.rounds_pairs}: {kind}", flush=True)
                if kind == "clone":
                    command = [str(python), __file__, "--role", "clone", *work_args(args), "--json", str(out)]
                else:
                    live = [str(ROOT / "bench" / "live_latency.py"), *work_args(args), "--via", kind]
                    command = [str(fabula if fabula.exists() else sys.executable), *live, "--json", str(out)]
                code, document = run_json(command, out)
                if document is None:
                    failures.append(f"run {index + 1} {kind}: no figures (exit {code})")
                    continue
                if kind == "clone":
                    run[kind] = document["server_cpu_per_action"]
                    if not document["ok"]:
                        failures.append(f"run {index + 1} clone: lost or failed actions")
                else:
                    run[kind] = document["setup"].get("server_cpu_per_action")
                    if fabula_lost(document):  # its CPU aim may be missed (exit 1): that is what is measured
                        failures.append(f"run {index + 1} Fabula {kind}: {fabula_lost(document)} lost")
            run["load_after"] = os.getloadavg()[0]
            runs.append(run)
    summary = report(args, kinds, runs)
    if args.json:
        args.json.write_text(json.dumps({"args": work_args(args), "runs": runs, "median": summary}, indent=2))
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


def report(args, kinds: list[str], runs: list[dict]) -> dict:
    labels = {"clone": "RAM-only clone", "api": "Fabula API", "pages": "Fabula pages"}

    def median(kind):
        values = [run[kind] for run in runs if run.get(kind) is not None]
        return statistics.median(values) if values else None

    def ms(value):
        return f"{value * 1000:.1f}" if value is not None else "-"

    def ratio(value, base):
        return f"{value / base:.2f}x" if value is not None and base else "-"

    rows = [(f"{i + 1} (load {run['load_before']:.1f} / {run['load_after']:.1f})", run) for i, run in enumerate(runs)]
    summary = {kind: median(kind) for kind in kinds}
    rows.append(("median", summary))
    header = ["run", *(f"{labels[k]} ms/action" for k in kinds), *(f"{labels[k]} / clone" for k in kinds[1:])]
    print()
    print(
        f"Server CPU per action: {args.games} games x {args.players} players, {args.rounds} round(s), "
        f"an action every ~{args.think:g}s a game; {os.cpu_count()} cores"
    )
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for label, row in rows:
        cells = [ms(row.get(k)) for k in kinds] + [ratio(row.get(k), row.get("clone")) for k in kinds[1:]]
        print("| " + " | ".join([label, *cells]) + " |")
    return summary


if __name__ == "__main__":
    sys.exit(main())
