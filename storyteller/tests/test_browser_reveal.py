"""The reveal and the vote in Chromium, on a phone (390 x 844) and on a desktop (1280 x 800).

One of six players (four on the desktop) plays two rounds through the page, the others through the
services. Their vote is the round's last, and the board then shows the round at its top: each card
with its owner and votes, each player's points with the reasons in words, animated unless the browser
asks for reduced motion. On the phone the vote page stays within 2.5 screens (before and after a
reveal), nothing scrolls sideways, and the hand is one row to swipe with large cards; on the desktop
it is a grid. Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.services.games import game_act
from games.tests.browser import assert_accessible, finish_animations, log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import started_game
from games.tests.play import view_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
VIEWPORTS = {
    "phone": {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
PLAYERS = {"phone": 6, "desktop": 4}  # the phone with the tallest page: six players, six cards on the table


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"storyteller-{name}")


def page_size(page) -> tuple[int, int, int]:
    return tuple(
        page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight, window.innerWidth]"
        )
    )


def assert_fits(page, name: str, *, vote_page: bool = True):
    """No sideways scroll anywhere; on the phone a vote page is at most 2.5 screens tall."""
    width, height, inner = page_size(page)
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"
    if name == "phone" and vote_page:
        parts = page.evaluate(
            "[...document.querySelectorAll('body > *, #board > *, #play > *, #play form > *')]"
            ".map(e => `${e.tagName}#${e.id}.${e.className}: ${Math.round(e.getBoundingClientRect().height)}`)"
        )
        assert height <= 2.5 * PHONE["height"], f"the vote page is {height} px tall, over 2.5 screens: {parts}"


def top_of(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


def others_act(game, users, me, phase: str):
    """Everyone but ``me`` who is waited for in ``phase`` acts through the services."""
    for user in users:
        if user == me:
            continue
        view = view_for(game, user)
        if view["phase"] != phase or not view["you"]["to_act"]:
            continue
        if phase == "clue":
            action = {"type": "clue", "card": view["hand"][0]["id"], "text": "A door to nowhere"}
        elif phase == "submit":
            action = {"type": "submit", "cards": [view["hand"][0]["id"]]}
        else:
            action = {"type": "vote", "position": next(c["position"] for c in view["table"] if not c["mine"])}
        game_act(game_id=game.pk, user=user, action=action, expected_round=view["round"])


def submit_on_the_page(page):
    expect(page.locator(".submit-form")).to_be_visible()
    page.locator(".submit-form .card-pick").first.click()
    page.get_by_role("button", name="Hand in my card").click()
    expect(page.locator(".submit-form")).to_have_count(0)


def check_the_hand(page, name: str, *, cards: int = 6):
    hand = page.locator(".cards.hand").first
    style = hand.evaluate("e => { const s = getComputedStyle(e); return [s.display, s.overflowX, s.scrollSnapType]; }")
    boxes = [card.bounding_box() for card in hand.locator(".card-pick").all()]
    assert len(boxes) == cards
    assert all(box["width"] >= 44 and box["height"] >= 44 for box in boxes)
    if name == "phone":
        zooms = [button.bounding_box() for button in hand.locator("[data-zoom]").all()]
        assert len(zooms) == cards and all(box["width"] >= 44 and box["height"] >= 44 for box in zooms)
        assert style[0] == "flex" and style[1] == "auto" and style[2].startswith("x"), style
        assert len({round(box["y"]) for box in boxes}) == 1  # one row
        assert hand.evaluate("e => e.scrollWidth > e.clientWidth")  # to swipe
    else:
        assert style[0] == "grid", style


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_reveal_tops_the_board_and_the_vote_fits_a_phone(live_server, browser, name):
    players = PLAYERS[name]
    game, users = started_game(players)
    context = browser.new_context(**VIEWPORTS[name])
    page = context.new_page()
    me = users[2]
    log_in(page, live_server.url, me.username)
    url = live_server.url + game.get_absolute_url()

    # Round 1: seat 0 gives the clue; I hand in my card on the page, the others through the services.
    others_act(game, users[:1], me, "clue")
    page.goto(url)
    check_the_hand(page, name)
    submit_on_the_page(page)
    others_act(game, users, me, "submit")

    # The vote: everyone else has voted, mine is the last one. The page fits a phone.
    others_act(game, users, me, "vote")
    page.reload()
    form = page.locator(".vote-form")
    expect(form.locator(".card-pick")).to_have_count(players)
    expect(form.locator(".card-pick.mine")).to_have_count(1)
    screenshot(page, f"vote-{name}")
    assert_fits(page, name)
    assert_accessible(page, "#play")
    # By the keyboard: a card that is not mine, then the button.
    form.locator("input[name=position]:not([disabled])").first.focus()
    page.keyboard.press("Space")
    expect(form.locator("input[name=position]:checked")).to_have_count(1)
    form.get_by_role("button", name="Cast my vote").click()

    # The reveal, open above the new round's play.
    reveal = page.locator("#last-round")
    expect(reveal).to_have_class(re.compile(r"\breveal-fresh\b"))
    expect(reveal).to_contain_text("Round 1: the reveal")
    expect(reveal.locator("figure")).to_have_count(players)
    expect(reveal.locator("figure.storyteller-card")).to_contain_text("The storyteller's card")
    assert top_of(page, "#status") < top_of(page, "#last-round") < top_of(page, "#play")
    rows = reveal.locator(".breakdown-row")
    expect(rows).to_have_count(players)
    expect(rows.first).to_contain_text(re.compile(r"storyteller: (some found it|everyone found it|nobody found it)"))
    points = view_for(game, me)["last_round"]["points"]
    shown = [int(text.strip().lstrip("+")) for text in rows.locator(".breakdown-gain").all_inner_texts()]
    assert sorted(shown) == sorted(points.values())
    # Each row's reasons add up to its points.
    for row in rows.all():
        gain = int(row.locator(".breakdown-gain").inner_text().strip().lstrip("+"))
        parts = [int(t.strip().lstrip("+")) for t in row.locator(".reason-points").all_inner_texts()]
        assert parts and sum(parts) == gain
    # Animated (the rows slide in, the points pop) ...
    animation = "e => getComputedStyle(e).animationName"
    assert rows.first.evaluate(animation) == "reveal-slide"
    assert rows.first.locator(".breakdown-gain").evaluate(animation) == "reveal-pop"
    # The screenshot and the checks below see the rows where the animations leave them.
    finish_animations(page)
    screenshot(page, f"reveal-{name}")
    # Every card of the revealed table in sight, none to scroll sideways to (issue 39), the storyteller's marked.
    table = reveal.locator(".table-cards")
    assert table.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    width = page.viewport_size["width"]
    for figure in reveal.locator("figure").all():
        box = figure.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    expect(reveal.locator("figure.storyteller-card")).to_have_count(1)
    assert_fits(page, name, vote_page=False)
    assert_accessible(page, "#last-round")
    # ... but not for those who ask for less motion.
    page.emulate_media(reduced_motion="reduce")
    assert rows.first.evaluate(animation) == "none"
    assert rows.first.locator(".breakdown-gain").evaluate(animation) == "none"
    page.emulate_media(reduced_motion="no-preference")

    # Round 2: once the clue is given the reveal folds into its title, in the same place, still there.
    others_act(game, users, me, "clue")
    page.reload()
    submit_on_the_page(page)
    others_act(game, users, me, "submit")
    page.reload()
    expect(page.locator(".vote-form .card-pick")).to_have_count(players)
    expect(reveal).not_to_have_class(re.compile(r"\breveal-fresh\b"))
    expect(reveal.locator(".breakdown-row")).to_have_count(players)
    assert top_of(page, "#last-round") < top_of(page, "#play")
    page.locator(".hand-fold > summary").click()  # voting, the hand is a tap away
    check_the_hand(page, name, cards=5)
    screenshot(page, f"vote-after-reveal-{name}")
    assert_fits(page, name)
    assert_accessible(page, "#board")
    context.close()
