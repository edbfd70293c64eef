"""Push that cannot reach inside (issue 29, items 3 and 6; notifications.endpoints, notifications.push).

Each check attacks the running site as a signed-in outsider would, through the page's own
subscription endpoint (``/notifications/push/subscribe/``, a logged-in, CSRF-checked JSON POST),
and watches, with servers of its own on 127.0.0.1, whether the site ever reaches them.

Nothing here makes the site send anywhere but 127.0.0.1: endpoints of the real push services are
stored only by the checks that count devices, for accounts that never play, and removed again.
The stalling-endpoint attack itself cannot be mounted from outside (no endpoint of one's own is
accepted); ``notifications/tests/test_tasks.py`` runs it with real workers and loopback allowed.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from . import Fell, Site

SUBSCRIBE = "/notifications/push/subscribe/"
UNSUBSCRIBE = "/notifications/push/unsubscribe/"
DEVICES_PER_USER = 5  # FABULA_PUSH_DEVICES_PER_USER's default
WATCH_SECONDS = 4.0  # how long a listener waits for the site to come knocking


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subscription(endpoint: str) -> dict:
    """What a browser's ``PushSubscription.toJSON()`` gives, with real keys."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": _b64url(raw), "auth": _b64url(os.urandom(16))},
    }


class Listener:
    """A server on 127.0.0.1 that notes every connection and, as asked, answers a redirect or nothing."""

    def __init__(self, *, answer: bytes = b""):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.answer = answer
        self.connections = 0
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            with connection:
                if self.answer:
                    connection.recv(65536)
                    connection.sendall(self.answer)

    def close(self) -> None:
        self.socket.close()


@contextmanager
def listening(**kwargs) -> Iterator[Listener]:
    listener = Listener(**kwargs)
    try:
        yield listener
    finally:
        listener.close()


_PEOPLE: dict[int, tuple] = {}


def people(site: Site) -> tuple:
    """Two accounts for all of this module's checks (sign-ups and tokens are rate-limited per address);
    each check leaves them with no device."""
    if id(site) not in _PEOPLE:
        _PEOPLE[id(site)] = (site.account(), site.account())
    return _PEOPLE[id(site)]


@contextmanager
def browsing(site: Site, account) -> Iterator:
    """The account signed in as a browser is (``Site.browser``), closed afterwards."""
    client = site.browser(account)
    try:
        yield client
    finally:
        client.close()


def _post(client, path: str, data) -> tuple[int, dict]:
    answer = client.post(path, content=json.dumps(data), headers={"Content-Type": "application/json"})
    try:
        body = answer.json()
    except ValueError:
        body = {}
    return answer.status_code, body


def _code(body: dict) -> str:
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("code", "") if isinstance(error, dict) else ""


def _devices(client) -> list:
    """The push devices the data export lists for the signed-in account."""
    answer = client.get("/accounts/data/")
    if answer.status_code != 200:
        raise RuntimeError(f"data export: {answer.status_code}")

    def find(node):
        if isinstance(node, dict):
            if "push_devices" in node:
                return node["push_devices"]
            for value in node.values():
                found = find(value)
                if found is not None:
                    return found
        return None

    devices = find(answer.json())
    if devices is None:
        raise Fell("the data export lists no push devices at all")
    return devices


def _push_on(client) -> bool:
    status, body = _post(client, SUBSCRIBE, {})
    return not (status == 404 and _code(body) == "push_off")


def _play_a_bot_game(site: Site, account) -> tuple[int, float]:
    """A live game of the account's with three bots; (game id, seconds until the bots' first move)."""
    answer = account.api.post("/games", json={"pace": "live", "seats": 4})
    if answer.status_code != 201:
        raise RuntimeError(f"create game: {answer.status_code} {answer.text[:200]}")
    game = answer.json()["id"]
    for _ in range(3):
        answer = account.api.post(f"/games/{game}/bots")
        if answer.status_code != 201:
            raise RuntimeError(f"add bot: {answer.status_code} {answer.text[:200]}")
    started_version = answer.json()["version"]
    started = time.monotonic()
    while time.monotonic() - started < 30:
        if account.api.get(f"/games/{game}").json()["version"] != started_version:
            return game, time.monotonic() - started
        time.sleep(0.1)
    raise Fell(f"bots in game {game} did not move within 30 s")


def endpoints_inside_refused(site: Site) -> str:
    """Loopback, private, link-local/metadata, user:pass and non-https endpoints: refused, stored nowhere,
    and the site never connects to them (a game then asks the attacker to act)."""
    account, _other = people(site)
    with browsing(site, account) as client, listening() as listener:
        if not _push_on(client):
            return "push is off on this site (no VAPID keys): every subscription refused, 404 push_off"
        port = listener.port
        endpoints = [
            f"http://127.0.0.1:{port}/push",
            f"https://127.0.0.1:{port}/push",
            f"https://[::1]:{port}/push",
            f"https://localhost:{port}/push",
            "https://127.0.0.1/push",
            "https://10.0.0.1/push",
            "https://192.168.1.1/push",
            "https://169.254.169.254/latest/meta-data/",
            "https://metadata.google.internal/computeMetadata/v1/",
            "https://[fd00:ec2::254]/latest/meta-data/",
            "https://2130706433/push",
            f"https://user:pass@127.0.0.1:{port}/push",
            "https://user:pass@fcm.googleapis.com/fcm/send/hostile",
            "https://fcm.googleapis.com:8443/fcm/send/hostile",
            "http://fcm.googleapis.com/fcm/send/hostile",
            "https://fcm.googleapis.com.127.0.0.1.nip.io/fcm/send/hostile",
        ]
        taken = []
        for endpoint in endpoints:
            status, body = _post(client, SUBSCRIBE, subscription(endpoint))
            if status != 400 or _code(body) != "endpoint_refused":
                taken.append(f"{endpoint} -> {status} {_code(body) or body}")
        if taken:
            raise Fell("endpoints that reach inside were not refused: " + "; ".join(taken))
        devices = _devices(client)
        if devices:
            raise Fell(f"refused endpoints are stored anyway: {len(devices)} device(s) in the export")
        _play_a_bot_game(site, account)  # the attacker's turn comes: a push would go now
        time.sleep(WATCH_SECONDS)  # nothing to wait for: the absence of a connection is the finding
        if listener.connections:
            raise Fell(f"the site connected to the attacker's listener {listener.connections} time(s)")
    return f"{len(endpoints)} endpoints inside refused (400 endpoint_refused), none stored, none connected to"


def redirects_not_followed(site: Site) -> str:
    """An endpoint that answers with a redirect into the site's network: it cannot be registered, and the
    redirecting server is never reached (nor where it points)."""
    account, _other = people(site)
    with listening() as target, browsing(site, account) as client:
        redirect = f"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:{target.port}/inside\r\n"
        with listening(answer=(redirect + "Content-Length: 0\r\nConnection: close\r\n\r\n").encode()) as redirector:
            if not _push_on(client):
                return "push is off on this site (no VAPID keys): nothing to redirect"
            status, body = _post(client, SUBSCRIBE, subscription(f"http://127.0.0.1:{redirector.port}/push"))
            if status != 400:
                raise Fell(f"a redirecting endpoint of one's own was taken: {status} {body}")
            _play_a_bot_game(site, account)
            time.sleep(WATCH_SECONDS)
            if redirector.connections or target.connections:
                raise Fell(f"reached: redirector {redirector.connections}, target {target.connections}")
    return "a redirecting endpoint is refused; neither it nor its target was reached (the sender never follows one)"


def devices_capped(site: Site) -> str:
    """Twelve devices for one account, one after another and then six at once: at most a few are kept."""
    account, _other = people(site)
    with browsing(site, account) as client:
        if not _push_on(client):
            return "push is off on this site (no VAPID keys): no device stored"
        endpoints = [f"https://fcm.googleapis.com/fcm/send/hostile-cap-{os.getpid()}-{n}" for n in range(12)]
        try:
            for endpoint in endpoints[:6]:
                status, body = _post(client, SUBSCRIBE, subscription(endpoint))
                if status != 201:
                    raise RuntimeError(f"subscribe: {status} {body}")
            threads = [
                threading.Thread(target=_post, args=(client, SUBSCRIBE, subscription(endpoint)))
                for endpoint in endpoints[6:]
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            kept = len(_devices(client))
        finally:
            for endpoint in endpoints:
                _post(client, UNSUBSCRIBE, {"endpoint": endpoint})
    if kept > DEVICES_PER_USER:
        raise Fell(f"{kept} devices kept for one account")
    return f"12 devices subscribed, {kept} kept (the newest replace the oldest)"


def endpoint_of_another_refused(site: Site) -> str:
    """Re-subscribing an endpoint another account holds: refused (409 endpoint_taken), never moved."""
    owner, thief = people(site)
    endpoint = f"https://fcm.googleapis.com/fcm/send/hostile-owned-{os.getpid()}-{time.monotonic_ns()}"
    with browsing(site, owner) as owner_client, browsing(site, thief) as thief_client:
        if not _push_on(owner_client):
            return "push is off on this site (no VAPID keys): nothing to take"
        try:
            status, body = _post(owner_client, SUBSCRIBE, subscription(endpoint))
            if status != 201:
                raise RuntimeError(f"subscribe: {status} {body}")
            status, body = _post(thief_client, SUBSCRIBE, subscription(endpoint))
            if status != 409 or _code(body) != "endpoint_taken":
                raise Fell(f"another account's endpoint answered {status} {body}")
            if len(_devices(owner_client)) != 1 or _devices(thief_client):
                raise Fell("the endpoint moved to the other account")
            # Nor can the thief remove it.
            _post(thief_client, UNSUBSCRIBE, {"endpoint": endpoint})
            if len(_devices(owner_client)) != 1:
                raise Fell("another account removed the owner's device")
        finally:
            _post(owner_client, UNSUBSCRIBE, {"endpoint": endpoint})
    return "another account's endpoint refused with 409 endpoint_taken; not moved, not removable by it"


def slow_endpoints_delay_no_bot_game(site: Site) -> str:
    """Endpoints that accept and never answer: the attacker cannot register them; a stranger's bot game
    then runs at its pace (the bots' first move within a few seconds)."""
    attacker, stranger = people(site)
    with listening() as stalling, browsing(site, attacker) as client:
        if _push_on(client):
            refused = 0
            for n in range(6):
                status, _ = _post(client, SUBSCRIBE, subscription(f"http://127.0.0.1:{stalling.port}/stall/{n}"))
                refused += status == 400
            if refused != 6:
                raise Fell(f"{6 - refused} stalling endpoints of the attacker's were taken")
        _game, _attacker_took = _play_a_bot_game(site, attacker)  # the attacker's turn: pushes, were there any
        game, took = _play_a_bot_game(site, stranger)
        if stalling.connections:
            raise Fell(f"the site connected to the stalling endpoint {stalling.connections} time(s)")
    if took > 8:
        raise Fell(f"the bots in a stranger's game {game} first moved after {took:.1f} s")
    return f"6 stalling endpoints refused; a stranger's bots moved after {took:.1f} s"


CHECKS = [
    endpoints_inside_refused,
    redirects_not_followed,
    devices_capped,
    endpoint_of_another_refused,
    slow_endpoints_delay_no_bot_game,
]
