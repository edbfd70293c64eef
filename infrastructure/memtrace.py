"""Where a process's memory goes, for the soak (bench/soak.py): off unless ``FABULA_TRACEMALLOC`` names a folder.

With it, the web server (config.asgi) and each Celery process (config.celery) start ``tracemalloc`` as they
load (``FABULA_TRACEMALLOC_FRAMES`` frames of each allocation, 6) and write a snapshot there every
``FABULA_TRACEMALLOC_EVERY`` seconds (60), from a thread of their own:
``<role>-<pid>-<seconds since start, 5 digits>.tracemalloc``. ``growth`` compares two of them: the lines whose
allocations grew most between. Tracing costs CPU and memory (about twice each); it is for finding a leak,
never for production or for the soak's own figures.
"""

import os
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 6  # enough to see whose call allocated, not only which library line


def role_of(argv: list[str]) -> str:
    """ "web", or the Celery process's part as ``bin/run`` starts it: "beat", "push" (the push queue's worker),
    "worker"."""
    if "beat" in argv:
        return "beat"
    if "worker" in argv:
        return "push" if "push" in argv else "worker"
    return "web"


def is_celery(argv: list[str]) -> bool:
    """Whether this is a Celery process (a worker, beat), by its command line."""
    program = Path(argv[0]) if argv else Path()
    return program.name == "celery" or (program.name == "__main__.py" and program.parent.name == "celery")


def start_from_environment(role: str | None = None) -> bool:
    """Start tracing and the snapshots when ``FABULA_TRACEMALLOC`` is set; True if it did."""
    folder = os.environ.get("FABULA_TRACEMALLOC")
    if not folder or tracemalloc.is_tracing():
        return False
    every = float(os.environ.get("FABULA_TRACEMALLOC_EVERY", "60"))
    role = role or role_of(sys.argv)
    Path(folder).mkdir(parents=True, exist_ok=True)
    tracemalloc.start(int(os.environ.get("FABULA_TRACEMALLOC_FRAMES", FRAMES)))
    started = time.monotonic()

    def write():
        while True:
            time.sleep(every)  # the interval between two snapshots is the point: nothing to wait for
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [
                    tracemalloc.Filter(False, tracemalloc.__file__),
                    tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
                ]
            )
            name = f"{role}-{os.getpid()}-{int(time.monotonic() - started):05d}.tracemalloc"
            snapshot.dump(str(Path(folder) / (name + ".part")))
            os.replace(Path(folder) / (name + ".part"), Path(folder) / name)

    threading.Thread(target=write, name="tracemalloc-snapshots", daemon=True).start()
    return True


def growth(before: Path, after: Path, *, top: int = 12, key: str = "traceback") -> str:
    """The ``top`` allocation sites whose memory grew most from snapshot ``before`` to ``after``, as text."""
    old, new = tracemalloc.Snapshot.load(str(before)), tracemalloc.Snapshot.load(str(after))
    lines = [f"{before.name} -> {after.name}: traced {_mib(_total(old))} -> {_mib(_total(new))}"]
    for stat in new.compare_to(old, key)[:top]:
        lines.append(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        frames = stat.traceback.format(limit=FRAMES, most_recent_first=True)
        lines.extend(f"      {frame.strip()}" for frame in frames if frame.strip() and not frame.startswith("    "))
    return "\n".join(lines)


def _total(snapshot) -> int:
    return sum(stat.size for stat in snapshot.statistics("filename"))


def _mib(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MiB"
