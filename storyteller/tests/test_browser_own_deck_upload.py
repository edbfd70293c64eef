"""A player's own deck through the pages in Chromium at phone size: five photos chosen at once (as from the
phone's gallery), each uploaded with its own progress bar, one refused with its reason; then each picture
described and confirmed, and the deck's cards listed in order, in play, with the quota shown."""

import io

import pytest
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from games.tests.browser import log_in
from games.tests.factories import UserFactory
from storyteller.decks.services.own_decks import deck_create
from storyteller.models import Card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def jpeg(colour, size=(1600, 1200)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="JPEG", quality=90)
    return out.getvalue()


COLOURS = {"red": (200, 40, 40), "green": (40, 160, 60), "blue": (40, 80, 200), "yellow": (230, 200, 40)}


def anna_s_deck_on_a_phone(browser, base, **options):
    """Anna's empty deck "Summer", and a phone's page signed in as her (the context closes with the test)."""
    deck = deck_create(user=UserFactory(username="anna"), name="Summer")
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, **options).new_page()
    log_in(page, base, "anna")
    return deck, page


def test_five_photos_uploaded_from_a_phone_then_described(live_server, browser, media_root):
    base = live_server.url
    deck, page = anna_s_deck_on_a_phone(browser, base, has_touch=True)

    page.goto(f"{base}/decks/")
    expect(page.get_by_role("link", name="Summer")).to_be_visible()
    page.get_by_role("link", name="Summer").click()
    expect(page.get_by_role("heading", name="Summer")).to_be_visible()
    expect(page.locator("[data-quota]")).to_have_text("0 of 300 cards, 0 of 100 MB")
    expect(page.get_by_text("Take a photo")).to_be_visible()  # the camera's own button, with the script
    expect(page.locator("#deck-files")).to_have_js_property("multiple", True)  # chosen several at once
    assert page.locator("#deck-camera").get_attribute("capture") == "environment"
    assert page.locator("#deck-files").get_attribute("capture") is None  # the phone offers camera and gallery

    files = [{"name": f"{name}.jpg", "mimeType": "image/jpeg", "buffer": jpeg(rgb)} for name, rgb in COLOURS.items()]
    files.insert(2, {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not a picture at all"})
    page.set_input_files("#deck-files", files)

    items = page.locator(".upload-item")
    expect(items).to_have_count(5)
    expect(page.locator("form[data-deck-upload]")).to_have_attribute("data-state", "done", timeout=30_000)
    expect(page.locator(".upload-item.done")).to_have_count(4)
    failed = page.locator(".upload-item.failed")
    expect(failed).to_have_count(1)
    expect(failed).to_contain_text("notes.jpg")
    expect(failed).to_contain_text("Not added: It is not a JPEG, PNG, WebP or HEIC picture.")
    for index in (0, 1, 3, 4):
        assert items.nth(index).locator("progress").get_attribute("value") == "100"

    # The list was read again: four cards, each waiting for its words.
    cards = page.locator(".deck-card")
    expect(cards).to_have_count(4)
    expect(page.locator(".deck-card.waiting")).to_have_count(4)
    expect(page.locator("[data-quota]")).to_contain_text("4 of 300 cards")
    assert Card.objects.filter(deck=deck).count() == 4
    assert not Card.objects.in_play().filter(deck=deck).exists()

    # A fifth, good one after the refused file.
    page.set_input_files("#deck-files", [{"name": "black.jpg", "mimeType": "image/jpeg", "buffer": jpeg((5, 5, 5))}])
    expect(cards).to_have_count(5)

    names = ["A red wall", "A green field", "A blue sea", "A yellow door", "A night without stars"]
    page.evaluate("window.fabulaSamePage = true")  # the words are saved in place: no page load (issue 39)
    for number, words in enumerate(names, start=1):
        page.get_by_label(f"Picture {number} in words").fill(words)
        page.locator(".deck-card").nth(number - 1).get_by_role("button", name="Confirm the words").click()
        expect(page.locator(".deck-card").nth(number - 1).locator(".alt-status")).to_have_text("The words were saved.")
    assert page.evaluate("window.fabulaSamePage === true")

    expect(page.locator(".deck-card.waiting")).to_have_count(0)
    in_play = Card.objects.in_play().filter(deck=deck).order_by("position")
    assert [card.alt_text for card in in_play] == names
    assert all(card.alt_language == "en" and card.size > 0 for card in in_play)
    expect(page.locator(".deck-card img").first).to_have_attribute("alt", "A red wall")
    # Each picture is served to its owner: the browser drew it.
    widths = page.locator(".deck-card img").evaluate_all("images => images.map(image => image.naturalWidth)")
    assert widths == [480] * 5

    # Reorder with the keyboard: the last card one place up.
    page.get_by_role("button", name="Move picture 5 up").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".deck-card img").nth(3)).to_have_attribute("alt", "A night without stars")


def test_without_the_script_a_deck_takes_one_picture_with_its_words(live_server, browser, media_root):
    """The camera's button needs the script: without it only the one-picture form shows (the button's style once
    showed it anyway, a button that did nothing), and that form adds a card with its words."""
    base = live_server.url
    deck, page = anna_s_deck_on_a_phone(browser, base, java_script_enabled=False)
    page.goto(base + reverse("decks:deck", args=[deck.pk]))
    expect(page.get_by_role("heading", name="Summer")).to_be_visible()
    expect(page.get_by_text("Take a photo")).to_be_hidden()
    expect(page.locator("#deck-files")).to_have_js_property("multiple", False)
    page.set_input_files("#deck-files", {"name": "red.jpg", "mimeType": "image/jpeg", "buffer": jpeg((200, 40, 40))})
    page.get_by_label("The picture in words").fill("A red wall")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator(".deck-card")).to_have_count(1)
    card = Card.objects.get(deck=deck)
    assert card.alt_text == "A red wall" and card.size > 0
