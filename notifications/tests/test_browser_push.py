"""Push and the installable app in Chromium: with VAPID keys the notification settings show the
"Notify this device" switch and register the service worker for the whole site; every page names
the manifest; the game page's mute toggle works through htmx; push is offered once the player's
first game has started, never on a first page load, and the permission prompt follows a click.
(The browser's push service is on the internet: where a subscription is made, PushManager's
subscribe is replaced in the page by one that hands out FCM-looking endpoints with real keys;
notifications/tests/test_push.py sends to a push service on this machine instead.)
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import json
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.services.games import game_create, game_join
from games.tests.browser import assert_accessible, log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory, deck_with_cards, started_game
from notifications.models import GameMute, PushSubscription
from notifications.push import vapid_keys_generate
from notifications.tests.test_push import subscription_json

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def table_more(page):
    """On a phone the game page's table talk, mute and notification offer are a tap away (issue 39): open them."""
    page.locator("#table-more > summary").click()
    expect(page.locator("#table-more")).to_have_attribute("open", "")


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
    table_more(page)
    page.get_by_role("button", name="Mute this game").click()
    expect(page.get_by_role("button", name="Unmute this game")).to_be_visible()
    assert GameMute.objects.filter(user=users[0], game=game).exists()
    screenshot(page, "game-muted-phone")
    # (live_server has no WebSocket and no card images: those errors are not ours.)
    ours = [error for error in errors if "Content Security Policy" in error or "push" in error or "sw.js" in error]
    ours = [error for error in ours if not error.startswith("WebSocket connection to")]  # its URL asks push=board
    assert ours == []


def test_without_keys_the_settings_say_nothing_of_push(live_server, phone, settings):
    settings.FABULA_VAPID_PUBLIC_KEY = ""
    game, users = started_game(3)
    log_in(phone, live_server.url, users[0].username)
    phone.goto(f"{live_server.url}/notifications/emails/")
    expect(phone.get_by_role("button", name="Save")).to_be_visible()
    assert phone.locator("#push-settings").count() == 0
    assert phone.get_by_text("Notify this device").count() == 0


# The page's push service, replaced: each subscribe() hands out the next of SUBSCRIPTIONS (kept in
# localStorage, as a browser keeps its subscription); permission requests are counted.
PUSH_STUB = """
(() => {
  const subscriptions = SUBSCRIPTIONS;
  window.permissionRequests = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = () => { window.permissionRequests += 1; return ask(); };
  function wrap(data) {
    return {
      endpoint: data.endpoint,
      toJSON: () => data,
      unsubscribe: () => { localStorage.removeItem("stub-subscription"); return Promise.resolve(true); },
    };
  }
  PushManager.prototype.subscribe = function () {
    const taken = Number(localStorage.getItem("stub-subscribed") || "0");
    const data = subscriptions[Math.min(taken, subscriptions.length - 1)];
    localStorage.setItem("stub-subscribed", String(taken + 1));
    localStorage.setItem("stub-subscription", JSON.stringify(data));
    return Promise.resolve(wrap(data));
  };
  PushManager.prototype.getSubscription = function () {
    const kept = localStorage.getItem("stub-subscription");
    return Promise.resolve(kept ? wrap(JSON.parse(kept)) : null);
  };
})();
"""


@pytest.fixture
def offer_phone(browser, live_server):
    context = browser.new_context(**PHONE)
    context.grant_permissions(["notifications"], origin=live_server.url)
    yield context
    context.close()


def test_push_is_offered_once_the_first_game_has_started_and_asks_only_on_a_click(live_server, offer_phone, settings):
    public, private = vapid_keys_generate()
    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = public, private
    player, second, third, other = UserFactory.create_batch(4)
    # This browser's first endpoint is already another account's: refused, and a fresh one taken.
    taken = subscription_json("https://fcm.googleapis.com/fcm/send/taken-by-another")
    fresh = subscription_json("https://fcm.googleapis.com/fcm/send/fresh-for-this-account")
    PushSubscription.objects.create(
        user=other, endpoint=taken["endpoint"], p256dh=taken["keys"]["p256dh"], auth=taken["keys"]["auth"],
        created_at=timezone.now(),
    )  # fmt: skip
    offer_phone.add_init_script(PUSH_STUB.replace("SUBSCRIPTIONS", json.dumps([taken, fresh])))
    page = offer_phone.new_page()
    game = game_create(creator=player, max_seats=3, options={"deck": deck_with_cards().pk})
    game_join(game_id=game.pk, user=second, invite_code=game.invite_code)

    log_in(page, live_server.url, player.username)  # the first page load: nothing offered
    assert page.locator("#push-offer").count() == 0
    page.goto(live_server.url + game.get_absolute_url())  # waiting for its last player: not yet
    table_more(page)
    expect(page.get_by_role("button", name="Mute this game")).to_be_visible()
    assert page.locator("#push-offer").count() == 0

    game_join(game_id=game.pk, user=third, invite_code=game.invite_code)  # the game starts
    page.reload()
    table_more(page)
    accept = page.get_by_role("button", name="Notify me on this device")
    expect(accept).to_be_visible()
    expect(page.get_by_role("heading", name="Know when it is your turn")).to_be_visible()
    assert page.evaluate("window.permissionRequests") == 0  # no prompt without a click
    assert_accessible(page, "#push-offer")
    screenshot(page, "push-offer-phone")

    accept.click()
    expect(page.get_by_role("status").filter(has_text="This device will show it when it is your turn.")).to_be_visible()
    assert page.evaluate("window.permissionRequests") == 1
    assert PushSubscription.objects.get(endpoint=fresh["endpoint"]).user == player
    assert PushSubscription.objects.get(endpoint=taken["endpoint"]).user == other  # not moved
    expect(accept).to_have_count(0)

    page.reload()  # subscribed on this device: not offered again
    table_more(page)
    expect(page.get_by_role("button", name="Mute this game")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#push-offer")).to_be_hidden()


def test_not_now_is_remembered_on_the_device(live_server, offer_phone, settings):
    public, private = vapid_keys_generate()
    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = public, private
    game, users = started_game(3)
    offer_phone.add_init_script(PUSH_STUB.replace("SUBSCRIPTIONS", json.dumps([subscription_json()])))
    page = offer_phone.new_page()
    log_in(page, live_server.url, users[1].username)
    page.goto(live_server.url + game.get_absolute_url())
    table_more(page)
    page.get_by_role("button", name="Not now").click()
    expect(page.locator("#push-offer")).to_be_hidden()
    page.reload()
    table_more(page)
    expect(page.get_by_role("button", name="Mute this game")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#push-offer")).to_be_hidden()
    assert page.evaluate("window.permissionRequests") == 0
    assert not PushSubscription.objects.exists()
