"""The client's address, behind as many reverse proxies as the settings trust.

With ``FABULA_TRUSTED_PROXIES`` = N (N proxies in front of the site, each adding
the address it was reached from to X-Forwarded-For), the client is the N-th
address from the right of that header; the ones left of it were sent by the
client and prove nothing. With 0 (the default) the header is ignored and the
address is the connection's own, ``REMOTE_ADDR``.
"""

import ipaddress

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings


def forwarded_address(meta, proxies: int) -> str | None:
    """The client's address in X-Forwarded-For as ``proxies`` trusted proxies wrote it, or None."""
    if proxies <= 0:
        return None
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if len(hops) < proxies:
        return None
    try:
        return str(ipaddress.ip_address(hops[-proxies]))
    except ValueError:
        return None


def client_address(request) -> str | None:
    """Who sent the request, for rates and lockouts (``REMOTE_ADDR``, once the middleware set it).

    None when there is no address (a Unix socket, a request made in a test): the
    lockouts keep addresses in a column of IP addresses, which takes nothing else.
    """
    try:
        return str(ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")))
    except ValueError:
        return None


def _from_proxy(request) -> None:
    address = forwarded_address(request.META, getattr(settings, "FABULA_TRUSTED_PROXIES", 0))
    if address is not None:
        request.META["FABULA_PROXY_ADDR"] = request.META.get("REMOTE_ADDR", "")
        request.META["REMOTE_ADDR"] = address


class TrustedProxyMiddleware:
    """Puts the client's address in ``REMOTE_ADDR`` when the site runs behind trusted proxies.

    First in the middleware, so that everything after it (the API's rates, log-in
    lockouts, logs) sees the client, not the proxy.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        _from_proxy(request)
        return self.get_response(request)

    async def __acall__(self, request):
        _from_proxy(request)
        return await self.get_response(request)
