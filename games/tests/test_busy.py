"""A database with no connection to give answers 503 with Retry-After, never 500."""

import threading

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from psycopg_pool import PoolTimeout

from accounts.services import token_create
from games.busy import database_busy

from .factories import started_game


def test_busy_is_told_from_the_errors_it_was_raised_from():
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 2.00 sec")
        except PoolTimeout as pool_error:
            raise OperationalError("couldn't get a connection") from pool_error
    except OperationalError as error:
        assert database_busy(error)
    assert database_busy(OperationalError("FATAL:  sorry, too many clients already"))
    assert not database_busy(OperationalError("relation games_game does not exist"))
    assert not database_busy(ValueError("a bug"))
    assert not database_busy(None)


def _in_a_thread(call):
    """``call()``'s result from another thread: a request there needs a connection of its own."""
    result = {}

    def run():
        try:
            result["value"] = call()
        finally:
            connection.close()  # give the thread's connection back to the pool

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    return result["value"]


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's connection pool")
@pytest.mark.django_db(transaction=True)
def test_an_empty_pool_answers_503_with_retry_after_on_pages_and_api():
    game, users = started_game(3)
    _token, secret = token_create(user=users[0], name="bot")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    pool = connection.pool
    assert pool is not None, "PostgreSQL runs with a connection pool"
    page, api_url = reverse("games:detail", args=[game.pk]), f"/api/v1/games/{game.pk}"
    assert _in_a_thread(lambda: Client().get(page)).status_code == 200  # the pool is fine
    held = []
    try:
        while True:  # borrow every connection the pool has, and its last waits in vain
            try:
                held.append(pool.getconn(timeout=0.2))
            except PoolTimeout:
                break
        assert held
        busy_page = _in_a_thread(lambda: Client(raise_request_exception=False).get(page))
        busy_api = _in_a_thread(lambda: Client(raise_request_exception=False).get(api_url, **bearer))
    finally:
        for held_connection in held:
            pool.putconn(held_connection)
    assert busy_page.status_code == 503 and busy_page["Retry-After"] == "2"
    assert busy_api.status_code == 503 and busy_api["Retry-After"] == "2"
    assert busy_api.json()["error"]["code"] == "busy"
    assert _in_a_thread(lambda: Client().get(page)).status_code == 200  # and it recovers
    assert _in_a_thread(lambda: Client().get(api_url, **bearer)).status_code == 200
