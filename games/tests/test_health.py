"""/healthz, which the compose health checks and a load balancer ask."""

import pytest
from django.db import connection

from .redis_server import free_port, needs_redis_server, start_redis, stop


@pytest.mark.django_db
def test_healthz_reports_each_part(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    report = response.json()
    assert {part: report[part] for part in ("database", "cache", "channel_layer")} == {
        "database": "ok",
        "cache": "ok",
        "channel_layer": "ok",
    }
    # The tests run their tasks where they are sent (eager): no broker. bin/run has one (fabulafs://).
    assert report["broker"] == "in-process"
    assert report["degraded"] == {"counts": {}, "down": [], "last_error": {}}
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


@pytest.mark.django_db
def test_healthz_reports_a_broker_it_cannot_reach(client, settings):
    from celery import current_app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    broker = current_app.conf.broker_url
    current_app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    try:
        response = client.get("/healthz")
    finally:
        current_app.conf.broker_url = broker
    assert response.status_code == 200  # pages load without it; deadlines wait
    assert response.json()["broker"] == "unreachable"


@needs_redis_server
@pytest.mark.django_db
def test_healthz_reports_a_broker_it_reaches(client, settings, tmp_path):
    from celery import current_app

    port = free_port()
    redis = start_redis(port, tmp_path)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    broker = current_app.conf.broker_url
    current_app.conf.broker_url = f"redis://127.0.0.1:{port}/0"
    try:
        assert client.get("/healthz").json()["broker"] == "ok"
    finally:
        current_app.conf.broker_url = broker
        stop(redis)


@pytest.mark.django_db
def test_healthz_reports_the_file_system_broker_by_its_folders(client, settings, tmp_path):
    """The embedded default's broker (fabulafs://) is "ok" while its folders take a file."""
    from celery import current_app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    broker, options = current_app.conf.broker_url, current_app.conf.broker_transport_options
    queue, control = tmp_path / "queue", tmp_path / "control"
    current_app.conf.broker_url = "fabulafs://"
    current_app.conf.broker_transport_options = {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "control_folder": str(control),
    }
    try:
        assert client.get("/healthz").json()["broker"] == "unreachable"  # the folders are not there
        queue.mkdir()
        control.mkdir()
        assert client.get("/healthz").json()["broker"] == "ok"
        assert list(queue.iterdir()) == [] and list(control.iterdir()) == []  # its probe file is gone
    finally:
        current_app.conf.broker_url, current_app.conf.broker_transport_options = broker, options
