"""The signed-in user of a request, from the cache.

Every request of a signed-in person loads their user (``AuthenticationMiddleware``):
with Django's ``ModelBackend`` that is a query, built and compiled anew each time.
Here the user comes from the cache, and is read from the database only when the cache
does not have it (or is unreachable). A user saved or deleted is dropped from the cache
at once (``post_save``, ``post_delete``); an entry lives ``USER_CACHE_SECONDS`` at most,
for changes made without a save (``QuerySet.update``).
"""

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)

USER_CACHE_SECONDS = 300


def user_cache_key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedModelBackend(ModelBackend):
    def get_user(self, user_id):
        key = user_cache_key(user_id)
        try:
            user = cache.get(key)
        except Exception:  # the cache is down: the database answers
            logger.warning("The cache is unreachable: users are read from the database.", exc_info=True)
            return super().get_user(user_id)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                try:
                    cache.set(key, user, USER_CACHE_SECONDS)
                except Exception:
                    logger.warning("The cache is unreachable: a user is not kept.", exc_info=True)
            return user
        return user if self.user_can_authenticate(user) else None


def forget_user(sender, instance, **kwargs) -> None:
    try:
        cache.delete(user_cache_key(instance.pk))
    except Exception:
        logger.warning("The cache is unreachable: a changed user may be read stale for a while.", exc_info=True)


def connect() -> None:
    User = get_user_model()
    post_save.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.save")
    post_delete.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.delete")
