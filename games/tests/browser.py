"""Helpers for the browser tests of every app (Playwright on Debian's Chromium)."""

from playwright.sync_api import expect


def sign_up(page, base, username):
    """Sign a new person up through the pages; they land on their profile, logged in."""
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", "a-Long-pass-123")
    page.fill("#id_password2", "a-Long-pass-123")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Your profile")).to_be_visible()


def log_in(page, base, username, password="correct horse battery"):
    """Log an existing person in through the log-in page (the factories' password by default)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit]").click()
    expect(page).not_to_have_url(f"{base}/accounts/login/")
