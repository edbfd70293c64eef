"""config.urls: the admin sits at the path FABULA_ADMIN_PATH names (default "admin/"), and nowhere else."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json
import django
from django.urls import Resolver404, resolve, reverse
django.setup()
def found(path):
    try:
        return resolve(path).view_name
    except Resolver404:
        return None
print(json.dumps({"index": reverse("admin:index"), "admin": found("/admin/"), "door": found("/back-office/")}))
"""


def urls_with(**environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FABULA_ADMIN")}
    env.update(environment, DJANGO_SETTINGS_MODULE="config.settings.test")
    return subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_admin_sits_at_admin_by_default():
    assert settings.FABULA_ADMIN_PATH == "admin/"
    assert reverse("admin:index") == "/admin/"


def test_the_admin_moves_to_the_path_set_and_is_gone_from_admin():
    result = urls_with(FABULA_ADMIN_PATH="/back-office")  # slashes as an operator may write them
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"index": "/back-office/", "admin": None, "door": "admin:index"}


def test_an_empty_admin_path_is_refused():
    result = urls_with(FABULA_ADMIN_PATH="/")
    assert result.returncode != 0 and "FABULA_ADMIN_PATH" in result.stderr
