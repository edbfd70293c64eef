"""The table in Chromium, on a phone (390 x 844) and on a desktop (1280 x 800), for each kind of
game: the seats show every player with their avatar and who is to act in words; the score
track puts each token on its player's score, ties side by side; a new version of the board
moves the tokens (the same elements, by a CSS transition; none when motion is reduced);
nothing scrolls sideways, and axe-core finds nothing in the seats or the track.
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db.models import F
from django.test import Client
from playwright.sync_api import expect

from games.models import Game, Seat
from games.tests.browser import assert_accessible, wait_until
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import started_game
from games.tests.play import view_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"table-{name}")


def signed_in_page(browser, server, user, options):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=server.url, **options)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server.url}])
    return context.new_page()


def storyteller_game():
    game, users = started_game(4)
    return game, users, 30


def think_alike_game():
    from think_alike.tests.content import small_content
    from think_alike.tests.content import think_alike_game as make

    small_content()
    game, users = make(3)
    return game, users, view_for(game, users[0])["stop"]["target"]


def set_scores(game, scores):
    for position, score in enumerate(scores):
        Seat.objects.filter(game=game, position=position).update(score=score)
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)  # a new board for every viewer


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def assert_token_on_cell(page, game, seat: int, cell: int):
    token = page.locator(f"#track-{game.pk}-seat-{seat}")
    rect = page.locator(".track-cell rect").nth(cell).bounding_box()
    x, y = centre(token)
    assert rect["x"] <= x <= rect["x"] + rect["width"] and rect["y"] <= y <= rect["y"] + rect["height"], (
        f"seat {seat}'s token at ({x:.0f}, {y:.0f}) is not on cell {cell} ({rect})"
    )


def assert_no_sideways_scroll(page):
    # Against the viewport asked for: a phone's innerWidth grows with an overflowing page.
    width, inner = page.evaluate("document.scrollingElement.scrollWidth"), page.viewport_size["width"]
    assert width <= inner, f"the page is {width} px wide in a {inner} px viewport"


@pytest.mark.parametrize("device", list(VIEWPORTS))
@pytest.mark.parametrize("make", [storyteller_game, think_alike_game], ids=["storyteller", "think_alike"])
def test_the_table_shows_seats_turns_and_a_score_track(live_server, browser, device, make):
    game, users, length = make()
    scores = [4, 4, 9, 1][: len(users)]
    set_scores(game, scores)
    view = view_for(game, users[0])
    page = signed_in_page(browser, live_server, users[0], VIEWPORTS[device])
    page.goto(game.get_absolute_url())

    # The seats: each player with an avatar (decorative: the name is beside it) and their score.
    seats = page.locator(".players .player")
    expect(seats).to_have_count(len(users))
    for user, seat, score in zip(users, seats.all(), scores, strict=True):
        expect(seat.locator(".name")).to_have_text(user.name)
        expect(seat.locator(".score")).to_have_text(str(score))
        expect(seat.locator("svg.avatar")).to_have_attribute("aria-hidden", "true")
    expect(seats.nth(0)).to_have_class(re.compile(r"\bme\b"))
    # Whose turn: marked in words, not only by the colour of the seat.
    waiting = {p["seat"] for p in view["players"] if p["to_act"]}
    assert waiting, "the game waits for someone"
    expect(page.locator(".player.acting")).to_have_count(len(waiting))
    for seat in waiting:
        expect(seats.nth(seat).locator(".state-text")).to_have_text("to act")
        expect(seats.nth(seat).locator(".state-text")).to_be_visible()
    # Six seats have six different outlines.
    shapes = page.eval_on_selector_all(".players svg.avatar", "els => els.map(e => e.getAttribute('class'))")
    assert len(set(shapes)) == len(users)

    # The track: 0 to its length, each token on its player's score, ties side by side. On a phone it is a tap
    # away (the seats give the scores); a wide window opens it.
    fold = page.locator(".track-fold")
    if device == "phone":
        expect(fold).not_to_have_attribute("open", "")
        fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")
    track = page.locator(".track")
    expect(track.locator("figcaption")).to_have_text(f"Score track, 0 to {length}")
    expect(track.locator(".track-cell")).to_have_count(length + 1)
    for seat, score in enumerate(scores):
        assert_token_on_cell(page, game, seat, score)
    left, right = (centre(page.locator(f"#track-{game.pk}-seat-{seat}"))[0] for seat in (0, 1))
    assert right - left >= 8, "tied tokens stand side by side"
    expect(track.locator(".sr-only li").first).to_have_text(f"{users[2].name}: 9 points")
    if device == "desktop":
        assert page.locator(".players").bounding_box()["height"] < 90, "one row of seats on a wide screen"

    assert_no_sideways_scroll(page)
    assert_accessible(page, ".players")
    assert_accessible(page, ".track")
    screenshot(page, f"{make.__name__}-{device}")
    track.screenshot(path=str(screenshot(page, f"{make.__name__}-{device}").with_suffix(".track.png")))

    # A new version: the board is morphed, the same token moves to the new score, by a transition.
    token = page.locator(f"#track-{game.pk}-seat-2")
    token.evaluate("el => { el.fabulaKept = true; }")  # a property: morphing keeps it only on the same element
    expect(token).to_have_css("transition-duration", "0.8s")
    set_scores(game, [4, 4, 12, 1][: len(users)])
    page.evaluate("htmx.trigger(document.getElementById('board'), 'fabula:refresh')")
    wait_until(  # it moves: a CSS transition runs on it
        page, "el => el.getAnimations().some(a => a.transitionProperty === 'transform')", token.element_handle()
    )
    expect(seats.nth(2).locator(".score")).to_have_text("12")
    expect(token).to_have_attribute("data-score", "12")
    assert token.evaluate("el => el.fabulaKept === true"), "the token was replaced, not morphed: it cannot move"
    wait_until(page, "el => el.getAnimations().length === 0", token.element_handle())  # the move ends
    assert_token_on_cell(page, game, 2, 12)

    # Reduced motion: no transition.
    page.emulate_media(reduced_motion="reduce")
    expect(token).to_have_css("transition-duration", "0s")
    page.context.close()
