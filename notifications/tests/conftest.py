import pytest


@pytest.fixture(autouse=True)
def private_cache(settings, request):
    """Presence records in a cache of this test's own: none left over from another run."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid},
    }
