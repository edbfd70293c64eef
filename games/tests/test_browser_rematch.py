"""In Chromium: an invite link copied to the clipboard, and a finished game played again (issue 15)."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_create
from notifications.services import notifications_read_all

from .browser import assert_accessible
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


def test_the_old_table_is_told_at_once_takes_or_declines_its_seats_and_a_stranger_waits(asgi_server, browser):
    """Issue 30, as people do it against a real ASGI server: A, B and C finish a game; A plays again. B's open "My
    games" shows the bell and the held seat without a reload, and B joins from there; a stranger is refused while
    C's seat is held; C declines; the stranger takes the opened seat and the game starts."""
    old, (a, b, c) = finished_game(3, visibility="public")
    stranger = UserFactory()
    notifications_read_all(user=b, now=timezone.now())  # B has read the end of the old game
    b_page = logged_in(browser, asgi_server.url, b).new_page()
    b_page.goto("/games/mine/")
    expect(b_page.locator("body")).to_have_attribute("data-socket", "open")
    expect(b_page.locator("[data-unread]")).to_have_count(0)

    a_page = logged_in(browser, asgi_server.url, a).new_page()
    a_page.goto(old.get_absolute_url())
    a_page.get_by_role("button", name="Play again with the same people").click()
    a_page.wait_for_url(
        lambda url: "/games/" in url and url.rstrip("/") != f"{asgi_server.url}{old.get_absolute_url()}".rstrip("/")
    )
    new = Game.objects.get(rematch_of=old)
    expect(a_page.locator("#seats-held")).to_contain_text("Seats held for the players of the last game: 2")

    # B hears of it at once: the bell and the held seat in the page already open.
    expect(b_page.locator("[data-unread]")).to_have_text("1")
    held = b_page.locator("#held-seats")
    expect(held).to_contain_text(f"{a.name} wants to play again: your seat is held until")
    assert_accessible(b_page, "#held-seats")
    held.get_by_role("button", name="Join this game").click()
    b_page.wait_for_url(f"**{new.get_absolute_url()}")
    expect(b_page.locator("#status")).to_contain_text("2 of 3 seats taken")

    # A stranger finds only held seats: told so, with no button to press.
    s_page = logged_in(browser, asgi_server.url, stranger).new_page()
    s_page.goto(new.get_absolute_url())
    expect(s_page.locator("#seat-held-note")).to_be_visible()
    expect(s_page.get_by_role("button", name="Join this game")).to_have_count(0)
    assert_accessible(s_page, "#board")

    # C declines from "My games": the seat opens.
    c_page = logged_in(browser, asgi_server.url, c).new_page()
    c_page.goto("/games/mine/")
    c_page.locator("#held-seats").get_by_role("button", name="Decline").click()
    expect(c_page.locator("body")).to_contain_text("You declined the rematch: your seat is open to others now.")
    expect(c_page.locator("#held-seats")).to_have_count(0)

    s_page.reload()
    s_page.get_by_role("button", name="Join this game").click()
    new.refresh_from_db()
    expect(s_page.locator("#status")).not_to_contain_text("seats taken")
    assert new.status == Game.Status.ACTIVE
    assert sorted(new.seats.values_list("user", flat=True)) == sorted([a.pk, b.pk, stranger.pk])
    for page in (a_page, b_page, c_page, s_page):
        page.context.close()
