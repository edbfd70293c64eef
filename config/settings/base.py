"""Settings, read from the environment in one place.

With no environment at all, the site runs on the embedded default: SQLite,
an in-memory channel layer and a Celery broker that needs no server. Set
DATABASE_URL and REDIS_URL to run on PostgreSQL and Redis.
"""

import importlib
import importlib.util
import json
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("FABULA_VAR_DIR", default=str(BASE_DIR / "var")))

# The embedded default keeps its database, queue and uploads here.
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
if (BASE_DIR / ".env").exists():
    env.read_env(BASE_DIR / ".env", overwrite=False)

# Off unless asked for (FABULA_DEBUG=1): with it on, an unknown URL lists every URL pattern
# and an error shows settings and code; off, the site's own 404 and 500 pages answer.
DEBUG = env.bool("FABULA_DEBUG", default=False)
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY",
    default="embedded-default-not-secret-0f3c9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f",
)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# Where emails link to: the site's address as people reach it. By default the one bin/run prints (it exports
# HOST and PORT to the processes it starts, the worker and beat that send the emails included).
SITE_URL = env.str(
    "FABULA_SITE_URL", default=f"http://{env.str('HOST', default='127.0.0.1')}:{env.int('PORT', default=8000)}"
).rstrip("/")
# Origins besides the site's own (its scheme, host and port) whose pages may open the live sockets, exactly
# (infrastructure/origins.py): "https://games.example.org,http://127.0.0.1:8000". None by default.
FABULA_SOCKET_ORIGINS = env.list("FABULA_SOCKET_ORIGINS", default=[])
# Where the admin sits (config/urls.py): a path of its own makes it harder to find and guess at.
FABULA_ADMIN_PATH = env.str("FABULA_ADMIN_PATH", default="admin/").strip("/") + "/"
if FABULA_ADMIN_PATH == "/":
    raise ImproperlyConfigured("FABULA_ADMIN_PATH must name a path, such as 'admin/'.")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "ninja",  # serves the API docs page from its own static files, not a CDN
    "axes",  # log-in lockouts (accounts.throttle)
    "accounts",
    "games",
    "stats",
    "notifications",
    "chat",  # table talk beside a game
    "bots",  # bots that fill empty seats
    "outbox",  # every task queued after a commit, kept until the broker takes it
    # The games come last: GAME_KIND_APPS, below.
]

# API routers of apps beside the games core, added after the core's own (dotted paths):
# the core does not import these apps.
FABULA_API_ROUTERS = [
    "chat.api.router",
    "bots.api.router",
    "notifications.api.router",
    "notifications.me_api.router",
    "stats.api.router",
]

# The games: each an app that registers its kind with games.kinds, listed in pyproject.toml's
# [tool.fabula] game-apps (so that the wiring names no kind: a new kind is its folder and a line
# there). An app's ``conf.py``, where it has one, gives its own settings from the same environment
# (``settings(env)``: FABULA_* names, its routes' body limits among them).
with (BASE_DIR / "pyproject.toml").open("rb") as project:
    GAME_KIND_APPS: list[str] = tomllib.load(project)["tool"]["fabula"]["game-apps"]
INSTALLED_APPS += GAME_KIND_APPS
_KIND_BODY_LIMITS: dict[str, int] = {}
for _app in GAME_KIND_APPS:
    if importlib.util.find_spec(f"{_app}.conf") is not None:
        _kind_settings = importlib.import_module(f"{_app}.conf").settings(env)
        _KIND_BODY_LIMITS.update(_kind_settings.pop("FABULA_BODY_LIMITS", {}))
        globals().update(_kind_settings)

# The kind of game a new game is when none is chosen (the API's default too): a kind's slug, or
# empty for the first kind registered (games.kinds.default_slug).
FABULA_DEFAULT_KIND = env.str("FABULA_DEFAULT_KIND", default="")

MIDDLEWARE = [
    "accounts.network.TrustedProxyMiddleware",  # first: the client's address behind a trusted proxy
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy (django-csp): a nonce per response that uses one; a JSON answer's built once
    "infrastructure.csp.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's sessions, signed-in user and messages, as they are; passed by a request to the API with a token,
    # which is the token's and never a session's (games.api.middleware.ForPagesOnly)
    "games.api.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "games.api.middleware.AuthenticationMiddleware",
    "accounts.middleware.TimeZoneMiddleware",  # every time on the pages in the viewer's zone (issue 38)
    "games.api.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The API's 405 and 415 in its error format (before its views, after the CSRF check as any view)
    "games.api.middleware.ApiGuardMiddleware",
    "axes.middleware.AxesMiddleware",  # last: a locked-out log-in answers 429
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'fabula.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server, the worker and beat read while one writes;
    # IMMEDIATE takes the write lock at BEGIN, so a transaction that will write
    # serialises like select_for_update does on PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif env.bool("DATABASE_POOL", default=True):
    # A pool per process (psycopg's, through Django): a request borrows a connection
    # and gives it back, so a burst of requests queues for DATABASE_POOL_MAX of them
    # instead of opening one per thread until the server has no more to give. One
    # that waits longer than DATABASE_POOL_TIMEOUT seconds is answered 503 with
    # Retry-After (games.busy), never 500. Size it so that processes x max stays
    # under PostgreSQL's max_connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", default=2),
        "max_size": env.int("DATABASE_POOL_MAX", default=20),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Threads of one web process that run requests at once (infrastructure.handlers): more wait.
# Keep it at or above DATABASE_POOL_MAX, so that the pool, not the threads, says "busy".
FABULA_WEB_THREADS = env.int("FABULA_WEB_THREADS", default=max(20, env.int("DATABASE_POOL_MAX", default=20)))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web threads live on (infrastructure.handlers), and each keeps its SQLite connection.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=600))
# How long a client told "busy" (503) should wait before it tries again, in seconds.
FABULA_BUSY_RETRY_AFTER = env.int("FABULA_BUSY_RETRY_AFTER", default=2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:mine"
LOGOUT_REDIRECT_URL = "home"

# --- Getting in: trusted proxies, log-in lockouts, sign-up and reset rates (accounts.throttle) ---
# How many reverse proxies stand in front of the site: the client's address is taken from
# X-Forwarded-For only when this is set (accounts.network); 0 uses the connection's address.
FABULA_TRUSTED_PROXIES = env.int("FABULA_TRUSTED_PROXIES", default=0)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out log-in before the password is checked
    "accounts.backends.CachedModelBackend",  # the signed-in user from the cache, not a query per request
    # Sessions made before the cached backend name this one: they stay signed in.
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env.bool("FABULA_LOGIN_LOCKOUT", default=True)
# So many failed log-ins for one account from one address lock that account out at that address for
# the cool-off. Counted per pair (axes' combination), so that one shared address (a school, a café)
# cannot lock out everyone behind it; an account's failures from every address together have a
# higher limit of their own (accounts.throttle, "login-account" in FABULA_ACCOUNT_RATES).
AXES_FAILURE_LIMIT = env.int("FABULA_LOGIN_FAILURE_LIMIT", default=20)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("FABULA_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_DISABLE_ACCESS_LOG = True  # failures are kept while they count; successful log-ins are not logged
AXES_USERNAME_CALLABLE = "accounts.throttle.login_username"
AXES_CLIENT_IP_CALLABLE = "accounts.network.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
# Sign-up and password reset: "count/period" per scope, over accounts.throttle.DEFAULT_RATES.
FABULA_ACCOUNT_RATES = env.dict("FABULA_ACCOUNT_RATES", default={})
# The API's rates per scope, over games.api.limits.DEFAULT_RATES: "accounts=20/3600,tokens=10/60" (requests per
# seconds). A site for a benchmark or a hostile-input run signs up more accounts from one address than people do.
FABULA_API_RATES = {
    scope: (int(count), int(seconds))
    for scope, value in env.dict("FABULA_API_RATES", default={}).items()
    for count, seconds in [value.split("/", 1)]
}
RATELIMIT_FAIL_OPEN = True

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("da", _("Danish")),
    ("fi", _("Finnish")),
    ("sv", _("Swedish")),
    ("nb", _("Norwegian")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env.str("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "static")))
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env.str("DJANGO_MEDIA_ROOT", default=str(VAR_DIR / "media")))
# Nothing under MEDIA_ROOT is served by its path: a kind serves its pictures through a view of its own
# (GameKind.url_patterns), uploads that are not for everyone through the media door
# (games.media) to those who may see them.
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Files served only through the media door (drawn and sung clues): the same place as "default" here.
    "protected": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # collectstatic also writes a gzipped copy of every text file, which whitenoise sends to a browser that takes
    # it: a phone's game page loads 110 KB less (Lighthouse's performance, issue 39). Without the hashed names of
    # production's CompressedManifestStaticFilesStorage, so nothing needs a manifest to run.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Email, one rule: EMAIL_URL says where mail goes (smtp://user:password@host:25, smtp+tls://...:587,
# smtps://, consolemail:// to print it, dummymail:// to drop it); DJANGO_EMAIL_BACKEND instead names a
# backend class that has no URL scheme. Setting both is refused, not silently settled. Neither:
# printed to the console (production requires one: config.settings.production).
if env.str("EMAIL_URL", default="") and env.str("DJANGO_EMAIL_BACKEND", default=""):
    raise ImproperlyConfigured(
        "Set EMAIL_URL or DJANGO_EMAIL_BACKEND, not both: EMAIL_URL names the backend by its scheme."
    )
if env.str("EMAIL_URL", default=""):
    vars().update({key: value for key, value in env.email_url("EMAIL_URL").items() if value not in (None, "")})
else:
    EMAIL_BACKEND = env.str("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="Fabula <noreply@fabula.localhost>")

REDIS_URL = env.str("REDIS_URL", default="")
# Keeps this site's keys apart from another's on the same Redis (a second site, or the tests' parallel workers):
# prepended to the channel layer's channels, the cache's keys and the Celery broker's queues. Empty: none.
FABULA_REDIS_KEY_PREFIX = env.str("FABULA_REDIS_KEY_PREFIX", default="")
# The embedded default's channel layer: where each process with open pages listens (infrastructure.layers).
# A Unix socket's path is at most 107 bytes: keep this folder's path short.
FABULA_LIVE_SOCKETS = Path(env.str("FABULA_LIVE_SOCKETS", default=str(VAR_DIR / "live")))
if REDIS_URL:
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            # Redis's pub/sub: a group message is one PUBLISH, heard by the processes whose pages
            # joined the group (channels_redis.core's layer spent three round trips a group and
            # a sorted set per group; measured in the README, "Benchmark: live latency"). What
            # it gives up is nothing we use: a message to a page that is not listening is not
            # kept for it (a page catches up by fetching when it connects and on its timer).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Generous read timeouts: the layer's listener reads for 0.1 s at a time and a slow
            # Redis must not end an idle page's socket.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 2}],
                "prefix": f"{FABULA_REDIS_KEY_PREFIX}asgi",  # channels_redis's own default, "asgi", after ours
            },
        }
    }
    # Redis may go away: infrastructure.resilience's backend then answers as an empty cache (sessions and
    # users read from the database, rates not counted), counted on /healthz, instead of failing
    # the request. Short socket timeouts: a Redis that hangs must not hold a request for long.
    CACHES = {
        "default": {
            "BACKEND": "infrastructure.resilience.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 2},
            "KEY_PREFIX": FABULA_REDIS_KEY_PREFIX,
        }
    }
else:
    # Channels' in-memory layer (its walk over every socket's queue throttled), crossing processes over
    # Unix datagram sockets in FABULA_LIVE_SOCKETS: what the Celery worker, beat's tasks or a management
    # command publish reaches the web server's pages at once (infrastructure.layers, docs/operating/live.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "infrastructure.layers.LocalSocketChannelLayer",
            "CONFIG": {"folder": FABULA_LIVE_SOCKETS},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            # Sessions and signed-in users live here too: past the default 300 entries every
            # write would list the folder and cull a third of it.
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }

# The API's and the table talk's request counts (games.api.limits), bumped on every API request.
# With Redis, in the shared cache: every process counts together. On the embedded default, in
# the web process's own memory: bin/run serves it from one process, and the file cache wrote a
# file and renamed it into place for each count (a fifth of a cached API view's CPU).
CACHES["rates"] = (
    CACHES["default"]
    if CACHES["default"]["BACKEND"] != "django.core.cache.backends.filebased.FileBasedCache"
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fabula-rates"}
)
# Each process's own memory, whatever the other caches are: the boards and API views
# rendered per viewer and game version (games.pages), reused until the version moves.
# Small, hot, and cheaper to render again in another process than to fetch over the
# network; nothing in it must outlive a restart.
CACHES["views"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fabula-views",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": env.int("FABULA_VIEW_CACHE_ENTRIES", default=4000)},
}
# The caches each process keeps in its own memory besides (infrastructure/caches.py: bounded, least recently used
# out first, all emptied by infrastructure.caches.reset_process_caches). Entries, and seconds an entry is good for:
# - the games read lately with their seats, by id and version (games.selectors.games.recent_games);
FABULA_RECENT_GAMES_ENTRIES = env.int("FABULA_RECENT_GAMES_ENTRIES", default=512)
FABULA_RECENT_GAMES_TTL_SECONDS = env.float("FABULA_RECENT_GAMES_TTL_SECONDS", default=30.0)
# - a card's picture tag, by card, language and look (games.templatetags.fabula.card_picture);
FABULA_CARD_PICTURES_ENTRIES = env.int("FABULA_CARD_PICTURES_ENTRIES", default=4096)
# - a player's avatar drawings and a table's letters (accounts.avatars), each.
FABULA_AVATAR_ENTRIES = env.int("FABULA_AVATAR_ENTRIES", default=2048)
# Sessions read from the cache (written through to the database, so a flushed cache
# signs nobody out): no session query on each request.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Celery: a worker and one beat (bin/run starts both) on a broker. Redis when one is configured;
# on the embedded default, the file system (infrastructure.undocumented.file_broker, "fabulafs://": kombu's transport
# with each message written under a temporary name and renamed into place whole), which
# needs no server. Every periodic task works from columns (deadlines, due emails), so a
# message a killed worker took with it costs only a delay: beat's next run finds the same
# rows due (README, "Faults").
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL) or "fabulafs://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# A task is taken off the queue only once it has run: a worker killed in the middle of one
# (SIGKILL, a lost host) leaves it unacknowledged, and Redis hands it out again after the
# visibility timeout. Every task is idempotent (a deadline checks the version it expires).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
if CELERY_BROKER_URL == "fabulafs://":
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(VAR_DIR / "celery-queue"),
        "data_folder_out": str(VAR_DIR / "celery-queue"),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "store_processed": False,
        # Broadcasts (worker control) go here too, not into the working directory.
        "control_folder": str(VAR_DIR / "celery-control"),
        "polling_interval": env.float("FABULA_BROKER_POLL_SECONDS", default=0.25),
    }
    for _folder in ("celery-queue", "celery-processed", "celery-control"):
        (VAR_DIR / _folder).mkdir(exist_ok=True)
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Longer than any task runs (a nightly statistics rebuild included), or it would run twice.
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=900),
        # A send whose connection is refused fails at once (kombu's default tries again for some 6 s): a task
        # queued after a commit then waits in its row for the sweep (outbox.services), and the request that
        # queued it does not wait. A worker's own connection keeps Celery's retries (broker_connection_*).
        "max_retries": 0,
    }
    if FABULA_REDIS_KEY_PREFIX and CELERY_BROKER_URL.startswith(("redis:", "rediss:")):  # kombu's Redis transport
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = FABULA_REDIS_KEY_PREFIX
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Pushes wait on push services out on the internet: a queue of their own ("push"), consumed by a
# worker of its own (bin/run, docker-compose.yml), so deadlines and bots (the default queue)
# never wait behind a slow push service.
# Every task a change queues goes through outbox.services.task_queue: a row written in the change's
# transaction, sent after the commit; one the broker did not take (down) is sent by beat's sweep every
# FABULA_OUTBOX_SWEEP_SECONDS once it is older than FABULA_OUTBOX_GRACE_SECONDS. After a failed send the
# broker is left alone for FABULA_OUTBOX_BREAKER_SECONDS (the rows wait): no request waits on it meanwhile.
FABULA_OUTBOX_SWEEP_SECONDS = env.float("FABULA_OUTBOX_SWEEP_SECONDS", default=5.0)
FABULA_OUTBOX_GRACE_SECONDS = env.float("FABULA_OUTBOX_GRACE_SECONDS", default=10.0)
FABULA_OUTBOX_BREAKER_SECONDS = env.float("FABULA_OUTBOX_BREAKER_SECONDS", default=5.0)
CELERY_TASK_ROUTES = {
    "notifications.send_turn_pushes": {"queue": "push"},
    "notifications.send_rematch_invitations": {"queue": "push"},  # an email and pushes: the same waits
    "notifications.send_due_notices": {"queue": "push"},  # held pushes, nudges: emails and pushes
}

# Game pace: seconds per phase. Live games use the short one; asynchronous
# games let the creator pick from the range.
# A player's rating reads "provisional" until they have finished this many rated games of a kind.
FABULA_RATING_PROVISIONAL_GAMES = env.int("FABULA_RATING_PROVISIONAL_GAMES", default=10)
FABULA_LIVE_PHASE_SECONDS = env.int("FABULA_LIVE_PHASE_SECONDS", default=90)
FABULA_ASYNC_PHASE_CHOICES_HOURS = [1, 4, 12, 24, 48, 72]
FABULA_EXPIRY_INTERVAL_SECONDS = env.float("FABULA_EXPIRY_INTERVAL_SECONDS", default=5.0)
# "Play again": how long a rematch holds a seat for each player of the old table (games.services.games).
FABULA_REMATCH_HOLD_SECONDS = env.int("FABULA_REMATCH_HOLD_SECONDS", default=48 * 3600)
# Across weeks (issue 38). A player sits in at most this many asynchronous games at once (open or in play):
# another create or join is 409 "too_many_games" (games.services.admission).
FABULA_ASYNC_GAMES_MAX = env.int("FABULA_ASYNC_GAMES_MAX", default=50)
# Each player's time bank in an asynchronous game when its creator does not choose one (0-72 hours).
FABULA_TIME_BANK_HOURS_DEFAULT = env.int("FABULA_TIME_BANK_HOURS_DEFAULT", default=24)
# A game paused for too few players present ends as abandoned after this long unless someone acts; the table is
# told a day before (games.services.weeks.paused_games_sweep).
FABULA_PAUSED_GAME_ENDS_SECONDS = env.int("FABULA_PAUSED_GAME_ENDS_SECONDS", default=7 * 24 * 3600)
# Beat: due phases expire (games.tasks), turn emails and reminders go out
# (notifications.emails). Both work from columns, so a missed run costs only delay.
CELERY_BEAT_SCHEDULE = {
    "expire-due-games": {"task": "games.expire_due_games", "schedule": FABULA_EXPIRY_INTERVAL_SECONDS},
    "send-due-emails": {
        "task": "notifications.send_due_emails",
        "schedule": env.float("FABULA_EMAIL_INTERVAL_SECONDS", default=30.0),
    },
    # Pushes held by quiet hours, nudges and other notices (notifications.notices); the daily letters
    # (notifications.letters), due at each person's chosen hour.
    "send-due-notices": {
        "task": "notifications.send_due_notices",
        "schedule": env.float("FABULA_NOTICE_INTERVAL_SECONDS", default=30.0),
    },
    "send-due-letters": {
        "task": "notifications.send_due_letters",
        "schedule": env.float("FABULA_LETTER_INTERVAL_SECONDS", default=300.0),
    },
    # Statistics: records, ratings and leaderboards derived again from the games, nightly
    # (stats.tasks); finished games are added one by one as they end.
    "stats-rebuild": {"task": "stats.rebuild", "schedule": crontab(hour=3, minute=30)},
    # The tasks queued after a commit that the broker did not take then (outbox.services).
    "outbox-sweep": {"task": "outbox.sweep", "schedule": FABULA_OUTBOX_SWEEP_SECONDS},
}

# Web Push (notifications.push): "your turn" on a device's lock screen. Off while the keys are
# unset; `manage.py vapid_keys` prints a fresh pair. The subject is how a push service reaches
# the site's operator (a mailto: or https: URL). With no keys in the environment, the pair in the
# data folder: bin/run makes it on first start (`manage.py vapid_keys --ensure`) and keeps it
# there, so push works out of the box. Production reads the environment only (production.py).
FABULA_VAPID_KEYS_FILE = VAR_DIR / "vapid-keys.json"
FABULA_VAPID_PUBLIC_KEY = env.str("FABULA_VAPID_PUBLIC_KEY", default="")
FABULA_VAPID_PRIVATE_KEY = env.str("FABULA_VAPID_PRIVATE_KEY", default="")
if not (FABULA_VAPID_PUBLIC_KEY or FABULA_VAPID_PRIVATE_KEY) and FABULA_VAPID_KEYS_FILE.exists():
    try:
        _vapid = json.loads(FABULA_VAPID_KEYS_FILE.read_text())
        FABULA_VAPID_PUBLIC_KEY, FABULA_VAPID_PRIVATE_KEY = str(_vapid["public_key"]), str(_vapid["private_key"])
    except (ValueError, KeyError, TypeError) as _error:
        raise ImproperlyConfigured(
            f"{FABULA_VAPID_KEYS_FILE} is not a VAPID key pair ({_error!r}): delete it, and bin/run makes a new one"
        ) from None
FABULA_VAPID_SUBJECT = env.str("FABULA_VAPID_SUBJECT", default="mailto:admin@fabula.localhost")
# Where a device's endpoint may point (notifications.endpoints): the push services browsers use,
# "*." for any subdomain. Chrome and Android: FCM; Firefox: Mozilla's autopush; Safari: Apple's
# web.push.apple.com; Edge on Windows: WNS (wns2-*.notify.windows.com).
FABULA_PUSH_SERVICE_HOSTS = env.list(
    "FABULA_PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "*.push.services.mozilla.com",
        "*.push.apple.com",
        "*.notify.windows.com",
    ],
)
# Devices per account: a new one beyond this replaces the one subscribed longest ago.
FABULA_PUSH_DEVICES_PER_USER = env.int("FABULA_PUSH_DEVICES_PER_USER", default=5)
# A send gives up on a push service after this long: to connect, between two reads, in all.
FABULA_PUSH_CONNECT_SECONDS = env.float("FABULA_PUSH_CONNECT_SECONDS", default=3.0)
FABULA_PUSH_READ_SECONDS = env.float("FABULA_PUSH_READ_SECONDS", default=3.0)
FABULA_PUSH_SEND_SECONDS = env.float("FABULA_PUSH_SEND_SECONDS", default=5.0)
# Tests only, never from the environment: endpoints on 127.0.0.1 (the tests' push services).
FABULA_PUSH_ALLOW_LOOPBACK = False

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
# The address of the page a link was followed from goes to this site only (and not at all
# from HTTPS to HTTP): game and invite URLs stay among the players.
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
# Content-Security-Policy (django-csp): scripts and style elements from this site only, or
# inline with this response's nonce ({{ request.csp_nonce }}); nothing evaluated (htmx runs
# with allowEval off, base.html), no plugins, no framing, forms posted here only. Style
# *attributes* stay allowed: Think Alike places its ring's fields with computed positions,
# and an attribute's CSS cannot run script; a nonce cannot cover attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        # data: and blob: for images and sounds made in the page (a drawn or recorded clue)
        "img-src": [SELF, "data:", "blob:"],
        "media-src": [SELF, "data:", "blob:"],
        "connect-src": [SELF],  # the live socket: 'self' covers ws(s):// to this host
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Permissions-Policy (django-permissions-policy): what the pages may ask the browser for.
# The microphone and autoplay stay with this site (sung clues are recorded and played);
# fullscreen keeps its default (this site). The rest: no one, embedded frames included.
PERMISSIONS_POLICY = {
    "microphone": ["self"],
    "autoplay": ["self"],
    **{
        feature: []
        for feature in (
            "accelerometer", "browsing-topics", "camera", "display-capture", "geolocation",
            "gyroscope", "hid", "idle-detection", "magnetometer", "midi", "payment", "publickey-credentials-get",
            "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
        )
    },
}  # fmt: skip
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Request bodies are read before a request takes a thread, and only so much and so long
# (infrastructure/handlers.py): a larger one is answered 413, a slower one 408, and the connection
# closed. JSON and forms take what Django reads of them (2.5 MB); the routes that take files, by
# URL name, their largest file and room for the form around it (a kind's own, from its conf.py).
# deploy/Caddyfile bounds them the same in production.
FABULA_BODY_MAX_BYTES = env.int("FABULA_BODY_MAX_BYTES", default=DATA_UPLOAD_MAX_MEMORY_SIZE)
# A game kind adds its own routes' limits (its conf.py, above).
FABULA_BODY_LIMITS: dict[str, int] = {**_KIND_BODY_LIMITS}
# No byte for this long, or the whole body not in after that long: 408.
FABULA_BODY_READ_TIMEOUT_SECONDS = env.float("FABULA_BODY_READ_TIMEOUT_SECONDS", default=5.0)
FABULA_BODY_DEADLINE_SECONDS = env.float("FABULA_BODY_DEADLINE_SECONDS", default=60.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
