"""Web Push (notifications.push): a real round trip to a push service on this machine, the
subscription endpoints, the per-game mute, the service worker and the web app manifest."""

import base64
import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.staticfiles import finders
from django.core import mail
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from py_vapid import Vapid

from accounts.services import token_create
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.timeouts.steps import clue
from notifications import presence, push
from notifications.emails import emails_send_due
from notifications.models import GameMute, PushSubscription
from notifications.push import vapid_keys_generate
from outbox.models import QueuedTask

pytestmark = pytest.mark.django_db


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1: records every request, answers with ``status`` (and ``location``)."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status = 201
        self.location = ""
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def received(self, path: str) -> list[dict]:
        return [request for request in self.requests if request["path"] == path]


class StallingServer:
    """A push service on 127.0.0.1 that accepts connections and never answers: records when each
    connection came and when the client gave up on it."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.accepted: list[float] = []
        self.closed: list[float] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with self.changed:
                self.accepted.append(time.monotonic())
            threading.Thread(target=self.hold, args=(connection,), daemon=True).start()

    def hold(self, connection):
        with connection:
            while connection.recv(65536):  # read the request, answer nothing, until the client hangs up
                pass
        with self.changed:
            self.closed.append(time.monotonic())
            self.changed.notify_all()

    def wait_for_closed(self, count: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.closed) >= count, timeout=timeout)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.listener.close()


@pytest.fixture
def push_service(settings):
    settings.FABULA_PUSH_ALLOW_LOOPBACK = True  # it lives on 127.0.0.1 (notifications.endpoints)
    service = PushService()
    service.thread.start()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def vapid(settings):
    public, private = vapid_keys_generate()
    settings.FABULA_VAPID_PUBLIC_KEY = public
    settings.FABULA_VAPID_PRIVATE_KEY = private
    settings.FABULA_VAPID_SUBJECT = "mailto:ops@example.org"
    return public


class Device:
    """A browser's side of a subscription: its own P-256 key pair and auth secret."""

    def __init__(self, user, endpoint: str, language: str = ""):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.endpoint = endpoint
        self.subscription = PushSubscription.objects.create(
            user=user,
            endpoint=endpoint,
            p256dh=b64url(public),
            auth=b64url(self.auth),
            language=language,
            created_at=timezone.now(),
        )

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def subscription_json(endpoint="https://fcm.googleapis.com/fcm/send/abc123") -> dict:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": b64url(raw), "auth": b64url(os.urandom(16))},
    }


class TestSending:
    def test_a_new_turn_reaches_the_device_encrypted_for_it_alone(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        asked = Device(users[1], f"{push_service.url}/device/asked")
        actor = Device(users[0], f"{push_service.url}/device/actor")
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert push_service.received(actor.endpoint.removeprefix(push_service.url)) == []
        (request,) = push_service.received("/device/asked")
        headers = {name.lower(): value for name, value in request["headers"].items()}
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["topic"] == f"game-{game.pk}"
        assert int(headers["ttl"]) > 0
        # RFC 8292: signed by the site's key, which the header names.
        token, key = headers["authorization"].removeprefix("vapid t=").split(",k=")
        assert key == vapid
        assert Vapid.verify(headers["authorization"])
        claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
        assert claims["aud"] == push_service.url and claims["sub"] == "mailto:ops@example.org"
        payload = asked.decrypt(request["body"])
        assert payload["title"] == f"Your turn in Storyteller #{game.pk}"
        assert payload["url"] == game.get_absolute_url() == f"/games/{game.pk}/"
        assert payload["tag"] == f"fabula-game-{game.pk}"
        assert "hand in the card" in payload["body"]
        asked.subscription.refresh_from_db()
        assert asked.subscription.last_success_at is not None

    def test_a_gone_subscription_is_forgotten_and_the_game_goes_on(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        gone = Device(users[1], f"{push_service.url}/device/gone")
        push_service.status = 410
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert len(push_service.received("/device/gone")) == 1
        assert not PushSubscription.objects.filter(pk=gone.subscription.pk).exists()
        game.refresh_from_db()
        assert game.version > 1  # the clue is given all the same

    def test_another_failure_keeps_the_subscription_and_raises_nothing(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        device = Device(users[1], f"{push_service.url}/device/busy")
        push_service.status = 503
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert len(push_service.received("/device/busy")) == 1
        device.subscription.refresh_from_db()
        assert device.subscription.last_success_at is None
        # A push service nobody answers at: the same.
        PushSubscription.objects.filter(pk=device.subscription.pk).update(endpoint="http://127.0.0.1:9/nobody")
        game, users = started_game(4)
        Device(users[1], "http://127.0.0.1:9/nobody-either")
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert PushSubscription.objects.filter(endpoint="http://127.0.0.1:9/nobody-either").exists()

    def test_a_redirect_is_not_followed(self, vapid, push_service, django_capture_on_commit_callbacks):
        game, users = started_game(4)
        device = Device(users[1], f"{push_service.url}/device/moved")
        push_service.status = 307
        push_service.location = f"{push_service.url}/inside"
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert [request["path"] for request in push_service.requests] == ["/device/moved"]
        device.subscription.refresh_from_db()
        assert device.subscription.last_success_at is None

    def test_stalling_push_services_cost_one_timeout_together(
        self, settings, vapid, push_service, django_capture_on_commit_callbacks
    ):
        settings.FABULA_PUSH_READ_SECONDS = 1.0
        settings.FABULA_PUSH_SEND_SECONDS = 2.0
        game, users = started_game(4)
        with StallingServer() as stalling:
            for n in range(6):
                Device(users[1 + n % 3], f"{stalling.url}/device/{n}")
            answering = Device(users[2], f"{push_service.url}/device/answering")
            started = time.monotonic()
            with django_capture_on_commit_callbacks(execute=True):
                clue(game, users[0], 0, now=game.started_at)
            took = time.monotonic() - started
            assert stalling.wait_for_closed(6, timeout=10)
        # One after another, six would have taken six read timeouts.
        assert took < 1.0 + 2.5, took
        assert len(stalling.accepted) == 6
        assert max(stalling.accepted) - min(stalling.accepted) < 1.0  # all at once
        assert len(push_service.received("/device/answering")) == 1
        answering.subscription.refresh_from_db()
        assert answering.subscription.last_success_at is not None

    def test_an_endpoint_stored_before_the_rules_is_forgotten_unsent(
        self, settings, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        stored = Device(users[1], f"{push_service.url}/device/old")
        settings.FABULA_PUSH_ALLOW_LOOPBACK = False  # as in production: 127.0.0.1 is refused
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert push_service.requests == []
        assert not PushSubscription.objects.filter(pk=stored.subscription.pk).exists()

    def test_a_known_name_that_resolves_inside_is_not_connected_to(
        self, settings, vapid, django_capture_on_commit_callbacks, caplog
    ):
        # An operator's allowlist naming a host whose DNS now points inside: refused at send time.
        settings.FABULA_PUSH_SERVICE_HOSTS = ["localhost"]
        game, users = started_game(4)
        device = Device(users[1], "https://localhost/device")
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert "localhost resolves to an address a push may not go to" in caplog.text
        device.subscription.refresh_from_db()  # kept: DNS may change back
        assert device.subscription.last_success_at is None

    def test_a_muted_game_sends_no_push_and_no_email_but_the_bell_counts(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        Device(users[1], f"{push_service.url}/device/muted")
        Device(users[2], f"{push_service.url}/device/loud")
        GameMute.objects.create(user=users[1], game=game, created_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert push_service.received("/device/muted") == []
        assert len(push_service.received("/device/loud")) == 1
        emails_send_due(now=game.started_at)
        assert users[1].email not in [address for message in mail.outbox for address in message.to]
        assert users[2].email in [address for message in mail.outbox for address in message.to]
        assert users[1].notifications.filter(game=game, read_at__isnull=True).exists()

    def test_nobody_looking_at_the_game_gets_a_push_and_nothing_goes_out_without_keys(
        self, settings, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        Device(users[1], f"{push_service.url}/device/looking")
        presence.game_seen(user_id=users[1].pk, game_id=game.pk)
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        assert push_service.requests == []

        settings.FABULA_VAPID_PRIVATE_KEY = ""
        game, users = started_game(4)
        Device(users[1], f"{push_service.url}/device/no-keys")
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            clue(game, users[0], 0, now=game.started_at)
        assert push_service.requests == []
        assert not any("push" in getattr(callback, "__qualname__", "") for callback in callbacks)

    def test_a_push_task_is_queued_only_for_the_asked_seats_whose_players_have_a_device(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        pushes = QueuedTask.objects.filter(name="notifications.send_turn_pushes")
        game, users = started_game(4)
        with django_capture_on_commit_callbacks(execute=False):  # the rows as the change committed them
            clue(game, users[0], 0, now=game.started_at)
        assert not pushes.exists()  # three seats asked, no device among them: no task for the push worker

        game, users = started_game(4)
        Device(users[2], f"{push_service.url}/device/two")
        with django_capture_on_commit_callbacks(execute=False):
            clue(game, users[0], 0, now=game.started_at)
        (row,) = pushes.filter(kwargs__game_id=game.pk)
        assert row.kwargs["seat_ids"] == [game.seats.get(user=users[2]).pk]

    def test_the_push_speaks_the_language_the_device_subscribed_in(
        self, vapid, push_service, django_capture_on_commit_callbacks
    ):
        game, users = started_game(4)
        english = Device(users[1], f"{push_service.url}/device/en", language="en")
        french = Device(users[1], f"{push_service.url}/device/fr", language="fr")
        with django_capture_on_commit_callbacks(execute=True):
            clue(game, users[0], 0, now=game.started_at)
        title_en = english.decrypt(push_service.received("/device/en")[0]["body"])["title"]
        title_fr = french.decrypt(push_service.received("/device/fr")[0]["body"])["title"]
        assert title_en == f"Your turn in Storyteller #{game.pk}"
        assert title_fr.startswith("À vous de jouer dans ") and title_fr.endswith(f"#{game.pk}")


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


class TestSubscribing:
    def post(self, client, data, name="notifications:push_subscribe"):
        body = data if isinstance(data, (str, bytes)) else json.dumps(data)
        return client.post(reverse(name), body, content_type="application/json", HTTP_USER_AGENT="Firefox on a phone")

    def test_a_subscription_is_stored_for_the_user_and_renewed_not_doubled(self, vapid):
        user = UserFactory()
        data = subscription_json()
        response = self.post(signed_in(user, HTTP_ACCEPT_LANGUAGE="fr"), data)
        assert response.status_code == 201
        (stored,) = PushSubscription.objects.all()
        assert (stored.user, stored.endpoint, stored.user_agent) == (user, data["endpoint"], "Firefox on a phone")
        assert (stored.p256dh, stored.auth) == (data["keys"]["p256dh"], data["keys"]["auth"])
        assert stored.language == "fr"
        # Posted again (the settings page does on each visit): renewed, not doubled.
        data["keys"]["auth"] = b64url(os.urandom(16))
        assert self.post(signed_in(user), data).status_code == 201
        (stored,) = PushSubscription.objects.all()
        assert stored.auth == data["keys"]["auth"]

    def test_an_endpoint_another_account_holds_is_refused_not_moved(self, vapid):
        owner, other = UserFactory(), UserFactory()
        data = subscription_json()
        assert self.post(signed_in(owner), data).status_code == 201
        taken = {**data, "keys": subscription_json()["keys"]}
        response = self.post(signed_in(other), taken)
        assert response.status_code == 409
        assert response.json()["error"] == {
            "code": "endpoint_taken",
            "message": "This push endpoint belongs to another account.",
        }
        (stored,) = PushSubscription.objects.all()
        assert (stored.user, stored.p256dh) == (owner, data["keys"]["p256dh"])

    def test_a_device_beyond_the_limit_replaces_the_oldest(self, settings, vapid):
        settings.FABULA_PUSH_DEVICES_PER_USER = 3
        user, other = UserFactory(), UserFactory()
        self.post(signed_in(other), subscription_json("https://fcm.googleapis.com/fcm/send/others"))
        endpoints = [f"https://updates.push.services.mozilla.com/wpush/v2/device{n}" for n in range(5)]
        for endpoint in endpoints:
            assert self.post(signed_in(user), subscription_json(endpoint)).status_code == 201
        mine = PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True)
        assert sorted(mine) == endpoints[2:]
        assert PushSubscription.objects.filter(user=other).count() == 1  # nobody else's went

    @pytest.mark.parametrize(
        "change, message",
        [
            (lambda d: d.update(endpoint="http://fcm.googleapis.com/fcm/send/x"), "https://"),
            (lambda d: d.update(endpoint="https://" + "a" * 1000 + ".example.net/"), "longer than"),
            (lambda d: d.update(endpoint="not a url"), "not a valid address"),
            (lambda d: d.update(endpoint="https://push.example.net/x"), "known push service"),
            (lambda d: d.update(endpoint="https://127.0.0.1/x"), "known push service"),
            (lambda d: d.update(endpoint="https://169.254.169.254/latest/meta-data/"), "known push service"),
            (lambda d: d.update(endpoint="https://user:pass@fcm.googleapis.com/fcm/send/x"), "user name"),
            (lambda d: d.update(endpoint="https://fcm.googleapis.com:8443/fcm/send/x"), "default port"),
            (lambda d: d.pop("endpoint"), "no endpoint"),
            (lambda d: d.update(endpoint=["https://push.example.net/x"]), "no endpoint"),
            (lambda d: d.pop("keys"), "no keys"),
            (lambda d: d["keys"].update(p256dh="not base64!"), "p256dh"),
            (lambda d: d["keys"].update(p256dh=b64url(b"\x04" + b"\x01" * 64)), "P-256"),
            (lambda d: d["keys"].update(p256dh=b64url(os.urandom(33))), "65 bytes"),
            (lambda d: d["keys"].update(auth=b64url(os.urandom(8))), "16 bytes"),
            (lambda d: d["keys"].update(auth=12345), "auth"),
        ],
    )
    def test_bad_input_is_refused_with_a_reason_and_nothing_is_stored(self, vapid, change, message):
        data = subscription_json()
        change(data)
        response = self.post(signed_in(UserFactory()), data)
        assert response.status_code == 400
        error = response.json()["error"]
        assert message in error["message"]
        refused = message in ("https://", "not a valid address", "known push service", "user name", "default port")
        assert error["code"] == ("endpoint_refused" if refused else "bad_subscription")
        assert not PushSubscription.objects.exists()

    @pytest.mark.parametrize("body", ["{not json", "[1, 2]", '"text"', "{}", b"\xff\xfe"])
    def test_what_is_not_a_subscription_object_is_refused(self, vapid, body):
        response = self.post(signed_in(UserFactory()), body)
        assert response.status_code == 400 and response.json()["error"]["message"]
        assert response.json()["error"]["code"] in ("bad_request", "bad_subscription")
        assert not PushSubscription.objects.exists()

    def test_a_body_over_the_limit_is_refused_as_too_large(self, vapid):
        data = subscription_json()
        data["padding"] = "x" * 5000
        response = self.post(signed_in(UserFactory()), data)
        assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
        assert not PushSubscription.objects.exists()

    def test_only_a_logged_in_posted_form_with_its_csrf_token_and_only_with_keys(self, settings, vapid):
        user = UserFactory()
        assert self.post(Client(), subscription_json()).status_code == 302  # to the log-in page
        assert self.post(signed_in(user, enforce_csrf_checks=True), subscription_json()).status_code == 403
        assert signed_in(user).get(reverse("notifications:push_subscribe")).status_code == 405
        settings.FABULA_VAPID_PUBLIC_KEY = ""
        assert self.post(signed_in(user), subscription_json()).status_code == 404
        assert not PushSubscription.objects.exists()

    def test_unsubscribing_removes_only_ones_own_device(self, vapid):
        user, other = UserFactory(), UserFactory()
        mine, theirs = (
            subscription_json("https://fcm.googleapis.com/fcm/send/mine"),
            subscription_json("https://fcm.googleapis.com/fcm/send/t"),
        )
        self.post(signed_in(user), mine)
        self.post(signed_in(other), theirs)
        response = self.post(signed_in(user), {"endpoint": theirs["endpoint"]}, name="notifications:push_unsubscribe")
        assert response.json() == {"subscribed": False, "removed": 0}
        response = self.post(signed_in(user), {"endpoint": mine["endpoint"]}, name="notifications:push_unsubscribe")
        assert response.json() == {"subscribed": False, "removed": 1}
        assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [theirs["endpoint"]]

    def test_the_settings_page_offers_the_switch_only_with_keys(self, settings, vapid):
        client = signed_in(UserFactory())
        page = client.get(reverse("notifications:settings")).content.decode()
        assert "Notify this device when it is my turn" in page
        assert f'data-key="{vapid}"' in page and "notifications/push.js" in page
        settings.FABULA_VAPID_PUBLIC_KEY = ""
        page = client.get(reverse("notifications:settings")).content.decode()
        assert "Notify this device" not in page and "push.js" not in page


class TestOffer:
    def test_the_page_of_a_started_game_offers_push_to_its_players_only_with_keys(self, settings, vapid):
        player, second, third = UserFactory.create_batch(3)
        game = game_create(creator=player, max_seats=3, options={"deck": deck_with_cards().pk})
        game_join(game_id=game.pk, user=second, invite_code=game.invite_code)
        client = signed_in(player)
        assert 'id="push-offer"' not in client.get(game.get_absolute_url()).content.decode()  # not started
        game_join(game_id=game.pk, user=third, invite_code=game.invite_code)
        page = client.get(game.get_absolute_url()).content.decode()
        assert 'id="push-offer"' in page and f'data-key="{vapid}"' in page
        assert "Notify me on this device" in page and "notifications/push.js" in page
        assert 'id="push-offer"' not in signed_in(UserFactory()).get(game.get_absolute_url()).content.decode()
        settings.FABULA_VAPID_PUBLIC_KEY = ""
        assert 'id="push-offer"' not in client.get(game.get_absolute_url()).content.decode()


class TestMute:
    def test_a_player_mutes_and_unmutes_a_game_from_its_page(self):
        game, users = started_game(3)
        client = signed_in(users[1])
        url = reverse("notifications:game_mute", args=[game.pk])
        page = client.get(game.get_absolute_url()).content.decode()
        assert url in page and "Mute this game" in page
        response = client.post(url, {"muted": "1"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and "Unmute this game" in response.content.decode()
        assert GameMute.objects.filter(user=users[1], game=game).count() == 1
        client.post(url, {"muted": "1"}, HTTP_HX_REQUEST="true")  # twice: still one
        assert GameMute.objects.filter(user=users[1], game=game).count() == 1
        assert "Unmute this game" in client.get(game.get_absolute_url()).content.decode()
        response = client.post(url, {"muted": "0"})
        assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
        assert not GameMute.objects.exists()

    def test_only_its_players_and_only_a_clear_answer(self):
        game, users = started_game(3)
        url = reverse("notifications:game_mute", args=[game.pk])
        stranger = signed_in(UserFactory())
        assert stranger.post(url, {"muted": "1"}).status_code == 404
        assert "Mute this game" not in stranger.get(game.get_absolute_url()).content.decode()
        assert signed_in(users[0]).post(url, {"muted": "yes"}).status_code == 400
        assert (
            signed_in(users[0])
            .post(reverse("notifications:game_mute", args=[game.pk + 999]), {"muted": "1"})
            .status_code
            == 404
        )
        assert not GameMute.objects.exists()


class TestInstallable:
    def test_the_service_worker_is_served_from_the_root_for_the_whole_site(self):
        response = Client().get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert response["Service-Worker-Allowed"] == "/"
        assert "no-cache" in response["Cache-Control"]
        script = response.content.decode()
        assert "showNotification" in script and "notificationclick" in script and "openWindow" in script
        assert "{%" not in script

    def test_the_manifest_names_the_app_in_the_readers_language_with_icons_of_the_declared_sizes(self):
        response = Client().get("/manifest.webmanifest")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/manifest+json")
        manifest = response.json()
        assert manifest["short_name"] == "Fabula" and manifest["name"].startswith("Fabula")
        assert manifest["start_url"] == reverse("games:mine") and manifest["scope"] == "/"
        assert manifest["display"] == "standalone"
        assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
        purposes = set()
        for icon in manifest["icons"]:
            name = icon["src"].removeprefix("/static/")
            path = finders.find(name)
            assert path, f"{name} is missing"
            with Image.open(path) as image:
                assert image.format == "PNG"
                assert f"{image.width}x{image.height}" == icon["sizes"]
            purposes.add(icon["purpose"])
        assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
        assert purposes == {"any", "maskable"}
        with Image.open(finders.find("notifications/icons/apple-touch-icon.png")) as image:
            assert image.size == (180, 180) and image.mode == "RGB"

    def test_every_page_names_the_manifest_and_the_apple_touch_icon(self):
        page = Client().get(reverse("login")).content.decode()
        assert 'rel="manifest" href="/manifest.webmanifest"' in page
        assert 'name="theme-color"' in page
        assert 'rel="apple-touch-icon"' in page


def test_the_key_command_prints_a_pair_that_signs():
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    signer = Vapid.from_string(lines["FABULA_VAPID_PRIVATE_KEY"])
    public = signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert b64url(public) == lines["FABULA_VAPID_PUBLIC_KEY"]
    assert lines["FABULA_VAPID_SUBJECT"].startswith("mailto:")


class TestMuteApi:
    def test_a_player_mutes_and_unmutes_through_the_api_and_nobody_else_can(self):
        game, users = started_game(3)
        url = f"/api/v1/games/{game.pk}/mute"
        player = Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=users[1], name='bot')[1]}")
        response = player.put(url)
        assert response.status_code == 200 and response.json() == {"game": game.pk, "muted": True}
        assert player.put(url).json()["muted"] is True
        assert GameMute.objects.filter(user=users[1], game=game).count() == 1
        assert player.delete(url).json() == {"game": game.pk, "muted": False}
        assert not GameMute.objects.exists()
        stranger = Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=UserFactory(), name='bot')[1]}")
        response = stranger.put(url)
        assert response.status_code == 403 and response.json()["error"]["code"] == "not_a_player"
        assert player.put(f"/api/v1/games/{game.pk + 999}/mute").status_code == 404
        assert Client().put(url).status_code == 401
        assert not GameMute.objects.exists()


def test_devices_and_mutes_are_in_the_data_export_and_go_with_the_account():
    from notifications.personal_data import notifications_delete, notifications_personal_data

    game, users = started_game(3)
    Device(users[1], "https://push.example.net/device", language="da")
    GameMute.objects.create(user=users[1], game=game, created_at=timezone.now())
    data = notifications_personal_data(sender=None, user=users[1])
    assert [device["language"] for device in data["push_devices"]] == ["da"]
    assert "endpoint" not in data["push_devices"][0]  # a credential to push to the device: not copied out
    # Nor whether a push reached it: for an endpoint set by hand, that would probe the network.
    assert set(data["push_devices"][0]) == {"user_agent", "language", "created_at"}
    assert data["muted_games"] == [game.pk]
    notifications_delete(sender=None, user=users[1])
    assert not PushSubscription.objects.exists() and not GameMute.objects.exists()


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="writers at once need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_devices_subscribed_at_once_keep_the_limit_and_one_endpoint_one_owner(settings):
    settings.FABULA_PUSH_DEVICES_PER_USER = 3
    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = vapid_keys_generate()
    user, rival, third = UserFactory(), UserFactory(), UserFactory()
    shared = subscription_json("https://fcm.googleapis.com/fcm/send/shared")
    attempts = [(user, subscription_json(f"https://fcm.googleapis.com/fcm/send/d{n}")) for n in range(8)]
    attempts += [(rival, shared), (third, shared)]
    barrier = threading.Barrier(len(attempts))
    outcomes: list[str] = []

    def subscribe(person, data):
        try:
            barrier.wait()
            push.subscription_save(user=person, data=data, user_agent="", language="", now=timezone.now())
            outcomes.append("stored")
        except push.SubscriptionInvalid as refusal:
            outcomes.append(refusal.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=subscribe, args=attempt) for attempt in attempts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert PushSubscription.objects.filter(user=user).count() == 3
    (owner,) = PushSubscription.objects.filter(endpoint=shared["endpoint"]).values_list("user", flat=True)
    assert owner in (rival.pk, third.pk)
    assert outcomes.count("endpoint_taken") == 1 and outcomes.count("stored") == 9
