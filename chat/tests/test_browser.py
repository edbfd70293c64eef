"""Two players chat on the game page in Chromium: each message reaches the other at once; when the
vote opens the panel closes by itself and says why."""

import re

import pytest
from playwright.sync_api import expect

from games.services.games import game_act
from games.tests.factories import started_game
from games.tests.live.test_pages import open_page, socket_open
from games.tests.play import view_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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

    bob_page.get_by_label("Your message to the table").fill("half a thought, finished")
    bob_page.get_by_label("Your message to the table").press("Enter")
    expect(alice_page.locator("#chat .chat-text")).to_have_text(["Good luck, everyone!", "half a thought, finished"])

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
    expect(alice_page.locator("#chat .chat-text")).to_have_count(2)
    assert alice_page.evaluate("window.fabulaSamePage") is True
    assert bob_page.evaluate("window.fabulaSamePage") is True
