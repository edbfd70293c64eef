"""The caches a process keeps in its own memory: bounded, sized from settings, and one reset.

Beside Django's ``CACHES`` (which have their own bounds), a few things are kept in each process's memory
because reading or drawing them again costs more than keeping them: the games read lately
(``games.selectors.games.recent_games``), what a card shows (``storyteller.selectors.card_faces``), a
card's picture tag, a player's avatar. Each is bounded:

- what grows with the site (games, cards, players, texts) has its size, and its time to live where it may go
  stale, from a ``FABULA_*`` setting (config/settings/base.py, from the environment), and drops the least
  recently used entry first (``BoundedCache``, or ``functools.lru_cache(maxsize=<setting>)``);
- what is bounded by the code itself (one SQL text per model, an icon per file, a button per language) is
  kept whole (``functools.cache``) and only registered for the reset.

Not registered, because nothing in them can go stale or differ from one test to the next and they cost
to build again: the pure engines' memos (Think Alike's stems, word lists and distances: pure functions of
their words, bounded in the engine with ``functools.lru_cache``, which imports nothing of Django), and
the API's upload names read from its OpenAPI document (``games.api.api.uploads``: the code's routes).

Each registers here when its module is imported (a module not imported has nothing kept), and
``reset_process_caches()`` empties every one: what the tests run between two tests (ids repeat across
tests), and what anything else that must forget the process's state calls. The modules that may not import
``config`` are named in ``ELSEWHERE``.
"""

import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable

_registry: dict[str, Callable[[], None]] = {}
# Every bounded cache alive in the process, however many share a name (a test may make a second "process's"
# card faces beside the module's): each is emptied by the reset; none is kept alive by being here.
_bounded: "weakref.WeakSet[BoundedCache]" = weakref.WeakSet()

# Caches of modules that may not import this one (accounts imports no app of ours): "module:function", an
# lru_cache, cleared if the module was imported.
ELSEWHERE = (
    "accounts.avatars:table_letters",
    "accounts.avatars:_drawing",
    "accounts.avatars:avatar_svg",
)

# Django's caches that live in the process's memory (games.pages' rendered views; the embedded default's
# API rate counts, which are Redis's where there is Redis: the reset then clears the counts there too).
DJANGO_CACHES = ("views", "rates")


def register(name: str, clear: Callable[[], None]) -> Callable[[], None]:
    """Have ``reset_process_caches`` call ``clear``; ``name`` says which cache it is (one registration a name)."""
    _registry[name] = clear
    return clear


def registered() -> list[str]:
    return sorted({*_registry, *(cache.name for cache in list(_bounded))})


def reset_process_caches() -> None:
    """Empty every cache this process keeps in its memory."""
    for clear in list(_registry.values()):
        clear()
    for cache in list(_bounded):
        cache.clear()
    for target in ELSEWHERE:
        module_name, _, function = target.partition(":")
        module = sys.modules.get(module_name)
        if module is not None:  # never imported: nothing kept
            getattr(module, function).cache_clear()
    from django.core.cache import caches

    for alias in DJANGO_CACHES:
        caches[alias].clear()


class BoundedCache:
    """At most ``size`` entries, the least recently used dropped first; an entry older than ``ttl`` seconds
    (None: no limit) is not given. Safe to share between a process's threads. Registered for the reset."""

    def __init__(self, name: str, *, size: int, ttl: float | None = None):
        if size < 1:
            raise ValueError(f"{name}: a cache holds at least one entry")
        self.name = name
        self.size = size
        self.ttl = ttl
        self.entries: OrderedDict[Hashable, tuple[float, object]] = OrderedDict()
        self.lock = threading.Lock()
        _bounded.add(self)

    def get(self, key: Hashable, default=None):
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return default
            if self.ttl is not None and time.monotonic() - entry[0] > self.ttl:
                del self.entries[key]
                return default
            self.entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, value) -> None:
        now = time.monotonic()
        with self.lock:
            self.entries[key] = (now, value)
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
            # Entries past their time to live are never given again: the least recently used of them go now,
            # not when ``size`` others push them out (bench/soak.py: a worker kept every game its bots had
            # played, and its memory grew with them).
            while self.ttl is not None and self.entries:
                oldest = next(iter(self.entries.values()))
                if now - oldest[0] <= self.ttl:
                    break
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)
