"""Push out of the box (issue 30): ``manage.py vapid_keys --ensure``, which bin/run calls, keeps a key
pair in the data folder, made once; the settings read it when the environment gives no keys;
production reads the environment only."""

import json
import os
import stat
import subprocess
import sys
from io import StringIO
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.core.management import call_command
from py_vapid import Vapid

from notifications.tests.test_push import b64url

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SECRET_KEY": "a8Zq-3vN!r7Lp0xW_k2Tg9sEy4Hm6Jc1Ud5Bo8Fi3Qn7Vt2Kw0Xe4Ra6Sl9Yp1Mz",
    "DJANGO_ALLOWED_HOSTS": "games.example.org",
    "DATABASE_URL": "postgres://fabula:secret@db.example.org:5432/fabula",
    "REDIS_URL": "redis://redis.example.org:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:pw@mail.example.org:587",
}


def ensure(settings, path: Path) -> str:
    settings.FABULA_VAPID_KEYS_FILE = path
    out = StringIO()
    call_command("vapid_keys", "--ensure", stdout=out)
    return out.getvalue()


def signs(public: str, private: str) -> bool:
    signer = Vapid.from_string(private)
    raw = signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(raw) == public


def keys_in(module: str, var_dir: Path, **environment: str) -> subprocess.CompletedProcess:
    """The push keys ``module`` settings hold in a fresh interpreter, with only ``environment`` of ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "FABULA_", "DATABASE_", "REDIS_URL"))}
    env.update(environment, FABULA_VAR_DIR=str(var_dir))
    script = (
        f"import importlib, json; s = importlib.import_module({module!r}); "
        "print(json.dumps([s.FABULA_VAPID_PUBLIC_KEY, s.FABULA_VAPID_PRIVATE_KEY]))"
    )
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_first_start_makes_a_pair_that_signs_readable_by_its_owner_only(settings, tmp_path):
    settings.FABULA_VAPID_PUBLIC_KEY = settings.FABULA_VAPID_PRIVATE_KEY = ""
    path = tmp_path / "data" / "vapid-keys.json"
    assert "made" in ensure(settings, path)
    pair = json.loads(path.read_text())
    assert signs(pair["public_key"], pair["private_key"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # Every later start keeps it: devices subscribed with its public key.
    assert "kept" in ensure(settings, path)
    assert json.loads(path.read_text()) == pair
    assert [p.name for p in path.parent.iterdir()] == ["vapid-keys.json"]  # no temporary file left


def test_keys_from_the_environment_leave_the_data_folder_alone(settings, tmp_path):
    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = "public", "private"
    assert "environment" in ensure(settings, tmp_path / "vapid-keys.json")
    assert not (tmp_path / "vapid-keys.json").exists()


def test_the_settings_read_the_pair_unless_the_environment_gives_one(tmp_path):
    pair = {"public_key": "PUBLIC-from-file", "private_key": "PRIVATE-from-file"}
    (tmp_path / "vapid-keys.json").write_text(json.dumps(pair))
    result = keys_in("config.settings.base", tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["PUBLIC-from-file", "PRIVATE-from-file"]
    result = keys_in(
        "config.settings.base", tmp_path, FABULA_VAPID_PUBLIC_KEY="env-pub", FABULA_VAPID_PRIVATE_KEY="env-priv"
    )
    assert json.loads(result.stdout) == ["env-pub", "env-priv"]
    # Production: the environment only.
    result = keys_in("config.settings.production", tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["", ""]
    result = keys_in(
        "config.settings.production", tmp_path, **PRODUCTION, FABULA_VAPID_PUBLIC_KEY="p", FABULA_VAPID_PRIVATE_KEY="q"
    )
    assert json.loads(result.stdout) == ["p", "q"]


def test_production_refuses_half_a_pair_and_a_broken_file_is_named(tmp_path):
    result = keys_in("config.settings.production", tmp_path, **PRODUCTION, FABULA_VAPID_PUBLIC_KEY="p")
    assert result.returncode != 0 and "FABULA_VAPID_PRIVATE_KEY" in result.stderr.strip().splitlines()[-1]
    (tmp_path / "vapid-keys.json").write_text("{not json")
    result = keys_in("config.settings.base", tmp_path)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "vapid-keys.json" in result.stderr.strip().splitlines()[-1]
