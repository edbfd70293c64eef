"""Where a push may go (notifications.endpoints): known push services over https only, public
addresses only, at subscription and at send time. Nothing here leaves this machine: names are
resolved only for "localhost"."""

import asyncio

import pytest

from notifications.endpoints import EndpointRefused, PublicOnlyResolver, address_public, endpoint_check, host_known

KNOWN = [
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
    "https://fcm.googleapis.com/wp/dGVzdA",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABh",
    "https://updates-autopush.stage.mozaws.net.push.services.mozilla.com/wpush/v2/x",
    "https://web.push.apple.com/QGm7LZ2z",
    "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB",
    "https://FCM.googleapis.com./fcm/send/upper-case-and-final-dot",
    "https://fcm.googleapis.com:443/fcm/send/explicit-default-port",
]

REFUSED = [
    ("http://fcm.googleapis.com/fcm/send/x", "https://"),
    ("ftp://fcm.googleapis.com/x", "https://"),
    ("https://user:pass@fcm.googleapis.com/fcm/send/x", "user name"),
    ("https://user@fcm.googleapis.com/fcm/send/x", "user name"),
    ("https://fcm.googleapis.com:8443/fcm/send/x", "default port"),
    ("https://fcm.googleapis.com:99999/x", "not a valid address"),
    ("https://127.0.0.1/x", "known push service"),
    ("https://[::1]/x", "known push service"),
    ("https://10.0.0.7/x", "known push service"),
    ("https://169.254.169.254/latest/meta-data/", "known push service"),
    ("https://2130706433/x", "known push service"),  # 127.0.0.1 as one number
    ("https://metadata.google.internal/computeMetadata/v1/", "known push service"),
    ("https://localhost/x", "known push service"),
    ("https://push.example.net/x", "known push service"),
    ("https://fcm.googleapis.com.evil.example/x", "known push service"),
    ("https://evilfcm.googleapis.com/x", "known push service"),
    ("https://push.apple.com/x", "known push service"),  # "*." is a subdomain, not the name itself
    ("https://notify.windows.com.evil.example/x", "known push service"),
    # Names an HTTP client might read as another host: only letters, digits, dots and hyphens pass.
    ("https://evil.example%2f.push.apple.com/x", "known push service"),
    ("https://evil.example%2F@x.push.apple.com/x", "user name"),
    ("https://evil.example\\.push.apple.com/x", "known push service"),
    ("https://web.push.apple.com%00.evil.example/x", "known push service"),
    ("https://ｆcm.googleapis.com/fcm/send/x", "known push service"),
    ("https://web_push.push.apple.com/x", "known push service"),
    ("https:///x", "not a valid address"),
    ("not a url", "not a valid address"),
]


@pytest.mark.parametrize("url", KNOWN)
def test_the_known_push_services_endpoints_pass(url):
    endpoint_check(url)


@pytest.mark.parametrize("url, reason", REFUSED)
def test_anything_else_is_refused_with_a_reason(url, reason):
    with pytest.raises(EndpointRefused) as refusal:
        endpoint_check(url)
    assert reason in refusal.value.message


def test_the_allowlist_is_a_setting(settings):
    settings.FABULA_PUSH_SERVICE_HOSTS = ["push.example.net", "*.example.org"]
    endpoint_check("https://push.example.net/x")
    endpoint_check("https://a.b.example.org/x")
    assert not host_known("example.org")
    with pytest.raises(EndpointRefused):
        endpoint_check("https://fcm.googleapis.com/fcm/send/x")


def test_loopback_only_when_the_tests_allow_it(settings):
    with pytest.raises(EndpointRefused):
        endpoint_check("http://127.0.0.1:8123/device")
    settings.FABULA_PUSH_ALLOW_LOOPBACK = True
    endpoint_check("http://127.0.0.1:8123/device")
    endpoint_check("https://[::1]:8123/device")
    for url in ("http://10.0.0.7/x", "http://169.254.169.254/x", "http://user:pass@127.0.0.1/x"):
        with pytest.raises(EndpointRefused):
            endpoint_check(url)
    assert address_public("127.0.0.1") and not address_public("10.0.0.7")


@pytest.mark.parametrize(
    "address, public",
    [
        ("127.0.0.1", False),
        ("::1", False),
        ("10.1.2.3", False),
        ("172.16.5.4", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),  # cloud metadata (AWS, GCP, Azure)
        ("100.100.100.200", False),  # Alibaba's metadata, in the shared 100.64/10
        ("fd00:ec2::254", False),  # AWS's IPv6 metadata
        ("fe80::1%eth0", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("0.0.0.0", False),
        ("224.0.0.251", False),
        ("239.255.255.250", False),
        ("240.0.0.1", False),
        ("255.255.255.255", False),
        ("ff02::1", False),
        ("not an address", False),
        ("142.250.74.106", True),
        ("2a00:1450:4001:82b::200a", True),
    ],
)
def test_only_public_addresses(address, public):
    assert address_public(address) is public


def test_the_resolver_refuses_a_name_that_resolves_inside(settings):
    async def resolve():
        resolver = PublicOnlyResolver()
        try:
            return await resolver.resolve("localhost", 443)
        finally:
            await resolver.close()

    with pytest.raises(OSError, match="localhost"):
        asyncio.run(resolve())
    settings.FABULA_PUSH_ALLOW_LOOPBACK = True
    assert {result["host"] for result in asyncio.run(resolve())} <= {"127.0.0.1", "::1"}
