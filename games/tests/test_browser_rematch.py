"""In Chromium: an invite link copied to the clipboard, and a finished game played again (issue 15)."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_create

from .factories import UserFactory, deck_with_cards
from .test_rematch import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def logged_in(browser, base, user, **context_args):
    """A browser context holding ``user``'s session (made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base, **context_args)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def test_copy_link_puts_the_invite_on_the_clipboard(live_server, browser):
    deck = deck_with_cards(84)
    user = UserFactory()
    game = game_create(creator=user, max_seats=4, options={"deck": deck.pk}, visibility="private")
    base = live_server.url
    context = logged_in(browser, base, user, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(game.get_absolute_url())
    link = f"{base}{game.get_invite_url()}"
    expect(page.locator("#invite-link")).to_have_value(link)
    status = page.locator("[data-copy-status]")
    expect(status).to_be_empty()
    page.get_by_role("button", name="Copy link").click()
    expect(status).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    # Share shows only where the browser has navigator.share.
    share = page.get_by_role("button", name="Share")
    if page.evaluate("typeof navigator.share === 'function'"):
        expect(share).to_be_visible()
    else:
        expect(share).to_have_count(0)
    # With navigator.share (as on a phone), the button appears and shares the link.
    page.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    page.reload()
    page.get_by_role("button", name="Share").click()
    assert page.evaluate("window.shared") == {"title": "Join my game on Fabula", "url": link}
    context.close()


def test_play_again_from_a_finished_game(live_server, browser):
    old, users = finished_game(3, visibility="public")
    base = live_server.url
    context = logged_in(browser, base, users[1])
    page = context.new_page()
    page.goto(old.get_absolute_url())
    page.get_by_role("button", name="Play again with the same people").click()
    page.wait_for_url(lambda url: url.rstrip("/") != f"{base}{old.get_absolute_url()}".rstrip("/"))
    new = Game.objects.get(rematch_of=old)
    assert page.url == f"{base}{new.get_absolute_url()}"
    assert new.creator == users[1] and new.status == Game.Status.OPEN

    other = logged_in(browser, base, users[2])
    theirs = other.new_page()
    theirs.goto(old.get_absolute_url())
    expect(theirs.locator(".rematch")).to_contain_text(f"{users[1].name} started a rematch.")
    theirs.get_by_role("link", name="Join the rematch").click()
    theirs.get_by_role("button", name="Join this game").click()
    expect(theirs.locator("#status")).to_contain_text("2 of 3 seats taken")
    assert new.seats.count() == 2
    other.close()
    context.close()
