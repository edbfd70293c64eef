"""Where uploaded files live: the file system on the embedded default and by default in production,
S3-compatible storage (django-storages) in production when a bucket is named."""

import json
import os
import subprocess
import sys

from .test_settings import PRODUCTION, ROOT


def storages(alias: str = "default", **environment) -> dict:
    script = (
        "import importlib, json; s = importlib.import_module('config.settings.production'); "
        f"print(json.dumps(s.STORAGES[{alias!r}]))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "AWS_", "DATABASE_", "REDIS_URL"))}
    env.update(environment, FABULA_VAR_DIR=os.environ.get("FABULA_VAR_DIR", str(ROOT / "var")))
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_production_keeps_files_on_disk_without_a_bucket():
    assert storages(**PRODUCTION)["BACKEND"] == "django.core.files.storage.FileSystemStorage"


def test_production_stores_files_in_s3_compatible_storage_when_a_bucket_is_named():
    default = storages(
        **PRODUCTION,
        AWS_STORAGE_BUCKET_NAME="fabula-media",
        AWS_S3_ENDPOINT_URL="http://minio:9000",
        AWS_ACCESS_KEY_ID="fabula",
        AWS_SECRET_ACCESS_KEY="a secret of some length",
    )
    assert default["BACKEND"] == "storages.backends.s3.S3Storage"
    options = default["OPTIONS"]
    assert options["bucket_name"] == "fabula-media" and options["endpoint_url"] == "http://minio:9000"
    assert options["querystring_auth"] is True and options["default_acl"] == "private"
    assert options["addressing_style"] == "path"


def test_files_behind_the_media_door_get_urls_signed_for_a_minute():
    bucket = {
        "AWS_STORAGE_BUCKET_NAME": "fabula-media",
        "AWS_S3_ENDPOINT_URL": "http://minio:9000",
        "AWS_ACCESS_KEY_ID": "fabula",
        "AWS_SECRET_ACCESS_KEY": "a secret of some length",
    }
    protected = storages("protected", **PRODUCTION, **bucket)
    default = storages("default", **PRODUCTION, **bucket)
    assert protected["BACKEND"] == "storages.backends.s3.S3Storage"
    assert protected["OPTIONS"] == {**default["OPTIONS"], "querystring_expire": 60}
    assert storages("protected", **PRODUCTION)["BACKEND"] == "django.core.files.storage.FileSystemStorage"
    assert (
        storages("protected", **PRODUCTION, **bucket, AWS_PROTECTED_QUERYSTRING_EXPIRE="30")["OPTIONS"][
            "querystring_expire"
        ]
        == 30
    )


def test_the_s3_backend_builds_and_names_a_private_signed_url():
    """django-storages itself, configured as production does (no request goes out to build a URL)."""
    script = (
        "from storages.backends.s3 import S3Storage; "
        "s = S3Storage(bucket_name='fabula-media', endpoint_url='http://minio:9000', access_key='a', "
        "secret_key='b', addressing_style='path', querystring_auth=True, default_acl='private'); "
        "print(s.url('clue-media/x.png'))"
    )
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.test")
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    url = run.stdout.strip()
    assert url.startswith("http://minio:9000/fabula-media/clue-media/x.png?") and "Signature" in url


def test_the_compose_stack_offers_minio_under_a_profile():
    import yaml

    stack = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = stack["services"]
    assert services["minio"]["profiles"] == ["minio"] and services["minio-bucket"]["profiles"] == ["minio"]
    assert all("profiles" not in services[name] for name in ("web", "worker", "beat", "postgres", "redis"))
    for name in ("web", "worker"):
        environment = services[name]["environment"]
        assert {"AWS_STORAGE_BUCKET_NAME", "AWS_S3_ENDPOINT_URL", "AWS_ACCESS_KEY_ID"} <= set(environment)
