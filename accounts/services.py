"""Writes on accounts: API tokens."""

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from .models import ApiToken

TOKEN_PREFIX = "fab_"
TOKEN_MAX_LENGTH = 200
# A token's last use is written at most this often, not on every request.
LAST_USED_PRECISION = timedelta(minutes=1)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()


def token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Make a token for ``user``; returns it and its secret, which is never stored and shown only now."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=(name or "").strip()[:60],
        key_hash=token_hash(raw),
        prefix=raw[: len(TOKEN_PREFIX) + 4],
    )
    return token, raw


def token_revoke(*, user, token_id) -> bool:
    """Delete one of the user's tokens; whether there was one."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def token_authenticate(*, raw: str, now=None) -> ApiToken | None:
    """The live token with this secret (its user loaded), or None."""
    if not isinstance(raw, str) or not raw or len(raw) > TOKEN_MAX_LENGTH:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=token_hash(raw)).first()
    if token is None or not token.user.is_active:
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
