"""The live benchmark still runs and loses nothing (its figures are for people, not for this test)."""

import json
import subprocess
import sys

from .server import ROOT


def test_the_live_benchmark_runs_and_every_page_hears_of_every_action(tmp_path):
    figures = tmp_path / "figures.json"
    command = [
        sys.executable,
        "bench/live_latency.py",
        "--games",
        "2",
        "--think",
        "0.05",
        "--timeout",
        "60",
        "--json",
        str(figures),
    ]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)

    assert completed.returncode in (0, 1), completed.stdout + completed.stderr  # 1: the aim missed, not a crash
    document = json.loads(figures.read_text())
    rows = document["rows"]
    actions = 2 * (1 + 2 * 3)  # two games, a round of four: a clue, three cards, three votes
    assert rows["live: action answered"] == {**rows["live: action answered"], "count": actions, "lost": 0}
    for row in ("echo baseline (in-process)", "live: socket notified", "live: page updated"):
        assert rows[row]["count"] == actions * 3, row
        assert rows[row]["lost"] == 0, row
    # Each page's socket is sent its board (push=board): nobody fetches, but a page whose own action's answer came
    # after a newer change (live.js); the actor's socket is sent its board too (most often its answer's, kept).
    assert document["fetches"] <= actions
    assert actions * 3 <= document["pushes"] <= actions * 4


def test_with_fetches_the_live_benchmark_has_every_other_page_fetch_its_board(tmp_path):
    """``--fetch``: the sockets ask for no board, as pages did before pushes; each of the three others fetches its
    fresh board; the actor has its own in its action's answer (live.js)."""
    figures = tmp_path / "figures.json"
    command = [sys.executable, "bench/live_latency.py", "--games", "1", "--think", "0.05", "--timeout", "60"]
    command += ["--fetch", "--json", str(figures)]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)

    assert completed.returncode in (0, 1), completed.stdout + completed.stderr
    document = json.loads(figures.read_text())
    actions = 1 + 2 * 3
    assert document["rows"]["live: page updated"]["lost"] == 0
    assert document["fetches"] == actions * 3
    assert document["pushes"] == 0


def test_without_fetches_the_live_benchmark_still_hears_every_action_and_fetches_nothing(tmp_path):
    figures = tmp_path / "figures.json"
    command = [sys.executable, "bench/live_latency.py", "--games", "1", "--think", "0.05", "--timeout", "60"]
    completed = subprocess.run(
        [*command, "--no-fetch", "--json", str(figures)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )

    assert completed.returncode in (0, 1), completed.stdout + completed.stderr
    document = json.loads(figures.read_text())
    actions = 1 + 2 * 3
    assert document["rows"]["live: socket notified"] == {
        **document["rows"]["live: socket notified"],
        "count": actions * 3,
        "lost": 0,
    }
    assert "live: page updated" not in document["rows"]
    assert document["fetches"] == 0
    assert "nobody fetched" in completed.stdout


def test_the_worker_benchmark_runs_and_every_change_made_outside_the_web_process_is_heard(tmp_path):
    figures = tmp_path / "figures.json"
    command = [sys.executable, "bench/live_worker.py", "--games", "2", "--seconds", "15", "--phase", "5"]
    completed = subprocess.run(
        [*command, "--idle", "0.5", "--json", str(figures)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )

    assert completed.returncode in (0, 1) and figures.exists(), completed.stdout + completed.stderr  # 1: aim missed
    rows = json.loads(figures.read_text())["rows"]
    assert rows["worker (a bot's move)"]["count"] > 0, rows
    assert all(row["lost"] == 0 for row in rows.values()), rows
