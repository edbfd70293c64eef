"""Where a push may go: a subscription's endpoint is a URL the browser gives, so the client picks
where the site's worker will POST. Unchecked, that reaches inside (issue 29: 127.0.0.1, 10.x,
169.254.169.254, user:pass@...). So an endpoint must be

- https, with no user info and the default port,
- on one of the known push services (``FABULA_PUSH_SERVICE_HOSTS``: FCM, Mozilla, Apple, Windows;
  "*." stands for any subdomain),

checked when a device subscribes (``endpoint_check``) and again at each send, where the host's
addresses are resolved and every one must be public (``address_public``; ``PublicOnlyResolver``
is what the sender connects through, so the address checked is the address used: a DNS change
between check and connect cannot slip past). Redirects are never followed (``notifications.push``).

``FABULA_PUSH_ALLOW_LOOPBACK`` (tests only, never read from the environment) lets endpoints on
127.0.0.1 through, over http too: the tests' push services and stalling servers live there.
"""

import errno
import ipaddress
import re
import socket
from urllib.parse import urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver
from django.conf import settings
from django.utils.translation import gettext as _

HOST_NAME = re.compile(r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?$")


class EndpointRefused(ValueError):
    """The endpoint is not one the site sends to; ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _loopback_allowed() -> bool:
    return bool(settings.FABULA_PUSH_ALLOW_LOOPBACK)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip("[]").split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    return address


def address_public(text: str) -> bool:
    """Whether a push may connect to this address: a global unicast one (not private, loopback,
    link-local (cloud metadata: 169.254.169.254), shared, multicast, reserved or unspecified)."""
    address = _ip(text)
    if address is None:
        return False
    if _loopback_allowed() and address.is_loopback:
        return True
    return address.is_global and not (address.is_multicast or address.is_reserved or address.is_unspecified)


def host_known(host: str) -> bool:
    """Whether ``host`` is one of the push services of ``FABULA_PUSH_SERVICE_HOSTS``."""
    host = host.lower().rstrip(".")
    for pattern in settings.FABULA_PUSH_SERVICE_HOSTS:
        pattern = pattern.lower().strip()
        if pattern.startswith("*."):
            suffix = pattern[1:]  # ".push.apple.com"
            if host.endswith(suffix) and len(host) > len(suffix):
                return True
        elif host == pattern:
            return True
    return False


def endpoint_check(url: str) -> None:
    """Raise ``EndpointRefused`` unless ``url`` is an endpoint of a known push service."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise EndpointRefused(_("The endpoint is not a valid address.")) from None
    host = parts.hostname or ""
    if not host:
        raise EndpointRefused(_("The endpoint is not a valid address."))
    if "@" in parts.netloc:
        raise EndpointRefused(_("The endpoint must not hold a user name or password."))
    address = _ip(host)
    if _loopback_allowed() and address is not None and address.is_loopback and parts.scheme in ("http", "https"):
        return
    if parts.scheme != "https":
        raise EndpointRefused(_("The endpoint must be an https:// address."))
    if port not in (None, 443):
        raise EndpointRefused(_("The endpoint must use the default port."))
    # Letters, digits, dots and hyphens only: a name the HTTP client cannot read as another host
    # ("%2f", a backslash, a full-width letter...).
    if address is not None or not HOST_NAME.match(host) or not host_known(host):
        raise EndpointRefused(_("The endpoint is not on a known push service."))


class PublicOnlyResolver(AbstractResolver):
    """aiohttp's resolver, refusing a host any of whose addresses is not public (``address_public``).

    The sender's connector resolves through it, so the addresses checked are the ones connected to.
    """

    def __init__(self) -> None:
        self.resolver = DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        results = await self.resolver.resolve(host, port, family)
        refused = [result["host"] for result in results if not address_public(result["host"])]
        if refused or not results:
            # (errno, text): aiohttp's connection error shows the text.
            message = f"{host} resolves to an address a push may not go to ({', '.join(refused) or 'none'})"
            raise OSError(errno.EACCES, message)
        return results

    async def close(self) -> None:
        await self.resolver.close()
