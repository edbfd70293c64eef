"""Web Push: "your turn" on a device's lock screen, even with no page of the site open.

A device subscribes from the notification settings (``static/notifications/push.js``):
the browser's push service gives it an endpoint and keys, which ``subscription_save``
checks and stores. When a game newly asks a seat to act (``services.notify_game_change``
makes its ``Turn`` row), a task is queued after commit (``tasks.send_turn_pushes``) that
encrypts a small payload (RFC 8291, aes128gcm) for each of the player's devices and posts
it to their endpoints, signed with the site's VAPID key (RFC 8292). The service worker
(``templates/notifications/sw.js``, served at ``/sw.js``) shows it and opens the game on a tap.

Push is on only when the VAPID keys are set (FABULA_VAPID_PUBLIC_KEY, FABULA_VAPID_PRIVATE_KEY;
``manage.py vapid_keys`` prints a pair, and bin/run keeps one in the data folder with
``vapid_keys --ensure``, which the settings read when the environment gives none); without them
nothing is queued and no page offers it. With them, the page of a started game offers it
(``templatetags.notifications.game_mute_toggle``), never a first page load. Nothing here raises
into a game: a push that fails is logged, an endpoint the push service no longer knows (404, 410)
is forgotten.

An endpoint is a URL the client chose, so it goes only to a known push service on a public
address (``notifications.endpoints``), checked when it is stored and again at each send; no
redirect is followed. A person has at most ``FABULA_PUSH_DEVICES_PER_USER`` devices (a new one
replaces the oldest), and an endpoint another account holds is refused, never moved. The sends
of one task run concurrently with short timeouts, on a Celery queue of their own ("push"), so a
push service that never answers costs one timeout once and delays no game.
"""

import asyncio
import base64
import binascii
import json
import logging
import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid
from pywebpush import WebPusher

from games.models import Game
from infrastructure.raw_sql import raw_sql
from outbox.services import task_queue

from . import presence
from .endpoints import EndpointRefused, PublicOnlyResolver, endpoint_check
from .models import ENDPOINT_MAX_LENGTH, GameMute, PushSubscription, Turn
from .quiet import turn_push_hold

log = logging.getLogger(__name__)

USER_AGENT_MAX_LENGTH = 300  # PushSubscription.user_agent
P256DH_BYTES = 65  # an uncompressed point of P-256
AUTH_BYTES = 16
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
# How long a push service keeps a push for a device that is off: the phase's time, within bounds.
TTL_MIN_SECONDS = 60
TTL_MAX_SECONDS = 7 * 24 * 3600
# How long the VAPID token a push carries is good for (RFC 8292: at most 24 hours).
VAPID_TOKEN_SECONDS = 12 * 3600


class SubscriptionInvalid(ValueError):
    """What the browser sent is not a push subscription we can take; ``message`` says why, ``code``
    and ``status`` how the answer says it (``bad_subscription``, ``endpoint_refused``: 400;
    ``endpoint_taken``: 409)."""

    def __init__(self, message: str, *, code: str = "bad_subscription", status: int = 400):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


def push_enabled() -> bool:
    return bool(settings.FABULA_VAPID_PUBLIC_KEY and settings.FABULA_VAPID_PRIVATE_KEY)


def vapid_public_key() -> str:
    """The application server key a browser subscribes with ("" when push is off)."""
    return settings.FABULA_VAPID_PUBLIC_KEY if push_enabled() else ""


def vapid_keys_generate() -> tuple[str, str]:
    """A fresh VAPID key pair: (public, private), both base64url as the settings take them."""
    private = ec.generate_private_key(ec.SECP256R1())
    public_raw = private.public_key().public_bytes(
        encoding=serialization.Encoding.X962, format=serialization.PublicFormat.UncompressedPoint
    )
    private_raw = private.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public_raw), _b64url(private_raw)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _b64url_decode(text: object, *, name: str, size: int) -> bytes:
    if not isinstance(text, str) or not _BASE64URL.match(text):
        raise SubscriptionInvalid(_("The key “%(name)s” is not base64url text.") % {"name": name})
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise SubscriptionInvalid(_("The key “%(name)s” is not base64url text.") % {"name": name}) from None
    if len(raw) != size:
        raise SubscriptionInvalid(_("The key “%(name)s” must be %(size)d bytes long.") % {"name": name, "size": size})
    return raw


@dataclass(frozen=True)
class SubscriptionData:
    endpoint: str
    p256dh: str
    auth: str


def subscription_parse(data) -> SubscriptionData:
    """Check what ``PushSubscription.toJSON()`` gave the page; raises ``SubscriptionInvalid``."""
    if not isinstance(data, dict):
        raise SubscriptionInvalid(_("A push subscription is a JSON object."))
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise SubscriptionInvalid(_("The subscription has no endpoint."))
    if len(endpoint) > ENDPOINT_MAX_LENGTH:
        raise SubscriptionInvalid(
            _("The endpoint is longer than %(limit)d characters.") % {"limit": ENDPOINT_MAX_LENGTH}
        )
    try:
        endpoint_check(endpoint)
    except EndpointRefused as refusal:
        raise SubscriptionInvalid(refusal.message, code="endpoint_refused") from None
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise SubscriptionInvalid(_("The subscription has no keys."))
    p256dh = keys.get("p256dh")
    auth = keys.get("auth")
    raw_key = _b64url_decode(p256dh, name="p256dh", size=P256DH_BYTES)
    _b64url_decode(auth, name="auth", size=AUTH_BYTES)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw_key)
    except ValueError:
        raise SubscriptionInvalid(_("The key “p256dh” is not a point of the P-256 curve.")) from None
    return SubscriptionData(endpoint=endpoint, p256dh=str(p256dh).rstrip("="), auth=str(auth).rstrip("="))


def subscription_save(*, user, data, user_agent: str, language: str, now: datetime) -> PushSubscription:
    """Store (or renew) this device's subscription for ``user``; raises ``SubscriptionInvalid``.

    An endpoint another account holds is refused (``endpoint_taken``), never moved: whoever sent
    it may have read it off someone else's device. (The page then asks its browser for a fresh
    endpoint, ``static/notifications/push.js``.) A device beyond ``FABULA_PUSH_DEVICES_PER_USER``
    replaces the one subscribed longest ago: whoever adds a new browser expects that one to work.
    """
    parsed = subscription_parse(data)
    fields = {
        "p256dh": parsed.p256dh,
        "auth": parsed.auth,
        "user_agent": (user_agent or "")[:USER_AGENT_MAX_LENGTH],
        "language": (language or "")[:16],
    }
    try:
        with transaction.atomic():
            # One change of a person's devices at a time: the cap holds however many arrive at once.
            get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
            subscription = PushSubscription.objects.filter(endpoint=parsed.endpoint).first()
            if subscription is not None and subscription.user_id != user.pk:
                raise _endpoint_taken()
            if subscription is None:
                subscription = PushSubscription.objects.create(
                    user=user, endpoint=parsed.endpoint, created_at=now, **fields
                )
            else:
                PushSubscription.objects.filter(pk=subscription.pk).update(**fields)
            newest = (
                PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk").values_list("pk", flat=True)
            )
            kept = list(newest[: max(1, settings.FABULA_PUSH_DEVICES_PER_USER)])
            PushSubscription.objects.filter(user=user).exclude(pk__in=kept).delete()
    except IntegrityError:
        # Another account stored the same endpoint at the same moment.
        raise _endpoint_taken() from None
    return subscription


def _endpoint_taken() -> SubscriptionInvalid:
    return SubscriptionInvalid(_("This push endpoint belongs to another account."), code="endpoint_taken", status=409)


def subscription_delete(*, user, endpoint) -> int:
    """Forget one of the user's devices; how many rows went (0 or 1)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_MAX_LENGTH:
        return 0
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0]


# Mute ------------------------------------------------------------------------------------


def game_muted(*, user, game_id: int) -> bool:
    return GameMute.objects.filter(user=user, game_id=game_id).exists()


def game_mute_set(*, user, game: Game, muted: bool, now: datetime) -> bool:
    """Mute or unmute one game for one of its players; returns the new state."""
    if muted:
        GameMute.objects.get_or_create(user=user, game=game, defaults={"created_at": now})
    else:
        GameMute.objects.filter(user=user, game=game).delete()
    return muted


# Sending ---------------------------------------------------------------------------------


def turn_pushes_queue(*, game: Game, phase_key: str, seats: list) -> None:
    """After commit, push "your turn" to these seats' devices: only to the seats whose players have a device
    (most have none, and a task for nobody costs the push worker some 2 ms); nothing when push is off."""
    if not seats or not push_enabled():
        return
    subscribed = set(_subscribed_among(sorted({seat.user_id for seat in seats})))
    seat_ids = [seat.pk for seat in seats if seat.user_id in subscribed]
    if not seat_ids:
        return
    from .tasks import send_turn_pushes

    task_queue(task=send_turn_pushes, kwargs={"game_id": game.pk, "phase_key": phase_key, "seat_ids": seat_ids})


@raw_sql(
    lambda sql, user_ids: (
        f"SELECT DISTINCT {sql.column(PushSubscription, 'user')} FROM {sql.table(PushSubscription)}"
        f" WHERE {sql.is_in(sql.column(PushSubscription, 'user'), user_ids)}",
        user_ids,
    ),
    flat=True,
)
def _subscribed_among(user_ids: list[int]):
    """Which of these users have a device to push to (asked whenever a game asks someone new: its SQL written
    once, infrastructure.raw_sql)."""
    return PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True).distinct()


def turn_pushes_send(*, game_id: int, phase_key: str, seat_ids: list[int], now: datetime | None = None) -> int:
    """Push "your turn" to each seat still asked in that phase; returns how many pushes went out.

    Not for a seat that has acted since, a muted game, a game the player has open right now
    (``presence``), an absent player of a running game (the timeout rules play for them).
    All of them are sent at once (``_deliver_all``): the slowest push service costs one timeout.
    """
    if not push_enabled():
        return 0
    now = now or timezone.now()
    turns = (
        Turn.objects.filter(seat_id__in=seat_ids, phase_key=phase_key, seat__game_id=game_id, closed_at__isnull=True)
        .filter(seat__game__status=Game.Status.ACTIVE)
        .select_related("seat__user", "seat__game")
    )
    signer = Vapid.from_string(private_key=settings.FABULA_VAPID_PRIVATE_KEY)
    deliveries = []
    for turn in turns:
        seat, game = turn.seat, turn.seat.game
        if not seat.user.is_active or (seat.is_absent and not game.is_paused):
            continue
        if game_muted(user=seat.user, game_id=game.pk):
            continue
        if presence.seen_recently(user_id=seat.user_id, game_id=game.pk, now=now):
            continue
        if turn_push_hold(turn, now):  # the player's quiet hours: beat sends it at their end
            continue
        for subscription in _devices(user_id=seat.user_id):
            payload = _payload(subscription, turn)
            deliveries.append(_delivery(subscription, payload, signer, ttl=_ttl(game, now), topic=f"game-{game.pk}"))
    return _deliver_and_record(deliveries)


def user_pushes_send(*, user_id: int, payload_for, ttl: int, topic: str) -> int:
    """Push to each of a user's devices what ``payload_for(subscription)`` makes (JSON text, in the device's
    language); returns how many went out. For news other than a turn (a rematch's held seat)."""
    if not push_enabled():
        return 0
    signer = Vapid.from_string(private_key=settings.FABULA_VAPID_PRIVATE_KEY)
    deliveries = [
        _delivery(subscription, payload_for(subscription), signer, ttl=ttl, topic=topic)
        for subscription in _devices(user_id=user_id)
    ]
    return _deliver_and_record(deliveries)


def _devices(*, user_id: int) -> list[PushSubscription]:
    """The user's devices whose endpoints pass the rules now; one that does not is forgotten."""
    devices = []
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        try:
            endpoint_check(subscription.endpoint)
        except EndpointRefused as refusal:
            # Stored before the rules were what they are: nothing will ever go there.
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            log.warning("push subscription %s refused (%s): forgotten", subscription.pk, refusal.message)
            continue
        devices.append(subscription)
    return devices


def _deliver_and_record(deliveries: list["Delivery"]) -> int:
    """Send them all at once (the slowest push service costs one timeout); how many went out."""
    if not deliveries:
        return 0
    statuses = asyncio.run(_deliver_all(deliveries))
    return sum(_record(delivery, status) for delivery, status in zip(deliveries, statuses, strict=True))


def _payload(subscription: PushSubscription, turn: Turn) -> str:
    game = turn.seat.game
    with translation.override(subscription.language or settings.LANGUAGE_CODE):
        context = {"game": game, "asked": turn.asked, "user": turn.seat.user}
        title = " ".join(render_to_string("notifications/email/turn_subject.txt", context).split())
        body = " ".join(render_to_string(game.game_kind.presentation.templates.asked, context).split())
    return json.dumps(
        {
            "title": title,
            "body": body,
            "url": game.get_absolute_url(),
            # One notification per game on the device: a newer one replaces it.
            "tag": f"fabula-game-{game.pk}",
        }
    )


def _ttl(game: Game, now: datetime) -> int:
    if game.deadline_at is None:
        return TTL_MAX_SECONDS
    left = (game.deadline_at - now) / timedelta(seconds=1)
    return int(min(max(left, TTL_MIN_SECONDS), TTL_MAX_SECONDS))


@dataclass(frozen=True)
class Delivery:
    """One push, encrypted for its device and signed, ready to post."""

    subscription_id: int
    endpoint: str
    body: bytes
    headers: dict[str, str]


def _delivery(subscription: PushSubscription, payload: str, signer: Vapid, *, ttl: int, topic: str) -> Delivery:
    encrypted = WebPusher(
        {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    ).encode(payload.encode(), content_encoding="aes128gcm")
    origin = urlsplit(subscription.endpoint)
    claims = {
        "sub": settings.FABULA_VAPID_SUBJECT,
        "aud": f"{origin.scheme}://{origin.netloc}",
        "exp": int(time.time()) + VAPID_TOKEN_SECONDS,
    }
    headers = {
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(ttl),
        # RFC 8030: a newer push of the same topic replaces one still waiting at the push service.
        "Topic": topic,
        "Urgency": "high",
        **signer.sign(claims),
    }
    return Delivery(subscription.pk, subscription.endpoint, encrypted["body"], headers)


async def _deliver_all(deliveries: list[Delivery]) -> list[int | None]:
    """Post every push at once; for each, the push service's status, or None when there was no answer.

    Timeouts to connect, between two reads and in all; the connector resolves through
    ``PublicOnlyResolver``; no proxy from the environment; no redirect followed (a 3xx is a failure).
    """
    timeout = aiohttp.ClientTimeout(
        total=settings.FABULA_PUSH_SEND_SECONDS,
        connect=settings.FABULA_PUSH_CONNECT_SECONDS,
        sock_read=settings.FABULA_PUSH_READ_SECONDS,
    )
    resolver = PublicOnlyResolver()
    try:
        connector = aiohttp.TCPConnector(resolver=resolver)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout, trust_env=False) as session:
            return list(await asyncio.gather(*(_deliver(session, delivery) for delivery in deliveries)))
    finally:
        await resolver.close()  # a connector leaves a resolver it was given open


async def _deliver(session: aiohttp.ClientSession, delivery: Delivery) -> int | None:
    try:
        async with session.post(
            delivery.endpoint, data=delivery.body, headers=delivery.headers, allow_redirects=False
        ) as response:
            return response.status
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        log.warning("push to subscription %s failed: %s: %s", delivery.subscription_id, type(error).__name__, error)
        return None


def _record(delivery: Delivery, status: int | None) -> int:
    """What a push's answer means for its subscription; 1 when the push went out."""
    if status is None:
        return 0
    if status in (404, 410):
        # The browser dropped the subscription (the person revoked the permission, say).
        PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
        log.info("push subscription %s is gone (%s): forgotten", delivery.subscription_id, status)
        return 0
    if not 200 <= status < 300:
        log.warning("push to subscription %s failed: %s%s", delivery.subscription_id, status,
                    " (a redirect: not followed)" if 300 <= status < 400 else "")  # fmt: skip
        return 0
    PushSubscription.objects.filter(pk=delivery.subscription_id).update(last_success_at=timezone.now())
    return 1
