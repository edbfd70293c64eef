"""Web Push: "your turn" on a device's lock screen, even with no page of the site open.

A device subscribes from the notification settings (``static/notifications/push.js``):
the browser's push service gives it an endpoint and keys, which ``subscription_save``
checks and stores. When a game newly asks a seat to act (``services.notify_game_change``
makes its ``Turn`` row), a task is queued after commit (``tasks.send_turn_pushes``) that
encrypts a small payload (RFC 8291, aes128gcm) for each of the player's devices and posts
it to their endpoints, signed with the site's VAPID key (RFC 8292). The service worker
(``templates/notifications/sw.js``, served at ``/sw.js``) shows it and opens the game on a tap.

Push is on only when the VAPID keys are set (FABULA_VAPID_PUBLIC_KEY, FABULA_VAPID_PRIVATE_KEY;
``manage.py vapid_keys`` makes a pair); without them nothing is queued and the settings
page does not offer it. Nothing here raises into a game: a push that fails is logged, an
endpoint the push service no longer knows (404, 410) is forgotten.
"""

import base64
import binascii
import json
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import Game

from . import presence
from .models import ENDPOINT_MAX_LENGTH, GameMute, PushSubscription, Turn

log = logging.getLogger(__name__)

USER_AGENT_MAX_LENGTH = 300  # PushSubscription.user_agent
P256DH_BYTES = 65  # an uncompressed point of P-256
AUTH_BYTES = 16
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
# How long a push service keeps a push for a device that is off: the phase's time, within bounds.
TTL_MIN_SECONDS = 60
TTL_MAX_SECONDS = 7 * 24 * 3600
SEND_TIMEOUT_SECONDS = 10


class SubscriptionInvalid(ValueError):
    """What the browser sent is not a push subscription we can use; ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


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
        URLValidator(schemes=["https"])(endpoint)
    except ValidationError:
        raise SubscriptionInvalid(_("The endpoint must be an https:// address.")) from None
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

    An endpoint is one browser profile: if another account of this site had it, the device
    now belongs to whoever subscribed last (it is the one logged in on it).
    """
    parsed = subscription_parse(data)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=parsed.endpoint,
        defaults={
            "user": user,
            "p256dh": parsed.p256dh,
            "auth": parsed.auth,
            "user_agent": (user_agent or "")[:USER_AGENT_MAX_LENGTH],
            "language": (language or "")[:16],
        },
        create_defaults={
            "user": user,
            "p256dh": parsed.p256dh,
            "auth": parsed.auth,
            "user_agent": (user_agent or "")[:USER_AGENT_MAX_LENGTH],
            "language": (language or "")[:16],
            "created_at": now,
        },
    )
    return subscription


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


def turn_pushes_queue(*, game: Game, phase_key: str, seat_ids: list[int]) -> None:
    """After commit, push "your turn" to these seats' devices (nothing when push is off)."""
    if not seat_ids or not push_enabled():
        return
    from .tasks import send_turn_pushes

    game_id = game.pk
    transaction.on_commit(lambda: send_turn_pushes.delay(game_id=game_id, phase_key=phase_key, seat_ids=list(seat_ids)))


def turn_pushes_send(*, game_id: int, phase_key: str, seat_ids: list[int], now: datetime | None = None) -> int:
    """Push "your turn" to each seat still asked in that phase; returns how many pushes went out.

    Not for a seat that has acted since, a muted game, a game the player has open right now
    (``presence``), an absent player of a running game (the timeout rules play for them).
    """
    if not push_enabled():
        return 0
    now = now or timezone.now()
    turns = (
        Turn.objects.filter(seat_id__in=seat_ids, phase_key=phase_key, seat__game_id=game_id, closed_at__isnull=True)
        .filter(seat__game__status=Game.Status.ACTIVE)
        .select_related("seat__user", "seat__game")
    )
    sent = 0
    for turn in turns:
        seat, game = turn.seat, turn.seat.game
        if not seat.user.is_active or (seat.is_absent and not game.is_paused):
            continue
        if game_muted(user=seat.user, game_id=game.pk):
            continue
        if presence.seen_recently(user_id=seat.user_id, game_id=game.pk, now=now):
            continue
        for subscription in PushSubscription.objects.filter(user_id=seat.user_id):
            sent += _send(subscription, _payload(subscription, turn), ttl=_ttl(game, now), topic=f"game-{game.pk}")
    return sent


def user_pushes_send(*, user_id: int, payload_for, ttl: int, topic: str) -> int:
    """Push to each of a user's devices what ``payload_for(subscription)`` makes (JSON text, in the device's
    language); returns how many went out. For news other than a turn (a rematch's held seat)."""
    if not push_enabled():
        return 0
    return sum(
        _send(subscription, payload_for(subscription), ttl=ttl, topic=topic)
        for subscription in PushSubscription.objects.filter(user_id=user_id)
    )


def _payload(subscription: PushSubscription, turn: Turn) -> str:
    game = turn.seat.game
    with translation.override(subscription.language or settings.LANGUAGE_CODE):
        context = {"game": game, "asked": turn.asked, "user": turn.seat.user}
        title = " ".join(render_to_string("notifications/email/turn_subject.txt", context).split())
        body = " ".join(render_to_string(game.game_kind.templates.asked, context).split())
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


def _send(subscription: PushSubscription, payload: str, *, ttl: int, topic: str) -> int:
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=payload,
            vapid_private_key=settings.FABULA_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.FABULA_VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=ttl,
            # RFC 8030: a newer push of the same topic replaces one still waiting at the push service.
            headers={"Topic": topic, "Urgency": "high"},
            timeout=SEND_TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            # The browser dropped the subscription (the person revoked the permission, say).
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            log.info("push subscription %s is gone (%s): forgotten", subscription.pk, status)
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, status or error)
        return 0
    except Exception:
        log.exception("push to subscription %s failed", subscription.pk)
        return 0
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return 1
