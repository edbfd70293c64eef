"""A person alone fills a table with bots through the page and plays a round with them in Chromium."""

import pytest
from playwright.sync_api import expect

from games.tests.browser import sign_up
from games.tests.factories import deck_with_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_adds_two_bots_and_plays_a_round_with_them(live_server, browser):
    deck_with_cards(84, name="Test deck")
    base = live_server.url
    context = browser.new_context()
    page = context.new_page()
    sign_up(page, base, "solo")
    page.goto(f"{base}/games/new/")
    page.select_option("#id_max_seats", "3")
    page.uncheck("input[name=with_bots]")  # the bots come one by one below, not all at once
    page.click("button[type=submit]")
    expect(page.locator("#status")).to_contain_text("1 of 3 seats taken")

    expect(page.get_by_label("Bot's level")).to_have_value("normal")
    page.get_by_label("Bot's level").select_option("easy")
    page.get_by_role("button", name="Add a bot").click()
    expect(page.locator("#status")).to_contain_text("2 of 3 seats taken")
    expect(page.get_by_text("Bot Ada").first).to_be_visible()
    expect(page.locator(".players")).to_contain_text("bot, easy")
    # The last seat: the game starts, and the bots (played at once in the tests) give the first clue
    # and hand in their cards: the person is asked for theirs.
    page.get_by_role("button", name="Add a bot").click()
    page.reload()
    expect(page.locator(".clue q")).not_to_be_empty()
    picks = page.locator(".submit-form .card-pick")
    picks.nth(0).click()
    picks.nth(1).click()
    page.get_by_role("button", name="Hand in my cards").click()
    expect(page.locator(".submit-form")).to_have_count(0)

    page.reload()
    page.locator(".vote-form .card-pick:not(.mine)").first.click()
    page.get_by_role("button", name="Cast my vote").click()
    expect(page.locator(".vote-form")).to_have_count(0)
    page.reload()
    expect(page.locator("#last-round")).to_contain_text("Round 1: the reveal")
    context.close()
