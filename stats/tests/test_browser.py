"""On a phone, in Chromium: from a finished game to its replay, a player's page and the leaderboards."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.tests.factories import UserFactory, deck_with_cards
from stats.services import stats_rebuild

from .cases import two_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_replay_profile_and_leaderboard_on_a_phone(live_server, browser):
    people = [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]
    now = timezone.now()
    game, _ = two_games(people, first_at=now - timedelta(days=1), second_at=now, deck=deck_with_cards(20))
    stats_rebuild(now=now)
    context = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "cy")
    page.fill("#id_password", "correct horse battery")
    page.click("button[type=submit]")

    # The game page links to the replay; round 3's reveal is there as it happened.
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.locator(".board-head").get_by_role("link", name="Replay", exact=True).click()
    page.locator(".round-nav").get_by_role("link", name="3", exact=True).click()
    third = page.locator("#round-3")
    expect(third).to_be_in_viewport()
    expect(third.locator(".clue q")).to_have_text("Zugzwang")
    expect(third.locator(".outcome")).to_contain_text("Nobody found the storyteller's card")
    expect(third.locator("figure").first).to_contain_text("Di's card")
    expect(third.locator("figure").first).to_contain_text("Votes: Ann, Bo")
    expect(third.locator("tbody tr").first).to_contain_text("Ann")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing wider than the phone

    # A player's name leads to their page; the nav to one's own, and to the leaderboards.
    page.locator(".page-head + p").get_by_role("link", name="Bo").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bo")
    expect(page.locator(".figures")).to_contain_text("Games played")
    # On a phone the header's links are in its menu (games' browser tests try it): followed here by their address.
    me = page.locator("nav .me")
    expect(me).to_have_attribute("href", "/players/cy/")
    page.goto(f"{live_server.url}{me.get_attribute('href')}")
    expect(page.get_by_role("link", name="Settings")).to_be_visible()
    page.goto(f"{live_server.url}{page.locator('nav a', has_text='Leaderboards').first.get_attribute('href')}")
    page.get_by_role("link", name="Most wins").click()
    expect(page.locator(".my-rank")).to_contain_text("You are #1 of 2.")  # of those who won a game (issue 39)
    expect(page.locator("tr.me")).to_contain_text("Cy")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()
