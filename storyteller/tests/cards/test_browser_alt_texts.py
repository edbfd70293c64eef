"""In Chromium, a player whose site is in Finnish sees the Dreams deck described in Finnish; a card
with no Finnish words yet is described in English, and says so (lang="en"), also when opened large.
Screenshots go to $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import started_game
from games.tests.play import view_for
from storyteller.decks.services.builtin import BUILTIN_DIR, deck_load_builtin
from storyteller.models import Card
from storyteller.selectors import card_faces

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"alt-texts-{name}")


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_a_finnish_player_hears_the_cards_in_finnish(live_server, browser):
    deck, _ = deck_load_builtin(manifest=BUILTIN_DIR / "dream.json")
    game, users = started_game(4, deck=deck)
    hand = view_for(game, users[1])["hand"]
    untranslated = Card.objects.get(pk=hand[-1]["id"])
    untranslated.alt_texts = {code: text for code, text in untranslated.alt_texts.items() if code != "fi"}
    untranslated.save()
    finnish = {card["id"]: Card.objects.get(pk=card["id"]).alt_texts["fi"] for card in hand[:-1]}
    card_faces.clear()  # read above, before the card lost its Finnish words

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": session_of(users[1]), "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": "fi", "url": live_server.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    for text in finnish.values():
        image = page.locator(f'img[alt="{text}"]').first
        expect(image).to_be_attached()
        assert image.get_attribute("lang") is None
    english = page.locator(f'img[alt="{untranslated.alt_text}"]').first
    expect(english).to_have_attribute("lang", "en")
    screenshot(page, "hand-fi")

    # Opened large, the English words keep their lang; a Finnish card's do not carry it over.
    english.locator("xpath=ancestor::*[contains(@class, 'card-pick')][1]").locator("[data-zoom]").click()
    dialog = page.locator("#card-zoom")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".alt")).to_have_text(untranslated.alt_text)
    expect(dialog.locator(".alt")).to_have_attribute("lang", "en")
    screenshot(page, "zoom-untranslated-fi")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    first_finnish = next(iter(finnish.values()))
    page.locator(f'img[alt="{first_finnish}"]').first.locator(
        "xpath=ancestor::*[contains(@class, 'card-pick')][1]"
    ).locator("[data-zoom]").click()
    expect(dialog.locator(".alt")).to_have_text(first_finnish)
    assert dialog.locator(".alt").get_attribute("lang") is None
    context.close()
