"""/healthz, which the compose health checks and a load balancer ask."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_reports_each_part(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "channel_layer": "ok"}
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"


def test_healthz_takes_only_get(client):
    assert client.post("/healthz").status_code == 405
