"""A real ASGI server (uvicorn, as ``bin/run`` serves) in a subprocess, for browser tests and the benchmarks.

Unlike pytest-django's ``live_server`` (HTTP only, in a thread), pages served
here hold their live socket, and the server can be stopped and started again.
Nothing here imports Django: the server process sets itself up from ``env``.
"""

import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database a Django connection's settings describe."""
    name = settings_dict["NAME"]
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user, password = quote(settings_dict.get("USER") or ""), quote(settings_dict.get("PASSWORD") or "")
    credentials = f"{user}:{password}@" if password else f"{user}@" if user else ""
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{credentials}{settings_dict.get('HOST') or '127.0.0.1'}{port}/{name}"


def server_command(server: str, *, host: str, port: int, workers: int = 1) -> list[str]:
    """The command line of ``server`` ("uvicorn", the one ``bin/run`` uses, or "daphne") serving ``config.asgi``."""
    if server == "uvicorn":
        return [
            sys.executable, "-m", "uvicorn", "config.asgi:application",
            "--host", host, "--port", str(port), "--workers", str(workers),
            "--loop", "uvloop", "--http", "infrastructure.undocumented.http_protocol:BoundedHttpToolsProtocol",
            "--ws", "websockets-sansio",
            "--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "5",
        ]  # fmt: skip
    if server == "daphne":
        return [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "config.asgi:application"]
    raise ValueError(f"unknown server {server!r}")


class AsgiServer:
    """``config.asgi`` under uvicorn (or ``server``) on 127.0.0.1:``port``, set up by ``env``; its output goes to
    ``log_path``."""

    def __init__(self, *, env: dict, port: int, log_path: Path, server: str = "uvicorn", workers: int = 1):
        self.env = env
        self.port = port
        self.log_path = log_path
        self.server = server
        self.workers = workers
        self.url = f"http://127.0.0.1:{port}"
        self.process = None

    def __str__(self) -> str:
        return self.url

    def start(self, timeout: float = 120.0) -> None:
        # A poll with a deadline: it returns as soon as the server listens. Loading the application takes about
        # 2 s of CPU, which a machine loaded twenty-fold (the canary's run beside others) stretched past 30 s.
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                server_command(self.server, host="127.0.0.1", port=self.port, workers=self.workers),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        give_up_at = time.monotonic() + timeout
        while time.monotonic() < give_up_at and self.process.poll() is None:
            try:  # the server listens once the application is loaded
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.server} did not start; the end of its log:\n{self.log_path.read_text()[-3000:]}")

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


def celery_command(role: str, *, schedule: Path | None = None) -> list[str]:
    """The Celery ``role`` ("worker" or "beat") as ``bin/run`` starts it (a test checks they agree)."""
    if role == "worker":
        return [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--pool=solo", "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING",
        ]  # fmt: skip
    if role == "beat":
        if schedule is None:
            raise ValueError("beat needs a schedule file")
        return [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=WARNING",
            "--schedule",
            str(schedule),
        ]
    raise ValueError(f"unknown Celery role {role!r}")


class Site:
    """The whole site as ``bin/run`` starts it, set up by ``env``: the web server, a Celery worker and beat.

    ``env`` names the database, the data folder (``FABULA_VAR_DIR``: the embedded default's broker and the
    channel layer's sockets) or Redis. Each process writes to its own log in ``log_folder``.
    """

    def __init__(self, *, env: dict, log_folder: Path, port: int | None = None):
        self.env = env
        self.log_folder = log_folder
        self.server = AsgiServer(env=env, port=port or free_port(), log_path=log_folder / "server.log")
        self.celery: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> None:
        schedule = self.log_folder / "celerybeat-schedule"
        for role in ("worker", "beat"):
            with open(self.log_folder / f"{role}.log", "ab") as log:
                self.celery.append(
                    subprocess.Popen(
                        celery_command(role, schedule=schedule),
                        cwd=ROOT,
                        env=self.env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
        self.server.start()

    def stop(self) -> None:
        self.server.stop()
        for process in self.celery:
            process.terminate()
        for process in self.celery:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.celery = []

    def logs(self) -> str:
        """The end of each process's log, for a failure's message."""
        return "\n".join(f"--- {log.name}:\n{log.read_text()[-2000:]}" for log in sorted(self.log_folder.glob("*.log")))
