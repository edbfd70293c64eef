"""Two players chat on the game page in Chromium: each message reaches the other at once; when the
vote opens the panel closes by itself and says why."""

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.services.games import game_act
from games.tests.browser import assert_accessible
from games.tests.factories import started_game
from games.tests.live.test_pages import open_page, socket_open
from games.tests.play import view_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone_page(browser, server, user, path):
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        base_url=server.url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(path)
    return page


def test_two_players_chat_live_and_the_vote_closes_the_chat(asgi_server, browser):
    game, (alice, bob, carol) = started_game(3, pace="live")
    alice_page = open_page(browser, asgi_server, alice, game.get_absolute_url())
    bob_page = open_page(browser, asgi_server, bob, game.get_absolute_url())
    socket_open(alice_page)
    socket_open(bob_page)

    # Bob starts writing; Alice's message arrives meanwhile and his draft stays.
    bob_page.get_by_label("Your message to the table").fill("half a tho")
    alice_page.get_by_label("Your message to the table").fill("Good luck, everyone!")
    alice_page.get_by_role("button", name="Send").click()
    expect(bob_page.locator("#chat .chat-text")).to_have_text(["Good luck, everyone!"])
    expect(alice_page.locator("#chat .chat-text")).to_have_text(["Good luck, everyone!"])
    expect(alice_page.get_by_label("Your message to the table")).to_have_value("")
    expect(bob_page.get_by_label("Your message to the table")).to_have_value("half a tho")

    # On a phone the panel fits the screen, and the message can be written and sent there.
    carol_page = phone_page(browser, asgi_server, carol, game.get_absolute_url())
    expect(carol_page.locator("#chat .chat-text")).to_have_text(["Good luck, everyone!"])
    # There the table talk is a tap away (issue 39: the table in one screen).
    expect(carol_page.locator("#table-more")).not_to_have_attribute("open", "")
    carol_page.locator("#table-more > summary").tap()
    carol_page.get_by_label("Your message to the table").fill("from my phone")
    carol_page.get_by_role("button", name="Send").tap()
    expect(carol_page.locator("#chat .chat-text")).to_have_count(2)
    assert carol_page.evaluate("document.documentElement.scrollWidth") <= 390
    send = carol_page.get_by_role("button", name="Send").bounding_box()
    assert send["x"] + send["width"] <= 390
    assert_accessible(carol_page, "#chat")

    bob_page.get_by_label("Your message to the table").fill("half a thought, finished")
    bob_page.get_by_label("Your message to the table").press("Enter")
    expect(alice_page.locator("#chat .chat-text")).to_have_text(
        ["Good luck, everyone!", "from my phone", "half a thought, finished"]
    )

    # The game moves on to its secret vote: Alice gives the first clue, Carol hands in her cards (through the
    # services: this process's pushes do not reach the server), Bob hands in his on his page. The vote opens
    # and both panels close by themselves.
    alice_page.locator(".clue-form .card-pick input").first.check()
    alice_page.locator("#clue-text").fill("A quiet river")
    alice_page.get_by_role("button", name="Give the clue").click()
    expect(bob_page.locator(".submit-form")).to_be_visible()
    carol_view = view_for(game, carol)
    cards = [card["id"] for card in carol_view["hand"][: carol_view["cards_to_submit"]]]
    game_act(game_id=game.pk, user=carol, action={"type": "submit", "cards": cards}, expected_round=1)
    for index in range(view_for(game, bob)["cards_to_submit"]):
        bob_page.locator(".submit-form .card-pick input").nth(index).check()
    bob_page.get_by_role("button", name=re.compile("Hand in my card")).click()
    for page in (alice_page, bob_page):
        expect(page.locator("#chat .chat-closed")).to_contain_text("The table is silent while the votes are open.")
        expect(page.get_by_label("Your message to the table")).to_have_count(0)
    expect(alice_page.locator("#chat .chat-text")).to_have_count(3)
    assert alice_page.evaluate("window.fabulaSamePage") is True
    assert bob_page.evaluate("window.fabulaSamePage") is True


def test_talk_at_one_table_fetches_no_other_tables_panel(asgi_server, browser):
    """A player hears of the talk at every table they sit at (their own group): only the page of the game
    whose talk changed fetches its panel, not the player's other games' open pages."""
    game, (alice, bob, _carol) = started_game(3, pace="live")
    other, _others = started_game(3, pace="live")
    other.seats.filter(position=0).update(user=alice)
    here = open_page(browser, asgi_server, alice, game.get_absolute_url())
    there = open_page(browser, asgi_server, alice, other.get_absolute_url())
    bob_page = open_page(browser, asgi_server, bob, game.get_absolute_url())
    for page in (here, there, bob_page):
        socket_open(page)
    panel = f"/games/{game.pk}/chat/panel/"
    fetched = []
    here.on("request", lambda request: fetched.append(request.url) if panel in request.url else None)

    # Alice talks at the other table; then Bob at this one. Bob's message reaches this page's socket after
    # the other table's (one socket, in order), so once it shows, the other table's news was heard too.
    there.get_by_label("Your message to the table").fill("at the other table")
    there.get_by_role("button", name="Send").click()
    expect(there.locator("#chat .chat-text")).to_have_text(["at the other table"])
    bob_page.get_by_label("Your message to the table").fill("at this table")
    bob_page.get_by_role("button", name="Send").click()
    expect(here.locator("#chat .chat-text")).to_have_text(["at this table"])
    assert len(fetched) == 1, fetched  # Bob's message only
