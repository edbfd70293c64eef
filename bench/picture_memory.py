"""Pictures and the web process's memory (issue 37): four uploads at once against a real server.

The web server runs as ``bin/run`` starts it (uvicorn, uvloop, our bounded HTTP protocol: the command of
``games/tests/live/server.py``), one process, on a throw-away site. For each case a fresh server is started,
warmed by one small upload, then four pictures are sent at once (four threads, a barrier) to
``POST /api/v1/decks/{id}/cards`` with an API token. Meanwhile the resident memory of the web process
(``VmRSS`` of ``/proc/PID/status``) and of its children (the decoding processes) is sampled every 5 ms; the
web process's exact peak is its ``VmHWM``, reset before the four through ``/proc/PID/clear_refs``. Reported
per case: the answers, the web process's RSS before, at its peak and after (as the last answer came, and
``--settle`` seconds later), the children's sampled peak (all of them together) and the wall time.

Cases (``--cases``, all by default but ``heic``):
  webp         four 7000 x 7000 lossless WebPs of one colour (2 KB each, about 800 MB each to decode),
               the default budget: refused from the header
  webp-budget  the same with FABULA_PICTURE_DECODE_BUDGET_MB=``--budget-mb`` (2048): decoded, two at a time
  png          four 7000 x 7000 PNGs of zeros (140 KB each): decoded, within the default budget
  jpeg         four 48-megapixel JPEGs (8064 x 6048, a phone's 48 MP mode, turned by EXIF)
  heic         four 48-megapixel HEICs (x265 takes some 10 s to make one)

The aim (issue 37): the four add at most 400 MB to the web process at their peak and 150 MB after; exit 1
if a case misses it or an answer is not what the case expects. SQLite in a temporary folder by default;
with a PostgreSQL DATABASE_URL, a database named after it with ``_bench`` (dropped at the end). From the
repository root:

    .venv/bin/python bench/picture_memory.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula .venv/bin/python bench/picture_memory.py --cases webp
"""

import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from live_latency import drop_database, prepare_environment  # noqa: E402
from own_deck_upload import player_with_deck  # noqa: E402

MB = 1024 * 1024
PEAK_AIM_MB, AFTER_AIM_MB = 400, 150
CASES = ("webp", "webp-budget", "png", "jpeg", "heic")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="webp,webp-budget,png,jpeg", help="comma-separated, of: " + ", ".join(CASES))
    parser.add_argument("--budget-mb", type=int, default=2048, help="the budget of the webp-budget case (2048)")
    parser.add_argument("--at-once", type=int, default=4, help="uploads sent at once (4)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after the last answer for 'after' (2)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    args.cases = [case.strip() for case in args.cases.split(",") if case.strip()]
    unknown = set(args.cases) - set(CASES)
    if unknown:
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
    return args


# --- the pictures ---------------------------------------------------------------------------------


def picture(case: str) -> tuple[bytes, str, str]:
    """(bytes, file name, content type) of the case's picture."""
    from PIL import Image

    out = io.BytesIO()
    if case.startswith("webp"):
        Image.new("RGB", (7000, 7000), (40, 90, 200)).save(out, format="WEBP", lossless=True)
        return out.getvalue(), "square.webp", "image/webp"
    if case == "png":
        Image.new("RGB", (7000, 7000)).save(out, format="PNG")
        return out.getvalue(), "zeros.png", "image/png"
    image = Image.linear_gradient("L").resize((8064, 6048)).convert("RGB")
    image.paste((255, 255, 255), (0, 0, 8064, 1512))
    exif = Image.Exif()
    exif[0x0112] = 6
    if case == "jpeg":
        image.save(out, format="JPEG", quality=85, exif=exif)
        return out.getvalue(), "IMG_0001.JPG", "image/jpeg"
    import pillow_heif

    pillow_heif.register_heif_opener()
    image.save(out, format="HEIF", quality=30, exif=exif, enc_params={"preset": "ultrafast"})
    return out.getvalue(), "IMG_0001.HEIC", "image/heic"


def small_picture() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (600, 900), (200, 120, 40)).save(out, format="JPEG")
    return out.getvalue()


# --- memory, from /proc ---------------------------------------------------------------------------


def status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:  # gone
        pass
    return 0


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found.extend(int(child) for child in children.read().split())
        except OSError:
            pass
    return found


def reset_peak(pid: int) -> bool:
    """Reset the process's VmHWM to its current RSS (Linux 4.0+, the process's owner or root)."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


class Sampler(threading.Thread):
    """The web process's RSS and its children's together, every ``interval`` seconds, until stopped."""

    def __init__(self, pid: int, interval: float = 0.005):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.web_peak_kb = self.children_peak_kb = self.children_seen = 0
        self.seen: set[int] = set()
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            self.web_peak_kb = max(self.web_peak_kb, status_kb(self.pid, "VmRSS"))
            children = children_of(self.pid)
            self.seen.update(children)
            self.children_peak_kb = max(self.children_peak_kb, sum(status_kb(child, "VmRSS") for child in children))
            self.stopped.wait(self.interval)

    def stop(self):
        self.stopped.set()
        self.join()


# --- uploads --------------------------------------------------------------------------------------


def upload(url: str, secret: str, data: bytes, name: str, content_type: str) -> tuple[int, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nA picture\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            f"Content-Type: {content_type}\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        url,
        data=body,
        headers={"Authorization": f"Bearer {secret}", "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read() or b"{}").get("error", {})
        return error.code, answer.get("code", "")


def run_case(case: str, args, *, workdir: Path, secret: str, deck_id: int) -> dict:
    from games.tests.live.server import AsgiServer, free_port

    data, name, content_type = picture(case)
    env = dict(os.environ)
    if case == "webp-budget":
        env["FABULA_PICTURE_DECODE_BUDGET_MB"] = str(args.budget_mb)
    server = AsgiServer(env=env, port=free_port(), log_path=workdir / f"server-{case}.log")
    server.start()
    try:
        url = f"{server.url}/api/v1/decks/{deck_id}/cards"
        status, _code = upload(url, secret, small_picture(), "warm.jpg", "image/jpeg")
        assert status == 201, f"the warming upload answered {status}"
        pid = server.process.pid
        before_kb = status_kb(pid, "VmRSS")
        exact = reset_peak(pid)
        sampler = Sampler(pid)
        sampler.start()
        barrier = threading.Barrier(args.at_once)
        answers: list[tuple[int, str]] = []

        def one():
            barrier.wait()
            answers.append(upload(url, secret, data, name, content_type))

        started = time.perf_counter()
        threads = [threading.Thread(target=one) for _ in range(args.at_once)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
        answered_kb = status_kb(pid, "VmRSS")
        time.sleep(args.settle)  # memory given back over time is what "after" is about
        sampler.stop()
        after_kb = status_kb(pid, "VmRSS")
        peak_kb = max(sampler.web_peak_kb, status_kb(pid, "VmHWM") if exact else 0)
    finally:
        server.stop()
    expected = (400, "bad_media") if case == "webp" else (201, "")
    figures = {
        "case": case,
        "picture": f"{name}, {len(data) / 1024:.0f} KB",
        "answers": sorted(f"{status} {code}".strip() for status, code in answers),
        "as_expected": all(answer == expected for answer in answers),
        "before_mb": before_kb / 1024,
        "peak_mb": peak_kb / 1024,
        "peak_exact": exact,
        "answered_mb": answered_kb / 1024,
        "after_mb": after_kb / 1024,
        "added_at_peak_mb": (peak_kb - before_kb) / 1024,
        "added_after_mb": (after_kb - before_kb) / 1024,
        "children": len(sampler.seen),
        "children_peak_mb": sampler.children_peak_kb / 1024,
        "wall_s": wall,
    }
    figures["aim_met"] = figures["added_at_peak_mb"] <= PEAK_AIM_MB and figures["added_after_mb"] <= AFTER_AIM_MB
    return figures


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fabula-bench-pictures-"))
    bench_database = prepare_environment(workdir)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        secret, deck = player_with_deck()
        vendor = connection.vendor
        connection.close()
        print(f"{vendor}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
        print(
            f"{'case':12} {'answers':24} {'before':>7} {'peak':>7} {'after':>7} {'+peak':>7} {'+after':>7}"
            f" {'children':>9} {'wall':>6}"
        )
        results = []
        for case in args.cases:
            figures = run_case(case, args, workdir=workdir, secret=secret, deck_id=deck.pk)
            results.append(figures)
            answers = ", ".join(
                f"{figures['answers'].count(answer)}x {answer}" for answer in sorted(set(figures["answers"]))
            )
            print(
                f"{case:12} {answers:24} {figures['before_mb']:6.0f}M {figures['peak_mb']:6.0f}M"
                f" {figures['after_mb']:6.0f}M {figures['added_at_peak_mb']:+6.0f}M {figures['added_after_mb']:+6.0f}M"
                f" {figures['children_peak_mb']:8.0f}M {figures['wall_s']:5.1f}s"
                + ("" if figures["as_expected"] else "  (answers not as expected)")
                + ("" if figures["aim_met"] else f"  (aim missed: +{PEAK_AIM_MB} MB peak, +{AFTER_AIM_MB} MB after)"),
                flush=True,
            )
        print(
            "RSS of the web process (MB); +peak and +after over 'before' (after a warming upload); "
            f"'after' {args.settle:.0f} s after the last answer; children: the decoding processes' RSS together, "
            "sampled every 5 ms"
        )
        if args.json:
            Path(args.json).write_text(json.dumps({"database": vendor, "cases": results}, indent=2))
        return 0 if all(figures["aim_met"] and figures["as_expected"] for figures in results) else 1
    finally:
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
