"""Three people sign up, one creates a private game, the others join by the link,
and they play a full round of Storyteller through the pages in Chromium."""

import re

import pytest
from playwright.sync_api import expect

from games.tests.browser import sign_up
from games.tests.factories import deck_with_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_three_people_play_a_round(live_server, browser):
    deck_with_cards(84, name="Test deck")
    base = live_server.url
    contexts = [
        browser.new_context(),
        browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True),
        browser.new_context(),
    ]
    anna, bo, cy = (ctx.new_page() for ctx in contexts)
    for page, name in ((anna, "anna"), (bo, "bo"), (cy, "cy")):
        sign_up(page, base, name)

    # Anna creates a private game for three.
    anna.goto(f"{base}/games/new/")
    anna.select_option("#id_max_seats", "3")
    anna.check("input[name=visibility][value=private]")
    anna.uncheck("input[name=with_bots]")  # a newcomer's form offers bots for the empty seats (issue 39)
    anna.click("button[type=submit]")
    expect(anna.locator("#status")).to_contain_text("1 of 3 seats taken")
    invite = anna.input_value("#invite-link")
    assert "/games/invite/" in invite

    # Bo and Cy join through the link; the last seat starts the game.
    for page in (bo, cy):
        page.goto(invite)
        page.get_by_role("button", name="Join the game").click()
    expect(cy.locator("#status")).to_contain_text("Be the first to give a clue")

    # Anna gives the first clue and so becomes the storyteller.
    anna.reload()
    anna.locator(".clue-form .card-pick").first.click()
    anna.fill("#clue-text", "A door to nowhere")
    anna.get_by_role("button", name="Give the clue").click()
    expect(anna.locator("#status")).to_contain_text("to hand in cards")

    # Bo (on a phone) and Cy each hand in two cards.
    for page in (bo, cy):
        page.reload()
        expect(page.locator(".clue q")).to_have_text("A door to nowhere")
        picks = page.locator(".submit-form .card-pick")
        # A card opens large without being chosen.
        picks.nth(2).locator("[data-zoom]").click()
        expect(page.locator("#card-zoom")).to_be_visible()
        expect(page.locator("#card-zoom .alt")).to_contain_text("Picture")
        page.keyboard.press("Escape")
        expect(page.locator("#card-zoom")).to_be_hidden()
        expect(page.locator(".submit-form input:checked")).to_have_count(0)
        picks.nth(0).click()
        picks.nth(1).click()
        page.get_by_role("button", name="Hand in my cards").click()
        expect(page.locator(".submit-form")).to_have_count(0)

    # The table: five cards; each voter's own two are marked and cannot be chosen.
    for page in (bo, cy):
        page.reload()
        cards = page.locator(".vote-form .card-pick")
        expect(cards).to_have_count(5)
        expect(page.locator(".vote-form .card-pick.mine")).to_have_count(2)
        page.locator(".vote-form .card-pick:not(.mine)").first.click()
        page.get_by_role("button", name="Cast my vote").click()
        expect(page.locator(".vote-form")).to_have_count(0)

    # The reveal, for everyone: the storyteller's card, owners, votes and points.
    for page in (anna, bo, cy):
        page.reload()
        reveal = page.locator("#last-round")
        expect(reveal).to_contain_text("Round 1: the reveal")
        expect(reveal).to_contain_text("The storyteller's card")
        expect(reveal.locator("figure")).to_have_count(5)
        expect(page.locator("#status")).to_contain_text(re.compile("Round 2"))
    # Round 2: the storyteller passes clockwise, to Bo.
    expect(bo.locator("#status")).to_contain_text("Waiting for your clue")
    # Nothing overflows the phone's width.
    width = bo.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    for ctx in contexts:
        ctx.close()
