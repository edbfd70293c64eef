import os
import subprocess
import sys

import pytest
from hypothesis import settings as hypothesis_settings

from games.tests.live.server import ROOT, AsgiServer, database_url, free_port

# Hypothesis' per-example deadline is a timed assertion: on a loaded machine (CI runs the
# suite on every core) an example now and then takes longer, and the test fails for it.
hypothesis_settings.register_profile("fabula", deadline=None)
hypothesis_settings.load_profile("fabula")


def pytest_collection_modifyitems(items):
    """Browser tests run last. Playwright's sync API marks its event loop as running in
    the main thread from its first use to the end of the session: no asyncio test
    (pytest-asyncio, WebsocketCommunicator) could start after it.

    Of the browser tests the every-page sweeps go first: each is minutes long, and at the end of the run one
    would keep a worker busy while the other has nothing left (pytest-xdist hands the tests out in this order)."""

    def order(item):
        browser = item.get_closest_marker("browser") is not None
        return (browser, browser and item.get_closest_marker("sweep") is None)

    items.sort(key=order)


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """The games read and views rendered in one test are not another's: ids repeat across tests."""
    from infrastructure.caches import reset_process_caches

    reset_process_caches()


@pytest.fixture(autouse=True)
def _language_ends_with_the_test():
    """A language a test's request activated (Django's test client runs the locale middleware in this thread,
    and nothing deactivates it) is not the next test's: config/tests/test_translations.py left French active,
    and storyteller's alt-text tests that ran after it in the same process read French errors."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _forget_cached_users():
    """The users a test made leave the shared cache of signed-in users (accounts.backends) with it.

    A test rolled back gives its users' ids back (SQLite's sequence rolls back too), and the next test's
    users get them again; the cache, a folder or Redis that the test servers share, does not roll back.
    A later test's server then took a new user for the old one with that id, found the session's password
    hash wrong and signed the browser out (a browser test saw an anonymous page, one run in a few).
    """
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db.models.signals import post_save

    from accounts.backends import user_cache_key

    made = set()

    def note(sender, instance, created, **kwargs):
        if created:
            made.add(instance.pk)

    post_save.connect(note, sender=get_user_model(), weak=False, dispatch_uid="conftest.forget_cached_users")
    yield
    post_save.disconnect(sender=get_user_model(), dispatch_uid="conftest.forget_cached_users")
    if made:
        cache.delete_many([user_cache_key(pk) for pk in made])


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
            # A microphone that plays a tone, allowed without a prompt: the sung clue's recorder.
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
        ],
    }


@pytest.fixture(autouse=True)
def _close_the_test_s_browser_contexts(request):
    """A browser test's own contexts close with it, passed or failed. A page left open keeps its socket
    reconnecting to a server that is gone, its countdowns ticking and its renderer drawing: with the two
    workers' browsers shared by the whole session, dozens of such pages slowed every later test."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    left = [context for context in browser.contexts if context not in before]
    for context in left:
        context.close()


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, tmp_path_factory):
    """A real ASGI server (daphne) on a free port, on the test database: ``.url``, ``.restart()``.

    A test that uses it must commit what the server should see:
    ``@pytest.mark.django_db(transaction=True)``.
    """
    from django.db import connection

    static_root = tmp_path_factory.mktemp("asgi-static")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(connection.settings_dict),
        # The test settings do not DEBUG, so whitenoise serves only what is collected.
        "DJANGO_STATIC_ROOT": str(static_root),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--link", "-v0"], cwd=ROOT, env=env, check=True
    )
    server = AsgiServer(env=env, port=free_port(), log_path=tmp_path_factory.mktemp("asgi-log") / "server.log")
    server.start()
    yield server
    server.stop()


# Marked "slow" here, in one place, so that `bin/test --fast` (-m "not browser and not sweep and not
# slow") leaves them out: the tests that start processes of their own (a real server, Celery workers and
# beat, redis-server, a command) and those that take tens of seconds. Every test that uses the real
# server (``asgi_server``) is slow by that; the rest by module or test id. Measured one process at a
# time (--durations): together some 230 s of 940 s of the suite without a browser.
SLOW_FIXTURES = frozenset({"asgi_server"})
SLOW_TESTS = (
    "games/tests/timeouts/test_kill.py",  # Celery workers killed mid-task; waits out Redis's visibility timeout
    "games/tests/timeouts/test_beat.py",  # a worker and beat as bin/run starts them
    "games/tests/test_migrate_from_old_schema.py",  # an old database migrated to today's schema (45 s)
    "games/tests/live/test_bench.py",  # bench/live_latency.py run against a server
    "infrastructure/tests/test_warm.py",  # a server process started to look inside it
    "config/tests/test_deploy.py",  # manage.py check --deploy in a process of its own
    "think_alike/tests/grouping/test_group_answers_command.py::test_with_the_process_standard_input_and_output",
    # Celery workers started against stalling push services, on each broker (17 s each)
    "notifications/tests/test_tasks.py::test_stalling_push_services_delay_neither_other_pushes_nor_deadlines",
    "outbox/tests/test_broker_down_server.py",  # a server with its broker gone; a worker and beat sweeping (20 s each)
    # 48 megapixels encoded as HEIC (x265, some 10 s); four 7000 x 7000 uploads at once against a real server
    "storyteller/tests/test_picture_decoding.py::test_a_48_megapixel_heic_from_a_phone_becomes_a_card",
    "storyteller/tests/test_picture_decoding.py::test_four_7000_square_webps_at_once_leave_the_web_process_within",
)


def pytest_configure(config):
    missing = [entry for entry in SLOW_TESTS if not (config.rootpath / entry.partition("::")[0]).exists()]
    if missing:
        raise pytest.UsageError(f"conftest.SLOW_TESTS names tests that are not there: {', '.join(missing)}")


def pytest_itemcollected(item):
    fixtures = getattr(item, "fixturenames", ())
    if SLOW_FIXTURES.intersection(fixtures) or item.nodeid.startswith(SLOW_TESTS):
        item.add_marker(pytest.mark.slow)
    # A browser on the real server: its pages hear the changes through the channel layer (Redis on CI's
    # second pass), which a browser on Django's in-process live server does not cross.
    if "asgi_server" in fixtures and item.get_closest_marker("browser") is not None:
        item.add_marker(pytest.mark.live)
