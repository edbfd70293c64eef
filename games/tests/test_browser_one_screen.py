"""Baseline (scratch)."""

import pytest
from playwright.sync_api import expect

from games.services.games import game_act
from games.tests.browser import log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory, started_game
from games.tests.play import view_for
from storyteller.tests.test_browser_reveal import others_act
from think_alike.tests.content import course_ids, small_content, think_alike_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def measure(page, control):
    return page.evaluate(
        """(sel) => [document.querySelector(sel).getBoundingClientRect().top + scrollY,
                     document.documentElement.scrollHeight,
                     [...document.querySelectorAll('main > *, #board > *, #play > *')].map(e => `${e.tagName}#${e.id}.${e.className}: ${Math.round(e.getBoundingClientRect().top+scrollY)}+${Math.round(e.getBoundingClientRect().height)}`)]""",
        control,
    )


def test_base_storyteller(live_server, browser):
    game, users = started_game(6)
    me = users[2]
    page = browser.new_context(**PHONE).new_page()
    log_in(page, live_server.url, me.username)
    others_act(game, users[:1], me, "clue")
    others_act(game, users, me, "submit")
    page.goto(live_server.url + game.get_absolute_url())
    page.locator(".submit-form .card-pick").first.click()
    page.get_by_role("button", name="Hand in my card").click()
    others_act(game, users, me, "vote")
    page.reload()
    print("vote", measure(page, ".vote-form input[name=position]:not([disabled]) + *, .vote-form .card-pick"))
    artefact_screenshot(page, "base-vote")
    page.locator(".vote-form .card-pick:not(.mine)").first.click()
    page.get_by_role("button", name="Cast my vote").click()
    expect(page.locator("#last-round")).to_be_visible()
    artefact_screenshot(page, "base-reveal")
    others_act(game, users, me, "clue")
    page.evaluate("htmx.trigger(document.getElementById('board'), 'fabula:refresh')")
    expect(page.locator(".submit-form")).to_be_visible()
    page.locator(".submit-form .card-pick").first.click()
    page.get_by_role("button", name="Hand in my card").click()
    expect(page.locator(".submit-form")).to_have_count(0)
    others_act(game, users, me, "submit")
    page.evaluate("htmx.trigger(document.getElementById('board'), 'fabula:refresh')")
    expect(page.locator(".vote-form")).to_be_visible()
    print("live vote", measure(page, ".vote-form .card-pick"))
    artefact_screenshot(page, "base-vote-live")
    page.reload()
    print("reloaded vote", measure(page, ".vote-form .card-pick"))


def test_base_think_alike(live_server, browser):
    content = small_content(answers=3)
    game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    game_act(game_id=game.pk, user=holder, action={"type": "roll"})
    game_act(game_id=game.pk, user=holder, action={"type": "move", "direction": "cw"})
    page = browser.new_context(**PHONE).new_page()
    log_in(page, live_server.url, users[1].username)
    page.goto(live_server.url + game.get_absolute_url())
    print("answers", measure(page, ".answer-form input[name=answers]"))
    artefact_screenshot(page, "base-answers")
