"""Pictures become cards only when they are real, safe pictures; a zip is all or nothing."""

import io
import json
import os
import zipfile

import pytest
from django.core.files.storage import default_storage

from games.tests.factories import DeckFactory
from storyteller.decks.services import cards as card_services
from storyteller.decks.services.cards import (
    CardImageError,
    CardImportError,
    card_create,
    card_image_prepare,
    cards_import_zip,
)
from storyteller.models import Card

from .pictures import SVG, card_pixels, picture, png_claiming, zip_of

pytestmark = pytest.mark.django_db


class TestOnePicture:
    @pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
    def test_png_jpeg_and_webp_become_480_by_720_webp(self, fmt):
        prepared = card_image_prepare(name=f"x.{fmt.lower()}", data=picture(fmt, size=(1000, 700)))
        assert card_pixels(prepared.content) == ("WEBP", (480, 720))

    def test_transparent_and_palette_pictures_are_flattened(self):
        for mode, colour in (("RGBA", (10, 20, 30, 0)), ("P", 3), ("LA", (100, 128)), ("L", 90), ("CMYK", "cyan")):
            prepared = card_image_prepare(
                name="x", data=picture("PNG" if mode != "CMYK" else "JPEG", mode=mode, colour=colour)
            )
            assert card_pixels(prepared.content) == ("WEBP", (480, 720))

    def test_a_phone_photo_is_turned_upright(self):
        image = io.BytesIO()
        from PIL import Image

        landscape = Image.new("RGB", (900, 600), "red")
        exif = landscape.getexif()
        exif[0x0112] = 6  # "rotate 90° clockwise to view"
        landscape.save(image, format="JPEG", exif=exif)
        prepared = card_image_prepare(name="photo.jpg", data=image.getvalue())
        assert card_pixels(prepared.content) == ("WEBP", (480, 720))

    @pytest.mark.parametrize(
        "name, data, message",
        [
            ("notes.txt", b"just some words, not a picture", "not a PNG, JPEG or WebP"),
            ("holiday.png", b"a text file renamed to look like a picture", "not a PNG, JPEG or WebP"),
            ("anim.gif", None, "not a PNG, JPEG or WebP"),
            ("card.svg", SVG, "SVG"),
            ("card.png", SVG, "SVG"),  # an SVG with another name is still an SVG
            ("bomb.png", png_claiming(30_000, 30_000), "million pixels"),
            ("big.png", png_claiming(8_000, 6_000), "million pixels"),
            ("half.png", picture("PNG")[:400], "damaged"),
            ("tiny.png", picture("PNG", size=(120, 180)), "at least 240 × 360"),
            ("huge.png", b"\x89PNG" + b"0" * (10 * 1024 * 1024), "larger than 10 MB"),
        ],
    )
    def test_bad_pictures_are_refused_with_a_reason(self, name, data, message):
        if data is None:
            data = picture("GIF")
        with pytest.raises(CardImageError) as error:
            card_image_prepare(name=name, data=data)
        assert message in str(error.value.message)

    def test_card_create_stores_a_webp_under_a_new_name(self, stored_files):
        deck = DeckFactory()
        prepared = card_image_prepare(name="my-secret-meaning.png", data=picture())
        card = card_create(deck=deck, image=prepared, alt_text="A moon in a cup", tags="moon, cup,  moon ,")
        assert card.pk and card.tags == "moon, cup" and not card.is_retired
        assert stored_files() == [card.image.name]
        assert card.image.name.startswith("cards/") and card.image.name.endswith(".webp")
        assert "secret" not in card.image.name
        with default_storage.open(card.image.name) as handle:
            assert card_pixels(handle.read()) == ("WEBP", (480, 720))

    def test_a_failed_create_leaves_no_file(self, stored_files, monkeypatch):
        deck = DeckFactory()
        prepared = card_image_prepare(name="x.png", data=picture())

        def broken(*args, **kwargs):
            raise RuntimeError("database down")

        monkeypatch.setattr(Card.objects, "bulk_create", broken)
        with pytest.raises(RuntimeError):
            card_create(deck=deck, image=prepared, alt_text="A moon")
        assert stored_files() == []
        assert Card.objects.count() == 0


def good_zip():
    return {
        "deck/one.png": picture("PNG", colour="red"),
        "deck/two.jpg": picture("JPEG", size=(2000, 1000), colour="green"),
        "deck/three.webp": picture("WEBP", colour="blue"),
        "deck/cards.csv": (
            b'file,alt,tags\none.png,A red sky over a sleeping town,"sky, town"\ntwo.jpg,A green door in the sea,door\n'
        ),
    }


class TestZipImport:
    def test_a_good_zip_adds_every_picture_resized(self, stored_files):
        deck = DeckFactory()
        imported = cards_import_zip(deck=deck, archive=zip_of(good_zip()))
        cards = {card.alt_text: card for card in Card.objects.filter(deck=deck)}
        assert len(imported.cards) == 3 == len(cards)
        assert cards["A red sky over a sleeping town"].tags == "sky, town"
        assert cards["A green door in the sea"].tags == "door"
        # The picture the file does not describe waits, retired, for an alt text.
        assert [card.pk for card in imported.without_alt_text] == [cards[""].pk]
        assert cards[""].is_retired
        assert not cards["A green door in the sea"].is_retired
        assert sorted(stored_files()) == sorted(card.image.name for card in cards.values())
        for card in cards.values():
            with default_storage.open(card.image.name) as handle:
                assert card_pixels(handle.read()) == ("WEBP", (480, 720))

    def test_a_json_manifest_like_the_builtin_decks(self):
        deck = DeckFactory()
        manifest = {
            "slug": "x",
            "cards": [{"file": "one.png", "alt": "A whale over a house", "tags": ["whale", "house"]}],
        }
        cards_import_zip(deck=deck, archive=zip_of({"one.png": picture(), "cards.json": json.dumps(manifest).encode()}))
        card = Card.objects.get(deck=deck)
        assert (card.alt_text, card.tags, card.is_retired) == ("A whale over a house", "whale, house", False)

    def test_archiver_litter_is_skipped(self):
        deck = DeckFactory()
        files = {"a.png": picture(), "__MACOSX/._a.png": b"junk", ".DS_Store": b"junk", "folder/": b""}
        imported = cards_import_zip(deck=deck, archive=zip_of(files))
        assert len(imported.cards) == 1

    @pytest.mark.parametrize(
        "extra, refused, reason",
        [
            ({"deck/notes.txt": b"not a picture"}, "deck/notes.txt", "not a PNG, JPEG or WebP"),
            ({"deck/evil.svg": SVG}, "deck/evil.svg", "SVG"),
            ({"deck/bomb.png": png_claiming(40_000, 40_000)}, "deck/bomb.png", "million pixels"),
            ({"../../etc/cron.d/evil.png": picture()}, "../../etc/cron.d/evil.png", "outside the zip"),
            ({"/abs/evil.png": picture()}, "/abs/evil.png", "outside the zip"),
            ({"deck\\..\\evil.png": picture()}, "deck\\..\\evil.png", "outside the zip"),
            ({"other/one.png": picture()}, "other/one.png", "same name"),
            ({"deck/four.png": b"\x89PNG" + b"0" * (10 * 1024 * 1024 + 1)}, "deck/four.png", "larger than 10 MB"),
        ],
    )
    def test_one_bad_file_refuses_the_whole_zip(self, extra, refused, reason, stored_files):
        deck = DeckFactory()
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=zip_of({**good_zip(), **extra}))
        assert "Nothing was imported: 1 file was refused" in str(error.value.message)
        [(name, why)] = error.value.problems
        assert name == refused and reason in why
        assert deck.cards.count() == 0
        assert stored_files() == []

    def test_every_refused_file_is_reported(self):
        deck = DeckFactory()
        files = {**good_zip(), "a.txt": b"words", "b.svg": SVG, "c.png": b"fake"}
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=zip_of(files))
        assert sorted(name for name, _ in error.value.problems) == ["a.txt", "b.svg", "c.png"]
        assert "3 files were refused" in str(error.value.message)

    @pytest.mark.parametrize(
        "manifest_name, manifest, reason",
        [
            ("cards.csv", b"name,description\none.png,x\n", "columns"),
            ("cards.csv", b"file,alt\nmissing.png,Nothing here\n", "not in the zip"),
            ("cards.json", b"{not json", "not valid JSON"),
            ("cards.json", b'[{"file": "one.png", "alt": 3}]', "alt is text"),
            ("cards.csv", b"file,alt\none.png," + b"x" * 1001 + b"\n", "longer than 1000"),
        ],
    )
    def test_a_bad_file_of_alt_texts_refuses_the_zip(self, manifest_name, manifest, reason):
        deck = DeckFactory()
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=zip_of({"one.png": picture(), manifest_name: manifest}))
        assert any(reason in why for _, why in error.value.problems), error.value.problems
        assert deck.cards.count() == 0

    def test_a_zip_bomb_is_refused_before_unpacking(self, stored_files, monkeypatch):
        """25 files of 9 MB of zeros: about 200 kB zipped, 225 MB unpacked."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for n in range(25):
                with archive.open(f"zeros{n}.png", "w") as member:
                    for _ in range(9):
                        member.write(bytes(1024 * 1024))
        assert out.tell() < 1024 * 1024
        out.seek(0)
        # Nothing may be read from the members: the directory alone decides.
        monkeypatch.setattr(zipfile.ZipFile, "open", lambda *a, **k: pytest.fail("a member was unpacked"))
        deck = DeckFactory()
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=out)
        assert "Unpacked, the zip would take more than 200 MB" in str(error.value.message)
        assert deck.cards.count() == 0 and stored_files() == []

    def test_too_many_files_and_too_large_a_zip(self, monkeypatch):
        deck = DeckFactory()
        monkeypatch.setattr(card_services, "MAX_ZIP_FILES", 2)
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=zip_of(good_zip()))
        assert "holds 4 files; at most 2" in str(error.value.message)
        monkeypatch.setattr(card_services, "MAX_ZIP_BYTES", 1024 * 1024)
        noise = zip_of({"noise.png": os.urandom(1024 * 1024 + 1)}, compression=zipfile.ZIP_STORED)
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=noise)
        assert "The zip is larger than 1 MB" in str(error.value.message)

    @pytest.mark.parametrize("data", [b"", b"PK\x03\x04 broken", picture()])
    def test_not_a_zip(self, data):
        archive = io.BytesIO(data)
        archive.name = "cards.zip"
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=DeckFactory(), archive=archive)
        assert "is not a zip file" in str(error.value.message)

    def test_an_empty_zip(self):
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=DeckFactory(), archive=zip_of({"readme/": b""}))
        assert "holds no pictures" in str(error.value.message)

    def test_a_database_failure_leaves_no_file(self, stored_files, monkeypatch):
        deck = DeckFactory()

        def broken(*args, **kwargs):
            raise RuntimeError("database down")

        monkeypatch.setattr(Card.objects, "bulk_create", broken)
        with pytest.raises(RuntimeError):
            cards_import_zip(deck=deck, archive=zip_of(good_zip()))
        assert stored_files() == []
        assert deck.cards.count() == 0
