"""Reads on accounts."""

from .models import ApiToken


def tokens_for_user(*, user):
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")
