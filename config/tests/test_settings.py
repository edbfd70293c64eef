"""Settings read from the environment: production refuses to start without what it needs, and
email follows one rule (EMAIL_URL, or DJANGO_EMAIL_BACKEND alone, never both)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DJANGO_SECRET_KEY": "a8Zq-3vN!r7Lp0xW_k2Tg9sEy4Hm6Jc1Ud5Bo8Fi3Qn7Vt2Kw0Xe4Ra6Sl9Yp1Mz",
    "DJANGO_ALLOWED_HOSTS": "games.example.org",
    "DATABASE_URL": "postgres://fabula:secret@db.example.org:5432/fabula",
    "REDIS_URL": "redis://redis.example.org:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:pw@mail.example.org:587",
}
SHOWN = ["EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_USE_TLS", "DEBUG"]


def load(module: str, names: list[str] = SHOWN, **environment: str) -> subprocess.CompletedProcess:
    """Import settings ``module`` in a fresh interpreter with only ``environment`` of ours set; print ``names``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "FABULA_", "DATABASE_", "REDIS_URL", "EMAIL_URL", "CELERY_"))
    }
    env.update(environment, FABULA_VAR_DIR=os.environ.get("FABULA_VAR_DIR", str(ROOT / "var")))
    script = (
        "import importlib, json; "
        f"s = importlib.import_module({module!r}); "
        f"print(json.dumps({{name: getattr(s, name, None) for name in {names!r}}}, default=str))"
    )
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_production_starts_with_everything_it_needs():
    result = load("config.settings.production", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    settings = json.loads(result.stdout)
    assert settings == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_USE_TLS": True,
        "DEBUG": False,
    }


@pytest.mark.parametrize("missing", sorted(PRODUCTION))
def test_production_refuses_to_start_without_a_variable_and_names_it(missing):
    environment = {name: value for name, value in PRODUCTION.items() if name != missing}
    result = load("config.settings.production", **environment)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    message = result.stderr.strip().splitlines()[-1]
    assert missing in message
    assert all(name not in message for name in PRODUCTION if name != missing)


def test_production_names_every_missing_variable_at_once():
    result = load("config.settings.production", DJANGO_SECRET_KEY="x" * 50, EMAIL_URL="dummymail://")
    message = result.stderr.strip().splitlines()[-1]
    assert result.returncode != 0
    assert all(name in message for name in ("DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"))
    assert "DJANGO_SECRET_KEY" not in message and "EMAIL_URL" not in message


def test_an_empty_variable_counts_as_missing():
    result = load("config.settings.production", **{**PRODUCTION, "REDIS_URL": " "})
    assert result.returncode != 0 and "REDIS_URL" in result.stderr.strip().splitlines()[-1]


def test_production_takes_a_backend_class_instead_of_an_email_url():
    environment = {name: value for name, value in PRODUCTION.items() if name != "EMAIL_URL"}
    result = load(
        "config.settings.production", **environment, DJANGO_EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["EMAIL_BACKEND"] == "django.core.mail.backends.dummy.EmailBackend"


@pytest.mark.parametrize("module", ["config.settings.base", "config.settings.production"])
def test_email_url_and_a_backend_class_together_are_refused(module):
    """Before, EMAIL_URL silently won over DJANGO_EMAIL_BACKEND."""
    result = load(module, **PRODUCTION, DJANGO_EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend")
    assert result.returncode != 0
    message = result.stderr.strip().splitlines()[-1]
    assert "EMAIL_URL" in message and "DJANGO_EMAIL_BACKEND" in message


def test_the_embedded_default_prints_mail_and_takes_an_email_url():
    printed = load("config.settings.base")
    assert json.loads(printed.stdout)["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    sent = load("config.settings.base", EMAIL_URL="smtp://mail.example.org:2525")
    shown = json.loads(sent.stdout)
    assert (shown["EMAIL_BACKEND"], shown["EMAIL_HOST"], shown["EMAIL_PORT"]) == (
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        2525,
    )


def test_the_api_rates_come_from_the_environment_as_count_per_seconds():
    script = "from config.settings import base; import json; print(json.dumps(base.FABULA_API_RATES))"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("FABULA_API", "DATABASE_"))}

    def rates(**environment):
        run = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env={**env, **environment}, capture_output=True, text=True
        )
        return json.loads(run.stdout.splitlines()[-1])

    assert rates() == {}
    assert rates(FABULA_API_RATES="accounts=1000/3600,tokens=50/60") == {"accounts": [1000, 3600], "tokens": [50, 60]}


def test_a_redis_key_prefix_keeps_the_broker_channels_and_cache_of_one_site_apart():
    """FABULA_REDIS_KEY_PREFIX: two sites (or the tests' parallel workers) on one Redis share no queue, channel or
    cache key; without it, the keys are as they were."""
    names = ["CELERY_BROKER_TRANSPORT_OPTIONS", "CHANNEL_LAYERS", "CACHES"]
    apart = json.loads(
        load("config.settings.base", names, REDIS_URL="redis://r:6379/0", FABULA_REDIS_KEY_PREFIX="site-a:").stdout
    )
    assert apart["CELERY_BROKER_TRANSPORT_OPTIONS"]["global_keyprefix"] == "site-a:"
    assert apart["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "site-a:asgi"
    assert apart["CACHES"]["default"]["KEY_PREFIX"] == "site-a:"
    shared = json.loads(load("config.settings.base", names, REDIS_URL="redis://r:6379/0").stdout)
    assert "global_keyprefix" not in shared["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert shared["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "asgi"
    assert shared["CACHES"]["default"]["KEY_PREFIX"] == ""
