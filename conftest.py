import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Browser tests run last. Playwright's sync API marks its event loop as running in
    the main thread from its first use to the end of the session: no asyncio test
    (pytest-asyncio, WebsocketCommunicator) could start after it."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
        ],
    }


class AsgiServer:
    """Daphne in a subprocess on the test database: the real ASGI stack, WebSockets included.

    Unlike pytest-django's ``live_server`` (HTTP only, in a thread), pages served
    here hold their live socket, and the server can be stopped and started again.
    A test that uses it must commit what the server should see:
    ``@pytest.mark.django_db(transaction=True)``.
    """

    def __init__(self, *, env: dict, port: int, log_path: Path):
        self.env = env
        self.port = port
        self.log_path = log_path
        self.url = f"http://127.0.0.1:{port}"
        self.process = None

    def __str__(self) -> str:
        return self.url

    def start(self, timeout: float = 30.0) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        give_up_at = time.monotonic() + timeout
        while time.monotonic() < give_up_at and self.process.poll() is None:
            try:  # daphne listens once the application is loaded
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"daphne did not start; the end of its log:\n{self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _database_url(settings_dict: dict) -> str:
    name = settings_dict["NAME"]
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user, password = quote(settings_dict.get("USER") or ""), quote(settings_dict.get("PASSWORD") or "")
    credentials = f"{user}:{password}@" if password else f"{user}@" if user else ""
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{credentials}{settings_dict.get('HOST') or '127.0.0.1'}{port}/{name}"


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, tmp_path_factory):
    """A real ASGI server (daphne) on a free port, on the test database: ``.url``, ``.restart()``."""
    from django.db import connection

    static_root = tmp_path_factory.mktemp("asgi-static")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(connection.settings_dict),
        # The test settings do not DEBUG, so whitenoise serves only what is collected.
        "DJANGO_STATIC_ROOT": str(static_root),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--link", "-v0"], cwd=ROOT, env=env, check=True
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = AsgiServer(env=env, port=port, log_path=tmp_path_factory.mktemp("asgi-log") / "daphne.log")
    server.start()
    yield server
    server.stop()
