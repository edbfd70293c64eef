"""Where pictures are decoded: a short-lived process each, a bounded number at once, within a memory budget.

Decoding a picture takes memory in proportion to its pixels, not its bytes: a 2 KB lossless WebP of
7000 x 7000 takes about 800 MB, and what a process's allocator got back from it, it keeps. So no picture is
decoded in the web process: ``card_decode`` runs ``picture_worker.py`` as a program of its own (plain Python
and Pillow, no Django), feeds it the bytes and reads the card back; when it exits, all it took goes back to
the system. It works wherever the web process runs (uvicorn with uvloop, the test server, a Celery worker):
a child process started and waited for by the request's thread, nothing shared with the event loop.

The room is counted per web process: at most ``FABULA_PICTURE_DECODERS`` decodings at once (2: one a core
of the small server), whose estimated memory together stays within ``FABULA_PICTURE_DECODE_BUDGET_MB``
(512). The caller refuses a picture whose estimate alone is over the budget, before anything is started
(``cards.card_image_prepare``: 400 ``bad_media``); one that fits waits up to
``FABULA_PICTURE_DECODE_WAIT_SECONDS`` (30) for room, then gets ``PicturesBusy`` (503 ``busy`` with
Retry-After). A decoding that runs longer than ``FABULA_PICTURE_DECODE_SECONDS`` (60) is killed.
"""

import json
import logging
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path

from django.conf import settings

from . import picture_worker

log = logging.getLogger(__name__)
MB = 1024 * 1024
# Where Pillow and pillow-heif are installed (site-packages), for the decoding program started without site.
LIBRARY_PATH = sorted(
    {str(Path(spec.origin).parent.parent) for spec in map(find_spec, ("PIL", "pillow_heif")) if spec and spec.origin}
)


class DecodeFailed(Exception):
    """The picture could not be made into a card: ``reason`` is "damaged", "memory" or "timeout"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class NoRoom(Exception):
    """No room to decode the picture came within the wait allowed."""


class DecodingRoom:
    """How many decodings run, and how much memory they were estimated to take, in this process."""

    def __init__(self):
        self._changed = threading.Condition()
        self.running = 0
        self.taken = 0

    @contextmanager
    def hold(self, need: int, *, budget: int, slots: int, wait: float):
        """Wait until a decoding of ``need`` bytes fits (at most ``slots`` at once, ``budget`` bytes together),
        hold its room while the block runs; ``NoRoom`` after ``wait`` seconds without."""
        give_up_at = time.monotonic() + wait
        with self._changed:
            while self.running >= slots or self.taken + need > budget:
                left = give_up_at - time.monotonic()
                if left <= 0:
                    raise NoRoom
                self._changed.wait(left)
            self.running += 1
            self.taken += need
        try:
            yield
        finally:
            with self._changed:
                self.running -= 1
                self.taken -= need
                self._changed.notify_all()


room = DecodingRoom()


def decode_budget() -> int:
    """Bytes the decodings of this process may take together (``FABULA_PICTURE_DECODE_BUDGET_MB``)."""
    return settings.FABULA_PICTURE_DECODE_BUDGET_MB * MB


def card_decode(
    data: bytes,
    *,
    need: int,
    card_size: tuple[int, int],
    draft_side: int,
    formats: tuple[str, ...],
    quality: int,
    describe: bool,
) -> tuple[bytes, list[str]]:
    """The card (WebP bytes) made from ``data`` in a process of its own, and the picture's own descriptions.

    ``need``: its estimated memory (``picture_worker.decode_memory``), at most ``decode_budget()``.
    Raises ``NoRoom`` (no room within the wait) or ``DecodeFailed``."""
    command = worker_command(
        card_size=card_size,
        draft_side=draft_side,
        formats=formats,
        quality=quality,
        describe=describe,
        address_limit=need + picture_worker.ADDRESS_MARGIN_BYTES,
    )
    with room.hold(
        need,
        budget=decode_budget(),
        slots=settings.FABULA_PICTURE_DECODERS,
        wait=settings.FABULA_PICTURE_DECODE_WAIT_SECONDS,
    ):
        try:
            done = subprocess.run(
                command,
                input=data,
                capture_output=True,
                timeout=settings.FABULA_PICTURE_DECODE_SECONDS,
                check=False,
                env=_child_environment(),
            )
        except subprocess.TimeoutExpired:  # run() killed it
            raise DecodeFailed("timeout") from None
    head, _newline, card = done.stdout.partition(b"\n")
    try:
        said = json.loads(head)
    except ValueError:
        said = {}
    if done.returncode != 0 or "descriptions" not in said:
        if said.get("error") != "damaged":  # a crash, a kill, a cap reached: worth a line in the log
            log.warning("picture decoding failed (exit %s): %s", done.returncode, done.stderr[-500:])
        raise DecodeFailed(said.get("error") or "damaged")
    return card, [text for text in said["descriptions"] if isinstance(text, str)]


def worker_command(
    *, card_size: tuple[int, int], draft_side: int, formats, quality: int, describe: bool, address_limit: int
) -> list[str]:
    """The command line of the decoding program (``picture_worker.main``): the picture goes on its input."""
    params = {
        "path": LIBRARY_PATH,
        "card_size": list(card_size),
        "draft_side": draft_side,
        "formats": list(formats),
        "quality": quality,
        "describe": describe,
        "address_limit": address_limit,
    }
    # -I: none of the environment's PYTHON* settings, no user site, not the current folder on the path; -S: no
    # site at all (its .pth files cost a start tens of milliseconds), Pillow's folder given instead.
    return [sys.executable, "-I", "-S", picture_worker.__file__, json.dumps(params)]


def _child_environment() -> dict[str, str]:
    """What the decoding program is given of the environment: where to find libraries, no secrets (the
    database's address, keys); two allocator arenas at most, so its threads reserve little address space."""
    kept = {name: os.environ[name] for name in ("PATH", "LD_LIBRARY_PATH", "TMPDIR") if name in os.environ}
    return {**kept, "MALLOC_ARENA_MAX": "2"}
