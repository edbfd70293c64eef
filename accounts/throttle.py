"""How often one may try to get in: log-in lockouts (django-axes) and the rates of sign-up and
password reset (django-ratelimit), per account and per address.

Log-in failures are counted in the database (axes' handler) per account *and* address
together, so that lockouts can be seen and lifted in the admin, and end by themselves
after the cool-off: a guesser at one address locks only the accounts it guesses, from
that address; the owner of the account, and everyone else behind the same address (a
school, a café), still gets in. A guesser spread over many addresses is stopped by a
second, higher count of an account's failures from anywhere (``login-account``, in the
cache as the other rates). Sign-up and reset rates are counted in the cache; if the
cache cannot be reached, the request goes through and the failure is logged: a rate is
not worth an outage.

Password spraying (one address trying a few passwords on many accounts) is slowed per address, while
a neighbour at that address who knows their password still gets in: failed log-ins from one address,
every account together, are counted (``login-address``). Past that count the address is *sprayed* for
the rest of the window, and there every attempt's password is still checked first: the right one gets
in as ever, a wrong one answers the same 429 a lockout does (with its Retry-After), so that wrong and
"not even tried" cannot be told apart; and an account that has failed ``login-address-account`` times
from a sprayed address is refused there without its password being checked, so each account gets
a few guesses an hour from that address instead of axes' 20 every cool-off (docs/operating/security.md).
"""

import functools
import logging
import math
import unicodedata

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from .network import client_address

logger = logging.getLogger(__name__)

# scope -> rate ("count/period", as django-ratelimit reads it). FABULA_ACCOUNT_RATES overrides any.
DEFAULT_RATES = {
    "signup-address": "10/h",  # accounts made from one address
    "signup-account": "5/h",  # tries at one username or email
    "password-reset-address": "10/h",  # reset emails asked for from one address
    "password-reset-account": "3/h",  # reset emails to one address, asked from anywhere
    # Forms that check the password of someone logged in (change it, delete the account):
    # a session left open is not a way to guess the password.
    "password-check-address": "10/h",
    # Failed log-ins of one account from every address together: far above what its owner mistypes,
    # far below what guessing a password needs (axes counts each account and address by itself).
    "login-account": "100/h",
    # Failed log-ins from one address, every account together: past it the address is sprayed (see above).
    "login-address": "30/h",
    # Failed log-ins of one account from one address: past it, while the address is sprayed, refused unchecked.
    "login-address-account": "3/h",
}


def fold(value: str) -> str:
    """One account, however it is typed: NFKC (as sign-up stores usernames), without case."""
    return unicodedata.normalize("NFKC", value or "").strip().casefold()


def rate(scope: str) -> str:
    return getattr(settings, "FABULA_ACCOUNT_RATES", {}).get(scope, DEFAULT_RATES[scope])


def hit(request, scope: str, value: str) -> int | None:
    """Count one try of ``value`` in ``scope``; the seconds to wait if past the rate, else None."""
    try:
        usage = get_usage(
            request, group=f"accounts.{scope}", key=lambda _group, _request: value, rate=rate(scope), increment=True
        )
    except Exception:  # the cache is down: let the request through rather than fail it
        logger.warning("The rate store is unreachable: %s is not limited for now.", scope, exc_info=True)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return max(int(usage["time_left"]), 1)


def throttled(scope: str, *, fields: tuple[str, ...] = ()):
    """A view's POSTs limited per address (``<scope>-address``; a signed-in user's per account too, at the same
    rate, whatever address or session it comes from) and per value of each of ``fields`` (``<scope>-account``):
    past a rate it answers 429 with the page that says how long to wait."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method == "POST":
                waits = [hit(request, f"{scope}-address", client_address(request) or "unknown")]
                user = getattr(request, "user", None)
                if user is not None and user.is_authenticated:  # and the account's, from every address together
                    waits.append(hit(request, f"{scope}-address", f"user:{user.pk}"))
                for field in fields:
                    value = fold(request.POST.get(field, ""))
                    if value:
                        waits.append(hit(request, f"{scope}-account", f"{field}:{value}"))
                wait = max((w for w in waits if w is not None), default=None)
                if wait is not None:
                    return too_many(request, wait=wait)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def LOCKED_OUT() -> str:  # noqa: N802 (a message, in the language of the request it is called in)
    return _("Too many failed log-ins for this account or from your address.")


def login_failed(sender, credentials=None, request=None, **kwargs) -> None:
    """Count a failed log-in of an account from anywhere, and from its address (Django's ``user_login_failed``)."""
    if request is None:
        return
    request.fabula_login_failed = True  # read by ``sprayed_answer``
    username = login_username(request, credentials)
    address = client_address(request) or "unknown"
    hit(request, "login-address", address)
    if username:
        hit(request, "login-account", username)
        hit(request, "login-address-account", f"{address} {username}")


def _usage(request, scope: str, value: str) -> dict | None:
    """The count of ``value`` in ``scope`` (not counting this look), or None if the cache cannot be reached."""
    try:
        return get_usage(
            request, group=f"accounts.{scope}", key=lambda _group, _request: value, rate=rate(scope), increment=False
        )
    except Exception:
        logger.warning("The rate store is unreachable: %s is not limited for now.", scope, exc_info=True)
        return None


def address_sprayed(request) -> int | None:
    """The seconds its window has left if the request's address has failed ``login-address`` log-ins, else None.

    Asked before the password is checked: the answer decides what a wrong one gets (``sprayed_answer``)."""
    usage = _usage(request, "login-address", client_address(request) or "unknown")
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return max(int(usage["time_left"]), 1)


def sprayed_account(request, username: str, sprayed: int | None) -> int | None:
    """At a sprayed address, the seconds to wait if this account has failed there ``login-address-account``
    times: refused without its password being checked. Else None."""
    if sprayed is None or not username:
        return None
    address = client_address(request) or "unknown"
    usage = _usage(request, "login-address-account", f"{address} {fold(username)[:255]}")
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return max(int(usage["time_left"]), sprayed)


def sprayed_answer(request, sprayed: int | None) -> int | None:
    """After the password was checked: at a sprayed address, the seconds a failed log-in is told to wait (it is
    answered as a lockout is); None for a right password, or at any other address."""
    if sprayed is None or not getattr(request, "fabula_login_failed", False):
        return None
    return sprayed


def account_guessed(request, username: str) -> int | None:
    """The seconds to wait if the account's failed log-ins from every address are past their rate, else None."""
    try:
        usage = get_usage(
            request,
            group="accounts.login-account",
            key=lambda _group, _request: fold(username)[:255],
            rate=rate("login-account"),
            increment=False,
        )
    except Exception:
        logger.warning("The rate store is unreachable: log-ins are not limited per account for now.", exc_info=True)
        return None
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return max(int(usage["time_left"]), 1)


def login_guarded(view):
    """The log-in view, answering 429 for an account guessed at from too many places (``login-account``), and
    at a sprayed address for a wrong password or an account guessed at there (``address_sprayed``)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        sprayed = address_sprayed(request)
        wait = (account_guessed(request, username) if username else None) or sprayed_account(request, username, sprayed)
        if wait is not None:
            return too_many(request, wait=wait, message=LOCKED_OUT())
        response = view(request, *args, **kwargs)
        wait = sprayed_answer(request, sprayed)
        if wait is not None:  # a wrong password at a sprayed address: answered as a lockout
            return too_many(request, wait=wait, message=LOCKED_OUT())
        return response

    return wrapper


def _wait_text(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext("Try again in %(count)d minute.", "Try again in %(count)d minutes.", minutes) % {"count": minutes}


def too_many(request, *, wait: int, message: str | None = None):
    """The 429 page: what happened and how long to wait, in the reader's language."""
    message = message or _("You have tried this too often for now.")
    response = render(request, "429.html", {"message": message, "wait": _wait_text(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


# --- django-axes' hooks (settings.AXES_*) -------------------------------------------------


def login_username(request, credentials) -> str | None:
    """The account a log-in tries, folded, so that "Anna", "ANNA" and "Ａｎｎａ" count as one."""
    username = (credentials or {}).get("username")
    if username is None and request is not None:
        username = request.POST.get("username")
    return fold(username)[:255] if username else None


def lockout_response(request, original_response=None, credentials=None):
    """What a locked-out log-in gets: the 429 page, or for the API its error format; never a 500."""
    from axes.helpers import get_cool_off  # axes reads its settings when first imported

    cool_off = get_cool_off(request)
    wait = int(cool_off.total_seconds()) if cool_off else 3600
    message = LOCKED_OUT()
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"error": {"code": "rate_limited", "message": f"{message} {_wait_text(wait)}"}}, status=429
        )
        response["Retry-After"] = str(wait)
        return response
    return too_many(request, wait=wait, message=message)
