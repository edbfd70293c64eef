"""A drawn clue through the pages in Chromium: the storyteller draws on the pad with the pointer,
undoes a stroke, gives the clue with its drawing only; the others see the picture."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from games.services.games import game_create, game_join
from games.tests.browser import log_in, sign_up
from games.tests.factories import UserFactory, deck_with_cards
from storyteller.models import ClueMedia

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def draw(page, strokes):
    canvas = page.locator("[data-drawing-pad] canvas")
    box = canvas.bounding_box()
    for stroke in strokes:
        (x0, y0), rest = stroke[0], stroke[1:]
        page.mouse.move(box["x"] + x0 * box["width"], box["y"] + y0 * box["height"])
        page.mouse.down()
        for x, y in rest:
            page.mouse.move(box["x"] + x * box["width"], box["y"] + y * box["height"], steps=8)
        page.mouse.up()


def test_the_storyteller_draws_a_clue_and_the_others_see_it(live_server, browser, media_root):
    from django.contrib.auth import get_user_model

    deck_with_cards(40, name="Test deck")
    base = live_server.url
    anna_page = browser.new_context().new_page()
    sign_up(anna_page, base, "anna")
    anna = get_user_model().objects.get(username="anna")
    game = game_create(creator=anna, max_seats=3, options={"clue_modes": ["drawing"]})
    bo, cy = UserFactory(), UserFactory()
    for user in (bo, cy):
        game_join(game_id=game.pk, user=user)

    anna_page.goto(f"{base}{game.get_absolute_url()}")
    expect(anna_page.locator("[data-drawing-pad] canvas")).to_be_visible()
    expect(anna_page.locator("#clue-text")).to_have_count(0)  # a drawn clue only, by the house rules
    anna_page.locator(".clue-form .card-pick").first.click()

    # Nothing drawn yet: the form asks for a drawing and sends nothing.
    anna_page.get_by_role("button", name="Give the clue").click()
    expect(anna_page.locator("[data-media-error]")).to_have_text("Draw or record your clue first.")
    assert not ClueMedia.objects.exists()

    anna_page.get_by_role("button", name="Red").click()
    draw(anna_page, [[(0.1, 0.5), (0.5, 0.2), (0.9, 0.5)], [(0.1, 0.9), (0.9, 0.9)]])
    anna_page.get_by_role("button", name="Undo").click()  # the second stroke goes
    anna_page.get_by_role("button", name="Give the clue").click()
    expect(anna_page.locator("#status")).to_contain_text("to hand in cards")

    media = ClueMedia.objects.get()
    assert (media.kind, media.content_type, media.seat.user_id) == ("drawing", "image/png", anna.pk)
    with media.file.open("rb") as stored, Image.open(io.BytesIO(stored.read())) as picture:
        picture = picture.convert("RGB")
        assert picture.size == (480, 320)
        colours = picture.getcolors(480 * 320)
    reds = sum(count for count, (r, g, b) in colours if r > 180 and g < 90 and b < 90)
    assert reds > 200  # the red arc is there
    dark = sum(count for count, (r, g, b) in colours if r < 80 and g < 80 and b < 80)
    assert dark == 0  # nothing drawn in black, and the undone stroke is gone from the bottom
    bottom = picture.crop((0, 280, 480, 300)).getcolors(480 * 20)
    assert all(colour == (255, 255, 255) for _count, colour in bottom)

    # Bo, on a phone, sees the drawing as the clue (served to a player of the game).
    phone = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    bo_page = phone.new_page()
    log_in(bo_page, base, bo.username)
    bo_page.goto(f"{base}{game.get_absolute_url()}")
    drawing = bo_page.locator(".clue img.clue-drawing")
    expect(drawing).to_be_visible()
    assert bo_page.evaluate("(img) => img.complete && img.naturalWidth", drawing.element_handle()) == 480


def test_the_storyteller_records_a_sung_clue_plays_it_back_and_the_others_hear_it(live_server, browser, media_root):
    from django.contrib.auth import get_user_model

    deck_with_cards(40, name="Test deck")
    base = live_server.url
    context = browser.new_context(permissions=["microphone"])  # Chromium's fake microphone (conftest)
    anna_page = context.new_page()
    sign_up(anna_page, base, "anna")
    anna = get_user_model().objects.get(username="anna")
    game = game_create(creator=anna, max_seats=3, options={"clue_modes": ["sound"]})
    bo, cy = UserFactory(), UserFactory()
    for user in (bo, cy):
        game_join(game_id=game.pk, user=user)

    anna_page.goto(f"{base}{game.get_absolute_url()}")
    anna_page.locator(".clue-form .card-pick").first.click()
    recorder = anna_page.locator("[data-sound-recorder]")
    expect(recorder.locator("[data-stop]")).to_be_disabled()
    # Nothing to play back or discard before a recording (a button's style once showed "Discard" from the start).
    expect(recorder.locator("[data-playback]")).to_be_hidden()
    expect(recorder.locator("[data-discard]")).to_be_hidden()
    recorder.locator("[data-record]").click()
    expect(recorder.locator("[data-stop]")).to_be_enabled()
    # A second or more recorded, by the recorder's own clock (its timer), not a pause of ours.
    expect(recorder.locator("[data-timer]")).to_have_text(re.compile(r"^[1-9][0-9]* / "))
    recorder.locator("[data-stop]").click()
    playback = recorder.locator("[data-playback]")
    expect(playback).to_be_visible()  # heard before it is sent
    expect(recorder.locator("[data-discard]")).to_be_visible()
    assert not ClueMedia.objects.exists()  # nothing leaves the browser before the clue is given
    anna_page.get_by_role("button", name="Give the clue").click()
    expect(anna_page.locator("#status")).to_contain_text("to hand in cards")

    media = ClueMedia.objects.get()
    assert media.kind == "sound" and media.content_type.startswith("audio/") and media.seat.user_id == anna.pk
    assert 0.5 < media.duration <= 20

    bo_context = browser.new_context()
    bo_page = bo_context.new_page()
    log_in(bo_page, base, bo.username)
    bo_page.goto(f"{base}{game.get_absolute_url()}")
    sound = bo_page.locator(".clue audio.clue-sound")
    expect(sound).to_be_visible()
    source = sound.get_attribute("src")
    answer = bo_page.request.get(f"{base}{source}" if source.startswith("/") else source)
    assert answer.status == 200 and answer.headers["content-type"] == media.content_type
