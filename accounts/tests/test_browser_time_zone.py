"""In Chromium: signing up keeps the browser's own time zone (issue 38), and the profile shows and changes it."""

import pytest
from playwright.sync_api import expect

from accounts.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_takes_the_browsers_time_zone(live_server, browser):
    context = browser.new_context(timezone_id="Pacific/Auckland")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("#id_username", "kiwi")
    page.fill("#id_email", "kiwi@example.com")
    page.fill("#id_password1", "correct horse battery staple")
    page.fill("#id_password2", "correct horse battery staple")
    expect(page.locator("input[name=time_zone]")).to_have_value("Pacific/Auckland")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(f"{live_server.url}/games/")  # sign-up lands on playing (issue 39)
    assert User.objects.get(username="kiwi").time_zone == "Pacific/Auckland"
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page.get_by_role("heading", name="Your time")).to_be_visible()
    expect(page.locator("#id_time_zone")).to_have_value("Pacific/Auckland")
    page.fill("#id_time_zone", "Europe/Stockholm")
    page.get_by_role("button", name="Save your time").click()
    expect(page.get_by_text("Your time is saved.")).to_be_visible()
    assert User.objects.get(username="kiwi").time_zone == "Europe/Stockholm"
    context.close()
