"""The card management pages of the admin, as a staff member uses them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.tests.factories import UserFactory, deck_with_cards, started_game
from storyteller.models import Card, Deck

from .pictures import SVG, picture, png_claiming, zip_of
from .rounds import play_three_rounds

pytestmark = pytest.mark.django_db


def import_url(deck):
    return reverse("admin:storyteller_deck_import", args=[deck.pk])


def good_files():
    return {
        "one.png": picture("PNG"),
        "two.jpg": picture("JPEG"),
        "cards.csv": b"file,alt,tags\none.png,A lighthouse in a teacup,sea\ntwo.jpg,Stairs to nowhere,\n",
    }


class TestAccess:
    def test_only_staff_reach_the_pages(self, client):
        deck = deck_with_cards(3)
        client.force_login(UserFactory())
        for url in (
            import_url(deck),
            reverse("admin:storyteller_card_add"),
            reverse("admin:storyteller_card_changelist"),
        ):
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))

    def test_staff_without_the_add_permission_cannot_import(self, client):
        staff = UserFactory(is_staff=True)
        client.force_login(staff)
        assert client.get(import_url(deck_with_cards(1))).status_code == 403
        assert client.get(reverse("admin:storyteller_card_add")).status_code == 403


class TestDecks:
    def test_list_counts_cards_in_play_and_retired(self, admin_client):
        deck = deck_with_cards(5, name="Night pictures")
        Card.objects.filter(pk__in=list(deck.cards.values_list("pk", flat=True)[:2])).update(is_retired=True)
        page = admin_client.get(reverse("admin:storyteller_deck_changelist")).content.decode()
        assert "Night pictures" in page
        assert f'?deck__id__exact={deck.pk}&amp;is_retired__exact=0">3</a>' in page
        assert f'?deck__id__exact={deck.pk}&amp;is_retired__exact=1">2</a>' in page

    def test_create_a_deck_and_find_the_import_link(self, admin_client):
        response = admin_client.post(
            reverse("admin:storyteller_deck_add"),
            {"name": "Sea dreams", "slug": "sea-dreams", "description": "Water everywhere", "is_active": "on"},
        )
        assert response.status_code == 302
        deck = Deck.objects.get(slug="sea-dreams")
        page = admin_client.get(reverse("admin:storyteller_deck_change", args=[deck.pk])).content.decode()
        assert import_url(deck) in page
        assert "Import a zip of pictures" in page

    def test_retire_and_activate_actions(self, admin_client):
        deck = deck_with_cards(1)
        url = reverse("admin:storyteller_deck_changelist")
        admin_client.post(url, {"action": "retire", "_selected_action": [deck.pk]})
        deck.refresh_from_db()
        assert not deck.is_active
        admin_client.post(url, {"action": "activate", "_selected_action": [deck.pk]})
        deck.refresh_from_db()
        assert deck.is_active


class TestImport:
    def test_a_good_zip(self, admin_client, stored_files):
        deck = deck_with_cards(0)
        assert admin_client.get(import_url(deck)).status_code == 200
        response = admin_client.post(import_url(deck), {"archive": zip_of(good_files())}, follow=True)
        assert response.redirect_chain[-1][0].endswith(f"?deck__id__exact={deck.pk}")
        page = response.content.decode()
        assert "2 cards were added to the deck" in page
        assert "A lighthouse in a teacup" in page
        assert sorted(deck.cards.values_list("alt_text", flat=True)) == [
            "A lighthouse in a teacup",
            "Stairs to nowhere",
        ]
        assert len(stored_files()) == 2

    def test_pictures_without_alt_text_are_pointed_out(self, admin_client):
        deck = deck_with_cards(0)
        response = admin_client.post(import_url(deck), {"archive": zip_of({"a.png": picture()})}, follow=True)
        page = response.content.decode()
        assert "1 card has no alt text yet" in page
        assert "alt_text=missing" in page
        assert deck.cards.get().is_retired

    @pytest.mark.parametrize(
        "extra, reason",
        [
            ({"evil.svg": SVG}, "SVG pictures are refused"),
            ({"bomb.png": png_claiming(50_000, 50_000)}, "million pixels"),
            ({"notes.png": b"a renamed text file"}, "not a PNG, JPEG or WebP"),
            ({"../../outside.png": picture()}, "points outside the zip"),
        ],
    )
    def test_a_bad_zip_shows_each_refused_file_and_changes_nothing(self, admin_client, stored_files, extra, reason):
        deck = deck_with_cards(0)
        response = admin_client.post(import_url(deck), {"archive": zip_of({**good_files(), **extra})})
        assert response.status_code == 200
        page = response.content.decode()
        assert "Nothing was imported: 1 file was refused." in page
        assert 'id="refused-files"' in page and reason in page and list(extra)[0] in page
        assert deck.cards.count() == 0 and stored_files() == []

    def test_not_a_zip(self, admin_client):
        deck = deck_with_cards(0)
        response = admin_client.post(import_url(deck), {"archive": _named(b"plain text", "cards.zip")})
        assert "“cards.zip” is not a zip file." in response.content.decode()
        assert deck.cards.count() == 0


def _named(data: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data)


class TestOneCard:
    def test_upload_one_picture(self, admin_client, stored_files):
        deck = deck_with_cards(0)
        page = admin_client.get(reverse("admin:storyteller_card_add") + f"?deck={deck.pk}").content.decode()
        assert f'<option value="{deck.pk}" selected>' in page
        response = admin_client.post(
            reverse("admin:storyteller_card_add"),
            {"deck": deck.pk, "picture": _named(picture("WEBP"), "x.webp"), "alt_text": "A key", "tags": "key,, door"},
        )
        card = deck.cards.get()
        assert response.status_code == 302 and response["Location"] == reverse(
            "admin:storyteller_card_change", args=[card.pk]
        )
        assert (card.alt_text, card.tags, card.is_retired) == ("A key", "key, door", False)
        assert stored_files() == [card.image.name]

    @pytest.mark.parametrize(
        "upload, reason",
        [
            (_named(SVG, "card.svg"), "SVG pictures are refused"),
            (_named(b"hello", "card.png"), "not a PNG, JPEG or WebP"),
            (_named(png_claiming(20_000, 20_000), "card.png"), "million pixels"),
            (_named(b"\xff\xd8" + b"0" * (10 * 1024 * 1024), "big.jpg"), "larger than 10 MB"),
        ],
    )
    def test_a_bad_picture_is_refused(self, admin_client, stored_files, upload, reason):
        deck = deck_with_cards(0)
        response = admin_client.post(
            reverse("admin:storyteller_card_add"), {"deck": deck.pk, "picture": upload, "alt_text": "A key"}
        )
        assert response.status_code == 200
        assert reason in response.content.decode()
        assert deck.cards.count() == 0 and stored_files() == []

    def test_edit_alt_text_and_tags(self, admin_client):
        card = deck_with_cards(1).cards.get()
        url = reverse("admin:storyteller_card_change", args=[card.pk])
        page = admin_client.get(url).content.decode()
        assert "Games in which it was dealt" in page
        response = admin_client.post(url, {"alt_text": "A violet sky", "tags": " sky , Sky, violet"})
        assert response.status_code == 302
        card.refresh_from_db()
        assert (card.alt_text, card.tags) == ("A violet sky", "sky, violet")

    def test_cards_cannot_be_deleted(self, admin_client):
        card = deck_with_cards(1).cards.get()
        assert admin_client.get(reverse("admin:storyteller_card_delete", args=[card.pk])).status_code == 403


class TestCardList:
    def test_search_filter_and_actions(self, admin_client):
        deck = deck_with_cards(3)
        first, second, third = deck.cards.order_by("pk")
        Card.objects.filter(pk=first.pk).update(alt_text="A whale above a house", tags="whale, house")
        url = reverse("admin:storyteller_card_changelist")
        page = admin_client.get(url, {"q": "whale"}).content.decode()
        assert "A whale above a house" in page and second.alt_text not in page
        assert "A whale above a house" in admin_client.get(url, {"q": "house"}).content.decode()
        admin_client.post(url, {"action": "retire", "_selected_action": [first.pk, second.pk]})
        assert list(deck.cards.order_by("pk").values_list("is_retired", flat=True)) == [True, True, False]
        page = admin_client.get(url, {"is_retired__exact": "1"}).content.decode()
        assert "A whale above a house" in page and third.alt_text not in page
        Card.objects.filter(pk=second.pk).update(alt_text="")
        response = admin_client.post(url, {"action": "restore", "_selected_action": [first.pk, second.pk]}, follow=True)
        assert "1 card restored." in response.content.decode()
        assert "1 card has no alt text and stays retired" in response.content.decode()

    def test_thumbnails_open_the_card_large(self, admin_client):
        card = deck_with_cards(1).cards.get()
        page = admin_client.get(reverse("admin:storyteller_card_changelist")).content.decode()
        assert f'<a href="{card.image.url}" target="_blank"' in page
        assert f'alt="{card.alt_text}" width="48" height="72"' in page

    def test_every_figure_sorts(self, admin_client):
        deck = deck_with_cards(40)
        game, users = started_game(3, deck=deck)
        play_three_rounds(game, users)  # found by one of two, by both, by neither; 4 cards never dealt
        url = reverse("admin:storyteller_card_changelist")
        list_display = admin_client.get(url).context["cl"].list_display
        figures = {
            "times_dealt_column": "times_dealt",
            "times_told_column": "times_told",
            "found_column": "found_percent",
            "found_by_all_column": "times_found_by_all",
            "found_by_none_column": "times_found_by_none",
            "decoy_votes_column": "decoy_votes",
        }
        for column, figure in figures.items():
            for direction, reverse_order in (("", False), ("-", True)):
                response = admin_client.get(url, {"o": f"{direction}{list_display.index(column)}", "all": ""})
                values = [getattr(card, figure) for card in response.context["cl"].result_list]
                known = [value for value in values if value is not None]
                assert len(set(known)) > 1, figure  # the game gave something to sort
                assert known == sorted(known, reverse=reverse_order), figure

    def test_list_queries_do_not_grow_with_cards(self, admin_client):
        url = reverse("admin:storyteller_card_changelist")
        deck_with_cards(3)
        admin_client.get(url)
        with CaptureQueriesContext(connection) as few:
            admin_client.get(url)
        deck_with_cards(60)
        with CaptureQueriesContext(connection) as many:
            admin_client.get(url)
        assert len(many) == len(few)
