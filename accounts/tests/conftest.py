import uuid

import pytest


@pytest.fixture(autouse=True)
def fresh_rate_counts(settings):
    """Each test counts sign-ups and resets in a cache of its own."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"accounts-{uuid.uuid4().hex}",
        },
    }
