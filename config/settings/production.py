"""Production: PostgreSQL, Redis, SMTP, HTTPS. Everything comes from the environment."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403
from .base import env

# What production cannot run without, none of it defaulted: base.py would fall back to the
# embedded default's (a known secret key, SQLite, a per-process channel layer, mail printed).
# Every missing one is named at once, so one failed start tells the whole story.
REQUIRED = {
    "DJANGO_SECRET_KEY": "a long random string (openssl rand -hex 32)",
    "DJANGO_ALLOWED_HOSTS": "the site's host names, comma-separated (games.example.org)",
    "DATABASE_URL": "postgres://user:password@host:5432/name",
    "REDIS_URL": "redis://host:6379/0 (live updates across processes, cache, rates)",
    "EMAIL_URL": "smtp://user:password@host:25, smtp+tls://...:587 (or DJANGO_EMAIL_BACKEND)",
}
_missing = [
    name
    for name in REQUIRED
    if not env.str(name, default="").strip()
    and not (name == "EMAIL_URL" and env.str("DJANGO_EMAIL_BACKEND", default="").strip())
]
if _missing:
    raise ImproperlyConfigured(
        "Production settings (config.settings.production) need these environment variables, unset or empty: "
        + "; ".join(f"{name} ({REQUIRED[name]})" for name in _missing)
    )

DEBUG = False
SECRET_KEY = env.str("DJANGO_SECRET_KEY")
# Web Push keys from the environment only, never the data folder's pair (base.py); none: no push.
FABULA_VAPID_PUBLIC_KEY = env.str("FABULA_VAPID_PUBLIC_KEY", default="")
FABULA_VAPID_PRIVATE_KEY = env.str("FABULA_VAPID_PRIVATE_KEY", default="")
if bool(FABULA_VAPID_PUBLIC_KEY.strip()) != bool(FABULA_VAPID_PRIVATE_KEY.strip()):
    raise ImproperlyConfigured(
        "Set both FABULA_VAPID_PUBLIC_KEY and FABULA_VAPID_PRIVATE_KEY (manage.py vapid_keys prints a pair), or neither"
    )
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
# Email as base.py reads it: EMAIL_URL, or DJANGO_EMAIL_BACKEND alone (README, "Security").
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "protected": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Uploaded files (card pictures, drawn and sung clues) in S3-compatible storage (AWS S3, MinIO...)
# when a bucket is named: every web process sees the same files (README, "Media storage"). The
# bucket stays private: card pictures go out as signed URLs, clue media only through the media door
# (games.media), to those who may see the game, as a redirect to a URL signed for a short while.
if env.str("AWS_STORAGE_BUCKET_NAME", default="").strip():
    S3_OPTIONS = {
        "bucket_name": env.str("AWS_STORAGE_BUCKET_NAME"),
        "endpoint_url": env.str("AWS_S3_ENDPOINT_URL", default="") or None,
        "region_name": env.str("AWS_S3_REGION_NAME", default="") or None,
        "access_key": env.str("AWS_ACCESS_KEY_ID", default="") or None,
        "secret_key": env.str("AWS_SECRET_ACCESS_KEY", default="") or None,
        # MinIO and most S3-compatible servers want path-style addresses.
        "addressing_style": env.str("AWS_S3_ADDRESSING_STYLE", default="path"),
        "default_acl": "private",
        "querystring_auth": True,
        # Signed card URLs may sit in a cached view for a while: a week, the longest S3 signs.
        "querystring_expire": env.int("AWS_QUERYSTRING_EXPIRE", default=7 * 24 * 3600),
        "file_overwrite": False,
    }
    STORAGES["default"] = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": S3_OPTIONS}
    # The same bucket; a URL signed for the door's redirect lives a minute: it is asked for on each view,
    # right before it is used, and a copied one is soon worth nothing.
    STORAGES["protected"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {**S3_OPTIONS, "querystring_expire": env.int("AWS_PROTECTED_QUERYSTRING_EXPIRE", default=60)},
    }
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
