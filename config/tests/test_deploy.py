"""The production stack in docker-compose.yml gives each service what the settings need.

No Docker engine runs here, so the file is parsed and its environment is fed to
the production settings in a real `manage.py check --deploy`.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def substitute(value: str) -> str:
    """Fill ${VAR:-default} and ${VAR:?message} the way compose would, with test values."""

    def repl(match):
        name, op, arg = match.group(1), match.group(2), match.group(3)
        if op == ":-":
            return arg
        return {"DJANGO_SECRET_KEY": "a8Zq-3vN!r7Lp0xW_k2Tg9sEy4Hm6Jc1Ud5Bo8Fi3Qn7Vt2Kw0Xe4Ra6Sl9Yp1Mz"}.get(
            name, "set-by-operator"
        )

    return re.sub(r"\$\{(\w+)(:-|:\?)?([^}]*)\}", repl, str(value))


def test_the_stack_has_every_service():
    services = compose()["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "migrate"} <= set(services)
    assert "celery" in " ".join(services["worker"]["command"])
    assert "beat" in services["beat"]["command"]
    assert "uvicorn config.asgi:application" in " ".join(services["web"]["command"])


def test_web_scales_behind_the_proxy():
    """`docker compose up --scale web=3` works: web publishes no host port; the proxy finds every web
    container by the service's name, passes WebSockets, and serves HTTPS once a domain is set."""
    services = compose()["services"]
    assert "ports" not in services["web"]
    assert services["web"]["expose"] == ["8000"]
    assert "--workers" in services["web"]["command"][-1] and "--proxy-headers" in services["web"]["command"][-1]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    mount = next(volume for volume in proxy["volumes"] if volume.endswith(":/etc/caddy/Caddyfile:ro"))
    caddyfile = (ROOT / mount.split(":")[0]).read_text()
    assert "{$FABULA_DOMAIN:localhost} {" in caddyfile  # HTTPS: a domain's certificate, or Caddy's local one
    assert re.search(r"dynamic a \{\s*name web\s*port 8000", caddyfile)
    for name in ("postgres", "redis", "web", "worker"):
        assert services[name]["healthcheck"]["test"]
    assert "inspect ping" in " ".join(services["worker"]["healthcheck"]["test"])
    assert services["beat"]["deploy"]["replicas"] == 1


def test_app_services_point_at_postgres_and_redis():
    services = compose()["services"]
    for name in ("web", "worker", "beat", "migrate"):
        env = services[name]["environment"]
        assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
        assert substitute(env["DATABASE_URL"]).startswith("postgres://")
        assert "@postgres:5432/" in substitute(env["DATABASE_URL"])
        assert substitute(env["REDIS_URL"]).startswith("redis://redis:6379")
        assert {"postgres", "redis"} <= set(services[name]["depends_on"]) or name != "migrate"


def test_production_settings_pass_check_deploy_with_the_compose_environment():
    env_block = compose()["services"]["web"]["environment"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    env.update({key: substitute(value) for key, value in env_block.items()})
    # The database need not answer: check --deploy inspects settings only.
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_pushes_have_a_worker_of_their_own():
    """The push queue (CELERY_TASK_ROUTES) is consumed by its own worker, in the stack and in bin/run;
    the default worker takes the default queue only, so deadlines and bots never wait behind push."""
    from django.conf import settings

    assert settings.CELERY_TASK_ROUTES["notifications.send_turn_pushes"] == {"queue": "push"}
    services = compose()["services"]
    push_command = services["push-worker"]["command"]
    assert push_command[push_command.index("-Q") + 1] == "push"
    assert "-Q" not in services["worker"]["command"]
    assert "push@" in " ".join(services["push-worker"]["healthcheck"]["test"])
    workers = [
        line for line in (ROOT / "bin/run").read_text().splitlines() if line.startswith("celery -A config worker")
    ]
    assert len(workers) == 2
    assert sum(" -Q push " in line for line in workers) == 1


def caddy_size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(KiB|MiB|KB|MB)", text).groups()
    return int(number) * {"KiB": 1024, "MiB": 1024 * 1024, "KB": 1000, "MB": 1000 * 1000}[unit]


def test_the_proxy_bounds_bodies_and_slow_clients_as_the_site_does():
    """Caddy refuses what the site would refuse, before it reaches a web container: the same body limits by
    route (clue media, the admin's uploads, the rest) and a deadline for a request's head and its body."""
    from django.conf import settings

    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    bounds = dict(re.findall(r"request_body @(\w+) \{\s*max_size (\S+)", caddyfile))
    assert caddy_size(bounds["other_bodies"]) == settings.FABULA_BODY_MAX_BYTES
    assert caddy_size(bounds["clue_media"]) == settings.FABULA_BODY_LIMITS["api-v1:clue_media_create"]
    assert caddy_size(bounds["admin"]) == max(settings.FABULA_BODY_LIMITS.values())
    assert caddy_size(bounds["own_card"]) == settings.FABULA_BODY_LIMITS["api-v1:deck_card_create"]
    assert settings.FABULA_BODY_LIMITS["decks:card_upload"] == settings.FABULA_BODY_LIMITS["api-v1:deck_card_create"]
    own_card = re.search(r"@own_card path_regexp own_card (\S+)", caddyfile).group(1)
    assert re.match(own_card, "/api/v1/decks/3/cards") and re.match(own_card, "/decks/3/cards/")
    clue_media = re.search(r"@clue_media path_regexp (\S+)", caddyfile).group(1)
    assert re.match(clue_media, "/api/v1/games/12/clue-media") and re.match(clue_media, "/games/12/clue-media/")
    from infrastructure.undocumented.http_protocol import HEAD_TIMEOUT_SECONDS

    # A head not whole in 10 s is cut off by Caddy as by the site's own server (bin/run, no proxy in front).
    assert int(re.search(r"read_header (\d+)s", caddyfile).group(1)) == HEAD_TIMEOUT_SECONDS == 10
    seconds = int(re.search(r"read_body (\d+)s", caddyfile).group(1))
    assert seconds == settings.FABULA_BODY_DEADLINE_SECONDS
    assert "@admin path /{$FABULA_ADMIN_PATH:admin/}*" in caddyfile
    services = compose()["services"]
    assert services["proxy"]["environment"]["FABULA_ADMIN_PATH"] == services["web"]["environment"]["FABULA_ADMIN_PATH"]
