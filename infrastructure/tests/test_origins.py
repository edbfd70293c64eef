"""infrastructure.origins: a live socket is taken from the site's own origin (scheme, host, port) or a listed one."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from infrastructure.origins import SocketOrigins, origin_allowed, parse_origin


def handshake(origin: str | None, host: str | None, *, scheme: str = "ws", headers=()) -> dict:
    sent = [(b"host", host.encode())] if host is not None else []
    sent += [(b"origin", origin.encode())] if origin is not None else []
    return {"type": "websocket", "scheme": scheme, "path": "/ws/live/", "headers": [*sent, *headers]}


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),  # bin/run
        ("http://127.0.0.1:9000", "127.0.0.1:9000"),  # PORT=9000 bin/run
        ("http://localhost:8000", "localhost:8000"),
        ("http://[::1]:8000", "[::1]:8000"),
        ("http://LocalHost:8000", "localhost:8000"),  # host names in any case
        ("http://localhost", "localhost:80"),  # a port left out is the scheme's own
    ],
)
def test_the_sites_own_origin_is_taken(origin, host):
    assert origin_allowed(handshake(origin, host)) == "same"


@pytest.mark.parametrize(
    ("origin", "host", "scheme"),
    [
        ("http://127.0.0.1:1", "127.0.0.1:8000", "ws"),  # the two
        ("https://localhost:1", "localhost:8000", "ws"),
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws"),  # the scheme differs
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "wss"),
        ("http://localhost:8000", "127.0.0.1:8000", "ws"),  # the host differs
        ("http://127.0.0.1", "127.0.0.1:8000", "ws"),  # port 80 is not 8000
        ("null", "127.0.0.1:8000", "ws"),
        ("http://127.0.0.1:8000/page", "127.0.0.1:8000", "ws"),  # not an origin
        ("http://user@127.0.0.1:8000", "127.0.0.1:8000", "ws"),
        ("http://127.0.0.1:99999", "127.0.0.1:99999", "ws"),
        (None, "127.0.0.1:8000", "ws"),  # no Origin
        ("http://127.0.0.1:8000", None, "ws"),  # no Host
    ],
)
def test_another_origin_is_refused(origin, host, scheme):
    assert origin_allowed(handshake(origin, host, scheme=scheme)) is None


def test_two_origin_headers_are_refused():
    scope = handshake("http://127.0.0.1:8000", "127.0.0.1:8000", headers=[(b"origin", b"http://evil.example")])
    assert origin_allowed(scope) is None


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_caddy_the_scheme_is_the_proxys_word():
    """Production (config/settings/production.py): Caddy ends TLS and says so in X-Forwarded-Proto; the Host is
    the site's name as the browser sent it."""
    https = [(b"x-forwarded-proto", b"https")]
    assert origin_allowed(handshake("https://games.example.org", "games.example.org", headers=https)) == "same"
    assert origin_allowed(handshake("http://games.example.org", "games.example.org", headers=https)) is None
    assert origin_allowed(handshake("https://games.example.org:8443", "games.example.org", headers=https)) is None
    http = [(b"x-forwarded-proto", b"http")]
    assert origin_allowed(handshake("https://games.example.org", "games.example.org", headers=http)) is None


def test_without_a_trusted_proxy_its_header_is_not_believed():
    https = [(b"x-forwarded-proto", b"https")]
    assert origin_allowed(handshake("https://127.0.0.1:8000", "127.0.0.1:8000", headers=https)) is None
    assert origin_allowed(handshake("http://127.0.0.1:8000", "127.0.0.1:8000", headers=https)) == "same"


@override_settings(FABULA_SOCKET_ORIGINS=["https://games.example.org", "http://127.0.0.1:8000"])
def test_a_listed_origin_is_taken_exactly():
    assert origin_allowed(handshake("https://games.example.org", "web:8000")) == "listed"
    assert origin_allowed(handshake("https://games.example.org:443", "web:8000")) == "listed"
    assert origin_allowed(handshake("http://127.0.0.1:8000", "web:8000")) == "listed"
    for other in ("http://games.example.org", "https://games.example.org:1", "http://127.0.0.1:1", "https://x.org"):
        assert origin_allowed(handshake(other, "web:8000")) is None, other


@override_settings(FABULA_SOCKET_ORIGINS=["games.example.org"])
def test_a_malformed_listed_origin_stops_the_server():
    with pytest.raises(ImproperlyConfigured, match="games.example.org"):
        SocketOrigins(lambda scope, receive, send: None)


def test_parse_origin():
    assert parse_origin("https://Games.Example.org") == ("https", "games.example.org", 443)
    assert parse_origin("http://127.0.0.1:8000/") == ("http", "127.0.0.1", 8000)
    assert parse_origin("ftp://example.org") is None
    assert parse_origin("http://example.org?x") is None
