"""Clue media against a really started server (uvicorn, as ``bin/run`` serves): nothing under MEDIA_ROOT by
its path, the file only through its view, to those who may see it, without its stored name."""

import httpx
import pytest
from django.core.files.base import ContentFile

from accounts.services import token_create
from games.tests.factories import started_game
from storyteller.models import Card, ClueMedia
from storyteller.services.media import clue_media_upload
from storyteller.tests import media_files

pytestmark = pytest.mark.django_db(transaction=True)


def test_clue_media_are_not_served_by_path(asgi_server):
    game, (anna, bo, _cy) = started_game(3)
    game.options = {**(game.options or {}), "clue_modes": ["words", "drawing"], "visibility": "private"}
    game.save(update_fields=["options"])
    drawing = media_files.png()
    media = clue_media_upload(game_id=game.pk, user=anna, data=drawing)  # in the server's MEDIA_ROOT too
    card = Card.objects.first()
    card.image.save("card.webp", ContentFile(media_files.webp()))
    _token, anna_secret = token_create(user=anna, name="t")
    _token, bo_secret = token_create(user=bo, name="t")
    stored = ClueMedia.objects.get(pk=media.pk).file.name
    door = f"/games/{game.pk}/clue-media/{media.pk}/"
    try:
        with httpx.Client(base_url=asgi_server.url, timeout=10) as client:
            assert client.get(f"/media/{stored}").status_code == 404
            assert client.get(f"/media/cards/../{stored}").status_code == 404
            assert client.get("/media/cards/" + stored.rsplit("/", 1)[-1]).status_code == 404
            assert client.get(card.image.url).status_code == 200  # the site's card pictures keep their address
            assert client.get(door).status_code == 404  # nobody signed in
            assert client.get(door, headers={"Authorization": f"Bearer {bo_secret}"}).status_code == 404  # not given
            served = client.get(door, headers={"Authorization": f"Bearer {anna_secret}"})
            assert served.status_code == 200 and served.content == drawing
            assert served.headers["cache-control"].startswith("private")
            assert stored.rsplit("/", 1)[-1].split(".")[0] not in str(served.headers)
    finally:
        media.file.storage.delete(stored)
        card.image.storage.delete(card.image.name)
