"""The rules engines stay pure: no Django, no clock, no global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games.engine
from games import kinds

ROOT = Path(games.engine.__file__).parent.parent.parent
# The shared pure helpers, and the engine package of every registered kind of game.
ENGINE_DIRS = sorted({Path(games.engine.__file__).parent} | {Path(k.engine.__file__).parent for k in kinds.every()})

# Modules an engine must not import at all.
FORBIDDEN_MODULES = {"django", "time", "secrets", "pydantic", "ninja"}
# Clock reads through datetime (datetime.now(), date.today(), ...).
CLOCK_CALLS = {"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"}
# From the random module only the generator type may be named (for annotations).
ALLOWED_FROM_RANDOM = {"Random"}


def violations(source: str, filename: str = "<engine>") -> list[str]:
    """What in ``source`` breaks the engine's purity, one line each."""
    tree = ast.parse(source, filename=filename)
    found = []
    random_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    found.append(f"{filename}:{node.lineno} imports {alias.name}")
                if top == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            top = node.module.split(".")[0]
            if top in FORBIDDEN_MODULES:
                found.append(f"{filename}:{node.lineno} imports from {node.module}")
            if top == "random":
                for alias in node.names:
                    if alias.name not in ALLOWED_FROM_RANDOM:
                        found.append(f"{filename}:{node.lineno} imports random.{alias.name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr = node.func.attr
        owner = node.func.value
        if attr in CLOCK_CALLS:
            found.append(f"{filename}:{node.lineno} reads the clock with .{attr}()")
        if isinstance(owner, ast.Name) and owner.id in random_aliases:
            found.append(f"{filename}:{node.lineno} calls {owner.id}.{attr}()")
    return found


def engine_modules() -> list[Path]:
    return sorted(path for directory in ENGINE_DIRS for path in directory.rglob("*.py"))


def test_there_are_engine_modules():
    names = {str(path.relative_to(ROOT)) for path in engine_modules()}
    shared = {"games/engine/errors.py", "games/engine/seats.py", "games/engine/serial.py"}
    assert shared | {"storyteller/engine/rules.py", "think_alike/engine/rules.py"} <= names


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_is_pure(path):
    assert violations(path.read_text(), str(path.relative_to(ROOT))) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import django.utils.timezone as tz",
        "import time",
        "from time import monotonic",
        "import secrets",
        "from datetime import datetime\nx = datetime.now()",
        "import datetime\nx = datetime.date.today()",
        "from django.utils import timezone\nx = timezone.now()",
        "import random\nrandom.shuffle([1])",
        "import random as r\nr.choice([1])",
        "import random\nrng = random.Random()",
        "from random import shuffle",
        "from random import choice as pick",
    ],
)
def test_the_check_catches_impure_code(source):
    assert violations(source)


@pytest.mark.parametrize(
    "source",
    [
        "from random import Random\ndef f(rng: Random): rng.shuffle([1])",
        "import random\ndef f(rng: random.Random): return rng.choice([1])",
        "from dataclasses import dataclass",
        "from games.engine.errors import RuleError",
    ],
)
def test_the_check_lets_pure_code_pass(source):
    assert violations(source) == []
