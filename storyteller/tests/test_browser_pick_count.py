"""Handing in two cards in a game of three, on a phone (issue 39): a counter says how many are chosen, the
button is ready only for the right count, and a wrong count the server refuses (the page without its script)
comes back in words just above the play, with nothing handed in."""

import pytest
from playwright.sync_api import expect

from games.tests.browser import log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import started_game
from games.tests.play import view_for

from .test_browser_reveal import others_act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_two_cards_are_counted_and_a_wrong_count_is_refused_beside_the_form(live_server, browser):
    game, users = started_game(3)
    me = users[1]
    others_act(game, users[:1], me, "clue")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    page.goto(live_server.url + game.get_absolute_url())
    form = page.locator(".submit-form")
    counter = form.locator(".pick-count")
    button = form.get_by_role("button", name="Hand in my cards")
    expect(counter).to_have_text("0 of 2 chosen")
    expect(counter).to_have_attribute("aria-live", "polite")
    expect(button).to_be_disabled()
    picks = form.locator(".card-pick")
    picks.nth(0).click()
    expect(counter).to_have_text("1 of 2 chosen")
    expect(button).to_be_disabled()
    picks.nth(1).click()
    expect(counter).to_have_text("2 of 2 chosen")
    expect(button).to_be_enabled()
    picks.nth(2).click()
    expect(counter).to_have_text("Too many: choose 2 cards.")
    expect(button).to_be_disabled()
    picks.nth(2).click()
    picks.nth(1).click()
    artefact_screenshot(page, "pick-count")

    # One card sent all the same (as a page without the script would): refused, in words, beside the play.
    button.evaluate("(b) => { b.disabled = false; }")
    button.click()
    error = page.locator("#action-error")
    expect(error).to_have_text("Choose the number of cards asked for.")
    expect(page.locator(".submit-form")).to_be_visible()
    assert page.evaluate("document.getElementById('action-error').nextElementSibling.id === 'play'"), (
        "the error stands just above the play"
    )
    assert view_for(game, me)["you"]["to_act"] is True  # nothing handed in
    context.close()
