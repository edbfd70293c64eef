"""Admins see, play and remove drawn and sung clues; a removed one leaves its clue's words."""

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from games.tests.factories import UserFactory, started_game
from storyteller.models import ClueMedia
from storyteller.tests import media_files

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def a_drawing() -> ClueMedia:
    game, _users = started_game(4, options={"clue_modes": ["words", "drawing"]})
    media = ClueMedia(game=game, seat=game.seats.get(position=0), kind="drawing", content_type="image/png", size=10)
    media.file.save("clue", ContentFile(media_files.png()), save=False)
    media.save()
    return media


def test_an_admin_sees_plays_and_removes_clue_media(client):
    media = a_drawing()
    path = media.file.path
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get(reverse("admin:storyteller_cluemedia_changelist")).content.decode()
    assert f"#{media.game_id}" in listing
    page = client.get(reverse("admin:storyteller_cluemedia_change", args=[media.pk])).content.decode()
    file_url = reverse("admin:storyteller_cluemedia_file", args=[media.pk])
    assert file_url in page
    served = client.get(file_url)
    assert served.status_code == 200 and served["Content-Type"] == "image/png"
    assert b"".join(served.streaming_content) == media_files.png()
    confirm = client.post(reverse("admin:storyteller_cluemedia_delete", args=[media.pk]), {"post": "yes"})
    assert confirm.status_code == 302
    assert not ClueMedia.objects.exists()
    import os

    assert not os.path.exists(path)


def test_people_who_are_not_admins_get_no_admin_file(client):
    media = a_drawing()
    client.force_login(UserFactory())
    response = client.get(reverse("admin:storyteller_cluemedia_file", args=[media.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
