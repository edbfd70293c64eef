"""DEBUG is off unless FABULA_DEBUG asks for it (bin/run runs config.settings.base), and the errors
answer with the site's own 404 and 500 pages: no URL patterns, no traceback, the site's look."""

import pytest
from django.test import Client
from django.urls import reverse

from games.tests.factories import UserFactory

from .test_settings import load

pytestmark = pytest.mark.django_db


def test_the_embedded_default_runs_without_debug_unless_asked():
    import json

    assert json.loads(load("config.settings.base").stdout)["DEBUG"] is False
    assert json.loads(load("config.settings.base", FABULA_DEBUG="1").stdout)["DEBUG"] is True


@pytest.mark.parametrize("signed_in", [False, True])
def test_an_unknown_url_answers_the_sites_404(client, signed_in):
    if signed_in:
        client.force_login(UserFactory())
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Not found" in page and "There is nothing at this address" in page
    assert 'href="/static/css/site.css"' in page and 'class="site-header"' in page
    assert reverse("games:lobby") in page  # the site's navigation
    assert "URLconf" not in page and "admin/" not in page  # Django's debug page lists every pattern


def test_a_missing_game_answers_the_sites_404(client):
    response = client.get(reverse("games:detail", args=[987654]))
    assert response.status_code == 404
    assert "There is nothing at this address" in response.content.decode()


@pytest.mark.urls("config.tests.urls_errors")
def test_a_view_that_fails_answers_the_sites_500():
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory())
    response = client.get("/fails/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and "This is our mistake, not yours" in page
    assert 'href="/static/css/site.css"' in page and 'class="site-header"' in page
    assert "RuntimeError" not in page and "Traceback" not in page


@pytest.mark.urls("config.tests.urls_errors")
def test_the_500_page_needs_no_database(rf, django_assert_num_queries):
    """When the database is what failed, the 500 page still renders: it asks nothing of it."""
    from games.busy import server_error

    request = rf.get("/fails/")
    with django_assert_num_queries(0):
        response = server_error(request)
    assert response.status_code == 500 and b"Something went wrong" in response.content


def test_a_form_without_its_csrf_token_answers_the_sites_403():
    """Django's own CSRF page brings an inline style element, which the Content-Security-Policy refuses."""
    response = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "a", "password": "b"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "The form had expired" in page and 'class="site-header"' in page
    assert "<style" not in page
