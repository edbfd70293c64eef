"""Lighthouse (mobile) on the lobby and a game page, as a newcomer's phone sees them (issue 39: at least 95 in
every category: performance, accessibility, best practices, SEO).

The site runs as ``bin/run`` serves it (uvicorn on ``config.asgi``, DEBUG off, the collected static files served
by whitenoise, the built-in content loaded) on a throw-away database (an SQLite file in a temporary folder or,
when DATABASE_URL names a PostgreSQL database, a database of that name plus ``_bench``, dropped at the end). It
makes four players and a live public game of Storyteller in its vote phase, where the first player still votes; then it
runs npm's ``lighthouse`` (package.json; ``npm ci`` installs it) against Debian's Chromium, signed in by that
player's session cookie (``--extra-headers``), on the lobby (signed out and in) and the game page, and prints
each page's four scores as a table. It exits with 1 when a score is under ``--aim`` (95). Not part of the test
suite: each run of Lighthouse takes tens of seconds.

    .venv/bin/python bench/lighthouse.py [--runs 1] [--keep DIR]   # --keep: the JSON reports kept there
"""

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_latency import drop_database, prepare_environment  # noqa: E402

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
    "--disable-sync --no-first-run --disable-quic"
)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median score is reported (1)")
    parser.add_argument("--aim", type=int, default=95, help="the least score of every category (95)")
    parser.add_argument("--keep", type=Path, help="keep Lighthouse's JSON reports in this folder")
    return parser.parse_args(argv)


def make_site() -> tuple[str, int]:
    """The database, content and static files as ``bin/run`` makes them; four players and a live Storyteller game
    in its vote phase that waits for the first player's vote. Returns that player's session cookie and the game."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from games.services.games import game_act, game_create, game_join
    from games.tests.play import view_for

    call_command("migrate", verbosity=0)
    call_command("load_content", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    User = get_user_model()
    names = ("Astrid", "Mikael", "Sanna", "Léa")
    users = [User.objects.create(username=name.lower(), display_name=name) for name in names]
    # Public: Chrome sends --extra-headers with every HTTP request but not with the live socket's handshake, which
    # (without the session) may follow a public game only: a private one would log a refused socket to the console.
    game = game_create(creator=users[0], kind="storyteller", max_seats=4, pace="live")
    for user in users[1:]:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    me, storyteller = users[0], users[1]
    view = view_for(game, storyteller)
    clue = {"type": "clue", "card": view["hand"][0]["id"], "text": "A door to nowhere"}
    game_act(game_id=game.pk, user=storyteller, action=clue, expected_round=view["round"])
    for user in [me, *users[2:]]:
        view = view_for(game, user)
        submit = {"type": "submit", "cards": [card["id"] for card in view["hand"][: view["cards_to_submit"]]]}
        game_act(game_id=game.pk, user=user, action=submit, expected_round=view["round"])
    for user in users[2:]:
        view = view_for(game, user)
        vote = {"type": "vote", "position": next(c["position"] for c in view["table"] if not c["mine"])}
        game_act(game_id=game.pk, user=user, action=vote, expected_round=view["round"])
    view = view_for(game, me)
    assert view["phase"] == "vote" and view["you"]["to_act"], view["phase"]
    session = SessionStore()
    session[SESSION_KEY] = str(me.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.CachedModelBackend"  # as a log-in makes it
    session[HASH_SESSION_KEY] = me.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}; csrftoken={secrets.token_hex(16)}", game.pk


def lighthouse(url: str, *, cookie: str | None, report: Path) -> dict[str, int]:
    """One run of Lighthouse (mobile, its default) on ``url``: the four categories' scores, 0-100."""
    command = [
        str(ROOT / "node_modules/.bin/lighthouse"), url,
        f"--only-categories={','.join(CATEGORIES)}", "--output=json", f"--output-path={report}",
        f"--chrome-flags={CHROME_FLAGS}", "--quiet",
    ]  # fmt: skip
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    # Lighthouse now and then fails to record a load's trace ("NO_NAVSTART", a known flake of its own): up to
    # three tries, then give up.
    for attempt in (1, 2, 3):
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROME}, timeout=300)
        if done.returncode == 0:
            break
        if attempt == 3:
            done.check_returncode()
    result = json.loads(report.read_text())
    return {name: round(100 * (result["categories"][name]["score"] or 0)) for name in CATEGORIES}


def below(result: dict, aim: int) -> list[str]:
    """The audits that cost ``result``'s categories points, for a page under the aim."""
    lines = []
    for name in CATEGORIES:
        for ref in result["categories"][name]["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 0.9:
                lines.append(f"  {name}: {ref['id']} ({audit['score']}) {audit.get('displayValue', '')}")
    return lines


def main(argv=None) -> int:
    args = parse_args(argv)
    if not (ROOT / "node_modules/.bin/lighthouse").exists():
        print("lighthouse is missing: `npm ci` at the checkout's root installs it (package.json)", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="fabula-lighthouse-"))
    reports = args.keep or workdir / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    bench_database = prepare_environment(workdir)
    os.environ["FABULA_LIVE_PHASE_SECONDS"] = "86400"  # the vote waits while Lighthouse looks
    server = None
    try:
        import django

        django.setup()
        from django.urls import reverse

        from games.tests.live.server import AsgiServer, free_port

        cookie, game_id = make_site()
        server = AsgiServer(env=dict(os.environ), port=free_port(), log_path=workdir / "server.log")
        server.start()
        base = server.url.replace("127.0.0.1", "localhost")  # a secure context, as the site's address would be
        pages = [
            ("lobby, signed out", reverse("games:lobby"), None),
            ("lobby, signed in", reverse("games:lobby"), cookie),
            ("game page (the vote)", reverse("games:detail", args=[game_id]), cookie),
        ]
        rows, missed = [], []
        for label, path, page_cookie in pages:
            runs = []
            for run in range(args.runs):
                report = reports / f"{label.split(',')[0].split(' ')[0]}-{'in' if page_cookie else 'out'}-{run}.json"
                runs.append(lighthouse(base + path, cookie=page_cookie, report=report))
                if min(runs[-1].values()) < args.aim:
                    missed += [f"{label}, run {run + 1}:", *below(json.loads(report.read_text()), args.aim)]
            scores = {name: sorted(run[name] for run in runs)[len(runs) // 2] for name in CATEGORIES}
            rows.append((label, scores))
        print(f"\nLighthouse {lighthouse_version()} (mobile), median of {args.runs} run(s), Chromium at {CHROME}")
        print(f"| page | {' | '.join(CATEGORIES)} |")
        print(f"| --- |{' ---: |' * len(CATEGORIES)}")
        for label, scores in rows:
            print(f"| {label} | {' | '.join(str(scores[name]) for name in CATEGORIES)} |")
        if missed:
            print("\nUnder the aim:", *missed, sep="\n")
        return 0 if all(min(scores.values()) >= args.aim for _label, scores in rows) else 1
    except Exception:
        log = workdir / "server.log"
        if log.exists():
            print(f"--- the end of the server's log:\n{log.read_text()[-3000:]}", file=sys.stderr)
        raise
    finally:
        if server is not None:
            server.stop()
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)


def lighthouse_version() -> str:
    return json.loads((ROOT / "node_modules/lighthouse/package.json").read_text())["version"]


if __name__ == "__main__":
    sys.exit(main())
