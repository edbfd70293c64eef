"""The site on a phone (390 x 844) and a desktop (1280 x 800), in Chromium: the header is one line with
a menu for the links, no page scrolls sideways, the home page shows the games' own cards, and a new
visitor is seated in a new game three clicks after landing on the home page. axe-core finds nothing on
the home page, the lobby and the sign-up, in English and in French.
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_create
from games.tests.browser import assert_accessible, log_in, wait_until
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory
from notifications.models import Notification
from storyteller.decks.services.builtin import decks_load_builtin
from think_alike.services.content import content_load_builtin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"phone-{name}")


def page_width(page) -> tuple[int, int]:
    """The page's width and the viewport's asked for (a phone's innerWidth grows with an overflowing page)."""
    return page.evaluate("document.scrollingElement.scrollWidth"), page.viewport_size["width"]


def assert_no_sideways_scroll(page):
    width, inner = page_width(page)
    assert width <= inner, f"{page.url} is {width} px wide in a {inner} px window"


def header_box(page) -> dict:
    return page.evaluate(
        "(() => { const r = document.querySelector('.site-header').getBoundingClientRect();"
        " return {height: r.height, width: r.width}; })()"
    )


@pytest.fixture
def content():
    decks_load_builtin()
    content_load_builtin()


@pytest.fixture(params=list(VIEWPORTS))
def device(request, browser):
    context = browser.new_context(**VIEWPORTS[request.param])
    yield request.param, context.new_page()
    context.close()


def test_the_header_is_one_line_on_a_phone_with_a_menu(live_server, browser, content):
    user = UserFactory(username="anna")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}{reverse('games:lobby')}")
    button = page.locator("button.menu-button")
    bell = page.locator(".site-header .bell")
    brand = page.locator(".site-header .brand")
    lobby = page.locator("#site-menu").get_by_role("link", name="Lobby")

    assert header_box(page)["height"] <= 80
    tops = [locator.bounding_box() for locator in (brand, bell, button)]
    middles = [box["y"] + box["height"] / 2 for box in tops]
    assert max(middles) - min(middles) < 12, f"not one line: {tops}"
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_have_attribute("aria-controls", "site-menu")
    expect(lobby).to_be_hidden()
    screenshot(page, "header-closed")

    button.click()  # by a tap
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(lobby).to_be_visible()
    expect(page.locator("#site-menu .me")).to_have_attribute("href", "/players/anna/")
    assert header_box(page)["height"] <= 80  # the menu lies over the page, the header keeps its line
    screenshot(page, "header-open")
    page.keyboard.press("Escape")
    expect(lobby).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")

    button.focus()  # by the keyboard: open, into the links, Escape back to the button
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#site-menu') !== null")
    page.keyboard.press("Escape")
    expect(lobby).to_be_hidden()
    assert page.evaluate("document.activeElement.classList.contains('menu-button')")
    page.keyboard.press("Space")
    expect(lobby).to_be_visible()
    page.mouse.click(195, 820)  # a tap elsewhere (below the open menu) closes it
    expect(lobby).to_be_hidden()

    button.click()
    lobby.click()
    expect(page).to_have_url(re.compile(r"/games/$"))
    context.close()


def test_the_menu_works_without_javascript(live_server, browser):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/")
    summary = page.locator("details.menu > summary")
    lobby = page.locator("#site-menu").get_by_role("link", name="Lobby")
    expect(lobby).to_be_hidden()
    summary.click()
    expect(lobby).to_be_visible()
    assert header_box(page)["height"] <= 80
    context.close()


def test_the_desktop_shows_every_link_in_one_line(live_server, browser):
    user = UserFactory(username="bo")
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}{reverse('games:lobby')}")
    expect(page.locator("button.menu-button")).to_be_hidden()
    for name in ("Lobby", "My games", "New game", "Leaderboards", "Rules"):
        expect(page.locator("#site-menu").get_by_role("link", name=name)).to_be_visible()
    expect(page.locator("#site-menu .me")).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    assert header_box(page)["height"] <= 80
    screenshot(page, "header-desktop")
    context.close()


def test_no_page_scrolls_sideways_on_a_phone(live_server, browser, content):
    user = UserFactory(username="a-very-long-name-without-any-space-at-all")
    others = UserFactory.create_batch(3)
    game = game_create(creator=user, max_seats=4)
    open_game = game_create(creator=others[0], kind="think_alike", max_seats=4)
    Notification.objects.count()  # (the list page is visited with whatever it holds)
    base = live_server.url
    context = browser.new_context(**PHONE)
    page = context.new_page()
    for name, url in (
        ("home", "/"),
        ("signup", reverse("accounts:signup")),
        ("login", reverse("login")),
    ):
        page.goto(base + url)
        assert_no_sideways_scroll(page)
        screenshot(page, f"page-{name}")
    log_in(page, base, user.username)
    pages = {
        "lobby": reverse("games:lobby"),
        "mine": reverse("games:mine"),
        "new-game": reverse("games:create"),
        "game": game.get_absolute_url(),
        "open-game": open_game.get_absolute_url(),
        "rules": reverse("games:rules_index"),
        "rules-storyteller": reverse("games:rules", args=["storyteller"]),
        "rules-think-alike": reverse("games:rules", args=["think_alike"]),
        "leaderboards": reverse("stats:leaderboards"),
        "player": reverse("stats:player", args=[user.username]),
        "notifications": reverse("notifications:list"),
        "settings": reverse("notifications:settings"),
        "profile": reverse("accounts:profile"),
    }
    wide = []
    for name, url in pages.items():
        page.goto(base + url)
        page.wait_for_load_state("load")
        width, inner = page_width(page)
        if width > inner:
            wide.append(f"{name} ({url}): {width} px")
        screenshot(page, f"page-{name}")
    assert not wide, "pages wider than the phone: " + ", ".join(wide)
    context.close()


def test_my_games_draws_every_players_avatar_from_the_lists_drawings(live_server, browser, content):
    """Each avatar on My games points at a drawing the list holds once: in Chromium every chip's avatar
    is drawn at its size, with the player's initials, after a live refresh of the list too."""
    from games.services.games import game_join

    me = UserFactory(display_name="Mia Lund")
    friends = [UserFactory(display_name=f"Friend {n}") for n in range(3)]
    for _ in range(3):
        game = game_create(creator=me, max_seats=4)
        for friend in friends:
            game_join(game_id=game.pk, user=friend)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    page.goto(live_server.url + reverse("games:mine"))
    expect(page.locator(".avatar-chip")).to_have_count(12)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('.avatar-chip')].map((svg) => {
            const use = svg.querySelector('use');
            const symbol = document.getElementById(use.getAttribute('href').slice(1));
            const box = use.getBBox();
            const initials = symbol ? symbol.querySelector('text').textContent : null;
            return [svg.getBoundingClientRect().width, box.width, initials];
        })"""
    )
    # The outline fills most of its 20 px (a missing drawing measures 0).
    assert all(width == 20 and inner > 12 for width, inner, _initials in drawn), drawn
    assert sorted({initials for *_size, initials in drawn}) == ["F0", "F1", "F2", "ML"]
    assert page.locator("svg.avatar-symbols symbol").count() == 4
    screenshot(page, "mine-avatars")
    # The live refresh swaps the list in again, drawings and all.
    page.evaluate("document.getElementById('mine-list').dispatchEvent(new Event('fabula:refresh'))")
    page.wait_for_load_state("networkidle")
    assert page.locator("svg.avatar-symbols symbol").count() == 4
    assert page.evaluate("document.querySelector('.avatar-chip use').getBBox().width") > 12
    context.close()


@pytest.mark.parametrize("lang", [code for code, _name in settings.LANGUAGES])
def test_the_header_is_one_line_from_960_px_in_every_language_and_a_menu_below(live_server, browser, lang):
    """From 960 px every link is in the header's line, in one line even in French with a long name (the
    name gives way, cut short); below it the links fold into the menu. (At 880-960 px French wrapped.)"""
    user = UserFactory(display_name="Kristiina Virtanen-Lindqvist of Turku")
    heights = {}
    for width in (959, 960, 1280):
        context = browser.new_context(
            viewport={"width": width, "height": 700}, locale=lang, extra_http_headers={"Accept-Language": lang}
        )
        page = context.new_page()
        log_in(page, live_server.url, user.username)
        page.goto(live_server.url + reverse("games:lobby"))
        assert page.evaluate("document.documentElement.lang") == lang
        heights[width] = page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")
        assert page.locator("button.menu-button").is_visible() is (width < 960)
        assert_no_sideways_scroll(page)
        if width >= 960:
            links = page.locator(".menu-panel > a, .menu-panel > form")
            tops = {round(links.nth(i).bounding_box()["y"] / 10) for i in range(links.count())}
            assert len(tops) == 1, f"{lang} at {width} px: the header's links are on {len(tops)} lines"
            name = page.locator(".menu-panel > a.me")
            assert name.evaluate("(a) => a.scrollWidth > a.clientWidth") is True  # cut short, not wrapped
            expect(name).to_have_text(re.compile("Kristiina Virtanen-Lindqvist of Turku"))  # whole for a reader
        context.close()
    assert heights[959] == heights[960] == heights[1280]


def test_the_home_page_shows_the_cards(live_server, device, content):
    name, page = device
    page.goto(live_server.url + "/")
    images = page.locator(".showcase img")
    expect(images).to_have_count(3)
    for i in range(3):
        expect(images.nth(i)).to_have_attribute("alt", re.compile(r"\w+ \w+ \w+"))
    wait_until(
        page,
        "() => [...document.querySelectorAll('.showcase img')].every((img) => img.complete && img.naturalWidth > 0)",
    )
    expect(page.locator(".showcase-task .task-text")).to_have_text("A fruit that is not round")
    expect(page.get_by_role("link", name="Play Storyteller")).to_be_visible()
    expect(page.get_by_role("link", name="Play Think Alike")).to_be_visible()
    assert_no_sideways_scroll(page)
    screenshot(page, f"home-{name}")


@pytest.mark.parametrize("way", ["create", "join"])
def test_a_new_visitor_is_seated_three_clicks_after_the_home_page(live_server, browser, content, way):
    waiting = game_create(creator=UserFactory(username="host"), max_seats=4) if way == "join" else None
    context = browser.new_context(**PHONE)
    page = context.new_page()
    clicks = []

    def click(locator):
        clicks.append(locator)
        locator.click()

    page.goto(live_server.url + "/")
    click(page.get_by_role("link", name="Play Storyteller"))
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    page.fill("#id_username", "newcomer")  # typing is no click
    page.fill("#id_email", "newcomer@example.com")
    page.fill("#id_password1", "a-Long-pass-123")
    page.fill("#id_password2", "a-Long-pass-123")
    click(page.get_by_role("button", name="Create my account"))
    expect(page.get_by_role("heading", name="New game", exact=True)).to_be_visible()
    expect(page.locator("input[name=kind][value=storyteller]")).to_be_checked()
    assert_no_sideways_scroll(page)
    screenshot(page, f"three-clicks-{way}-form")
    if way == "create":
        # A newcomer's game starts at once: live, bots in the other three seats (issue 39).
        expect(page.locator("input[name=with_bots]")).to_be_checked()
        click(page.get_by_role("button", name="Create the game"))
        expect(page.locator("#status")).not_to_contain_text("seats taken")
        game = Game.objects.get()
        assert game.status == Game.Status.ACTIVE and game.pace == Game.Pace.LIVE
    else:  # a free seat in a game waiting for players, offered above the form
        expect(page.locator(".join-instead")).to_contain_text("1 of 4 seated")
        click(page.locator(".join-instead").get_by_role("button", name="Join"))
        expect(page.locator("#status")).to_contain_text("2 of 4 seats taken")
        game = waiting
    assert len(clicks) == 3
    seated_people = {seat.user.username for seat in game.seats.select_related("user") if not seat.user.is_bot}
    assert seated_people == ({"newcomer"} if way == "create" else {"host", "newcomer"})
    assert game.seats.count() == (4 if way == "create" else 2)
    assert page.url.endswith(game.get_absolute_url())
    assert_no_sideways_scroll(page)
    screenshot(page, f"three-clicks-{way}-game")
    context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_home_lobby_and_sign_up_are_accessible(live_server, browser, content, lang):
    creator = UserFactory()
    game_create(creator=creator, max_seats=4)
    game_create(creator=creator, kind="think_alike", max_seats=4)
    for name, options in VIEWPORTS.items():
        context = browser.new_context(**options)
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}])
        page = context.new_page()
        for url in ("/", reverse("games:lobby"), reverse("accounts:signup") + "?next=/games/new/%3Fkind%3Dstoryteller"):
            page.goto(live_server.url + url)
            assert page.evaluate("document.documentElement.lang") == lang
            assert_accessible(page)
            if name == "phone":
                page.locator("button.menu-button").click()  # the open menu too
                assert_accessible(page)
        screenshot(page, f"signup-{lang}-{name}")
        context.close()


def test_a_wide_table_scrolls_in_its_own_box(live_server, browser, content):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("games:rules", args=["storyteller"]))
    for table in page.locator("main table").all():  # the page's own tables
        assert table.evaluate("(t) => t.parentElement.classList.contains('table-scroll')")
    # A table far wider than the phone, as a live update would bring one.
    page.evaluate(
        """() => {
        const section = document.createElement("section");
        const cells = "<td>column-of-figures</td>".repeat(20);
        section.innerHTML = "<h2>Wide figures</h2><table><tr>" + cells + "</tr></table>";
        document.querySelector("main").appendChild(section);
        document.dispatchEvent(new Event("htmx:afterSettle"));
    }"""
    )
    box = page.locator("main section:last-child .table-scroll")
    expect(box).to_have_attribute("tabindex", "0")
    expect(box).to_have_attribute("role", "region")
    expect(box).to_have_attribute("aria-label", "Wide figures")
    assert_no_sideways_scroll(page)
    box.focus()
    page.keyboard.press("ArrowRight")
    wait_until(page, "() => document.querySelector('main section:last-child .table-scroll').scrollLeft > 0")
    context.close()
