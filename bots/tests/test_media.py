"""A bot's drawing and sound: what the upload service's checks accept, made from the card."""

from storyteller import bot_media
from storyteller.services.media import media_sniff

WHALE = "A whale floats over the red roofs of a sleeping town under a full moon, blue night all around."


def test_a_drawing_is_a_small_png_of_the_card_s_colours_the_same_every_time():
    from io import BytesIO

    from PIL import Image

    data = bot_media.drawing(7, WHALE)
    assert media_sniff(data).kind == "drawing" and media_sniff(data).content_type == "image/png"
    assert data == bot_media.drawing(7, WHALE) and data != bot_media.drawing(8, WHALE)
    with Image.open(BytesIO(data)) as image:
        colours = {colour for _count, colour in image.convert("RGB").getcolors(256 * 256)}
    assert (200, 40, 40) in colours and (245, 235, 170) in colours  # the red roofs, a round moon
    assert bot_media.colours_in("Punainen talo ja sininen meri") == [(200, 40, 40), (40, 80, 200)]


def test_a_sound_is_a_short_ogg_opus_the_checks_measure():
    sniffed = media_sniff(bot_media.sound(7, WHALE))
    assert sniffed.kind == "sound" and sniffed.content_type == "audio/ogg"
    assert 1 <= sniffed.duration <= 3.05
