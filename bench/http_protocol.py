"""What uvicorn's HTTP protocol costs per request: httptools, our bounded httptools, and h11.

The bounded one is infrastructure.undocumented.http_protocol's.

Each protocol serves a tiny ASGI app (no Django: only the protocol differs) from a uvicorn process of its own;
one client sends ``--requests`` GETs with a browser's headers on a kept-alive connection, one after another.
The report gives the server process's CPU per request (user and system time from /proc, the start apart),
the median of ``--rounds`` rounds, the protocols run in turn in each round (so that the machine's load falls
on all of them alike), and each one's ratio to plain httptools.

    .venv/bin/python bench/http_protocol.py --requests 20000 --rounds 5
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTOCOLS = {
    "httptools": "httptools",
    "bounded httptools (infrastructure.undocumented.http_protocol)": (
        "infrastructure.undocumented.http_protocol:BoundedHttpToolsProtocol"
    ),
    "h11 (--h11-max-incomplete-event-size)": "h11",
}
# What a browser sends with a board's fetch (cookies and all): the header callbacks run once a header.
REQUEST = (
    b"GET /games/12/board/?v=7 HTTP/1.1\r\n"
    b"Host: 127.0.0.1\r\n"
    b"User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36\r\n"
    b"Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
    b"Accept-Language: en-GB,en;q=0.9,fi;q=0.8\r\n"
    b"Accept-Encoding: gzip, deflate, br\r\n"
    b"HX-Request: true\r\nHX-Target: board\r\nHX-Current-URL: http://127.0.0.1/games/12/\r\n"
    b"Referer: http://127.0.0.1/games/12/\r\n"
    b"Cookie: csrftoken=Xq3k9TUVd0y1sJ8pLrM2aB7cN4eF6gH5; sessionid=abcdefghijklmnopqrstuvwxyz012345\r\n"
    b"Connection: keep-alive\r\n\r\n"
)

APP = """
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await receive()
    body = b"<div id=board>" + b"x" * 2000 + b"</div>"
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def measure(protocol: str, requests: int, folder: Path) -> float:
    """Milliseconds of the server's CPU per request."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "tinyapp:app", "--port", str(port), "--loop", "uvloop",
               "--http", protocol, "--no-access-log", "--log-level", "warning"]  # fmt: skip
    if protocol == "h11":
        command += ["--h11-max-incomplete-event-size", str(80 * 1024)]
    env = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}"}
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        for _ in range(200):
            try:
                connection = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"{protocol}: the server did not start")
        with connection:
            answer = b""

            def one():
                nonlocal answer
                connection.sendall(REQUEST)
                while True:
                    head, found, rest = answer.partition(b"\r\n\r\n")
                    if found:
                        length = int(head.lower().partition(b"content-length: ")[2].partition(b"\r\n")[0])
                        if len(rest) >= length:
                            answer = rest[length:]
                            return head.startswith(b"HTTP/1.1 200")
                    answer += connection.recv(65536)

            for _ in range(200):  # warm up
                assert one()
            before = cpu_seconds(server.pid)
            for _ in range(requests):
                assert one()
            return (cpu_seconds(server.pid) - before) * 1000 / requests
    finally:
        server.terminate()
        server.wait()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "tinyapp.py").write_text(APP)
        figures: dict[str, list[float]] = {name: [] for name in PROTOCOLS}
        names = list(PROTOCOLS)
        for number in range(args.rounds):
            for name in names if number % 2 == 0 else reversed(names):
                figures[name].append(measure(PROTOCOLS[name], args.requests, Path(folder)))
    load = os.getloadavg()[0]
    base = statistics.median(figures["httptools"])
    print(f"{args.requests} requests a run, {args.rounds} rounds in turn; {os.cpu_count()} cores, load {load:.1f}")
    print(f"{'protocol':45} {'median CPU/request':>22} {'vs httptools':>13}   runs")
    for name, values in figures.items():
        median = statistics.median(values)
        runs = " ".join(f"{value * 1000:.0f}" for value in values)
        print(f"{name:45} {median * 1000:19.1f} us {median / base:12.3f}x   {runs} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
