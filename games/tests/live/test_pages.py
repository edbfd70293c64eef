"""Two people in Chromium against a real ASGI server: one acts, the other's page
follows without a reload; the server restarts and the pages catch up by themselves."""

import json
import re
import threading

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.services.games import game_act

from ..browser import wait_until
from ..factories import started_game
from ..play import view_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALLOWED_KEYS = [{"type", "game", "version"}, {"type", "unread"}]
BOARD_KEYS = {"type", "game", "version", "html"}  # a game page's socket is sent its own board (push=board)


def open_page(browser, server, user, path, frames=None):
    """A browser context signed in as ``user`` (a session made here), at ``path``."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=server.url)
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
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(path)
    # A mark that a reload would wipe out.
    page.evaluate("window.fabulaSamePage = true")
    return page


def socket_open(page, timeout: float = 5_000):
    expect(page.locator("body")).to_have_attribute("data-socket", "open", timeout=timeout)


def refresh_by_hand(page):
    """Refresh the page's live parts as a return to the tab does, and wait for the swap."""
    page.evaluate("""() => new Promise(resolve => {
        document.addEventListener("htmx:afterSwap", resolve, {once: true});
        document.dispatchEvent(new Event("visibilitychange"));
    })""")


def test_one_acts_and_the_other_sees_it_live_then_catches_up_after_a_restart(asgi_server, browser):
    game, (alice, bob, carol, dave) = started_game(4, pace="live")
    frames, bob_frames = [], []
    alice_page = open_page(browser, asgi_server, alice, game.get_absolute_url(), frames)
    bob_page = open_page(browser, asgi_server, bob, game.get_absolute_url(), bob_frames)
    socket_open(alice_page)
    socket_open(bob_page)

    # Bob is half-way through a clue of his own when his page refreshes: what
    # he typed and the card he picked stay, and so does his cursor.
    bob_page.locator(".clue-form .card-pick input").nth(2).check()
    bob_page.locator("#clue-text").fill("half a thou")
    refresh_by_hand(bob_page)
    expect(bob_page.locator("#clue-text")).to_have_value("half a thou")
    expect(bob_page.locator("#clue-text")).to_be_focused()
    expect(bob_page.locator(".clue-form .card-pick input").nth(2)).to_be_checked()

    # Alice is quicker: her clue reaches Bob's page with no reload.
    alice_page.locator(".clue-form .card-pick input").first.check()
    alice_page.locator("#clue-text").fill("A quiet river")
    alice_page.get_by_role("button", name="Give the clue").click()
    expect(bob_page.locator(".clue q")).to_have_text("A quiet river")
    expect(bob_page.locator(".clue-form")).to_have_count(0)
    expect(bob_page.locator("#status")).to_contain_text("And 2 other players.")

    # Bob picks the card he will hand in, and then the server goes down.
    bob_page.locator(".submit-form .card-pick input").nth(3).check()
    asgi_server.stop()
    expect(bob_page.locator("body")).not_to_have_attribute("data-socket", "open")

    # While it is down, Carol hands in her card (the server hears nothing of it).
    carol_card = view_for(game, carol)["hand"][0]["id"]
    game_act(game_id=game.pk, user=carol, action={"type": "submit", "cards": [carol_card]}, expected_round=1)

    # It comes back; the pages reconnect and catch up on their own.
    asgi_server.start()
    expect(bob_page.locator("#status")).to_contain_text("And 1 other player.", timeout=40_000)
    expect(bob_page.locator(".submit-form .card-pick input").nth(3)).to_be_checked()
    # Alice's page reconnects on its own back-off (it may have waited longer than Bob's): the same patience.
    socket_open(alice_page, timeout=40_000)

    # Bob hands in his card; Alice, the storyteller, sees only Dave is left.
    bob_page.get_by_role("button", name="Hand in my card").click()
    expect(alice_page.locator("#status")).to_have_text(re.compile(rf"Waiting for {dave.name} to hand in cards"))

    assert alice_page.evaluate("window.fabulaSamePage") is True
    assert bob_page.evaluate("window.fabulaSamePage") is True
    # What went over the sockets: ids, versions, counts, and each page's own board; nothing else.
    assert frames and bob_frames
    boards = []
    for frame in frames + bob_frames:
        message = json.loads(frame)
        if message["type"] == "game.board":
            assert set(message) == BOARD_KEYS
            assert 'name="csrfmiddlewaretoken" value=""' in message["html"]  # no token travels in a push
            boards.append(frame)
        else:
            assert set(message) in ALLOWED_KEYS, frame
    assert any(frame in bob_frames for frame in boards)
    # Alice's hand never reached Bob's page.
    for card in view_for(game, alice)["hand"]:
        assert not any(card["alt"] in frame for frame in bob_frames), card


def test_a_page_that_cannot_connect_still_works_by_reload(asgi_server, browser):
    game, (alice, bob, *_others) = started_game(3, pace="live")
    bob_page = open_page(browser, asgi_server, bob, "about:blank")
    bob_page.route_web_socket(re.compile(r"/ws/live/"), lambda ws: ws.close())
    bob_page.goto(game.get_absolute_url())
    alice_page = open_page(browser, asgi_server, alice, game.get_absolute_url())

    alice_page.locator(".clue-form .card-pick input").first.check()
    alice_page.locator("#clue-text").fill("Lighthouse")
    alice_page.get_by_role("button", name="Give the clue").click()
    expect(alice_page.locator(".clue q")).to_have_text("Lighthouse")

    bob_page.reload()
    expect(bob_page.locator(".clue q")).to_have_text("Lighthouse")
    bob_page.locator(".submit-form .card-pick input").first.check()
    bob_page.locator(".submit-form .card-pick input").nth(1).check()
    bob_page.get_by_role("button", name="Hand in my cards").click()
    expect(bob_page.locator(".submit-form")).to_have_count(0)
    expect(bob_page.locator("body")).not_to_have_attribute("data-socket", "open")


# In the page, before its own scripts: every board fetch htmx opens (an XMLHttpRequest, opened in the same task
# that decides on it), and every socket message once the page's own handler is done with it (a listener
# added first, whose timer runs after the whole dispatch). So "the page heard version N and did not fetch"
# is a state to wait for, not a pause long enough for a fetch to have been sent.
RECORD_BOARD_FETCHES = """(() => {
  window.fabulaSeen = {boards: [], handled: []};
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    const board = String(method).toUpperCase() === "GET" && String(url).includes("/board/");
    if (board) window.fabulaSeen.boards.push(String(url));
    return open.apply(this, arguments);
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let version = null;
        try { version = JSON.parse(event.data).version; } catch (error) {}
        setTimeout(() => window.fabulaSeen.handled.push(version), 0);
      });
    }
  };
})();"""


def test_a_players_own_action_is_not_fetched_again_and_what_came_in_meanwhile_is(asgi_server, browser):
    """The answer to an action is the board at the version it made: the page does not fetch that version
    again when its socket hears of it first; a change someone else made meanwhile it does fetch."""
    game, (alice, bob, carol, _dave) = started_game(4, pace="live")
    pages = {}
    for name, user in (("alice", alice), ("bob", bob), ("carol", carol)):
        page = pages[name] = open_page(browser, asgi_server, user, "about:blank")
        page.add_init_script(RECORD_BOARD_FETCHES)
        page.goto(game.get_absolute_url())
        socket_open(page)

    def board_version(page) -> int:
        return int(page.locator("#board").get_attribute("data-version"))

    def fetches(page) -> list[str]:
        """The board fetches the page opened, once what it is doing now is done (a turn of its loop)."""
        return page.evaluate("() => new Promise(resolve => setTimeout(() => resolve(window.fabulaSeen.boards), 0))")

    def handled(page, version: int) -> None:
        """Wait until the page's own handler has dealt with its socket's message of ``version``."""
        wait_until(page, "(version) => window.fabulaSeen.handled.includes(version)", version, timeout=10_000)

    def forget_fetches(page) -> None:
        page.evaluate("window.fabulaSeen.boards.length = 0")

    def answer_held(page) -> None:
        """Wait until the route has the action's answer in hand (Playwright runs it while the page is asked)."""
        for _ in range(500):
            if held:
                return
            page.wait_for_timeout(20)
        raise AssertionError("waited 10 s for the action's answer")

    held = []  # an action's answer, fetched from the server and held back from the page

    def hold(route):
        held.append((route, route.fetch()))

    # Alice's clue: her socket hears of its version while the answer is held back; her page waits for the answer.
    alice_page = pages["alice"]
    before = board_version(alice_page)
    handled(alice_page, before)  # the socket's hello: the board it shows is the game's version, nothing to fetch
    assert fetches(alice_page) == []
    alice_page.route(f"**/games/{game.pk}/act/", hold)
    alice_page.locator(".clue-form .card-pick input").first.check()
    alice_page.locator("#clue-text").fill("A quiet river")
    alice_page.get_by_role("button", name="Give the clue").click()
    handled(alice_page, before + 1)  # the clue's version, heard while the answer is held back
    answer_held(alice_page)
    assert fetches(alice_page) == []
    route, answer = held.pop()
    route.fulfill(response=answer)
    expect(alice_page.locator(".clue q")).to_have_text("A quiet river")
    assert board_version(alice_page) == before + 1
    assert fetches(alice_page) == []  # the answer was the version heard: nothing to fetch after it
    # The others' sockets were sent their own boards (push=board): nothing to fetch.
    expect(pages["bob"].locator(".clue q")).to_have_text("A quiet river")
    assert fetches(pages["bob"]) == []

    # Bob hands in a card and his answer is held back; meanwhile Carol hands in hers. Bob's page gets his
    # answer, sees it is older than what its socket heard, and fetches the newer board once.
    bob_page = pages["bob"]
    clue = board_version(bob_page)
    forget_fetches(bob_page)
    bob_page.route(f"**/games/{game.pk}/act/", hold)
    bob_page.locator(".submit-form .card-pick input").first.check()
    bob_page.get_by_role("button", name="Hand in my card").click()
    handled(bob_page, clue + 1)  # Bob's card on his socket
    answer_held(bob_page)
    pages["carol"].locator(".submit-form .card-pick input").first.check()
    pages["carol"].get_by_role("button", name="Hand in my card").click()
    handled(bob_page, clue + 2)  # Carol's card on Bob's socket
    assert fetches(bob_page) == []
    route, answer = held.pop()
    route.fulfill(response=answer)
    expect(bob_page.locator("#board")).to_have_attribute("data-version", str(clue + 2))
    expect(bob_page.locator("#status")).to_contain_text("Waiting for")
    assert len(fetches(bob_page)) == 1


def acted_elsewhere(**action) -> None:
    """``game_act`` in a thread of its own, as a bot's move in the worker: Playwright's sync API keeps an event
    loop running on this thread, where publishing to the channel layer (``async_to_sync``) is refused."""
    from django.db import connection

    failed = []

    def act():
        try:
            game_act(**action)
        except Exception as error:  # raised again on the test's thread
            failed.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=act)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def test_on_a_phone_the_last_round_s_reveal_folds_as_a_reload_shows_it_and_stays_as_the_player_left_it(
    asgi_server, browser
):
    """Issue 39: a live page shows what a reload would show. Once the next clue is given the last round's reveal
    folds into its title, above the round in play and in the first screen, a tap away (issue 30: a player alone
    with bots saw it go before reading it). Opened again by the player, it stays open while the board moves on."""
    import random

    from ..play import play_step, view_for

    game, users = started_game(3, pace="live")
    rng = random.Random(5)
    while game.round == 1:
        play_step(game, users, rng)
        game.refresh_from_db()
    storyteller = next(user for user in users if view_for(game, user)["you"]["to_act"])
    viewer = next(user for user in users if user != storyteller)
    client = Client()
    client.force_login(viewer)
    context = browser.new_context(
        base_url=asgi_server.url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": asgi_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(game.get_absolute_url())
    socket_open(page)
    reveal = page.locator("#last-round details")
    expect(reveal).to_have_attribute("open", "")

    # The next storyteller gives the clue: the board moves on, the reveal folds as a reload shows it.
    card = view_for(game, storyteller)["hand"][0]["id"]
    acted_elsewhere(game_id=game.pk, user=storyteller, action={"type": "clue", "card": card, "text": "Moonrise"})
    game.refresh_from_db()
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))
    expect(reveal).not_to_have_attribute("open", "")
    order = "[...document.querySelectorAll('#board > *')].map((e) => e.id || e.className)"
    live = page.evaluate(order)
    assert live.index("last-round") < live.index("play")
    summary = page.locator("#last-round summary")
    assert summary.bounding_box()["y"] + summary.bounding_box()["height"] <= 844
    reloaded = context.new_page()
    reloaded.goto(game.get_absolute_url())
    assert reloaded.evaluate(order) == live
    expect(reloaded.locator("#last-round details")).not_to_have_attribute("open", "")
    reloaded.close()

    # Opened by the player, it stays open when the board moves on again.
    summary.click()
    expect(reveal).to_have_attribute("open", "")
    other = next(user for user in users if user not in (storyteller, viewer))
    hand = view_for(game, other)
    cards = [card["id"] for card in hand["hand"][: hand["cards_to_submit"]]]
    acted_elsewhere(game_id=game.pk, user=other, action={"type": "submit", "cards": cards})
    game.refresh_from_db()
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))
    expect(reveal).to_have_attribute("open", "")
    context.close()


def test_a_board_is_fetched_at_the_sockets_hello_only_when_the_game_moved_on_before_the_socket_joined(
    asgi_server, browser
):
    """Issue 39: a page just loaded shows its game's version, and its socket's first message ("hello") says so:
    no board fetch at the socket's opening (it cost a phone's first paint a second fetch and render). A change
    made between the page's render and its socket joining the game's group is fetched at once, from the hello."""
    game, (alice, bob, _carol) = started_game(3, pace="live")
    page = open_page(browser, asgi_server, bob, "about:blank")
    page.add_init_script(RECORD_BOARD_FETCHES)
    page.goto(game.get_absolute_url())
    socket_open(page)
    shown = int(page.locator("#board").get_attribute("data-version"))
    wait_until(page, "(version) => window.fabulaSeen.handled.includes(version)", shown, timeout=10_000)
    assert page.evaluate("window.fabulaSeen.boards") == []

    # Another page of Bob's, whose socket reaches the server only once Alice has given her clue.
    late = open_page(browser, asgi_server, bob, "about:blank")
    late.add_init_script(RECORD_BOARD_FETCHES)
    sockets = []
    late.route_web_socket(re.compile(r"/ws/live/"), lambda socket: sockets.append(socket))
    late.goto(game.get_absolute_url())
    wait_until(late, "() => document.body.hasAttribute('data-socket')")
    assert int(late.locator("#board").get_attribute("data-version")) == shown
    card = view_for(game, alice)["hand"][0]["id"]
    acted_elsewhere(game_id=game.pk, user=alice, action={"type": "clue", "card": card, "text": "Late news"})
    sockets[0].connect_to_server()
    expect(late.locator(".clue q")).to_have_text("Late news")
    expect(late.locator("#board")).to_have_attribute("data-version", str(shown + 1))
    assert len(late.evaluate("window.fabulaSeen.boards")) == 1
    expect(page.locator(".clue q")).to_have_text("Late news")  # the first page, by its game.changed message


def test_a_board_the_socket_brings_keeps_what_the_viewer_picked_and_nothing_is_fetched(asgi_server, browser):
    """push=board: after another player's move the page swaps in the board its socket was sent (its own, with
    its hand), as a fetch's answer swaps: the card the viewer picked stays picked in the same phase, the forms
    carry the page's CSRF token, and no board is fetched."""
    game, (alice, bob, carol, _dave) = started_game(4, pace="live")
    page = open_page(browser, asgi_server, bob, "about:blank")
    page.add_init_script(RECORD_BOARD_FETCHES)
    page.goto(game.get_absolute_url())
    socket_open(page)
    card = view_for(game, alice)["hand"][0]["id"]
    acted_elsewhere(game_id=game.pk, user=alice, action={"type": "clue", "card": card, "text": "Moonrise"})
    expect(page.locator(".clue q")).to_have_text("Moonrise")
    page.locator(".submit-form .card-pick input").nth(2).check()

    carol_card = view_for(game, carol)["hand"][0]["id"]
    acted_elsewhere(game_id=game.pk, user=carol, action={"type": "submit", "cards": [carol_card]})
    game.refresh_from_db()
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))
    expect(page.locator(".submit-form .card-pick input").nth(2)).to_be_checked()
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")
    assert token and page.locator(".submit-form [name=csrfmiddlewaretoken]").get_attribute("value") == token
    assert page.evaluate("window.fabulaSeen.boards") == []

    # The card handed in from the board the socket brought is taken (its form's token is the page's).
    page.get_by_role("button", name="Hand in my card").click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version + 1))
    assert not view_for(game, bob)["you"]["to_act"]  # his card is in
