"""Every page of the site in Chromium, in English on a desktop (1280 x 800) and in French on a phone
(390 x 844): no axe-core violation (its default rules), nothing scrolls sideways on the phone, and
<html lang> is the page's language.

The pages come from the URL conf: every route is either visited here or excluded in ``EXCLUDED`` with a
reason, so a new page cannot be forgotten. The data is made through the services: two kinds of game, each
in every phase with a page state of its own, replays, player pages, leaderboards with entries,
notifications and a chat with messages. Failures are gathered and reported together at the end: page,
viewport, language, rule id, element and its HTML."""

import random
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.tokens import default_token_generator
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games.models import Game
from games.services.games import game_create, game_join
from games.tests import play as storyteller_play
from games.tests.browser import axe_script, axe_violations
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.play import view_for
from notifications.emails import unsubscribe_token
from notifications.models import Notification
from stats.kinds import every_kind_stats
from stats.models import LeaderboardEntry
from stats.services import stats_rebuild
from think_alike.tests import play as think_alike_play
from think_alike.tests.content import course_ids, small_content

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}

# Routes no page visit covers, each with the reason. Keys: "namespace:name", or the pattern of a route
# without a name. Namespaces in EXCLUDED_NAMESPACES are left out whole.
EXCLUDED_NAMESPACES = {
    "admin": "Django's admin: staff only, Django's own pages and styles",
    "api-v1": "the API's JSON endpoints (its documentation page is visited: api-v1:openapi-view)",
}
EXCLUDED = {
    "healthz": "a plain-text health check for load balancers",
    "logout": "POST only (the header's log-out button)",
    "set_language": "POST only (the footer's language menu)",
    "accounts:token_revoke": "POST only",
    "accounts:data_export": "a JSON file to download",
    "games:lobby_fragment": "an HTMX fragment of the lobby, checked inside games:lobby",
    "games:mine_fragment": "an HTMX fragment of my games, checked inside games:mine",
    "games:board": "an HTMX fragment of the game page, checked inside games:detail",
    "games:join": "POST only",
    "games:leave": "POST only",
    "games:start": "POST only",
    "games:act": "POST only",
    "games:rematch": "POST only",
    "games:decline": "POST only (a held seat's Decline button, in My games and on the rematch's page)",
    "games:open_seats": "POST only (the creator's button on the rematch's page)",
    "games:nudge": "POST only (the game page's Nudge button, back to the game)",
    "accounts:time": "POST only (the profile page's Your time form, back to the profile)",
    "storyteller:clue_media_create": "POST only, answers JSON",
    "storyteller:clue_media_file": "a clue's picture or recording file",
    "storyteller:card_report": "POST only: the game page's report form, back to the game",
    "chat:say": "POST only",
    "chat:mute": "POST only",
    "chat:report": "POST only",
    "chat:panel": "an HTMX fragment of the game page, checked inside games:detail (a game with messages)",
    "bots:add": "POST only",
    "bots:play_now": "POST only",
    "notifications:read_all": "POST only",
    "notifications:bell": "the bell's count, fetched by the header's script",
    "notifications:open": "a redirect to the notification's game (the game pages are visited)",
    "notifications:push_subscribe": "POST only, answers JSON (the Web Push subscription)",
    "notifications:push_unsubscribe": "POST only, answers JSON",
    "notifications:game_mute": "POST only (a game's mute button)",
    "service_worker": "the service worker's script",
    "web_manifest": "the web app manifest (JSON)",
    "card_picture": "a card's picture file (the site's decks, and a player's own for those who may see it)",
    "decks:rename": "POST only (a deck's page)",
    "decks:delete": "POST only (a deck's page)",
    "decks:share": "POST only (a deck's page)",
    "decks:unshare": "POST only (a deck's page)",
    "decks:public": "POST only (a deck's page)",
    "decks:card_upload": "POST only, answers JSON to the deck page's script",
    "decks:card_alt": "POST only (a deck's page)",
    "decks:card_move": "POST only (a deck's page)",
    "decks:card_delete": "POST only (a deck's page)",
    "decks:card_review": "POST only (a deck's page: ask for a review of a hidden card)",
    "^(?P<rest>.*)$": "the API's JSON answer to a path it does not know",
}
EXCLUDED_API_PAGES = {"api-v1:openapi-view"}  # in the excluded namespace, yet an HTML page: visited


@dataclass
class Visit:
    label: str
    who: str  # a username, or "" for a visitor who is not signed in
    path: str
    status: int = 200
    route: str = ""  # the route it covers, where the path does not resolve to it (a rendered error page)


def route_key(pattern, name: str | None, namespace: str) -> str:
    """ "namespace:name"; for a route without a name, its pattern (after its namespace, if any)."""
    key = name or str(pattern)
    return f"{namespace}:{key}" if namespace else key


def site_routes(patterns=None, prefix="", namespace="") -> dict[str, str]:
    """Every route of the URL conf: {key: its path pattern}."""
    routes = {}
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = ":".join(part for part in (namespace, entry.namespace or "") if part)
            routes |= site_routes(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            routes[route_key(entry.pattern, entry.name, namespace)] = prefix + str(entry.pattern)
    return routes


def covered_route(path: str) -> str:
    match = resolve(path.split("?")[0])
    return route_key(match.route, match.url_name, match.namespace)


def not_covered(visits: list[Visit]) -> tuple[set[str], set[str]]:
    """(routes neither visited nor excluded, excluded names that are no route)."""
    routes = site_routes()
    covered = {visit.route or covered_route(visit.path) for visit in visits}
    left = {
        key
        for key in routes
        if key not in covered
        and key not in EXCLUDED
        and not (":" in key and key.split(":")[0] in EXCLUDED_NAMESPACES and key not in EXCLUDED_API_PAGES)
    }
    return left, set(EXCLUDED) - set(routes)


# --- the data, made through the services ---------------------------------------------------------------


def seated_game(users, **kwargs) -> Game:
    game = game_create(creator=users[0], max_seats=kwargs.pop("max_seats", len(users)), **kwargs)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def play_until(game, users, step, done, rng, limit=500) -> Game:
    for _ in range(limit):
        if done(game):
            return game
        assert step(game, users, rng), f"game {game.pk} ended before the state wanted"
    raise AssertionError(f"game {game.pk} never reached the state wanted")


def storyteller_phase(game, users, phase: str, round_: int = 1):
    def done(g):
        view = view_for(g, users[0])
        return view["round"] == round_ and view["phase"] == phase

    return done


def think_alike_phase(game, users, phase: str):
    return lambda g: view_for(g, users[0])["phase"] == phase


def make_site(rng: random.Random) -> dict:
    """The people, games and stats every page needs; returns what the visits are built from."""
    alice, bob, carol = (UserFactory(username=name, display_name=name.title()) for name in ("alice", "bob", "carol"))
    erin = UserFactory(username="erin", display_name="Erin")  # seated nowhere: sees an invitation
    dora = UserFactory(username="dora", display_name="Dora")  # never logs in: her reset link stays valid
    players = [alice, bob, carol]
    deck = deck_with_cards(40, name="Test deck")
    st = {"deck": deck.pk, "target_score": 6}
    site: dict = {"users": {u.username: u for u in (alice, bob, carol, erin, dora)}}

    # Storyteller: open (two of four seats), then started games held in each phase.
    site["st_open"] = seated_game([alice, bob], max_seats=4, options=st)
    step = storyteller_play.play_step
    site["st_clue"] = seated_game(players, options=st)
    for user, text in ((alice, "Good luck, everyone!"), (bob, "Merci, à vous aussi.")):
        client = Client()  # through the chat's own view: the games core imports no chat module
        client.force_login(user)
        said = client.post(reverse("chat:say", kwargs={"game_id": site["st_clue"].pk}), {"text": text})
        assert said.status_code < 400, said.content
    for phase, round_ in (("submit", 1), ("vote", 1), ("clue", 2)):
        game = seated_game(players, options=st)
        site[f"st_{phase}_{round_}"] = play_until(
            game, players, step, storyteller_phase(game, players, phase, round_), rng
        )
    site["st_finished"] = storyteller_play.play_to_end(seated_game(players, options=st), players, rng)
    assert site["st_finished"].status == Game.Status.FINISHED

    # Think Alike: the board laid by the players, then a course, rolled, answered, reviewed, finished.
    content = small_content(answers=3)
    ta = {"stop": "tasks", "count": 2, "lang": "en"}
    site["ta_draft"] = seated_game(players, kind="think_alike", options={**ta, "board": "draft"})
    course = {**ta, "board": "course", "course": course_ids(content)}
    ta_step = think_alike_play.play_step
    for phase in ("roll", "answer", "review"):
        game = seated_game(players, kind="think_alike", options=course)
        site[f"ta_{phase}"] = play_until(game, players, ta_step, think_alike_phase(game, players, phase), rng)
    site["ta_finished"] = think_alike_play.play_to_end(
        seated_game(players, kind="think_alike", options=course), players, rng
    )
    assert site["ta_finished"].status == Game.Status.FINISHED

    # A deck of alice's own, one card described and one waiting for its words, shared with bob.
    from storyteller.models import Card as OwnCard
    from storyteller.models import Deck as OwnDeck

    own = OwnDeck.objects.create(owner=alice, name="Holiday", slug="own-a11y")
    own.shared_with.add(bob)
    OwnCard.objects.create(deck=own, image="cards/own/a11y-1.webp", alt_text="A boat on a lake", position=1)
    OwnCard.objects.create(deck=own, image="cards/own/a11y-2.webp", alt_text="", is_retired=True, position=2)
    site["own_deck"] = own

    stats_rebuild(now=timezone.now())
    assert LeaderboardEntry.objects.exists(), "the leaderboards have entries"
    assert Notification.objects.filter(user=alice).exists(), "alice has notifications"
    return site


def make_visits(site: dict) -> list[Visit]:
    users = site["users"]
    alice, dora = users["alice"], users["dora"]
    reset = reverse(
        "accounts:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(dora.pk)),
            "token": default_token_generator.make_token(dora),
        },
    )
    visits = [
        Visit("home, signed out", "", reverse("home")),
        Visit("home", "alice", reverse("home")),
        Visit("log-in", "", reverse("login")),
        Visit("sign-up", "", reverse("accounts:signup")),
        Visit("password reset", "", reverse("accounts:password_reset")),
        Visit("password reset sent", "", reverse("accounts:password_reset_done")),
        Visit("new password (valid link)", "", reset),
        Visit(
            "new password (spent link)",
            "",
            reverse("accounts:password_reset_confirm", kwargs={"uidb64": "MQ", "token": "spent-link"}),
        ),
        Visit("password reset complete", "", reverse("accounts:password_reset_complete")),
        Visit("password change", "alice", reverse("accounts:password_change")),
        Visit("profile", "alice", reverse("accounts:profile")),
        Visit("API tokens", "alice", reverse("accounts:tokens")),
        Visit("delete account", "alice", reverse("accounts:delete")),
        Visit("privacy", "", reverse("privacy")),
        Visit("not found", "alice", "/no-such-page/", status=404, route="404.html"),
        Visit("lobby", "alice", reverse("games:lobby")),
        Visit("lobby, signed out", "", reverse("games:lobby")),
        Visit("my games", "alice", reverse("games:mine")),
        Visit("my decks", "alice", reverse("decks:list")),
        Visit("my deck", "alice", reverse("decks:deck", args=[site["own_deck"].pk])),
        Visit("a deck shared with me", "bob", reverse("decks:deck", args=[site["own_deck"].pk])),
        Visit("new game", "alice", reverse("games:create")),
        Visit("rules", "", reverse("games:rules_index")),
        Visit("invitation", "erin", reverse("games:invite", kwargs={"code": site["st_open"].invite_code})),
        Visit("open game, seated", "alice", site["st_open"].get_absolute_url()),
        Visit("open game, not seated", "erin", site["st_open"].get_absolute_url()),
        Visit("notifications", "alice", reverse("notifications:list")),
        Visit("notification settings", "alice", reverse("notifications:settings")),
        Visit("unsubscribe", "", reverse("notifications:unsubscribe", kwargs={"token": unsubscribe_token(alice)})),
        Visit(
            "unsubscribe, bad link",
            "",
            reverse("notifications:unsubscribe", kwargs={"token": "no-such-token"}),
            status=404,
        ),
        Visit("leaderboards", "alice", reverse("stats:leaderboards")),
        Visit("API documentation", "", reverse("api-v1:openapi-view")),
    ]
    for kind in ("storyteller", "think_alike"):
        visits.append(Visit(f"rules of {kind}", "", reverse("games:rules", kwargs={"kind": kind})))
    for stats in every_kind_stats():
        for board in stats.boards:
            url = reverse("stats:leaderboard", kwargs={"kind": stats.kind, "board": board.slug})
            visits.append(Visit(f"leaderboard {stats.kind} {board.slug}", "alice", url))
    for name in ("alice", "bob"):
        visits.append(Visit(f"player page of {name}", "alice", reverse("stats:player", kwargs={"username": name})))
    for key in ("st_finished", "ta_finished"):
        visits.append(Visit(f"replay {key}", "alice", reverse("stats:replay", kwargs={"game_id": site[key].pk})))
    for key in ("st_clue", "st_submit_1", "st_vote_1", "st_clue_2", "st_finished"):
        game = site[key]
        # The one who acts and the one who waits see different things.
        for name in ("alice", "bob"):
            visits.append(Visit(f"game {key} as {name}", name, game.get_absolute_url()))
    for key in ("ta_draft", "ta_roll", "ta_answer", "ta_review", "ta_finished"):
        holder = view_for(site[key], alice)["turn"] or "alice"
        other = "carol" if holder != "carol" else "bob"
        for name in (holder, other):
            visits.append(Visit(f"game {key} as {name}", name, site[key].get_absolute_url()))
    # Pages no GET reaches: the 403 of an expired form, the 429 of too many tries, the 500.
    visits += [
        Visit("form expired (403)", "alice", "/__a11y__/403/", status=403, route="403_csrf.html"),
        Visit("too many tries (429)", "", "/__a11y__/429/", status=429, route="429.html"),
        Visit("server error (500)", "", "/__a11y__/500/", status=500, route="500.html"),
    ]
    return visits


def error_pages(lang: str, session_cookie: str | None) -> dict[str, tuple[int, dict, bytes]]:
    """The bodies of the error pages no GET reaches, as the server would answer them, in ``lang``."""
    from accounts.throttle import too_many
    from games.busy import server_error

    pages = {}
    client = Client(enforce_csrf_checks=True, headers={"accept-language": lang})
    if session_cookie:
        client.cookies[settings.SESSION_COOKIE_NAME] = session_cookie
    response = client.post(reverse("accounts:profile"), {"display_name": "x"})  # no CSRF token: refused
    assert response.status_code == 403
    pages["/__a11y__/403/"] = response
    with translation.override(lang):
        request = RequestFactory().get("/", headers={"accept-language": lang})
        request.user = AnonymousUser()
        request.LANGUAGE_CODE = lang
        pages["/__a11y__/429/"] = too_many(request, wait=300)
        pages["/__a11y__/500/"] = server_error(request)
    return {path: (response.status_code, dict(response.items()), response.content) for path, response in pages.items()}


# --- the test ------------------------------------------------------------------------------------------


def fulfil_with(status: int, headers: dict, body: bytes):
    return lambda route: route.fulfill(status=status, headers=headers, body=body)


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"a11y-{name}", full_page=False, timeout=10_000)


# Each language once and each size once: English on a desktop, French on a phone. The language changes
# the words (French's are the longer: what a phone's width is short of) and the size the layout; the pages
# are the same markup otherwise, and the two other pairs cost CI four minutes of a 2-core machine's time
# without a finding of their own. games/tests/test_browser_phone.py sends English pages to a phone too.
SWEEPS = [("en", "desktop"), ("fr", "phone")]


@pytest.mark.sweep
@pytest.mark.timeout(900)  # every page once: about 75 s alone, three minutes on a loaded machine
@pytest.mark.parametrize(("lang", "device"), SWEEPS, ids=[f"{lang}-{device}" for lang, device in SWEEPS])
def test_every_page_is_accessible(asgi_server, browser, lang, device):
    """One language on one viewport: apart, each run is shorter, and pytest-xdist spreads the two."""
    live_server = asgi_server  # a real ASGI server: the game pages open their sockets
    started = time.monotonic()
    site = make_site(random.Random(15))
    visits = make_visits(site)
    left, stale = not_covered(visits)
    problems = [f"route {key} is neither visited nor in EXCLUDED" for key in sorted(left)]
    problems += [f"EXCLUDED names {key}, which is no route" for key in sorted(stale)]
    sessions = {name: session_of(user) for name, user in site["users"].items() if name != "dora"}
    made = time.monotonic()
    print(f"\nthe data: {made - started:.1f} s")
    script = axe_script()
    checked = 0
    reported = 0
    durations: list[tuple[float, str]] = []
    errors = {who: error_pages(lang, sessions.get(who)) for who in {visit.who for visit in visits}}
    options = VIEWPORTS[device]
    contexts = {}
    for visit in visits:
        context = contexts.get(visit.who)
        if context is None:
            context = contexts[visit.who] = browser.new_context(base_url=live_server.url, **options)
            cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
            if visit.who:
                cookies.append(
                    {"name": settings.SESSION_COOKIE_NAME, "value": sessions[visit.who], "url": live_server.url}
                )
            context.add_cookies(cookies)
            if script is not None:
                context.add_init_script(path=str(script))  # before the page's own scripts; no CSP applies
            for path, answer in errors[visit.who].items():
                context.route(f"**{path}", fulfil_with(*answer))
        where = f"{visit.label} [{visit.path}] {lang} {device}"
        began = time.monotonic()
        page = context.new_page()
        response = page.goto(visit.path)
        page.wait_for_load_state("load")
        checked += 1
        if response is None or response.status != visit.status:
            problems.append(f"{where}: status {response and response.status}, not {visit.status}")
        html_lang = page.evaluate("document.documentElement.lang")
        if html_lang != lang:
            problems.append(f'{where}: <html lang="{html_lang}">')
        if device == "phone":
            width, client = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if width > client:
                problems.append(f"{where}: {width} px wide in a {client} px window (sideways scroll)")
                screenshot(page, f"{visit.label}-{lang}-{device}".replace(" ", "_").replace("/", "_"))
        problems += [f"{where}: {violation}" for violation in axe_violations(page)]
        page.close()
        durations.append((time.monotonic() - began, where))
        for problem in problems[reported:]:  # as they come: the whole run is long
            print(problem, flush=True)
        reported = len(problems)
    for context in contexts.values():
        context.close()
    print(
        f"\n{checked} page views of {len(visits)} pages: data {made - started:.1f} s, "
        f"browser {time.monotonic() - made:.1f} s"
    )
    print("slowest:", *(f"{seconds:.1f} s {where}" for seconds, where in sorted(durations)[-5:]), sep="\n  ")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("environment", "outcome"),
    [
        ({"CI": "true"}, pytest.fail.Exception),  # CI
        ({"FABULA_REQUIRE_AXE": "1"}, pytest.fail.Exception),  # bin/test
        ({}, pytest.skip.Exception),  # a bare pytest without node_modules
    ],
)
def test_a_missing_axe_core_fails_under_ci_and_bin_test(settings, tmp_path, monkeypatch, environment, outcome):
    settings.BASE_DIR = tmp_path  # no node_modules there
    for name in ("AXE_CORE_JS", "CI", "FABULA_REQUIRE_AXE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(outcome, match="axe-core is missing"):
        axe_violations(page=None)
