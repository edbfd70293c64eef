"""Drawn and sung clues through the API and the pages: the upload and each of its refusals, the clue that
names an upload, the file served only to those who may see the game, and a whole round with a drawing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import Game
from games.tests.api.conftest import API, ApiClient, error_of
from storyteller.models import ClueMedia, StorytellerRound
from storyteller.tests import media_files

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}


@pytest.fixture(autouse=True)
def own_rate_counts(settings):
    import uuid

    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex},
    }


@pytest.fixture
def table(db):
    """``table(n, **options)``: a started game created through the API; its players' (user, client) in seat order."""
    from accounts.services import token_create
    from games.tests.factories import UserFactory, deck_with_cards

    deck_with_cards(60)

    def make(players: int = 4, **options):
        users = []
        for _ in range(players):
            user = UserFactory()
            _token, secret = token_create(user=user, name="tests")
            users.append((user, ApiClient(secret)))
        created = users[0][1].post("/games", {"seats": players, **options})
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for _user, client in users[1:]:
            joined = client.post(f"/games/{game_id}/join", {"invite_code": created.json().get("invite_code")})
            assert joined.status_code == 200, joined.content
        return game_id, users

    return make


def upload(client: ApiClient, game_id: int, data: bytes, name: str = "clue.png", content_type: str = "image/png"):
    return client.client.post(
        f"{API}/games/{game_id}/clue-media",
        {"file": SimpleUploadedFile(name, data, content_type=content_type)},
        headers={"Authorization": f"Bearer {client.token}"},
    )


def view(client: ApiClient, game_id: int) -> dict:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.content
    return response.json()


def clue(client: ApiClient, game_id: int, *, text: str = "", media=None):
    card = view(client, game_id)["hand"][0]["id"]
    body = {"type": "clue", "card": card, "text": text}
    if media is not None:
        body["media"] = media
    return client.post(f"/games/{game_id}/actions", body)


def fetch(client: ApiClient, url: str):
    return client.client.get(url, headers={"Authorization": f"Bearer {client.token}"} if client.token else {})


# --- a whole round with a drawing ------------------------------------------------------


def test_a_whole_round_with_a_drawn_clue_through_the_api(table):
    game_id, players = table(4, clue_modes=["words", "drawing"], visibility="private")
    drawing = media_files.png()
    uploaded = upload(players[2][1], game_id, drawing)  # round 1: anyone may give the first clue
    assert uploaded.status_code == 201, uploaded.content
    media_id = uploaded.json()["id"]
    assert set(uploaded.json()) == {"id"}

    given = clue(players[2][1], game_id, media=media_id)
    assert given.status_code == 200, given.content
    seen = view(players[0][1], game_id)
    assert seen["phase"] == "submit" and seen["storyteller"] == players[2][0].username
    assert seen["clue"]["text"] == ""
    assert seen["clue"]["media"]["kind"] == "drawing"
    url = seen["clue"]["media"]["url"]
    assert url.startswith("http://testserver/games/")

    served = fetch(players[0][1], url)
    assert served.status_code == 200
    assert served["Content-Type"] == "image/png"
    assert b"".join(served.streaming_content) == drawing

    for _user, client in players:
        if client is players[2][1]:
            continue
        card = view(client, game_id)["hand"][0]["id"]
        assert client.post(f"/games/{game_id}/actions", {"type": "submit", "cards": [card]}).status_code == 200
    for _user, client in players:
        if client is players[2][1]:
            continue
        table_cards = view(client, game_id)["table"]
        position = next(card["position"] for card in table_cards if not card["mine"])
        assert client.post(f"/games/{game_id}/actions", {"type": "vote", "position": position}).status_code == 200

    after = view(players[1][1], game_id)
    assert after["round"] == 2 and after["clue"] is None
    assert after["last_round"]["clue"]["media"]["kind"] == "drawing"
    assert after["last_round"]["clue"]["media"]["url"] == url
    assert StorytellerRound.objects.get(game_id=game_id, number=1).clue_media_id == media_id
    assert fetch(players[3][1], url).status_code == 200  # still theirs to see once the round is over


# --- the upload's refusals ---------------------------------------------------------------


def test_a_text_file_named_png_is_bad_media(table):
    game_id, players = table(4, clue_modes=["drawing"])
    response = upload(players[0][1], game_id, b"just some words, not a picture\n" * 10, "clue.png", "image/png")
    assert error_of(response) == (400, "bad_media")
    assert not ClueMedia.objects.exists()


def test_a_png_over_512_kb_is_bad_media(table):
    game_id, players = table(4, clue_modes=["drawing"])
    big = media_files.noisy_png()
    assert 512 * 1024 < len(big) <= 1024 * 1024 + 200_000
    assert error_of(upload(players[0][1], game_id, big)) == (400, "bad_media")
    assert not ClueMedia.objects.exists()


@pytest.mark.parametrize(
    "data",
    [media_files.ogg_opus(25), media_files.webm_audio(21), media_files.ogg_opus(10, padding=1024 * 1024)],
    ids=["ogg-25s", "webm-21s", "ogg-over-1mb"],
)
def test_a_sound_over_20_seconds_or_1_mb_is_bad_media(table, data):
    game_id, players = table(4, clue_modes=["words", "sound"])
    assert error_of(upload(players[0][1], game_id, data, "clue.ogg", "audio/ogg")) == (400, "bad_media")
    assert not ClueMedia.objects.exists()


def test_a_webm_with_video_is_no_sound(table):
    game_id, players = table(4, clue_modes=["sound"])
    data = media_files.webm_audio(5, video=True)
    assert error_of(upload(players[0][1], game_id, data, "clue.webm", "audio/webm")) == (400, "bad_media")


@pytest.mark.parametrize(("data", "kind"), [(media_files.ogg_opus(12), "sound"), (media_files.webm_audio(19), "sound")])
def test_a_short_sound_is_taken_with_its_length(table, data, kind):
    game_id, players = table(4, clue_modes=["words", "sound"])
    response = upload(players[1][1], game_id, data, "x.bin", "application/octet-stream")  # the name and header lie
    assert response.status_code == 201, response.content
    media = ClueMedia.objects.get(pk=response.json()["id"])
    assert media.kind == kind and media.content_type.startswith("audio/") and 11 < media.duration < 20


def test_a_mode_the_game_does_not_allow_is_refused(table):
    game_id, players = table(4)  # words only, the default
    assert error_of(upload(players[0][1], game_id, media_files.png())) == (400, "mode_not_allowed")
    sound = media_files.ogg_opus(3)
    game_id, players = table(4, clue_modes=["drawing"])
    assert error_of(upload(players[0][1], game_id, sound, "s.ogg", "audio/ogg")) == (400, "mode_not_allowed")
    assert not ClueMedia.objects.exists()


def test_words_where_the_house_rules_want_a_drawing_are_refused(table):
    game_id, players = table(4, clue_modes=["drawing"])
    assert error_of(clue(players[0][1], game_id, text="in words")) == (400, "mode_not_allowed")
    media_id = upload(players[0][1], game_id, media_files.png()).json()["id"]
    assert error_of(clue(players[0][1], game_id, text="and words", media=media_id)) == (400, "mode_not_allowed")
    assert Game.objects.get(pk=game_id).phase == "clue"
    assert clue(players[0][1], game_id, media=media_id).status_code == 200


def test_not_your_turn_and_not_your_game(table, make_outsider):
    game_id, players = table(4, clue_modes=["words", "drawing"])
    assert clue(players[0][1], game_id, text="first").status_code == 200  # seat 0 is the storyteller now
    assert error_of(upload(players[0][1], game_id, media_files.png())) == (409, "wrong_phase")  # clue given
    assert error_of(upload(players[1][1], game_id, media_files.png())) == (409, "wrong_phase")
    outsider = make_outsider()
    assert error_of(upload(outsider, game_id, media_files.png()))[0] == 403  # a public game: seen, not theirs


def test_in_round_2_only_the_storyteller_uploads(table):
    game_id, players = table(4, clue_modes=["words", "drawing"])
    _play_round_with_words(game_id, players)
    storyteller = view(players[0][1], game_id)["storyteller"]
    other = next(client for user, client in players if user.username != storyteller)
    assert error_of(upload(other, game_id, media_files.png())) == (409, "not_your_turn")
    own = next(client for user, client in players if user.username == storyteller)
    assert upload(own, game_id, media_files.png()).status_code == 201


def test_someone_elses_media_in_a_clue_is_refused_and_changes_nothing(table):
    game_id, players = table(4, clue_modes=["words", "drawing"])
    theirs = upload(players[1][1], game_id, media_files.png()).json()["id"]
    version = view(players[0][1], game_id)["version"]
    assert error_of(clue(players[0][1], game_id, text="mine", media=theirs)) == (400, "bad_media")
    assert view(players[0][1], game_id)["version"] == version
    assert Game.objects.get(pk=game_id).phase == "clue"
    other_game, other_players = table(4, clue_modes=["drawing"])
    elsewhere = upload(other_players[0][1], other_game, media_files.png()).json()["id"]
    assert error_of(clue(players[0][1], game_id, media=elsewhere)) == (400, "bad_media")
    assert error_of(clue(players[0][1], game_id, media=999999)) == (400, "bad_media")
    assert error_of(clue(players[0][1], game_id)) == (400, "clue_empty")


def test_the_file_is_for_those_who_may_see_the_game(table, make_outsider, anon):
    game_id, players = table(4, clue_modes=["drawing"], visibility="private")
    media_id = upload(players[0][1], game_id, media_files.png()).json()["id"]
    url = f"/games/{game_id}/clue-media/{media_id}/"
    assert fetch(players[0][1], url).status_code == 200  # the uploader
    assert fetch(players[1][1], url).status_code == 404  # not a clue yet: nobody else's to see
    assert clue(players[0][1], game_id, media=media_id).status_code == 200
    assert fetch(players[1][1], url).status_code == 200
    assert fetch(make_outsider(), url).status_code == 404  # a private game, not theirs
    assert fetch(anon, url).status_code == 404
    assert fetch(players[1][1], f"/games/{game_id + 1}/clue-media/{media_id}/").status_code == 404


def test_the_pages_upload_with_the_session_and_csrf(table):
    game_id, players = table(4, clue_modes=["drawing"])
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(players[3][0])
    page = browser.get(f"/games/{game_id}/")
    assert page.status_code == 200
    token = page.cookies["csrftoken"].value
    address = f"/games/{game_id}/clue-media/"
    refused = browser.post(address, {"file": SimpleUploadedFile("c.png", media_files.png())})
    assert refused.status_code == 403 and not ClueMedia.objects.exists()  # no CSRF token
    made = browser.post(
        address, {"file": SimpleUploadedFile("c.png", media_files.png())}, headers={"X-CSRFToken": token}
    )
    assert made.status_code == 201, made.content
    bad = browser.post(address, {"file": SimpleUploadedFile("c.png", b"not a png")}, headers={"X-CSRFToken": token})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_media"
    assert browser.get(f"/games/{game_id}/clue-media/{made.json()['id']}/").status_code == 200


def test_a_seat_uploads_a_bounded_number_of_files(table, monkeypatch):
    from storyteller.services import media

    monkeypatch.setattr(media, "MAX_UPLOADS_PER_SEAT", 2)
    game_id, players = table(4, clue_modes=["drawing"])
    for _ in range(2):
        assert upload(players[0][1], game_id, media_files.png()).status_code == 201
    assert error_of(upload(players[0][1], game_id, media_files.png())) == (409, "too_many_media")
    assert upload(players[1][1], game_id, media_files.png()).status_code == 201
    assert ClueMedia.objects.count() == 3


def test_the_file_goes_out_private_and_without_its_stored_name(table):
    game_id, players = table(4, clue_modes=["drawing"], visibility="private")
    media_id = upload(players[0][1], game_id, media_files.png()).json()["id"]
    stored = ClueMedia.objects.get(pk=media_id).file.name
    served = fetch(players[0][1], f"/games/{game_id}/clue-media/{media_id}/")
    assert served.status_code == 200
    assert served["Cache-Control"].startswith("private")
    assert served["Content-Disposition"] == 'inline; filename="clue.png"'
    leaked = stored.rsplit("/", 1)[-1].split(".")[0]
    assert all(leaked not in value for value in served.headers.values())


def test_refused_uploads_count_toward_the_cap(table, monkeypatch):
    from storyteller.models import ClueMediaTally
    from storyteller.services import media

    monkeypatch.setattr(media, "MAX_UPLOADS_PER_SEAT", 3)
    game_id, players = table(4, clue_modes=["drawing"])
    for bad in (b"not a picture", media_files.png(width=5000)):
        assert error_of(upload(players[0][1], game_id, bad)) == (400, "bad_media")
    assert upload(players[0][1], game_id, media_files.png()).status_code == 201
    assert error_of(upload(players[0][1], game_id, media_files.png())) == (409, "too_many_media")
    assert error_of(upload(players[0][1], game_id, b"junk")) == (409, "too_many_media")  # not even checked
    assert ClueMedia.objects.count() == 1
    assert ClueMediaTally.objects.get(seat__user=players[0][0]).uploads == 3


def test_an_upload_the_game_refuses_once_locked_leaves_no_file(table, monkeypatch, settings):
    """The game moves on while the file is checked: its record is refused under the lock, and the file
    already written goes again."""
    from storyteller.services import media

    game_id, players = table(4, clue_modes=["words", "drawing"])
    checked = media.media_sniff

    def clue_given_meanwhile(data):
        assert clue(players[1][1], game_id, text="faster").status_code == 200
        return checked(data)

    monkeypatch.setattr(media, "media_sniff", clue_given_meanwhile)
    assert error_of(upload(players[0][1], game_id, media_files.png())) == (409, "wrong_phase")
    assert not ClueMedia.objects.exists()
    folder = settings.MEDIA_ROOT / "clue-media"
    assert not folder.exists() or not any(folder.iterdir())


def test_card_pictures_keep_their_address_and_nothing_else_is_served_by_path(table, anon):
    from storyteller.models import Card

    game_id, players = table(4, clue_modes=["drawing"])
    from django.core.files.base import ContentFile

    card = Card.objects.first()
    assert anon.client.get(card.image.url).status_code == 404  # a card whose file is missing
    card.image.save("card.webp", ContentFile(media_files.webp()))
    picture = anon.client.get(card.image.url)
    assert picture.status_code == 200 and picture["Cache-Control"].startswith("private")
    assert b"".join(picture.streaming_content) == card.image.open("rb").read()
    media_id = upload(players[0][1], game_id, media_files.png()).json()["id"]
    stored = ClueMedia.objects.get(pk=media_id).file.name
    assert anon.client.get(f"/media/{stored}").status_code == 404
    assert anon.client.get("/media/cards/" + stored.rsplit("/", 1)[-1]).status_code == 404
    assert anon.client.get("/media/cards/..%2Fclue-media%2F" + stored.rsplit("/", 1)[-1]).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_an_upload_being_checked_holds_no_lock(table, monkeypatch):
    """While one player's file is checked (slowly), another player's chat post, which takes the game's
    lock, goes through at once; the upload is recorded afterwards."""
    import threading
    import time

    from django.db import connection

    from chat.services import chat_post
    from storyteller.services import media

    game_id, players = table(4, clue_modes=["drawing"])
    checking, release = threading.Event(), threading.Event()
    checked = media.media_sniff

    def slow(data):
        checking.set()
        assert release.wait(30)
        return checked(data)

    monkeypatch.setattr(media, "media_sniff", slow)
    outcome = {}

    def uploading():
        try:
            outcome["media"] = media.clue_media_upload(game_id=game_id, user=players[0][0], data=media_files.png())
        except BaseException as error:  # noqa: BLE001 (reported by the test below)
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=uploading)
    thread.start()
    safety = threading.Timer(10, release.set)  # were the lock held, the post would wait for this, not forever
    safety.start()
    try:
        assert checking.wait(30)
        started = time.monotonic()
        message = chat_post(game_id=game_id, user=players[1][0], text="while you draw")
        waited = time.monotonic() - started
        still_checking = not release.is_set()
    finally:
        release.set()
        safety.cancel()
        thread.join(30)
    assert message.pk and waited < 2 and still_checking
    assert "error" not in outcome, outcome
    assert ClueMedia.objects.filter(pk=outcome["media"].pk, seat__user=players[0][0]).exists()


# --- helpers -------------------------------------------------------------------------------


@pytest.fixture
def make_outsider(db):
    from accounts.services import token_create
    from games.tests.factories import UserFactory

    def make():
        _token, secret = token_create(user=UserFactory(), name="tests")
        return ApiClient(secret)

    return make


@pytest.fixture
def anon():
    return ApiClient()


def _play_round_with_words(game_id, players):
    assert clue(players[0][1], game_id, text="words").status_code == 200
    for _user, client in players[1:]:
        card = view(client, game_id)["hand"][0]["id"]
        assert client.post(f"/games/{game_id}/actions", {"type": "submit", "cards": [card]}).status_code == 200
    for _user, client in players[1:]:
        position = next(c["position"] for c in view(client, game_id)["table"] if not c["mine"])
        assert client.post(f"/games/{game_id}/actions", {"type": "vote", "position": position}).status_code == 200
