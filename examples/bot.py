#!/usr/bin/env python3
"""A Fabula bot that plays Storyteller or Think Alike by choosing at random. Standard library only.

    python examples/bot.py --url http://127.0.0.1:8000 --username robo --password 'a long secret'
    python examples/bot.py --url http://127.0.0.1:8000 --token fab_... --game 12
    python examples/bot.py --url http://127.0.0.1:8000 --token fab_... --kind think_alike --create

Without --token it signs up (or, if the account exists, just logs in) and gets a
token. Without --game it joins the newest open public game it is not in, or
creates one (--seats, --private) and waits for players. Then it plays to the end:
it looks at the game every --poll seconds and acts whenever the game waits for it.

The functions below are the API's whole client side; the project's tests drive
them against a test server to play whole games.
"""

import argparse
import json
import random
import struct
import sys
import time
import urllib.error
import urllib.request
import uuid
import zlib

WORDS = [
    "dream",
    "journey",
    "silence",
    "the sea",
    "once upon a time",
    "lost",
    "home",
    "shadow",
    "hope",
    "a secret",
    "the last door",
    "morning",
    "falling",
    "balance",
    "curiosity",
]
# Think Alike: few enough that bots often think alike.
ANSWERS = ["apple", "Apples", "banana", "the sea", "red", "a dog", "dogs", "seven", "7", "snow"]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class Api:
    """A few lines of HTTP: JSON in and out, a Bearer token, errors raised as ApiError."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 30):
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token
        self.timeout = timeout

    def call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read())["error"]
            except (ValueError, KeyError, TypeError):
                detail = {"code": "http_error", "message": str(error)}
            retry = error.headers.get("Retry-After")
            raise ApiError(error.code, detail["code"], detail["message"], float(retry) if retry else None) from None

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body: dict | None = None):
        return self.call("POST", path, body if body is not None else {})

    def upload(self, path: str, data: bytes, *, filename: str, content_type: str):
        """POST one file as the multipart form field ``file`` (a drawn or sung clue)."""
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                f"Content-Type: {content_type}\r\n\r\n"
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
        request.add_header("Accept", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read())["error"]
            raise ApiError(error.code, detail["code"], detail["message"]) from None


def silent_webm(seconds: int) -> bytes:
    """A WebM with one Opus audio track of ``seconds`` of silence: 20 ms packets that hold only their
    table-of-contents byte (0xfc: a frame of 20 ms, no data), a cluster a second. The site counts a
    sound's length from its packets."""

    def element(element_id: bytes, payload: bytes) -> bytes:
        return element_id + b"\x01" + len(payload).to_bytes(7, "big") + payload

    header = element(b"\x1a\x45\xdf\xa3", element(b"\x42\x82", b"webm"))
    info = element(b"\x15\x49\xa9\x66", element(b"\x2a\xd7\xb1", (1_000_000).to_bytes(3, "big")))
    track = element(b"\x83", b"\x02") + element(b"\x86", b"A_OPUS")
    tracks = element(b"\x16\x54\xae\x6b", element(b"\xae", track))
    blocks = b"".join(element(b"\xa3", b"\x81" + (20 * n).to_bytes(2, "big") + b"\x80\xfc") for n in range(50))
    clusters = b"".join(
        element(b"\x1f\x43\xb6\x75", element(b"\xe7", (1000 * n).to_bytes(4, "big")) + blocks) for n in range(seconds)
    )
    return header + element(b"\x18\x53\x80\x67", info + tracks + clusters)


def scribble_png(rng: random.Random, width: int = 64, height: int = 48) -> bytes:
    """A small PNG of random coloured stripes: a bot's "drawing" (standard library only)."""
    rows = b""
    for _ in range(height):
        colour = bytes(rng.randrange(256) for _ in range(3))
        rows += b"\x00" + colour * width

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def sign_up(api: Api, *, username: str, password: str, email: str | None = None) -> bool:
    """Create the account; False if the username is taken (perhaps by ourselves, earlier)."""
    try:
        api.post("/accounts", {"username": username, "email": email or f"{username}@example.com", "password": password})
    except ApiError as error:
        if error.code == "username_taken":
            return False
        raise
    return True


def get_token(api: Api, *, username: str, password: str) -> str:
    api.token = api.post("/tokens", {"username": username, "password": password, "name": "example bot"})["token"]
    return api.token


def create_game(
    api: Api, *, seats: int, private: bool = False, pace: str = "async", kind: str = "storyteller", **options
) -> dict:
    """Create a game; ``options`` are the kind's own.

    Think Alike's: stop, target, count, minutes, board, course, lang.
    """
    body = {"kind": kind, "seats": seats, "pace": pace, "visibility": "private" if private else "public"}
    return api.post("/games", {**body, **options})


def join_game(api: Api, game_id: int, invite_code: str | None = None) -> dict:
    return api.post(f"/games/{game_id}/join", {"invite_code": invite_code} if invite_code else {})


def join_or_create(api: Api, *, seats: int, private: bool = False, kind: str = "storyteller") -> dict:
    """Join the newest open public game of the kind we are not in.

    Create one if there is none (or we lose every race).
    """
    for game in api.get("/games?status=open")["games"]:
        if game["kind"] != kind:
            continue
        if game["joined"]:
            return api.get(f"/games/{game['id']}")
        try:
            return join_game(api, game["id"])
        except ApiError as error:
            if error.status != 409:  # 409: full or started meanwhile; try the next one
                raise
    return create_game(api, seats=seats, private=private, kind=kind)


def choose_action(view: dict, rng: random.Random) -> dict | None:
    """A random legal action for what the game waits for from us, or None."""
    if view["status"] != "active" or not view["you"]["to_act"]:
        return None
    if view["kind"] == "think_alike":
        action = choose_think_alike(view, rng)
        if action is not None:
            action["round"] = view["round"]
        return action
    hand = [card["id"] for card in view["hand"]]
    phase = view["phase"]
    if phase == "clue":
        action = {"type": "clue", "card": rng.choice(hand), "text": rng.choice(WORDS)}
        if "words" not in view["rules"]["clue_modes"]:
            action["text"] = ""  # the house rules want a drawing (or a sound): play_turn uploads one
    elif phase == "submit":
        action = {"type": "submit", "cards": rng.sample(hand, view.get("cards_to_submit") or 1)}
    elif phase == "vote":
        positions = [card["position"] for card in view["table"] if not card["mine"]]
        action = {"type": "vote", "position": rng.choice(positions)}
    else:
        return None
    action["round"] = view["round"]  # if the round ends meanwhile, the game refuses instead of misreading us
    return action


def choose_think_alike(view: dict, rng: random.Random) -> dict | None:
    """Think Alike: what the phase asks for, chosen at random among the view's ``choices``."""
    phase, choices = view["phase"], view["choices"] or {}
    if phase == "draft":
        return {"type": "place_field", "field": rng.choice(choices["fields"])["id"]}
    if phase == "roll":
        return {"type": "roll"}
    if phase == "move":
        return {"type": "move", "direction": rng.choice(choices["directions"])}
    if phase == "swap":
        return {"type": "swap", "remove": rng.choice(choices["remove"])["id"], "add": rng.choice(choices["add"])["id"]}
    if phase == "move_to":
        return {"type": "move_to", "position": rng.choice(choices["positions"])}
    if phase == "duel":
        position = rng.choice(choices["positions"]) if choices["positions"] else None
        return {"type": "duel", "opponent": rng.choice(choices["opponents"])["seat"], "position": position}
    if phase == "answer":
        return {"type": "answer", "answers": [rng.choice(ANSWERS) for _ in range(choices["answers"])]}
    if phase == "review":
        # Now and then the turn holder rules two groups the same; then, or else, scores the round.
        groups = choices["groups"]
        if len(groups) >= 2 and rng.random() < 0.3:
            return {"type": "merge", "groups": rng.sample(groups, 2)}
        return {"type": "confirm"}
    return None


def play_turn(api: Api, game_id: int, rng: random.Random) -> dict:
    """Look at the game once and act if it waits for us; returns the latest view."""
    view = api.get(f"/games/{game_id}")
    action = choose_action(view, rng)
    if action is None:
        return view
    try:
        if action["type"] == "clue" and not action["text"]:
            if "drawing" in view["rules"]["clue_modes"]:
                data, name, kind = scribble_png(rng), "clue.png", "image/png"
            else:
                data, name, kind = silent_webm(seconds=3), "clue.webm", "audio/webm"
            action["media"] = api.upload(f"/games/{game_id}/clue-media", data, filename=name, content_type=kind)["id"]
        return api.post(f"/games/{game_id}/actions", action)
    except ApiError as error:
        if error.status == 409:  # the game moved on (a deadline, another player): look again next time
            return api.get(f"/games/{game_id}")
        raise


def play(api: Api, game_id: int, rng: random.Random, *, poll: float = 2.0, log=print) -> dict:
    """Play until the game is over; returns its last view."""
    seen = None
    while True:
        try:
            view = play_turn(api, game_id, rng)
        except ApiError as error:
            if error.status != 429:
                raise
            time.sleep(error.retry_after or poll)
            continue
        if view["version"] != seen:
            seen = view["version"]
            log(describe(view))
        if view["status"] in ("finished", "cancelled"):
            return view
        if not view["you"]["to_act"]:
            time.sleep(poll)


def describe(view: dict) -> str:
    scores = ", ".join(f"{p['username']} {p['score']}" for p in view["players"])
    if view["status"] == "finished":
        return f"game {view['id']} is over: winners {', '.join(view['winners'])} ({scores})"
    if view["status"] != "active":
        return f"game {view['id']}: waiting for players ({len(view['players'])} seated)"
    clue = view.get("clue") or {}  # Storyteller: {"text", "media": {"kind", "url"} or null}
    said = f" clue {clue['text']!r}" if clue.get("text") else ""
    if clue.get("media"):
        said += f" ({clue['media']['kind']}: {clue['media']['url']})"
    return f"game {view['id']} round {view['round']} {view['phase']}{said}: {scores}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="A Fabula bot that plays Storyteller or Think Alike at random.")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--token", help="an API token (else --username and --password)")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--email")
    parser.add_argument("--game", type=int, help="the game to join or go on playing")
    parser.add_argument(
        "--invite", help="a private game's invite code (write --invite=CODE if an older code begins with -)"
    )
    parser.add_argument("--seats", type=int, default=3, help="the size of a game the bot creates")
    parser.add_argument(
        "--kind", default="storyteller", choices=["storyteller", "think_alike"], help="the game to play"
    )
    parser.add_argument("--private", action="store_true", help="create a private game")
    parser.add_argument("--create", action="store_true", help="create a game even if one is open")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between looks at the game")
    parser.add_argument("--seed", type=int, help="for a repeatable bot")
    args = parser.parse_args(argv)

    api = Api(args.url, args.token)
    rng = random.Random(args.seed)
    try:
        if not api.token:
            if not (args.username and args.password):
                parser.error("give --token, or --username and --password")
            if sign_up(api, username=args.username, password=args.password, email=args.email):
                print(f"signed up as {args.username}")
            get_token(api, username=args.username, password=args.password)
        if args.game:
            try:
                view = join_game(api, args.game, args.invite)
            except ApiError as error:
                if error.code not in ("already_joined", "not_open"):
                    raise
                view = api.get(f"/games/{args.game}")
                if view["you"].get("seat") is None:  # a started game we are not in
                    raise
        elif args.create:
            view = create_game(api, seats=args.seats, private=args.private, kind=args.kind)
        else:
            view = join_or_create(api, seats=args.seats, private=args.private, kind=args.kind)
        if "invite_code" in view:
            print(f"invite code: {view['invite_code']}")
        print(f"playing game {view['id']} as {view['you']['username']}")
        play(api, view["id"], rng, poll=args.poll)
    except ApiError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"cannot reach {args.url}: {error.reason}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
