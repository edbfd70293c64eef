"""In Chromium: a player deletes their account from their profile; the others' game still shows it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.tests.factories import UserFactory, deck_with_cards
from stats.services import stats_rebuild
from stats.tests.cases import two_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def test_deleting_ones_account_through_the_pages(live_server, browser):
    people = [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]
    now = timezone.now()
    game, _ = two_games(people, first_at=now - timedelta(days=1), second_at=now, deck=deck_with_cards(20))
    stats_rebuild(now=now)
    context = browser.new_context()
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.get_by_role("link", name="Delete your account").click()
    expect(page.get_by_role("heading", name="Delete your account")).to_be_visible()
    page.fill("#id_password", "not it")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("That is not your password.")).to_be_visible()
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("Your account is deleted.")).to_be_visible()
    # Signed out: the site's main navigation offers to log in again.
    expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in")).to_be_visible()
    log_in(page, live_server.url, "ann")
    expect(page.get_by_role("alert").first).to_be_visible()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    context.close()

    context = browser.new_context()
    page = context.new_page()
    log_in(page, live_server.url, "bo")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.get_by_text("deleted player").first).to_be_visible()
    expect(page.get_by_text("Ann", exact=True)).to_have_count(0)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    expect(page.get_by_text("deleted player").first).to_be_visible()
    context.close()
