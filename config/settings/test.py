"""Test settings: the embedded default, unless DATABASE_URL / REDIS_URL say otherwise."""

import os

# On a Redis the pytest-xdist workers share, each worker's keys (cache, channels, Celery queues) are its own, as two
# sites' are (FABULA_REDIS_KEY_PREFIX, config.settings.base). Set here, before the settings read it, and so inherited by
# every site the worker's tests start on the production settings: one worker's Celery worker had taken another's bot
# turn, found no such game in its own database, and that game never moved (games/tests/live/test_processes.py).
os.environ.setdefault("FABULA_REDIS_KEY_PREFIX", f"test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}:")

from .base import *  # noqa: F401,F403,E402
from .base import CACHES, CHANNEL_LAYERS, DATABASES, INSTALLED_APPS, VAR_DIR  # noqa: E402

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
# No time bank unless a test asks for one (issue 38): a missed deadline moves the game on at once.
FABULA_TIME_BANK_HOURS_DEFAULT = 0
FABULA_BOTS_WAIT = False  # bots play their turns at once, not after a human-like delay (bots.scheduling)
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
# Push is off unless a test turns it on (notifications/tests): not the data folder's key pair.
FABULA_VAPID_PUBLIC_KEY = os.environ.get("FABULA_VAPID_PUBLIC_KEY", "")
FABULA_VAPID_PRIVATE_KEY = os.environ.get("FABULA_VAPID_PRIVATE_KEY", "")
MEDIA_ROOT = VAR_DIR / "test-media"
# A third kind of game that lives only in the tests: it proves the game-kind seam.
INSTALLED_APPS = [*INSTALLED_APPS, "games.tests.odd_one_out"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory: browser tests run a real server in another thread or process.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
elif "pool" in DATABASES["default"].get("OPTIONS", {}):
    # A request that finds the pool empty gives up soon (games/tests/test_busy.py waits for it).
    DATABASES["default"]["OPTIONS"]["pool"]["timeout"] = 2.0
# Browser tests sign many people up from 127.0.0.1 through one long-lived server; the
# throttle's own tests set the rates they test (accounts/tests/test_throttle.py).
FABULA_ACCOUNT_RATES = {"signup-address": "10000/h", "signup-account": "10000/h"}
# Each pytest-xdist worker has a database of its own, and ids repeat across them: in a
# cache they share (Redis), each keeps its keys apart (a signed-in user, a rate count).
CACHES["default"]["KEY_PREFIX"] = os.environ.get("PYTEST_XDIST_WORKER", "main")
# The same for the embedded default's channel layer: a game's group in one worker's database is not
# another's (the servers a worker starts inherit its PYTEST_XDIST_WORKER and listen beside it).
if CHANNEL_LAYERS["default"]["BACKEND"] == "infrastructure.layers.LocalSocketChannelLayer":
    CHANNEL_LAYERS["default"]["CONFIG"]["folder"] = (
        VAR_DIR / "live-test" / os.environ.get("PYTEST_XDIST_WORKER", "main")
    )
# On Redis, whose channels every worker shares, the key prefix above keeps one worker's lobby from another's.
# Request counts in this process's memory, cleared before each test (conftest.py): ids and tokens
# repeat across tests, and a count must not carry over into the next test.
CACHES["rates"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fabula-test-rates"}
