"""Accounts and tokens: how a program gets in."""

from django.contrib.auth import authenticate
from django.http import HttpResponse
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import Throttled

from accounts.forms import SignUpForm
from accounts.services import TokenLimitReached, token_create
from accounts.throttle import account_guessed, address_sprayed, fold, sprayed_account, sprayed_answer

from .errors import ApiError, errors
from .limits import client_address, rate_hit_key
from .schemas import AccountIn, AccountOut, TokenIn, TokenOut

router = Router(tags=["accounts"])

# The sign-up form asks for the password twice; the API takes it once.
FORM_FIELDS = {"password1": "password", "password2": "password"}


@router.post("/accounts", auth=None, summary="Sign up", response={201: AccountOut, **errors(400, 409, 429)})
def accounts_create(request, payload: AccountIn):
    """Sign up: the same checks as the sign-up page (a free username, a real email, a strong password)."""
    rate_hit_key("accounts", client_address(request))
    form = SignUpForm(
        data={
            "username": payload.username,
            "email": payload.email,
            "password1": payload.password,
            "password2": payload.password,
        }
    )
    if not form.is_valid():
        fields: dict[str, list[str]] = {}
        for name, problems in form.errors.as_data().items():
            messages = fields.setdefault(FORM_FIELDS.get(name, name), [])
            messages.extend(str(message) for problem in problems for message in problem.messages)
        taken = any(problem.code == "unique" for problem in form.errors.as_data().get("username", []))
        first = next(iter(fields.values()))[0]
        if taken:
            raise ApiError(409, "username_taken", first, fields=fields)
        raise ApiError(400, "bad_account", first, fields=fields)
    user = form.save()
    return Status(201, {"username": user.username})


@router.post("/tokens", auth=None, summary="Get a token", response={201: TokenOut, **errors(400, 401, 409, 429)})
def tokens_create(request, response: HttpResponse, payload: TokenIn):
    """Get a token with your username and password. Rate-limited. An account holds at most 10 tokens: past
    them, 409 `token_limit` (revoke one on your account's *API tokens* page first). Every token of an account
    shares its rates: more tokens are not more requests."""
    response["Cache-Control"] = "no-store"  # the secret is in the body: no cache may keep it
    rate_hit_key("tokens", client_address(request))
    rate_hit_key("tokens-user", fold(payload.username))
    sprayed = address_sprayed(request)  # this address's failed log-ins, every account together
    # The account's failed log-ins from every address; at a sprayed address, from this one.
    wait = account_guessed(request, payload.username) or sprayed_account(request, payload.username, sprayed)
    if wait is not None:
        raise Throttled(wait=wait)
    user = authenticate(request, username=payload.username, password=payload.password)
    wait = sprayed_answer(request, sprayed)
    if wait is not None:  # a wrong password at a sprayed address: answered as a lockout
        raise Throttled(wait=wait)
    if user is None:
        raise ApiError(401, "bad_credentials", _("That username and password do not match an account."))
    try:
        _token, secret = token_create(user=user, name=payload.name or _("API"))
    except TokenLimitReached as refused:
        raise ApiError(409, "token_limit", refused.message) from None
    return Status(201, {"token": secret})
