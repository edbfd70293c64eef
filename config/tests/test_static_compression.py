"""The embedded default sends its scripts and styles gzipped to a browser that takes it (issue 39: a phone's
game page is 110 KB lighter), as production does; nothing needs a manifest of hashed names to run."""

import gzip

from django.core.management import call_command
from django.test import Client, override_settings


def test_collected_scripts_and_styles_are_sent_gzipped_to_a_browser_that_takes_it(tmp_path, settings):
    assert settings.STORAGES["staticfiles"]["BACKEND"] == "whitenoise.storage.CompressedStaticFilesStorage"
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
        assert (tmp_path / "js/live.js.gz").exists()
        client = Client()  # whitenoise reads the collected files when its middleware is made: here
        for path in ("/static/js/live.js", "/static/css/site.css", "/static/vendor/htmx.min.js"):
            zipped = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
            assert zipped.status_code == 200, path
            assert zipped["Content-Encoding"] == "gzip", path
            body = b"".join(zipped.streaming_content)
            plain = client.get(path)
            assert "Content-Encoding" not in plain
            assert gzip.decompress(body) == b"".join(plain.streaming_content)
            assert len(body) < len(gzip.decompress(body)) / 2, path
