"""Three people on phones play a round of Storyteller on Anna's own deck, "own cards only", through the pages
in Chromium (issue 33): every picture they are shown is one of her deck's, served under /media/cards/own/."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.tests.browser import sign_up
from games.tests.factories import deck_with_cards

from .own_decks import own_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def own_pictures_load(page) -> int:
    """Every card picture on the page is one of the own deck's, and loads (200, a decoded picture); returns how
    many the play shows (the report panel shows them again)."""
    sources = page.eval_on_selector_all(".card-pick img", "imgs => imgs.map(img => img.getAttribute('src'))")
    assert sources
    for src in set(sources):
        assert src.startswith("/media/cards/own/"), src
        response = page.request.get(page.url.split("/games/")[0] + src)
        assert response.status == 200 and response.headers["content-type"] == "image/webp", src
    broken = page.eval_on_selector_all(".card-pick img", "imgs => imgs.filter(i => i.complete && !i.naturalWidth)")
    assert broken == []
    return page.locator("#play .card-pick img").count()


def test_a_round_on_an_own_deck_at_phone_size(live_server, browser):
    deck_with_cards(84, slug="dream", name="Dreams")
    base = live_server.url
    contexts = [browser.new_context(**PHONE) for _ in range(3)]
    anna, bo, cy = (ctx.new_page() for ctx in contexts)
    for page, name in ((anna, "anna"), (bo, "bo"), (cy, "cy")):
        sign_up(page, base, name)
    deck = own_deck(User.objects.get(username="anna"), 26, name="Our holiday")  # 3 × 7 + one round's 5

    # Anna picks her deck on the new-game form, own cards only.
    anna.goto(f"{base}/games/new/")
    anna.select_option("#id_max_seats", "3")
    anna.check("input[name=visibility][value=private]")
    deck_select = anna.locator("select[name=deck]").first
    expect(deck_select.locator("optgroup[label='Your decks'] option")).to_have_text("Our holiday (26 cards)")
    deck_select.select_option(str(deck.pk))
    anna.get_by_label("Own cards only").check()
    anna.uncheck("input[name=with_bots]")  # a newcomer's form offers bots for the empty seats (issue 39)
    anna.click("button[type=submit]")
    expect(anna.locator("#status")).to_contain_text("1 of 3 seats taken")
    expect(anna.locator(".deck-name")).to_contain_text("Deck: “Our holiday”, anna's deck")
    invite = anna.input_value("#invite-link")

    for page in (bo, cy):
        page.goto(invite)
        page.get_by_role("button", name="Join the game").click()
    expect(cy.locator("#status")).to_contain_text("Be the first to give a clue")

    anna.reload()
    assert own_pictures_load(anna) == 7
    anna.locator(".clue-form .card-pick").first.click()
    anna.fill("#clue-text", "Sun on the water")
    anna.get_by_role("button", name="Give the clue").click()
    expect(anna.locator("#status")).to_contain_text("to hand in cards")

    for page in (bo, cy):
        page.reload()
        own_pictures_load(page)
        picks = page.locator(".submit-form .card-pick")
        picks.nth(0).click()
        picks.nth(1).click()
        page.get_by_role("button", name="Hand in my cards").click()
        expect(page.locator(".submit-form")).to_have_count(0)

    for page in (bo, cy):
        page.reload()
        expect(page.locator(".vote-form .card-pick")).to_have_count(5)
        own_pictures_load(page)
        page.locator(".vote-form .card-pick:not(.mine)").first.click()
        page.get_by_role("button", name="Cast my vote").click()
        expect(page.locator(".vote-form")).to_have_count(0)

    for page in (anna, bo, cy):
        page.reload()
        reveal = page.locator("#last-round")
        expect(reveal).to_contain_text("Round 1: the reveal")
        expect(reveal.locator("figure")).to_have_count(5)
        own_pictures_load(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The refill dealt the last of her cards: the game ends after this round, as the rules say.
    expect(anna.locator("#status")).to_contain_text(re.compile("over|won|Winner|finished", re.I))
    for ctx in contexts:
        ctx.close()
