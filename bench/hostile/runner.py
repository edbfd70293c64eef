"""Start the site as ``bin/run`` does (or use one already running) and replay every hostile check against it.

``bench/fault.py --hostile`` calls ``main``. It prints one row per check (area, check, held or FELL, what was
seen) and exits 1 when any check fell or failed to run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import httpx

from . import Fell, Site, all_checks

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_site(var_dir: Path, port: int) -> subprocess.Popen:
    """``bin/run`` in its own process group, on the embedded default, with its files in ``var_dir``."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"FABULA_VAR_DIR": str(var_dir), "PORT": str(port), "HOST": "127.0.0.1"})
    # Every area's checks sign up some forty accounts and tokens from this one address: more than the site lets
    # one address make in an hour. The checks test other doors (the log-in lockout's own check counts its own).
    env.setdefault("FABULA_API_RATES", "accounts=1000/3600,tokens=1000/60,tokens-user=1000/60")
    env.setdefault("FABULA_ACCOUNT_RATES", "signup-address=1000/h")
    log = open(var_dir / "site.log", "ab")  # noqa: SIM115 (kept open for the process's life)
    return subprocess.Popen(
        ["bin/run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_until_answering(base: str, process: subprocess.Popen | None, timeout: float = 180.0) -> None:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at:
        if process is not None and process.poll() is not None:
            raise RuntimeError("the site stopped while starting")
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{base} did not answer /healthz within {timeout:.0f} s")


def stop_site(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_checks(site: Site, only: str | None = None) -> list[tuple[str, str, str, str]]:
    rows = []
    for area, check in all_checks():
        name = check.__name__.removeprefix("check_")
        if only and only not in f"{area}.{name}":
            continue
        started = time.monotonic()
        try:
            seen = check(site)
            outcome = "held"
        except Fell as fell:
            outcome, seen = "FELL", str(fell)
        except Exception as error:  # the check itself broke: say so, never count it as held
            outcome, seen = "ERROR", f"{type(error).__name__}: {error}"
            traceback.print_exc(file=sys.stderr)
        rows.append((area, name, outcome, f"{seen} ({time.monotonic() - started:.1f} s)"))
        print(f"  {area:10} {name:40} {outcome:6} {rows[-1][3]}", flush=True)
    return rows


def main(base: str | None = None, only: str | None = None, keep: bool = False) -> int:
    process = None
    var_dir = None
    if base is None:
        var_dir = Path(tempfile.mkdtemp(prefix="fabula-hostile-"))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        print(f"starting the site (bin/run) on {base}, files in {var_dir} ...", flush=True)
        process = start_site(var_dir, port)
    try:
        wait_until_answering(base, process)
        site = Site(base=base, var_dir=var_dir)
        print(f"{'area':12} {'check':40} {'result':6} seen", flush=True)
        try:
            rows = run_checks(site, only)
        finally:
            site.close()
    except Exception:
        if var_dir is not None and (var_dir / "site.log").exists():
            print((var_dir / "site.log").read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        if process is not None:
            stop_site(process)
        if var_dir is not None and not keep:
            shutil.rmtree(var_dir, ignore_errors=True)
    held = sum(1 for row in rows if row[2] == "held")
    print()
    print("| area | check | result | seen |")
    print("| --- | --- | --- | --- |")
    for area, name, outcome, seen in rows:
        print(f"| {area} | {name} | {outcome} | {seen.replace('|', '/')} |")
    print(f"\n{held} of {len(rows)} held.")
    return 0 if rows and held == len(rows) else 1
