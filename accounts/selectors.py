"""Reads on accounts."""

from .models import ApiToken, User
from .names import name_key


def tokens_for_user(*, user):
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")


def name_taken(*, name: str, user=None) -> bool:
    """Whether another player's shown name is ``name``, or looks the same (accounts.names)."""
    others = User.objects.filter(name_key=name_key(name))
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()
