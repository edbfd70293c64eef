"""A redis-server of a test's own, on a port of its own, to stop and start under the site."""

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

needs_redis_server = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, *, timeout: float = 10.0) -> bool:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def start_redis(port: int, cwd: Path) -> subprocess.Popen:
    """redis-server on ``port``, keeping nothing on disk; returns once it takes connections."""
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
    )
    if not wait_for_port(port):
        process.kill()
        process.wait()
        raise AssertionError(f"redis-server did not start on port {port}")
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)
