"""Push and the installable app in Chromium: with VAPID keys the notification settings show the
"Notify this device" switch and register the service worker for the whole site; every page names
the manifest; the game page's mute toggle works through htmx. (Subscribing itself needs a real push
service on the internet: notifications/tests/test_push.py sends to one on this machine instead.)
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.tests.browser import log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import started_game
from notifications.models import GameMute
from notifications.push import vapid_keys_generate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"notifications-{name}")


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def test_the_switch_shows_with_keys_and_the_worker_covers_the_site(live_server, phone, settings):
    public, private = vapid_keys_generate()
    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = public, private
    game, users = started_game(3)
    page = phone
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    log_in(page, live_server.url, users[0].username)

    page.goto(f"{live_server.url}/notifications/emails/")
    switch = page.get_by_role("switch", name="Notify this device when it is my turn")
    expect(switch).to_be_visible()
    expect(switch).to_be_enabled()  # the service worker is registered and ready
    expect(switch).not_to_be_checked()
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration('/games/')).scope")
    assert scope == f"{live_server.url}/"
    assert page.locator('head link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    manifest = page.request.get(f"{live_server.url}/manifest.webmanifest").json()
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert page.request.get(live_server.url + icon["src"]).ok
    screenshot(page, "push-switch-phone")

    # The mute toggle of the game page, outside the board, through htmx.
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="Mute this game").click()
    expect(page.get_by_role("button", name="Unmute this game")).to_be_visible()
    assert GameMute.objects.filter(user=users[0], game=game).exists()
    screenshot(page, "game-muted-phone")
    # (live_server has no WebSocket and no card images: those errors are not ours.)
    ours = [error for error in errors if "Content Security Policy" in error or "push" in error or "sw.js" in error]
    assert ours == []


def test_without_keys_the_settings_say_nothing_of_push(live_server, phone, settings):
    settings.FABULA_VAPID_PUBLIC_KEY = ""
    game, users = started_game(3)
    log_in(phone, live_server.url, users[0].username)
    phone.goto(f"{live_server.url}/notifications/emails/")
    expect(phone.get_by_role("button", name="Save")).to_be_visible()
    assert phone.locator("#push-settings").count() == 0
    assert phone.get_by_text("Notify this device").count() == 0
