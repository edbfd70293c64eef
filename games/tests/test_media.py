"""The media door (``games.media``): a file streamed privately without its stored name, or a redirect to a
short-lived signed URL where the storage is elsewhere (django-storages' S3, no request sent); the viewer
by session or by bearer token."""

import time
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.db.models.fields.files import FieldFile, FileField
from django.http import Http404
from django.test import RequestFactory
from storages.backends.s3 import S3Storage

from games.media import media_response, media_viewer


def field_file(storage, name: str) -> FieldFile:
    field = FileField(storage=storage)
    field.storage = storage
    return FieldFile(None, field, name)


def test_a_local_file_is_streamed_private_under_a_neutral_name(tmp_path):
    storage = FileSystemStorage(location=tmp_path)
    name = storage.save("clue-media/0123456789abcdef.png", ContentFile(b"\x89PNG bytes"))
    response = media_response(file=field_file(storage, name), content_type="image/png", download_name="clue.png")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"\x89PNG bytes"
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "private, max-age=3600"
    assert response["Content-Disposition"] == 'inline; filename="clue.png"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "0123456789abcdef" not in str(response.headers)


def test_a_missing_file_is_404(tmp_path):
    storage = FileSystemStorage(location=tmp_path)
    with pytest.raises(Http404):
        media_response(file=field_file(storage, "clue-media/gone.png"), content_type="image/png", download_name="x")


def test_a_file_in_s3_is_a_redirect_to_a_url_signed_for_a_short_while():
    storage = S3Storage(
        bucket_name="fabula-media",
        endpoint_url="http://127.0.0.1:9",
        access_key="a",
        secret_key="b",
        addressing_style="path",
        querystring_auth=True,
        querystring_expire=60,
        default_acl="private",
    )
    response = media_response(
        file=field_file(storage, "clue-media/0123456789abcdef.ogg"), content_type="audio/ogg", download_name="c.ogg"
    )
    assert response.status_code == 302
    url = urlsplit(response["Location"])
    assert url.path == "/fabula-media/clue-media/0123456789abcdef.ogg"
    query = parse_qs(url.query)
    if "X-Amz-Expires" in query:  # signature version 4
        assert query["X-Amz-Expires"] == ["60"] and query["X-Amz-Signature"]
    else:  # version 2 (botocore's choice for an endpoint of its own): an expiry time
        assert 50 <= int(query["Expires"][0]) - time.time() <= 61 and query["Signature"]
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
def test_the_viewer_is_the_session_or_the_bearer_token():
    from django.contrib.auth.models import AnonymousUser

    from accounts.services import token_create
    from games.tests.factories import UserFactory

    user = UserFactory()
    _token, secret = token_create(user=user, name="t")
    factory = RequestFactory()
    by_token = factory.get("/", headers={"Authorization": f"Bearer {secret}"})
    by_token.user = AnonymousUser()
    assert media_viewer(by_token) == user
    wrong = factory.get("/", headers={"Authorization": "Bearer fab_wrong"})
    wrong.user = AnonymousUser()
    assert not media_viewer(wrong).is_authenticated
    by_session = factory.get("/")
    by_session.user = user
    assert media_viewer(by_session) == user
