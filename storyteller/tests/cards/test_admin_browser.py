"""In Chromium: an admin makes a deck from a zip of pictures in the admin, and a
player is dealt its cards in a new game."""

import re
import zipfile

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_join
from games.tests.browser import wait_until
from games.tests.factories import UserFactory
from storyteller.models import Card, Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # the factories' password
PICTURES = 21  # the deal of a game for three


@pytest.fixture
def media_root(settings):
    """The live server serves media from the folder the URLs were built with: keep it,
    and remove what the test stored there."""
    yield settings.MEDIA_ROOT
    for name in Card.objects.values_list("image", flat=True):
        default_storage.delete(name)


def zip_of_pictures(folder) -> str:
    path = folder / "sea-dreams.zip"
    rows = ["file,alt,tags"]
    with zipfile.ZipFile(path, "w") as archive:
        for n in range(PICTURES):
            image = Image.new("RGB", (900, 1200), (20 + 10 * n, 60, 200 - 8 * n))
            draw = ImageDraw.Draw(image)
            draw.ellipse((200, 300 + 10 * n, 700, 800 + 10 * n), fill=(250, 220, 120))
            draw.rectangle((100, 1000, 800, 1100), fill=(30, 30, 60))
            name = f"pictures/sea-{n:02}.{'jpg' if n % 2 else 'png'}"
            with archive.open(name, "w") as member:
                image.save(member, format="JPEG" if n % 2 else "PNG")
            rows.append(f'sea-{n:02}.{"jpg" if n % 2 else "png"},A moon number {n} rising over a dark sea,"moon, sea"')
        archive.writestr("pictures/cards.csv", "\n".join(rows) + "\n")
    return str(path)


def log_in(browser, url: str, username: str):
    page = browser.new_context().new_page()
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("[type=submit]").click()
    page.wait_for_url(lambda address: "login" not in address)
    return page


def test_an_admin_imports_a_deck_and_a_player_is_dealt_its_cards(live_server, browser, tmp_path):
    base = live_server.url
    UserFactory(username="ada", is_staff=True, is_superuser=True)
    anna, bo, cy = UserFactory(username="anna"), UserFactory(username="bo"), UserFactory(username="cy")

    admin = log_in(browser, base + reverse("admin:login"), "ada")

    # A new deck, then its pictures from a zip.
    admin.goto(base + reverse("admin:storyteller_deck_add"))
    admin.locator("#id_name").press_sequentially("Sea dreams")  # typed: the slug follows as keys go
    expect(admin.locator("#id_slug")).to_have_value("sea-dreams")
    admin.fill("#id_description", "Moons over the sea")
    admin.click("input[name=_continue]")
    admin.get_by_role("link", name="Import a zip of pictures").click()
    admin.set_input_files("#id_archive", zip_of_pictures(tmp_path))
    admin.get_by_role("button", name="Import").click()
    expect(admin.locator(".messagelist")).to_contain_text("21 cards were added to the deck “Sea dreams”")
    expect(admin.locator("#result_list tbody tr")).to_have_count(PICTURES)
    # A thumbnail opens the card at full size.
    thumbnail = admin.locator("#result_list td.field-thumbnail a").first
    with admin.expect_popup() as popup:
        thumbnail.click()
    big = popup.value
    big.wait_for_load_state()
    assert big.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]") == [480, 720]
    urls = set(Card.objects.filter(deck__slug="sea-dreams").values_list("image", flat=True))
    assert len(urls) == PICTURES

    # Anna creates a game for three with the new deck; Bo and Cy join.
    player = log_in(browser, f"{base}/accounts/login/", "anna")
    player.goto(f"{base}/games/new/")
    player.select_option("#id_max_seats", "3")
    player.select_option("#id_deck", label="Sea dreams")
    player.uncheck("input[name=with_bots]")  # a newcomer's form offers bots for the empty seats (issue 39)
    player.click("button[type=submit]")
    game = Game.objects.get(creator=anna)
    assert Deck.objects.get(pk=game.options["deck"]).slug == "sea-dreams"
    for user in (bo, cy):
        game_join(game_id=game.pk, user=user)

    player.reload()
    hand = player.locator(".clue-form .card-pick img")
    expect(hand).to_have_count(7)
    first = hand.first
    expect(first).to_have_attribute("alt", re.compile(r"^A moon number \d+ rising over a dark sea$"))
    assert first.get_attribute("src").split("/media/")[1] in urls
    # The picture arrives: a real 480×720 card, not a broken image.
    wait_until(player, "img => img.complete && img.naturalWidth > 0", first.element_handle())
    assert first.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [480, 720]
