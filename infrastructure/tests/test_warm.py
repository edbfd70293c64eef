"""A server process compiles our templates and loads every language before it serves, then freezes what it
built out of the garbage collector's walks (infrastructure.warm, run by config.asgi)."""

import json
import os
import subprocess
import sys

import pytest
from django.template import TemplateSyntaxError

from games.tests.live.server import ROOT
from infrastructure import warm

SCRIPT = """
import gc, json
from pathlib import Path
import config.asgi
from django.template import engines
from django.utils import translation
from infrastructure.warm import _own_template_dirs

engine = engines["django"]
names = sorted({p.relative_to(d).as_posix() for d in _own_template_dirs(engine) for p in d.rglob("*") if p.is_file()})
cached = engine.engine.template_loaders[0].get_template_cache
board = engine.get_template("games/detail.html").template
tracked = {id(o) for o in gc.get_objects()}
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "names": len(names),
    "uncached": [n for n in names if n not in cached],
    "board_walked": id(board) in tracked,
    "catalogues": sorted(translation.trans_real._translations),
    "admin_compiled": "admin/base.html" in cached,
}))
"""


def started() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_URL"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        FABULA_VAR_DIR=os.environ.get("FABULA_VAR_DIR", str(ROOT / "var")),
    )
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_server_process_starts_with_its_templates_and_languages_ready_and_frozen():
    state = started()
    assert state["names"] > 50 and state["uncached"] == []  # every template of ours compiled, none left for a request
    assert not state["admin_compiled"]  # installed packages' templates wait for their first use
    assert set(state["catalogues"]) >= {"en", "da", "fi", "sv", "nb", "fr"}
    assert state["frozen"] > 10_000
    assert state["board_walked"] is False  # what start built is out of the collector's walks


def test_a_template_that_does_not_compile_fails_the_start(tmp_path, settings):
    (tmp_path / "broken.html").write_text("{% if %}")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with pytest.raises(TemplateSyntaxError):
        warm.compile_templates()
