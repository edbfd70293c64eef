"""A new player's first evening on a phone (390 x 844), in Chromium, as a person clicks (issue 39): the empty
lobby, sign-up from the menu, back on the lobby to play, "Play now with bots", a game of Storyteller with three
bots to its end on the live page (the bots play at once in the tests; the site's deck cut to 28 cards makes it
one round), the finished game's winner and why it ended, and the player's statistics page, which says how it
counted the game.

On each screen: its first control in the top 80% of the first screen, nothing scrolling sideways, and no
axe-core violation of WCAG 2.2 AA and best practice. Screenshots: $FABULA_WALK_SCREENSHOTS (default /tmp/walk)."""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game
from games.tests.browser import WCAG22_AA, assert_accessible
from storyteller.decks.services.builtin import decks_load_builtin
from storyteller.models import Card, Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SCREEN = 844
# 4 hands of 6 and the 4 cards left: one round, then the draw pile can no longer refill the hands.
DECK_CARDS = 28


def screen(page, name: str, control: str) -> None:
    """Check the screen as it stands: ``control`` (a selector: the first control the screen asks for) starts in the
    top 80% of the first screen, nothing scrolls sideways, axe-core finds nothing; then keep a screenshot."""
    locator = page.locator(control).first
    expect(locator).to_be_visible()
    top = locator.evaluate("(e) => e.getBoundingClientRect().top + scrollY")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert top <= 0.8 * SCREEN, f"{name}: {control} starts at {top:.0f} px, below 80% of the first screen"
    assert width <= 390, f"{name}: {width} px wide"
    assert_accessible(page, tags=WCAG22_AA)
    folder = Path(os.environ.get("FABULA_WALK_SCREENSHOTS", "/tmp/walk"))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.fixture
def short_deck():
    """The site's decks, the default one cut to ``DECK_CARDS`` cards (real pictures, a short game)."""
    decks_load_builtin()
    deck = Deck.objects.get(slug="dream")
    Card.objects.filter(deck=deck).exclude(
        pk__in=list(deck.cards.order_by("pk").values_list("pk", flat=True))[:DECK_CARDS]
    ).delete()
    Deck.objects.exclude(pk=deck.pk).update(is_active=False)
    return deck


def test_a_newcomer_s_first_evening_on_a_phone(asgi_server, browser, short_deck):
    base = asgi_server.url
    context = browser.new_context(**PHONE)
    page = context.new_page()

    # The empty lobby: nothing waits, but a stranger is asked to sign up to play.
    page.goto(base + reverse("games:lobby"))
    expect(page.get_by_text("No public game is waiting for players right now.")).to_be_visible()
    screen(page, "01-empty-lobby", ".lobby-start .button")

    # Sign-up from the menu; it lands on the lobby, where playing starts.
    page.locator("button.menu-button").click()
    page.locator("#site-menu").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    screen(page, "02-sign-up", "main input:not([type=hidden])")
    page.fill("#id_username", "newcomer")
    page.fill("#id_email", "newcomer@example.com")
    page.fill("#id_password1", "a-Long-pass-123")
    page.fill("#id_password2", "a-Long-pass-123")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    play_now = page.get_by_role("button", name="Play now with bots")
    screen(page, "03-lobby-signed-in", ".lobby-start button")
    play_now.click()

    # The game: the person plays every move the table asks of them, on the page the bots' moves reach by themselves.
    expect(page.locator("#board")).to_be_visible()
    game = Game.objects.get(creator__username="newcomer")
    assert game.status == Game.Status.ACTIVE and game.pace == Game.Pace.LIVE
    assert sorted(seat.user.is_bot for seat in game.seats.select_related("user")) == [False, True, True, True]
    seen, moves = set(), 0
    move = page.locator(".clue-form, .submit-form, .vote-form, .finished")
    while True:
        expect(move.first).to_be_visible(timeout=30_000)
        if page.locator(".finished").count():
            break
        moves += 1
        assert moves <= 12, "the game did not end"
        if page.locator(".clue-form").count():
            form = page.locator(".clue-form")
            if "clue" not in seen:
                screen(page, "04-clue", ".clue-form .card-pick")
            form.locator(".card-pick").first.click()
            form.locator("#clue-text").fill("A door to nowhere")
            form.locator("button[type=submit]").last.click()
            seen.add("clue")
        elif page.locator(".submit-form").count():
            form = page.locator(".submit-form")
            if "submit" not in seen:
                screen(page, "05-hand-in", ".submit-form .card-pick")
            form.locator(".card-pick").first.click()
            form.get_by_role("button", name="Hand in my card").click()
            seen.add("submit")
        else:
            form = page.locator(".vote-form")
            if "vote" not in seen:
                screen(page, "06-vote", ".vote-form .card-pick")
                height = page.evaluate("document.documentElement.scrollHeight")
                assert height <= 1.5 * SCREEN, f"the vote's page is {height} px long"
            form.locator(".card-pick:not(.mine)").first.click()
            form.get_by_role("button", name="Cast my vote").click()
            seen.add("vote")
        expect(form).to_have_count(0)
    assert {"submit", "vote"} <= seen

    # The end: who won, and why the game ended.
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    expect(page.locator("#status")).to_contain_text(
        "The game is over. The draw pile ran out: the hands could no longer be refilled."
    )
    expect(page.locator(".finished .winners")).to_contain_text(re.compile(r"(Winner|Shared win):\s+\S"))
    page.reload()  # as a fresh visit shows it
    screen(page, "07-finished", "#status")
    expect(page.locator(".finished .winners")).to_contain_text(re.compile(r"(Winner|Shared win):\s+\S"))

    # The statistics: the page says how it counts the game (alone with bots: practice, issue 39's "numbers").
    page.goto(base + reverse("stats:player", args=["newcomer"]))
    expect(page.locator(".counted")).to_contain_text("1 game alone with bots is practice and not counted.")
    # ... and the game itself is there, with the newcomer's place among the table and a replay.
    expect(page.locator("#practice-games")).to_have_text("Practice with bots")
    expect(page.locator(".game-row.practice")).to_have_count(1)
    expect(page.locator(".game-row.practice .meta")).to_contain_text(re.compile(r"Place [1-4] of 4"))
    screen(page, "08-statistics", "main a")
    context.close()
