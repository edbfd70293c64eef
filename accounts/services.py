"""Writes on accounts: API tokens, the export and the deletion of an account."""

import hashlib
import logging
import secrets
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from infrastructure.raw_sql import raw_sql

from .backends import CachedModelBackend
from .models import DELETED_USERNAME_PREFIX, ApiToken, User
from .signals import account_deleting, account_shown_changed, personal_data

logger = logging.getLogger(__name__)

TOKEN_PREFIX = "fab_"
TOKEN_MAX_LENGTH = 200
# A token's last use is written at most this often, not on every request.
LAST_USED_PRECISION = timedelta(minutes=1)
# Live tokens one account may hold at once (its rates count all of them together anyway: games.api.limits).
TOKENS_MAX = 10


class TokenLimitReached(Exception):
    """The account holds ``TOKENS_MAX`` tokens already: one must be revoked before another is made."""

    def __init__(self):
        self.message = ngettext(
            "You have %(count)d API tokens, the most an account may hold: revoke one you no longer use first.",
            "You have %(count)d API tokens, the most an account may hold: revoke one you no longer use first.",
            TOKENS_MAX,
        ) % {"count": TOKENS_MAX}
        super().__init__(self.message)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()


def token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Make a token for ``user``; returns it and its secret, which is never stored and shown only now.

    Raises ``TokenLimitReached`` when the account holds ``TOKENS_MAX`` already (counted under the user row's
    lock, so that two requests at once cannot both make the last one)."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
        if ApiToken.objects.filter(user_id=user.pk).count() >= TOKENS_MAX:
            raise TokenLimitReached
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


@raw_sql(
    lambda sql, key_hash: sql.select(ApiToken, where=f"{sql.column(ApiToken, 'key_hash')} = %s", params=[key_hash]),
    model=ApiToken,
    related=["user"],
)
def _token(key_hash: str):
    """The token with this hash (at most one: the hash is unique), its user read with it; the API's every request
    asks it, so its SQL is written once."""
    return ApiToken.objects.filter(key_hash=key_hash).select_related("user")


def token_authenticate(*, raw: str, now=None) -> ApiToken | None:
    """The live token with this secret, its user loaded, or None (no such token, or its user inactive).

    One statement: the token and its user as the database has them now, so that a revoked token, or a user made
    inactive or deleted, is refused at the very next request in every process (nothing of it is kept between
    requests), with no read of the users' cache besides."""
    if not isinstance(raw, str) or not raw or len(raw) > TOKEN_MAX_LENGTH:
        return None
    token = next(iter(_token(token_hash(raw))), None)
    if token is None or not CachedModelBackend().user_can_authenticate(token.user):
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


# --- a person's own data ------------------------------------------------------------


def account_export(*, user, now=None) -> dict:
    """Everything Fabula keeps about ``user``, for them to download (JSON-ready).

    The account's own fields here; every other app adds its sections through
    ``signals.personal_data`` (games and seats, moves, notifications, email settings).
    """
    now = now or timezone.now()
    data: dict[str, Any] = {
        "exported_at": now.isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "display_name": user.display_name,
            "colour": user.colour,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "api_tokens": [
            {
                "name": token.name,
                "starts_with": token.prefix,
                "created_at": token.created_at.isoformat(),
                "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
            }
            for token in ApiToken.objects.filter(user=user).order_by("created_at", "pk")
        ],
    }
    # django-stubs types send()'s answers str | None; they are what the receivers return (here dicts).
    for _receiver, sections in personal_data.send(sender=User, user=user):
        data.update(sections or {})  # type: ignore[arg-type]
    return data


def account_delete(*, user, now=None) -> None:
    """Delete ``user``'s account: everything personal goes; their part in others' history stays.

    The row stays, emptied (no username, email, name or password a person could be
    found by), so that the seats of finished games still have a player, shown as
    "deleted player". Before that, the other apps let go (``signals.account_deleting``):
    games not started are left, games in play resigned, notifications and email
    settings deleted. Then API tokens and every session of the account go. Once the row is
    emptied, in the same transaction, ``signals.account_shown_changed``: every game the account sat
    in moves on its version, so no process serves a board, an API view or a replay cached with the
    old name.
    """
    now = now or timezone.now()
    User.objects.filter(pk=user.pk).update(is_active=False)
    account_deleting.send(sender=User, user=user, now=now)
    with transaction.atomic():
        ApiToken.objects.filter(user=user).delete()
        user.username = f"{DELETED_USERNAME_PREFIX}{user.pk}"
        user.email = ""
        user.first_name = ""
        user.last_name = ""
        user.display_name = ""
        user.last_login = None
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.deleted_at = now
        user.set_unusable_password()  # every session of the account fails its check from now on
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        account_shown_changed.send(sender=User, user=user)
    sessions_delete(user=user)


def profile_save(*, form) -> User:
    """Save a valid ``ProfileForm``; if the shown name or colour changed, every game of the account moves
    on its version (``signals.account_shown_changed``), so the boards show the new one at once."""
    shown = ("display_name", "colour")
    with transaction.atomic():
        user = form.save()
        if set(form.changed_data) & set(shown):
            account_shown_changed.send(sender=User, user=user)
    return user


def sessions_delete(*, user) -> int:
    """Delete the stored sessions of ``user``; how many.

    A session engine that keeps sessions in the database is searched; one that keeps
    them elsewhere (a cache) cannot be, but each of its sessions of the account was
    made with the old password hash and is flushed at its next request.
    """
    engine = import_module(settings.SESSION_ENGINE)
    store_class = engine.SessionStore
    if not hasattr(store_class, "get_model_class"):
        return 0
    deleted = 0
    for session in store_class.get_model_class().objects.filter(expire_date__gt=timezone.now()).iterator():
        data = store_class().decode(session.session_data)
        if str(data.get(SESSION_KEY)) == str(user.pk):
            store_class(session_key=session.session_key).delete()
            deleted += 1
    return deleted
