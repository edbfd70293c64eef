import pytest


@pytest.fixture(autouse=True)
def private_cache(settings, request):
    """Presence records in a cache of this test's own: none left over from another run."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid},
    }


@pytest.fixture(autouse=True)
def no_quiet_hours_unless_set():
    """People made by these tests have no quiet hours (the model's default is 23:00-07:00): a test that runs at
    night, on the real clock, sends what it expects. A test of quiet hours sets them on the person it makes."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    def off(sender, instance, created, **kwargs):
        if created:
            sender.objects.filter(pk=instance.pk).update(quiet_hours_start=None, quiet_hours_end=None)
            instance.quiet_hours_start = instance.quiet_hours_end = None

    post_save.connect(off, sender=get_user_model(), dispatch_uid="notifications.tests.no_quiet_hours")
    yield
    post_save.disconnect(sender=get_user_model(), dispatch_uid="notifications.tests.no_quiet_hours")
