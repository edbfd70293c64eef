"""``storyteller.personal_data``: a person's drawn and sung clues in their data export, files included, and gone
with their account: rows, files in storage (after commit) and the view's answer."""

import base64
import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import account_delete
from storyteller.models import ClueMedia
from storyteller.services.media import clue_media_upload
from storyteller.tests import media_files

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def drawing_game():
    from games.tests.factories import started_game

    game, users = started_game(3)
    game.options = {**(game.options or {}), "clue_modes": ["words", "drawing", "sound"]}
    game.save(update_fields=["options"])
    return game, users


def test_the_export_holds_ones_own_uploads_with_their_bytes(drawing_game):
    game, (anna, bo, _cy) = drawing_game
    drawing, sound = media_files.png(), media_files.ogg_opus(3)
    clue_media_upload(game_id=game.pk, user=anna, data=drawing)
    clue_media_upload(game_id=game.pk, user=anna, data=sound)
    clue_media_upload(game_id=game.pk, user=bo, data=media_files.webp())
    browser = Client()
    browser.force_login(anna)
    response = browser.get(reverse("accounts:data_export"))
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")
    uploads = json.loads(response.content)["clue_media"]
    assert [(u["game"], u["kind"], u["content_type"]) for u in uploads] == [
        (game.pk, "drawing", "image/png"),
        (game.pk, "sound", "audio/ogg"),
    ]
    assert [base64.b64decode(u["file_base64"]) for u in uploads] == [drawing, sound]
    assert uploads[1]["duration"] == pytest.approx(3.0, abs=0.05)
    assert "clue-media/" not in response.content.decode()  # no stored name


def test_deleting_an_account_deletes_its_files(drawing_game, django_capture_on_commit_callbacks):
    game, (anna, bo, _cy) = drawing_game
    mine = clue_media_upload(game_id=game.pk, user=anna, data=media_files.png())
    theirs = clue_media_upload(game_id=game.pk, user=bo, data=media_files.png())
    storage = mine.file.storage
    assert storage.exists(mine.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        account_delete(user=anna)
    assert not ClueMedia.objects.filter(pk=mine.pk).exists()
    assert not storage.exists(mine.file.name)
    assert storage.exists(theirs.file.name) and ClueMedia.objects.filter(pk=theirs.pk).exists()
    browser = Client()
    browser.force_login(bo)
    assert browser.get(reverse("storyteller:clue_media_file", args=[game.pk, mine.pk])).status_code == 404
    assert browser.get(reverse("storyteller:clue_media_file", args=[game.pk, theirs.pk])).status_code == 200


def test_the_privacy_page_says_what_becomes_of_drawings_and_recordings(client):
    page = client.get(reverse("privacy")).content.decode()
    assert "Your drawings and recordings" in page and "deleted with your account" in page
