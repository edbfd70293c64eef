"""Lighthouse (mobile) on the lobby and the game pages, as a newcomer's phone sees them (issue 39: at least 95 in
every category: performance, accessibility, best practices, SEO).

The site runs as ``bin/run`` serves it (uvicorn on ``config.asgi``, DEBUG off, the collected static files served by
whitenoise, the built-in content loaded) on a throw-away database (an SQLite file in a temporary folder or, when
DATABASE_URL names a PostgreSQL database, a database of that name plus ``_bench``, dropped at the end). It makes
four players, a live game of Storyteller in its vote phase, where the first player still votes, and a live game of
Think Alike in its answers, where a player still writes; then it runs npm's ``lighthouse`` (package.json; ``npm ci``
installs it) on the lobby (signed out and in) and the two game pages, and prints each page's four scores as a table.
Signed in, Lighthouse drives a Chromium that holds the player's session cookie in its own cookie jar (Lighthouse's
``--port``, its documented way to audit a page behind a log-in): every request sends it, the page's htmx fetches and
its live socket too. Lighthouse's ``--extra-headers`` does not serve: once the page has set a cookie of its own
(CSRF), Chromium sends the jar's Cookie header with the page's fetches instead, and the page fetched its fragments
as nobody (a spectator's board, a 403 for the chat). It exits with 1 when a score is under ``--aim`` (95). Not part
of the test suite: each run of Lighthouse takes tens of seconds.

    .venv/bin/python bench/lighthouse.py [--runs 1] [--keep DIR]   # --keep: the JSON reports kept there
"""

import argparse
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_latency import throwaway_site  # noqa: E402

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


def make_site() -> list[tuple[str, str, dict[str, str] | None]]:
    """The database, content and static files as ``bin/run`` makes them, and what is audited: the lobby signed out
    and in, a live Storyteller game of four in its vote phase that waits for the signed-in player's vote, and a
    live Think Alike game of three in its answer phase that waits for the signed-in player's answers. Returns the
    pages: (label, path, cookies or None)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.urls import reverse

    from games.services.games import game_act, game_create, game_join
    from games.tests.play import view_for

    call_command("migrate", verbosity=0)
    call_command("load_content", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    User = get_user_model()
    names = ("Astrid", "Mikael", "Sanna", "Léa")
    users = [User.objects.create(username=name.lower(), display_name=name) for name in names]

    def seated(kind: str, seats: list):
        game = game_create(creator=seats[0], kind=kind, max_seats=len(seats), pace="live")
        for user in seats[1:]:
            game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
        return game

    game = seated("storyteller", users)
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

    # Think Alike: the turn holder rolls and moves until the field reached asks everyone to answer (an action
    # field, a swap or a duel, asks something else: then a new game).
    for _attempt in range(20):
        answers = seated("think_alike", users[:3])
        holder = next(user for user in users[:3] if user.username == view_for(answers, users[0])["turn"])
        game_act(game_id=answers.pk, user=holder, action={"type": "roll"})
        game_act(game_id=answers.pk, user=holder, action={"type": "move", "direction": "cw"})
        answerer = next(user for user in users[:3] if user != holder)
        if view_for(answers, answerer)["phase"] == "answer":
            break
    else:
        raise RuntimeError("no Think Alike game reached its answers in 20 tries")
    return [
        ("lobby, signed out", reverse("games:lobby"), None),
        ("lobby, signed in", reverse("games:lobby"), signed_in(me)),
        ("game page (the vote)", reverse("games:detail", args=[game.pk]), signed_in(me)),
        ("game page (Think Alike's answers)", reverse("games:detail", args=[answers.pk]), signed_in(answerer)),
    ]


def signed_in(user) -> dict[str, str]:
    """The cookies of a browser where ``user`` has logged in: a session as a log-in makes it, and a CSRF cookie."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.CachedModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return {settings.SESSION_COOKIE_NAME: session.session_key, settings.CSRF_COOKIE_NAME: secrets.token_hex(16)}


def lighthouse(url: str, *, cookies: dict[str, str] | None, report: Path) -> dict[str, int]:
    """One run of Lighthouse (mobile, its default) on ``url``: the four categories' scores, 0-100. With
    ``cookies``, in a Chromium whose jar holds them (``signed_in_chromium``); else in a Chromium of its own."""
    command = [
        str(ROOT / "node_modules/.bin/lighthouse"), url,
        f"--only-categories={','.join(CATEGORIES)}", "--output=json", f"--output-path={report}", "--quiet",
    ]  # fmt: skip
    # Lighthouse now and then fails to record a load's trace ("NO_NAVSTART", a known flake of its own): up to
    # three tries, then give up.
    for attempt in (1, 2, 3):
        with signed_in_chromium(url, cookies) as port:
            options = [f"--port={port}"] if port else [f"--chrome-flags={CHROME_FLAGS}"]
            done = subprocess.run(command + options, env={**os.environ, "CHROME_PATH": CHROME}, timeout=300)
        if done.returncode == 0:
            break
        if attempt == 3:
            done.check_returncode()
    result = json.loads(report.read_text())
    return {name: round(100 * (result["categories"][name]["score"] or 0)) for name in CATEGORIES}


@contextlib.contextmanager
def signed_in_chromium(url: str, cookies: dict[str, str] | None):
    """A fresh Chromium (Playwright, Debian's executable) listening for DevTools on a free port, its cookie jar
    holding ``cookies`` for ``url``'s site; yields the port (None without cookies: Lighthouse starts its own)."""
    if not cookies:
        yield None
        return
    from playwright.sync_api import sync_playwright

    from games.tests.live.server import free_port

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="fabula-lighthouse-profile-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROME,
            headless=True,
            no_viewport=True,  # Lighthouse sets the phone's screen itself
            args=[*CHROME_FLAGS.replace("--headless=new ", "").split(), f"--remote-debugging-port={port}"],
        )
        try:
            context.add_cookies([{"name": name, "value": value, "url": url} for name, value in cookies.items()])
            yield port
        finally:
            context.close()


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
    with throwaway_site("fabula-lighthouse-") as (workdir, servers):
        reports = args.keep or workdir / "reports"
        reports.mkdir(parents=True, exist_ok=True)
        os.environ["FABULA_LIVE_PHASE_SECONDS"] = "86400"  # the vote waits while Lighthouse looks
        try:
            import django

            django.setup()

            from games.tests.live.server import AsgiServer, free_port

            pages = make_site()
            server = AsgiServer(env=dict(os.environ), port=free_port(), log_path=workdir / "server.log")
            servers.append(server)
            server.start()
            base = server.url.replace("127.0.0.1", "localhost")  # a secure context, as the site's address would be
            rows, missed = [], []
            for label, path, page_cookie in pages:
                runs = []
                for run in range(args.runs):
                    report = reports / f"{slug(label)}-{'in' if page_cookie else 'out'}-{run}.json"
                    runs.append(lighthouse(base + path, cookies=page_cookie, report=report))
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


def slug(label: str) -> str:
    """A report's name from its page's label: "game page (the vote)" -> "game-the-vote"."""
    words = [word.strip("(),'").lower() for word in label.replace("page", "").split()]
    return "-".join(word.replace("'s", "") for word in words if word not in ("signed", "in", "out"))


def lighthouse_version() -> str:
    return json.loads((ROOT / "node_modules/lighthouse/package.json").read_text())["version"]


if __name__ == "__main__":
    sys.exit(main())
