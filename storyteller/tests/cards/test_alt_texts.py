"""A card's words for screen readers in every language of the site: stored beside the English alt
text (Card.alt_texts), written for the built-in deck, edited in the admin, imported with the pictures,
and shown in the viewer's language, or in English marked lang="en" where a card has no translation."""

import csv
import io
import json
import re

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.services import token_create
from games.tests.factories import DeckFactory, deck_with_cards, started_game
from games.tests.play import view_for
from storyteller.decks.services.builtin import BUILTIN_DIR, deck_load_builtin
from storyteller.decks.services.cards import CardImportError, cards_import_zip
from storyteller.models import Card
from storyteller.models.cards import alt_language, alt_languages
from storyteller.replay import storyteller_replay
from storyteller.selectors import card_faces

from .pictures import picture, zip_of
from .rounds import play_three_rounds

MANIFEST = BUILTIN_DIR / "dream.json"
OTHER_LANGUAGES = ("da", "fi", "fr", "nb", "sv")


@pytest.fixture(autouse=True)
def _language_kept():
    """A request in Finnish leaves Finnish active in this thread (LocaleMiddleware): not for the next test."""
    language = translation.get_language()
    yield
    translation.activate(language)


def manifest_cards() -> list[dict]:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))["cards"]


def finnish(card_number: int) -> str:
    return f"Kuva {card_number} suomeksi"


def translated_deck(count: int, *, untranslated: int = 0):
    """A deck whose cards have words in every language but the last ``untranslated`` ones (English only)."""
    deck = deck_with_cards(count)
    cards = list(deck.cards.order_by("pk"))
    for number, card in enumerate(cards[: count - untranslated]):
        card.alt_texts = {code: f"{code} {number}" for code in alt_languages()} | {"fi": finnish(number)}
    Card.objects.bulk_update(cards, ["alt_texts"])
    return deck


# --- the built-in deck's words -------------------------------------------------------


class TestDreamDeck:
    def test_the_site_languages_are_the_ones_translated(self):
        assert sorted(alt_languages()) == sorted(OTHER_LANGUAGES)
        assert settings.LANGUAGE_CODE == "en"

    def test_every_card_has_its_own_words_in_every_language(self):
        cards = manifest_cards()
        assert len(cards) == 84
        for card in cards:
            texts = card["alt_texts"]
            assert sorted(texts) == sorted(alt_languages()), card["file"]
            for code, text in texts.items():
                assert text.strip() == text and len(text) > 30, (card["file"], code)
                assert text != card["alt"], (card["file"], code)
            # Five languages, five different sentences (Danish and Norwegian are close, never the same).
            assert len(set(texts.values())) == len(texts), card["file"]

    def test_no_two_cards_share_a_translation(self):
        for code in alt_languages():
            texts = [card["alt_texts"][code] for card in manifest_cards()]
            assert len(set(texts)) == len(texts), code

    def test_each_language_reads_as_itself(self):
        # Letters that only some of the languages use: a text pasted into the wrong language shows.
        marks = {"da": "æø", "nb": "æø", "sv": "äö", "fi": "äö", "fr": "éèàçê"}
        for code, letters in marks.items():
            texts = [card["alt_texts"][code] for card in manifest_cards()]
            with_marks = [text for text in texts if any(letter in text for letter in letters)]
            assert len(with_marks) >= 60, code
        for card in manifest_cards():
            assert not re.search(r"[æø]", card["alt_texts"]["sv"] + card["alt_texts"]["fi"]), card["file"]
            assert not re.search(r"[äö]", card["alt_texts"]["da"] + card["alt_texts"]["nb"]), card["file"]

    def test_the_validator_accepts_them(self):
        from storyteller.models.cards import validate_alt_texts

        for card in manifest_cards():
            validate_alt_texts(card["alt_texts"])


@pytest.mark.django_db
class TestDeckLoading:
    def test_a_new_install_gets_the_translations(self):
        deck, added = deck_load_builtin(manifest=MANIFEST)
        assert added == 84
        first = deck.cards.get(source_key="dream/001.webp")
        assert first.alt_texts == manifest_cards()[0]["alt_texts"]
        assert deck.cards.filter(alt_texts={}).count() == 0

    def test_loading_again_completes_the_cards_without_overwriting_an_admin(self):
        deck, _ = deck_load_builtin(manifest=MANIFEST)
        entries = {f"dream/{card['file']}": card for card in manifest_cards()}
        # Cards loaded before there were translations; one re-described by an admin; one translated by hand.
        Card.objects.filter(deck=deck).update(alt_texts={})
        reworded = deck.cards.get(source_key="dream/002.webp")
        reworded.alt_text = "A whale, as an admin sees it"
        reworded.save()
        by_hand = deck.cards.get(source_key="dream/003.webp")
        by_hand.alt_texts = {"fi": "Teekuppi meressä"}
        by_hand.save()

        assert deck_load_builtin(manifest=MANIFEST) == (deck, 0)
        assert deck.cards.count() == 84
        first = deck.cards.get(source_key="dream/001.webp")
        assert first.alt_texts == entries["dream/001.webp"]["alt_texts"]
        reworded.refresh_from_db()
        assert reworded.alt_texts == {}  # a translation of the old words would say something else
        by_hand.refresh_from_db()
        assert by_hand.alt_texts["fi"] == "Teekuppi meressä"
        assert by_hand.alt_texts["sv"] == entries["dream/003.webp"]["alt_texts"]["sv"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_cards_of_an_existing_install():
    from django.db.migrations.executor import MigrationExecutor

    def migrate(target):
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(target)
        return executor.loader.project_state(target).apps

    latest = [key for key in MigrationExecutor(connection).loader.graph.leaf_nodes() if key[0] == "storyteller"]
    try:
        old = migrate([("storyteller", "0005_clue_media")])
        OldDeck = old.get_model("storyteller", "Deck")
        OldCard = old.get_model("storyteller", "Card")
        deck = OldDeck.objects.create(slug="dream", name="Dreams")
        entries = manifest_cards()
        OldCard.objects.create(
            deck=deck, image="cards/dream/001.webp", alt_text=entries[0]["alt"], source_key="dream/001.webp"
        )
        OldCard.objects.create(
            deck=deck, image="cards/dream/002.webp", alt_text="Reworded", source_key="dream/002.webp"
        )
        OldCard.objects.create(deck=deck, image="cards/x.webp", alt_text="An uploaded card")
        migrate(latest)
        texts = dict(Card.objects.values_list("alt_text", "alt_texts"))
        assert texts[entries[0]["alt"]] == entries[0]["alt_texts"]
        assert texts["Reworded"] == {} and texts["An uploaded card"] == {}
    finally:
        migrate(latest)


# --- stored and checked --------------------------------------------------------------


@pytest.mark.django_db
class TestValidation:
    @pytest.mark.parametrize(
        "texts, message",
        [
            ({"xx": "Quelque chose"}, "Unknown language for an alt text: xx"),
            ({"en": "English goes in the alt text"}, "Unknown language for an alt text: en"),
            ({"fi": "  "}, "The alt text in “fi” is empty"),
            ({"fi": 3}, "The alt text in “fi” is empty"),
            ({"fi": "x" * 1001}, "longer than 1000 characters"),
            (["fi", "Kuva"], "should be an object of language: text"),
        ],
    )
    def test_bad_translations_are_refused(self, texts, message):
        card = deck_with_cards(1).cards.get()
        card.alt_texts = texts
        with pytest.raises(ValidationError) as error:
            card.full_clean()
        assert message in str(error.value)

    def test_language_codes_are_read_as_the_sites(self):
        assert [alt_language(code) for code in ("fi", "fi-FI", "nb-no", "no", "nn", "sv_SE", "de", "", None)] == [
            "fi",
            "fi",
            "nb",
            "nb",
            "nb",
            "sv",
            "en",
            "en",
            "en",
        ]

    def test_the_words_in_a_language_or_english_marked_as_such(self):
        card = Card(alt_text="A key", alt_texts={"fi": "Avain"})
        assert card.alt_in("fi") == {"alt": "Avain", "alt_lang": ""}
        assert card.alt_in("fi-FI") == {"alt": "Avain", "alt_lang": ""}
        assert card.alt_in("sv") == {"alt": "A key", "alt_lang": "en"}
        assert card.alt_in("en") == {"alt": "A key", "alt_lang": ""}
        assert card.alt_in("de") == {"alt": "A key", "alt_lang": ""}  # not a site language: English is the page's
        with translation.override("fi"):
            assert card.alt_in() == {"alt": "Avain", "alt_lang": ""}
        assert Card(alt_text="", alt_texts={}).alt_in("fi") == {"alt": "", "alt_lang": ""}


# --- shown -----------------------------------------------------------------------------


@pytest.mark.django_db
class TestFaces:
    def test_a_hand_in_the_viewers_language(self):
        game, users = started_game(4, deck=translated_deck(84))
        english = view_for(game, users[1])["hand"]
        with translation.override("fi"):
            hand = view_for(game, users[1])["hand"]
        assert [card["id"] for card in hand] == [card["id"] for card in english]
        assert all(card["alt"].startswith("Picture ") and card["alt_lang"] == "" for card in english)
        assert all(card["alt"].startswith("Kuva ") and card["alt_lang"] == "" for card in hand)
        with translation.override("sv"):
            assert all(card["alt"].startswith("sv ") for card in view_for(game, users[1])["hand"])

    def test_without_a_translation_the_english_words_say_they_are_english(self):
        deck = translated_deck(84, untranslated=84)
        game, users = started_game(4, deck=deck)
        with translation.override("fi"):
            hand = view_for(game, users[1])["hand"]
        assert all(card["alt"].startswith("Picture ") and card["alt_lang"] == "en" for card in hand)

    def test_one_read_serves_every_language(self):
        game, users = started_game(4, deck=translated_deck(84))
        with translation.override("fi"):
            view_for(game, users[1])
        for code in ("en", "fr", "nb"):
            with translation.override(code), CaptureQueriesContext(connection) as queries:
                view = view_for(game, users[1])
            assert not any("games_card" in query["sql"] for query in queries), code
            assert {card["alt"].split(" ")[0] for card in view["hand"]} == {"Picture" if code == "en" else code}

    def test_new_words_in_a_language_show_once_the_faces_are_old(self):
        game, users = started_game(4, deck=translated_deck(84))
        card_id = view_for(game, users[1])["hand"][0]["id"]
        with translation.override("fi"):
            view_for(game, users[1])
        Card.objects.filter(pk=card_id).update(alt_texts={"fi": "Majakka myrskyssä"})
        card_faces.ttl, ttl = 0, card_faces.ttl
        try:
            with translation.override("fi"):
                assert view_for(game, users[1])["hand"][0]["alt"] == "Majakka myrskyssä"
            with translation.override("da"):
                assert view_for(game, users[1])["hand"][0]["alt_lang"] == "en"
        finally:
            card_faces.ttl = ttl


def _signed_in(user, language: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.django_db
class TestPages:
    def test_the_game_page_in_finnish_shows_finnish_words(self):
        deck = translated_deck(84, untranslated=0)
        game, users = started_game(4, deck=deck)
        hand = view_for(game, users[1])["hand"]
        html = _signed_in(users[1], "fi").get(reverse("games:detail", args=[game.pk])).content.decode()
        assert 'lang="fi"' in html
        for card in hand:
            number = int(card["alt"].split(" ")[1])
            assert f'alt="{finnish(number)}"' in html
        assert "Picture " not in html
        assert re.search(r'<img[^>]*alt="Kuva [^"]*"[^>]*lang="en"', html) is None

    def test_a_card_without_finnish_words_carries_lang_en(self):
        deck = translated_deck(84, untranslated=84)
        game, users = started_game(4, deck=deck)
        html = _signed_in(users[1], "fi").get(reverse("games:detail", args=[game.pk])).content.decode()
        images = re.findall(r'<img src="[^"]*/cards/[^"]*" alt="(Picture [^"]*)"( lang="en")?', html)
        assert len(images) >= 6 and all(lang == ' lang="en"' for _, lang in images)
        # ... and in English the same cards need no lang of their own.
        english = _signed_in(users[1], "en").get(reverse("games:detail", args=[game.pk])).content.decode()
        assert len(re.findall(r'alt="Picture [^"]*" loading', english)) >= 6
        assert ' lang="en"' not in re.sub(r"<html[^>]*>", "", english)

    def test_the_api_gives_the_words_in_the_requests_language(self):
        game, users = started_game(4, deck=translated_deck(84))
        token = token_create(user=users[1], name="bot")[1]
        url = f"/api/v1/games/{game.pk}"
        finnish_hand = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_ACCEPT_LANGUAGE="fi").get(url).json()
        english_hand = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(url).json()
        assert len(finnish_hand["hand"]) == 6
        assert all(card["alt"].startswith("Kuva ") for card in finnish_hand["hand"])
        assert all(card["alt"].startswith("Picture ") for card in english_hand["hand"])


# --- edited and imported ---------------------------------------------------------------


@pytest.mark.django_db
class TestAdmin:
    def test_edit_a_translation(self, admin_client):
        card = deck_with_cards(1).cards.get()
        card.alt_texts = {"sv": "En nyckel", "da": "En nøgle"}
        card.save()
        url = reverse("admin:storyteller_card_change", args=[card.pk])
        page = admin_client.get(url).content.decode()
        for code in alt_languages():
            assert f'name="alt_text_{code}"' in page and f'lang="{code}"' in page
        assert "En nyckel</textarea>" in page
        response = admin_client.post(
            url,
            {
                "alt_text": "A key",
                "tags": "",
                "alt_text_fi": "  Avain   ruohikossa ",
                "alt_text_sv": "En nyckel i gräset",
                "alt_text_da": "",  # emptied: read in English again
                "alt_text_xx": "ignored: not a field",
            },
        )
        assert response.status_code == 302
        card.refresh_from_db()
        assert card.alt_texts == {"fi": "Avain ruohikossa", "sv": "En nyckel i gräset"}

    def test_a_too_long_translation_is_refused_and_nothing_changes(self, admin_client):
        card = deck_with_cards(1).cards.get()
        url = reverse("admin:storyteller_card_change", args=[card.pk])
        response = admin_client.post(url, {"alt_text": "A key", "tags": "", "alt_text_fi": "x" * 1001})
        assert response.status_code == 200
        assert "at most 1000 characters" in response.content.decode()
        card.refresh_from_db()
        assert card.alt_texts == {} and card.alt_text.startswith("Picture ")

    def test_add_a_card_with_translations(self, admin_client):
        from django.core.files.uploadedfile import SimpleUploadedFile

        deck = deck_with_cards(0)
        response = admin_client.post(
            reverse("admin:storyteller_card_add"),
            {
                "deck": deck.pk,
                "picture": SimpleUploadedFile("x.png", picture()),
                "alt_text": "A key",
                "alt_text_fr": "Une clé",
                "tags": "",
            },
        )
        assert response.status_code == 302
        assert deck.cards.get().alt_texts == {"fr": "Une clé"}

    def test_find_the_cards_missing_a_language(self, admin_client):
        deck = translated_deck(3, untranslated=1)
        missing = deck.cards.order_by("pk").last()
        url = reverse("admin:storyteller_card_changelist") + "?alt_missing_in=fi"
        page = admin_client.get(url).content.decode()
        assert "Missing in Finnish" in page
        assert f"/card/{missing.pk}/change/" in page
        others = [card.pk for card in deck.cards.exclude(pk=missing.pk)]
        assert not any(f"/card/{pk}/change/" in page for pk in others)

    def test_the_admins_pictures_speak_the_admins_language(self, admin_client):
        translated_deck(2, untranslated=1)
        admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
        page = admin_client.get(reverse("admin:storyteller_card_changelist")).content.decode()
        assert f'alt="{finnish(0)}" width=' in page
        assert re.search(r'alt="Picture 1 of [^"]*" lang="en"', page)


def _csv(rows: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.mark.django_db
class TestImport:
    def test_csv_with_a_column_per_language(self):
        deck = DeckFactory()
        rows = [
            {"file": "one.png", "alt": "A key", "alt_fi": "Avain", "alt_fr": "Une clé", "tags": ""},
            {"file": "two.png", "alt": "A door", "alt_fi": "", "alt_fr": " Une  porte ", "tags": ""},
        ]
        files = {"one.png": picture(), "two.png": picture(), "cards.csv": _csv(rows)}
        cards_import_zip(deck=deck, archive=zip_of(files))
        texts = dict(deck.cards.values_list("alt_text", "alt_texts"))
        assert texts == {"A key": {"fi": "Avain", "fr": "Une clé"}, "A door": {"fr": "Une porte"}}

    def test_json_like_the_builtin_deck_or_with_alt_as_an_object(self):
        deck = DeckFactory()
        manifest = {
            "cards": [
                {"file": "one.png", "alt": "A key", "alt_texts": {"sv": "En nyckel", "nb": "En nøkkel"}},
                {"file": "two.png", "alt": {"en": "A door", "da": "En dør"}, "alt_fi": "Ovi"},
                {"file": "three.png", "alt": {"fi": "Vain suomeksi"}},
            ]
        }
        files = {"one.png": picture(), "two.png": picture(), "three.png": picture()}
        cards_import_zip(deck=deck, archive=zip_of(files | {"cards.json": json.dumps(manifest).encode()}))
        cards = {card.alt_texts.get("fi", card.alt_text): card for card in deck.cards.all()}
        assert cards["A key"].alt_texts == {"sv": "En nyckel", "nb": "En nøkkel"}
        assert cards["Ovi"].alt_text == "A door" and cards["Ovi"].alt_texts == {"da": "En dør", "fi": "Ovi"}
        # Words in Finnish only: no English alt text, so the card waits, retired, for one.
        only_finnish = cards["Vain suomeksi"]
        assert only_finnish.alt_text == "" and only_finnish.is_retired

    @pytest.mark.parametrize(
        "manifest_name, manifest, reason",
        [
            ("cards.csv", b"file,alt,alt_de\none.png,A key,Ein Schluessel\n", "Unknown language for an alt text: de"),
            ("cards.csv", b"file,alt,alt_xx\none.png,A key,\n", "Unknown language for an alt text: xx"),
            (
                "cards.json",
                json.dumps([{"file": "one.png", "alt": "A key", "alt_texts": {"english": "A key"}}]).encode(),
                "Unknown language for an alt text: english",
            ),
            (
                "cards.json",
                json.dumps([{"file": "one.png", "alt": "A key", "alt_texts": "Avain"}]).encode(),
                "alt_texts should be an object",
            ),
            (
                "cards.json",
                json.dumps([{"file": "one.png", "alt": "A key", "alt_fi": ["Avain"]}]).encode(),
                "The alt text in “fi” is not text",
            ),
            (
                "cards.json",
                json.dumps([{"file": "one.png", "alt": "A key", "alt_fi": "x" * 1001}]).encode(),
                "longer than 1000 characters",
            ),
        ],
    )
    def test_a_bad_translation_refuses_the_zip(self, stored_files, manifest_name, manifest, reason):
        deck = DeckFactory()
        with pytest.raises(CardImportError) as error:
            cards_import_zip(deck=deck, archive=zip_of({"one.png": picture(), manifest_name: manifest}))
        assert [name for name, _ in error.value.problems] == [manifest_name]
        assert reason in error.value.problems[0][1]
        assert Card.objects.filter(deck=deck).count() == 0 and stored_files() == []


@pytest.mark.django_db
def test_the_replay_shows_the_words_in_the_viewers_language():
    game, users = started_game(3, deck=translated_deck(84))
    play_three_rounds(game, users)
    seats = list(game.seats.select_related("user").order_by("position"))
    with translation.override("fi"):
        rounds = storyteller_replay(game=game, seats=seats)["rounds"]
    table = [card for round_ in rounds for card in round_["table"]]
    assert table and all(card["alt"].startswith("Kuva ") and card["alt_lang"] == "" for card in table)
