"""A player's own decks (issue 33): the API's contract and each of its refusals, the picture pipeline (EXIF and
GPS gone, orientation applied, HEIC read, bombs, animations, SVG refused), quotas, the removal rule with its
signal, who is served a picture (by session and by token), the data export and the account's deletion."""

import base64
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from accounts.services import token_create
from games.models import Game, Seat
from games.tests.api.conftest import API, ApiClient, error_of
from games.tests.factories import UserFactory, deck_with_cards
from storyteller.models import Card, Deck
from storyteller.models.card_stats import CardDeal
from storyteller.signals import cards_withdrawn

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def own_rate_counts(settings):
    import uuid

    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex},
    }


def photo(size=(1200, 900), fmt="JPEG", colour=(200, 120, 40), **save) -> bytes:
    image = Image.new("RGB", size, colour)
    # Something that tells the top from the bottom: the upper quarter white.
    image.paste((255, 255, 255), (0, 0, size[0], size[1] // 4))
    out = io.BytesIO()
    image.save(out, format=fmt, **save)
    return out.getvalue()


def gps_jpeg() -> bytes:
    """A phone's photo: camera, description and a GPS position in its EXIF, an ICC profile beside it."""
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0110] = "Phone 15"  # Model
    exif[0x010E] = "A red bicycle against a wall"  # ImageDescription
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (60.0, 10.0, 30.0)
    gps[3] = "E"
    gps[4] = (24.0, 56.0, 15.0)
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return photo(exif=exif, icc_profile=icc)


class Player:
    def __init__(self, username=None):
        self.user = UserFactory(**({"username": username} if username else {}))
        _token, self.secret = token_create(user=self.user, name="tests")
        self.api = ApiClient(self.secret)
        self.page = Client()
        self.page.force_login(self.user)

    def upload(self, deck_id, data, *, alt="A picture", name="photo.jpg", content_type="image/jpeg"):
        fields = {"file": SimpleUploadedFile(name, data, content_type=content_type)}
        if alt is not None:
            fields["alt"] = alt
        return self.api.client.post(
            f"{API}/decks/{deck_id}/cards", fields, headers={"Authorization": f"Bearer {self.secret}"}
        )

    def patch(self, path, body):
        return self.api.client.patch(
            API + path, json.dumps(body), content_type="application/json", headers=self.api._headers(None)
        )


@pytest.fixture
def alice():
    return Player("alice")


@pytest.fixture
def bob():
    return Player("bob")


def new_deck(player, name="Holiday") -> dict:
    response = player.api.post("/decks", {"name": name})
    assert response.status_code == 201, response.content
    return response.json()


def with_card(player, data=None, alt="A picture") -> tuple[int, dict]:
    deck = new_deck(player)
    response = player.upload(deck["id"], data or photo(), alt=alt)
    assert response.status_code == 201, response.content
    return deck["id"], response.json()


def served(client, url, token=None):
    return client.get(url, headers={"Authorization": f"Bearer {token}"} if token else {})


def path_of(url: str) -> str:
    return url.split("testserver", 1)[-1]


# --- the contract ----------------------------------------------------------------------


def test_a_deck_is_made_filled_listed_and_emptied_through_the_api(alice):
    made = new_deck(alice, "Our cat")
    assert set(made) >= {"id", "name", "cards"} and made["name"] == "Our cat" and made["cards"] == []

    added = alice.upload(made["id"], photo(), alt="The cat asleep on a keyboard")
    assert added.status_code == 201, added.content
    card = added.json()
    assert set(card) >= {"id", "image", "alt"}
    assert card["alt"] == "The cat asleep on a keyboard" and card["image"].startswith(
        "http://testserver/media/cards/own/"
    )
    stored = Card.objects.get(pk=card["id"])
    assert stored.size == len(stored.image.read()) > 0 and stored.alt_language == "en" and not stored.is_retired

    listed = alice.api.get("/decks").json()
    assert [deck["id"] for deck in listed["decks"]] == [made["id"]]
    assert listed["decks"][0]["cards"][0]["id"] == card["id"] and listed["decks"][0]["shared"] is False
    assert listed["quota"] == {"cards": 1, "max_cards": 300, "bytes": stored.size, "max_bytes": 100 * 1024 * 1024}

    assert alice.api.delete(f"/decks/{made['id']}/cards/{card['id']}").status_code == 204
    assert not Card.objects.filter(pk=card["id"]).exists()  # never dealt: row and file gone
    assert alice.api.get(f"/decks/{made['id']}").json()["cards"] == []


def test_rename_reorder_describe_and_delete(alice):
    deck_id, first = with_card(alice)
    second = alice.upload(deck_id, photo(colour=(10, 10, 200)), alt="Blue").json()
    moved = alice.patch(f"/decks/{deck_id}/cards/{second['id']}", {"move": "up"})
    assert moved.status_code == 200, moved.content
    assert [card["id"] for card in alice.api.get(f"/decks/{deck_id}").json()["cards"]] == [second["id"], first["id"]]
    described = alice.patch(f"/decks/{deck_id}/cards/{first['id']}", {"alt": "A brown field under a white sky"})
    assert described.json()["alt"] == "A brown field under a white sky"
    renamed = alice.patch(f"/decks/{deck_id}", {"name": "Summer"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Summer"
    assert alice.api.delete(f"/decks/{deck_id}").status_code == 204
    assert not Deck.objects.filter(pk=deck_id).exists() and not Card.objects.filter(deck_id=deck_id).exists()


def test_sharing_lets_a_player_see_and_play_not_change(alice, bob):
    deck_id, card = with_card(alice)
    shared = alice.api.post(f"/decks/{deck_id}/shares", {"username": "bob"})
    assert shared.status_code == 200 and shared.json()["shared_with"] == ["bob"]
    seen = bob.api.get("/decks").json()["decks"]
    assert [(deck["id"], deck["owner"], deck["shared"]) for deck in seen] == [(deck_id, "alice", True)]
    assert seen[0]["shared_with"] == []  # who else it is shared with is the owner's business
    assert Deck.objects.usable_by(bob.user).filter(pk=deck_id).exists()

    refusals = [
        bob.patch(f"/decks/{deck_id}", {"name": "Mine now"}),
        bob.api.delete(f"/decks/{deck_id}"),
        bob.upload(deck_id, photo()),
        bob.api.delete(f"/decks/{deck_id}/cards/{card['id']}"),
        bob.patch(f"/decks/{deck_id}/cards/{card['id']}", {"alt": "Mine"}),
        bob.api.post(f"/decks/{deck_id}/shares", {"username": "bob"}),
    ]
    assert [error_of(response) for response in refusals] == [(403, "not_owner")] * len(refusals)
    assert Card.objects.get(pk=card["id"]).alt_text == "A picture" and Deck.objects.get(pk=deck_id).name == "Holiday"

    assert alice.api.delete(f"/decks/{deck_id}/shares/bob").status_code == 204
    assert error_of(bob.api.get(f"/decks/{deck_id}")) == (404, "not_found")


def test_a_deck_you_cannot_see_is_404_whatever_you_ask(alice, bob):
    deck_id, card = with_card(alice)
    builtin = deck_with_cards(3)
    for response in [
        bob.api.get(f"/decks/{deck_id}"),
        bob.patch(f"/decks/{deck_id}", {"name": "x"}),
        bob.api.delete(f"/decks/{deck_id}"),
        bob.upload(deck_id, photo()),
        bob.api.delete(f"/decks/{deck_id}/cards/{card['id']}"),
        bob.api.get("/decks/999999"),
        bob.api.get(f"/decks/{builtin.pk}"),  # the site's decks are not players' decks to change
        alice.upload(builtin.pk, photo()),
    ]:
        assert error_of(response) == (404, "not_found")
        # In the same words as a deck that does not exist: nothing says that it does.
        assert response.json()["error"]["message"] in ("There is no such deck.", "There is no such card in this deck.")
    assert bob.api.get("/decks").json()["decks"] == []
    assert Card.objects.filter(deck_id=deck_id).count() == 1


@pytest.mark.parametrize(
    "data, name",
    [
        (b"just some text, no picture", "photo.jpg"),
        (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "a.png"),
        (photo(fmt="PNG"), "drawing.svg"),
        (b"\xff\xd8\xff\xe0" + b"\0" * 2000, "broken.jpg"),
    ],
    ids=["not-a-picture", "svg-content", "svg-name", "damaged"],
)
def test_what_is_not_a_still_picture_is_bad_media(alice, data, name):
    deck = new_deck(alice)
    assert error_of(alice.upload(deck["id"], data, name=name)) == (400, "bad_media")
    assert not Card.objects.filter(deck_id=deck["id"]).exists()


def test_animations_are_refused(alice):
    deck = new_deck(alice)
    frames = [Image.new("RGB", (600, 900), colour) for colour in ("red", "blue")]
    for fmt in ("WEBP", "PNG", "GIF"):
        out = io.BytesIO()
        frames[0].save(out, format=fmt, save_all=True, append_images=frames[1:], duration=100, loop=0)
        response = alice.upload(deck["id"], out.getvalue(), name=f"moving.{fmt.lower()}")
        assert error_of(response) == (400, "bad_media"), fmt
        if fmt != "GIF":  # GIF is no format a card is read from at all
            assert "Animated" in response.json()["error"]["message"]


def test_too_large_and_too_many_pixels_are_refused(alice):
    deck = new_deck(alice)
    huge = alice.upload(deck["id"], b"\xff\xd8\xff" + b"\0" * (10 * 1024 * 1024 + 1))
    assert error_of(huge) == (400, "bad_media") and "10 MB" in huge.json()["error"]["message"]
    # 8000 x 6300 = 50.4 million pixels: a small PNG (one colour compresses), a bomb once decoded.
    out = io.BytesIO()
    Image.new("L", (8000, 6300)).save(out, format="PNG")
    assert len(out.getvalue()) < 1024 * 1024
    bomb = alice.upload(deck["id"], out.getvalue(), name="bomb.png", content_type="image/png")
    assert error_of(bomb) == (400, "bad_media") and "50 million" in bomb.json()["error"]["message"]


def test_alt_text_is_required_and_kept_to_the_text_policy(alice):
    deck = new_deck(alice)
    assert error_of(alice.upload(deck["id"], photo(), alt=None)) == (400, "bad_request")
    assert error_of(alice.upload(deck["id"], photo(), alt="x" * 1001)) == (400, "bad_request")
    assert error_of(alice.upload(deck["id"], photo(), alt="right\u202eto left")) == (400, "bad_alt")
    assert error_of(alice.upload(deck["id"], photo(), alt="   ")) == (400, "bad_alt")
    assert not Card.objects.filter(deck_id=deck["id"]).exists()


def test_quotas_of_cards_and_bytes(alice, settings):
    deck_id, card = with_card(alice)
    settings.FABULA_OWN_CARDS_MAX = 1
    assert error_of(alice.upload(deck_id, photo())) == (409, "quota")
    settings.FABULA_OWN_CARDS_MAX = 300
    settings.FABULA_OWN_CARDS_MAX_BYTES = Card.objects.get(pk=card["id"]).size + 10
    assert error_of(alice.upload(deck_id, photo(colour=(1, 2, 3)))) == (409, "quota")
    assert Card.objects.filter(deck_id=deck_id).count() == 1
    assert len(list((settings.MEDIA_ROOT / "cards" / "own").iterdir())) == 1  # no file left behind


# --- the picture -------------------------------------------------------------------------


def test_a_photo_with_a_gps_position_is_served_without_any_metadata(alice):
    original = Image.open(io.BytesIO(gps_jpeg()))
    assert original.getexif().get_ifd(0x8825) and "icc_profile" in original.info  # the test's photo has them
    deck_id, card = with_card(alice, gps_jpeg())
    response = served(alice.page, path_of(card["image"]))
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"
    data = b"".join(response.streaming_content)
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "WEBP" and picture.size == (480, 720)
    assert not picture.getexif() and "exif" not in picture.info and "xmp" not in picture.info
    assert "icc_profile" not in picture.info or not picture.info["icc_profile"]
    assert b"Exif" not in data and b"PhoneMaker" not in data and b"GPS" not in data


def test_the_photos_own_description_is_suggested_from_a_page_upload_not_taken(alice):
    deck = new_deck(alice)
    response = alice.page.post(
        f"/decks/{deck['id']}/cards/",
        {"file": SimpleUploadedFile("p.jpg", gps_jpeg(), content_type="image/jpeg")},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 201, response.content
    card = Card.objects.get(pk=response.json()["id"])
    assert card.alt_text == "A red bicycle against a wall" and card.is_retired  # waiting for its owner
    assert response.json()["waiting"] is True
    assert not Card.objects.in_play().filter(pk=card.pk).exists()
    confirmed = alice.page.post(
        f"/decks/{deck['id']}/cards/{card.pk}/alt/", {"alt": "A red bicycle"}, headers={"Accept": "application/json"}
    )
    assert confirmed.status_code == 200, confirmed.content
    assert Card.objects.in_play().get(pk=card.pk).alt_text == "A red bicycle"


def test_orientation_is_applied_before_the_crop(alice):
    # Stored landscape with the white band on top; Orientation 6 says: turn it 90° clockwise to show it.
    exif = Image.Exif()
    exif[0x0112] = 6
    deck_id, card = with_card(alice, photo(size=(1200, 800), exif=exif))
    data = b"".join(served(alice.page, path_of(card["image"])).streaming_content)
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    assert picture.size == (480, 720)
    # Turned clockwise, the white band (the stored top) is on the right: a portrait, not a cropped landscape.
    right, left = picture.getpixel((470, 360)), picture.getpixel((10, 360))
    assert min(right) > 230 and left[2] < 100, (left, right)


def test_heic_from_an_iphone_is_read(alice):
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    Image.new("RGB", (1200, 900), (30, 160, 90)).save(out, format="HEIF", quality=60)
    deck = new_deck(alice)
    response = alice.upload(deck["id"], out.getvalue(), name="IMG_0001.HEIC", content_type="image/heic")
    assert response.status_code == 201, response.content
    data = b"".join(served(alice.page, path_of(response.json()["image"])).streaming_content)
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "WEBP" and abs(picture.convert("RGB").getpixel((240, 360))[1] - 160) < 20


# --- who is served a picture ----------------------------------------------------------------


def game_on(deck_id, *, players, visibility=Game.Visibility.PRIVATE):
    game = Game.objects.create(
        kind="storyteller",
        max_seats=4,
        phase_seconds=3600,
        creator=players[0],
        visibility=visibility,
        options={"deck": deck_id},
    )
    for position, user in enumerate(players):
        Seat.objects.create(game=game, user=user, position=position)
    return game


def test_a_players_picture_goes_only_to_those_who_may_see_it(alice, bob):
    deck_id, card = with_card(alice)
    url = path_of(card["image"])
    carol, dave, erin = Player("carol"), Player("dave"), Player("erin")
    anonymous = Client()

    def by_session(player):
        return served(player.page, url).status_code

    def by_token(player):
        return served(Client(), url, token=player.secret).status_code

    assert by_session(alice) == by_token(alice) == 200  # the owner
    for player in (bob, carol, dave):
        assert by_session(player) == by_token(player) == 404
    assert served(anonymous, url).status_code == 404
    assert served(Client(), url, token="not-a-token").status_code == 404

    alice.api.post(f"/decks/{deck_id}/shares", {"username": "bob"})
    assert by_session(bob) == by_token(bob) == 200  # shared with

    game = game_on(deck_id, players=[carol.user, UserFactory()])  # a private game on the deck: carol plays
    assert by_session(carol) == by_token(carol) == 404  # not dealt there (yet): not that table's card
    CardDeal.objects.create(game=game, card_id=card["id"], dealt_at=game.created_at)
    assert by_session(carol) == by_token(carol) == 200
    assert by_session(dave) == by_token(dave) == 404 and served(anonymous, url).status_code == 404

    # A public game the owner made: anyone may watch it, and sees the cards dealt in it.
    public = game_on(deck_id, players=[alice.user, erin.user], visibility=Game.Visibility.PUBLIC)
    CardDeal.objects.create(game=public, card_id=card["id"], dealt_at=public.created_at)
    assert by_session(dave) == by_token(dave) == 200 and served(anonymous, url).status_code == 200

    # A card hidden after reports: its owner still sees it (marked), nobody else.
    Card.objects.filter(pk=card["id"]).update(hidden_at="2026-01-01T00:00:00Z")
    assert by_session(alice) == by_token(alice) == 200
    for player in (bob, carol, dave):
        assert by_session(player) == by_token(player) == 404
    assert alice.api.get(f"/decks/{deck_id}").json()["cards"][0]["hidden"] is True
    assert bob.api.get(f"/decks/{deck_id}").json()["cards"] == []


def test_the_sites_cards_are_still_for_everyone(alice):
    deck = deck_with_cards(1)
    card = deck.cards.get()
    from django.core.files.base import ContentFile

    card.image.save("x.webp", ContentFile(photo(fmt="WEBP")))
    url = card.image.url
    assert url.startswith("/media/cards/") and "/own/" not in url
    assert served(Client(), url).status_code == 200


# --- removal, the export, the account's deletion ------------------------------------------


def test_a_dealt_card_stays_removed_and_games_are_told(alice, django_capture_on_commit_callbacks):
    deck_id, card = with_card(alice)
    game = game_on(deck_id, players=[alice.user, UserFactory()])
    CardDeal.objects.create(game=game, card_id=card["id"], dealt_at=game.created_at)
    told = []

    def listen(sender, card_ids, **kwargs):
        told.append(list(card_ids))

    cards_withdrawn.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert alice.api.delete(f"/decks/{deck_id}").status_code == 204
    finally:
        cards_withdrawn.disconnect(listen)
    assert told == [[card["id"]]]
    kept = Card.objects.get(pk=card["id"])
    assert kept.removed_at is not None and not kept.image and kept.alt_text == "" and kept.size == 0
    deck = Deck.objects.get(pk=deck_id)
    assert deck.removed_at is not None and deck.name == "" and deck.owner is None
    assert not list((own_decks_dir(alice)).iterdir())
    assert served(alice.page, path_of(card["image"])).status_code == 404
    assert alice.api.get("/decks").json()["decks"] == []


def own_decks_dir(_player):
    from django.conf import settings

    return settings.MEDIA_ROOT / "cards" / "own"


def test_download_my_data_holds_the_decks_and_their_pictures(alice):
    deck_id, card = with_card(alice, alt="Grandma's garden")
    from accounts.signals import personal_data

    sections = {}
    for _receiver, answer in personal_data.send(sender=None, user=alice.user):
        sections.update(answer or {})
    [deck] = sections["own_decks"]
    assert deck["name"] == "Holiday" and deck["cards"][0]["alt"] == "Grandma's garden"
    picture = Image.open(io.BytesIO(base64.b64decode(deck["cards"][0]["file_base64"])))
    assert picture.format == "WEBP"


def test_deleting_the_account_deletes_its_decks(alice, bob, django_capture_on_commit_callbacks):
    deck_id, card = with_card(alice)
    kept_id = alice.upload(deck_id, photo(colour=(9, 9, 9))).json()["id"]
    other = new_deck(alice, "Never played")
    alice.upload(other["id"], photo())
    game = game_on(deck_id, players=[bob.user, UserFactory()])
    CardDeal.objects.create(game=game, card_id=kept_id, dealt_at=game.created_at)
    alice.api.post(f"/decks/{deck_id}/shares", {"username": "bob"})
    from django.utils import timezone

    from accounts.signals import account_deleting

    with django_capture_on_commit_callbacks(execute=True):
        account_deleting.send(sender=None, user=alice.user, now=timezone.now())
    assert not Deck.objects.filter(pk=other["id"]).exists()
    deck = Deck.objects.get(pk=deck_id)
    assert deck.removed_at and deck.owner is None and deck.name == "" and not deck.shared_with.exists()
    assert list(Card.objects.filter(deck_id=deck_id).values_list("pk", flat=True)) == [kept_id]
    assert Card.objects.get(pk=kept_id).removed_at is not None
    assert not list(own_decks_dir(alice).iterdir())
    assert bob.api.get("/decks").json()["decks"] == []


def test_the_upload_route_takes_a_photos_body(settings):
    from django.urls import reverse

    assert settings.FABULA_BODY_LIMITS["api-v1:deck_card_create"] > 10 * 1024 * 1024
    assert reverse("api-v1:deck_card_create", args=[3]) == "/api/v1/decks/3/cards"
    assert reverse("decks:card_upload", args=[3]) == "/decks/3/cards/"


# --- the pages ---------------------------------------------------------------------------------


def test_the_pages_without_javascript(alice, bob):
    made = alice.page.post("/decks/", {"name": "Kitchen"})
    deck = Deck.objects.get(owner=alice.user)
    assert made.status_code == 302 and made["Location"] == f"/decks/{deck.pk}/"
    page = alice.page.get(f"/decks/{deck.pk}/")
    assert page.status_code == 200 and b"0 of 300 cards, 0 of 100 MB" in page.content
    # One picture with its words, a plain form: in play at once.
    added = alice.page.post(
        f"/decks/{deck.pk}/cards/",
        {"file": SimpleUploadedFile("p.jpg", photo(), content_type="image/jpeg"), "alt": "A spoon"},
    )
    assert added.status_code == 302
    card = Card.objects.in_play().get(deck=deck)
    assert card.alt_text == "A spoon"
    # Without words, the form refuses it and keeps nothing.
    alice.page.post(f"/decks/{deck.pk}/cards/", {"file": SimpleUploadedFile("q.jpg", photo(), "image/jpeg")})
    assert Card.objects.filter(deck=deck).count() == 1
    page = alice.page.get(f"/decks/{deck.pk}/", follow=True)
    assert b"1 of 300 cards" in page.content and b"A spoon" in page.content

    # Strangers: 404, even for a change; a player it is shared with sees it, cannot change it.
    assert bob.page.get(f"/decks/{deck.pk}/").status_code == 404
    assert bob.page.post(f"/decks/{deck.pk}/delete/").status_code == 404
    alice.page.post(f"/decks/{deck.pk}/share/", {"username": "BOB"})
    assert list(deck.shared_with.values_list("username", flat=True)) == ["bob"]
    shown = bob.page.get(f"/decks/{deck.pk}/")
    assert shown.status_code == 200 and b"A spoon" in shown.content and b"Delete this deck" not in shown.content
    assert b"Kitchen" in bob.page.get("/decks/").content
    refused = bob.page.post(f"/decks/{deck.pk}/cards/{card.pk}/delete/", headers={"Accept": "application/json"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    assert Card.objects.filter(pk=card.pk).exists()

    alice.page.post(f"/decks/{deck.pk}/cards/{card.pk}/delete/")
    assert not Card.objects.filter(pk=card.pk).exists()
    alice.page.post(f"/decks/{deck.pk}/delete/")
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_an_xmp_description_is_suggested_and_unconfirmed_words_stay_the_owners(alice, bob):
    xmp = (
        b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>'
        b'<rdf:li xml:lang="x-default">Two cats &amp; a dog</rdf:li></rdf:Alt></dc:description>'
        b"</rdf:Description></rdf:RDF></x:xmpmeta>"
    )
    deck = new_deck(alice)
    response = alice.page.post(
        f"/decks/{deck['id']}/cards/",
        {"file": SimpleUploadedFile("p.jpg", photo(xmp=xmp), content_type="image/jpeg")},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 201, response.content
    assert response.json()["alt"] == "Two cats & a dog" and response.json()["waiting"] is True
    camera = photo(exif=_described_by("OLYMPUS DIGITAL CAMERA"))
    plain = alice.page.post(
        f"/decks/{deck['id']}/cards/",
        {"file": SimpleUploadedFile("q.jpg", camera, content_type="image/jpeg")},
        headers={"Accept": "application/json"},
    )
    assert plain.json()["alt"] == ""  # a camera's default says nothing of the picture
    alice.api.post(f"/decks/{deck['id']}/shares", {"username": "bob"})
    assert bob.api.get(f"/decks/{deck['id']}").json()["cards"] == []  # words not confirmed: not shown yet
    assert len(alice.api.get(f"/decks/{deck['id']}").json()["cards"]) == 2


def _described_by(text):
    exif = Image.Exif()
    exif[0x010E] = text
    return exif


@pytest.mark.django_db(transaction=True)
def test_the_real_server_takes_a_photos_body_and_refuses_a_larger_one(asgi_server):
    """Through the ASGI server's body reader (infrastructure.handlers): a body of 10.2 MB reaches the route (and is
    refused as too large a picture, 400 bad_media); one of 11 MB is refused unread (413)."""
    import urllib.error
    import urllib.request
    import uuid

    user = UserFactory()
    _token, secret = token_create(user=user, name="tests")
    deck = own_decks_create(user)

    def post(size: int):
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nA picture\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\n'
                "Content-Type: image/jpeg\r\n\r\n"
            ).encode()
            + b"\xff\xd8\xff"
            + b"\0" * size
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(
            f"{asgi_server.url}/api/v1/decks/{deck.pk}/cards",
            data=body,
            headers={"Authorization": f"Bearer {secret}", "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    status, answer = post(10 * 1024 * 1024 + 200 * 1024)
    assert (status, answer["error"]["code"]) == (400, "bad_media")
    # 11 MB declared: answered at once from the headers, before a byte of the body is sent.
    import http.client
    from urllib.parse import urlsplit

    address = urlsplit(asgi_server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    connection.putrequest("POST", f"/api/v1/decks/{deck.pk}/cards")
    connection.putheader("Authorization", f"Bearer {secret}")
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(11 * 1024 * 1024))
    connection.endheaders()
    response = connection.getresponse()
    assert (response.status, json.loads(response.read())["error"]["code"]) == (413, "too_large")
    connection.close()
    assert not Card.objects.filter(deck=deck).exists()


def own_decks_create(user):
    from storyteller.decks.services.own_decks import deck_create

    return deck_create(user=user, name="Server")
