import json

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from . import time as account_time
from .forms import AccountDeleteForm, ApiTokenForm, ProfileForm, SignUpForm, TimeForm
from .selectors import tokens_for_user
from .services import (
    TOKENS_MAX,
    TokenLimitReached,
    account_delete,
    account_export,
    profile_save,
    token_create,
    token_revoke,
)
from .throttle import throttled


def safe_next(request) -> str:
    """The page to go on to after signing up (``next``, posted or in the query), if it is on this
    site; otherwise "" (an address elsewhere is neither followed nor written back into the page)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return ""


@require_http_methods(["GET", "POST"])
@throttled("signup", fields=("username", "email"))
def signup(request):
    next_url = safe_next(request)
    if request.user.is_authenticated:  # signed up already: on to where the link was going
        return redirect(next_url or "games:mine")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Fabula, %(name)s!") % {"name": user.name})
        # From a game's "Play" button: straight on to that game (the new-game form, an invite); from anywhere else
        # to playing: the lobby, with its games waiting and "Play now with bots" (issue 39).
        return redirect(next_url or "games:lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        profile_save(form=form)
        messages.success(request, _("Your profile is saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form, "time_form": _time_form(request.user)})


def _time_form(user, data=None) -> TimeForm:
    now = timezone.now()
    until = user.away_until if user.away_until is not None and user.away_until > now else None
    initial = {
        "time_zone": user.time_zone,
        "quiet": user.quiet_hours_start is not None and user.quiet_hours_end is not None,
        "quiet_start": user.quiet_hours_start,
        "quiet_end": user.quiet_hours_end,
        "away_until": timezone.localtime(until) if until else None,
    }
    return TimeForm(data, initial=initial)


@login_required
@require_http_methods(["POST"])
def time_settings(request):
    """The profile page's "Your time": time zone, quiet hours, away (issue 38)."""
    time_form = _time_form(request.user, request.POST)
    if time_form.is_valid():
        data = time_form.cleaned_data
        quiet = (
            {"start": data["quiet_start"].strftime("%H:%M"), "end": data["quiet_end"].strftime("%H:%M")}
            if data["quiet"]
            else None
        )
        try:
            account_time.time_settings_save(
                user=request.user,
                time_zone=data["time_zone"],
                quiet_hours=quiet,
                away_until=data["away_until"],
                now=timezone.now(),
            )
        except account_time.TimeError as error:
            field = {"bad_time_zone": "time_zone", "bad_quiet_hours": "quiet_start"}.get(error.code, "away_until")
            time_form.add_error(field, str(error.message))
        else:
            messages.success(request, _("Your time is saved."))
            return redirect("accounts:profile")
    form = ProfileForm(instance=request.user)
    return render(request, "accounts/profile.html", {"form": form, "time_form": time_form}, status=400)


@never_cache  # a new token's secret is on the page: no cache may keep it
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """List, create and revoke API tokens; a new token's secret is shown in this one response only."""
    form = ApiTokenForm(request.POST or None)
    secret = None
    if request.method == "POST" and form.is_valid():
        try:
            _token, secret = token_create(user=request.user, name=form.cleaned_data["name"])
        except TokenLimitReached as refused:
            form.add_error(None, refused.message)
        else:
            form = ApiTokenForm()
    return render(
        request,
        "accounts/tokens.html",
        {"form": form, "tokens": tokens_for_user(user=request.user), "secret": secret, "tokens_max": TOKENS_MAX},
    )


@login_required
@require_http_methods(["POST"])
def token_delete(request, token_id: int):
    if token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token is revoked: programs using it can no longer sign in."))
    return redirect("accounts:tokens")


@never_cache
@login_required
@require_http_methods(["GET"])
def data_export(request):
    """Everything kept about the viewer, as a JSON file to download."""
    data = account_export(user=request.user)
    response = HttpResponse(
        json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="fabula-data.json"'
    return response


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
@throttled("password-check")
def delete(request):
    """Delete one's own account, after typing one's password."""
    form = AccountDeleteForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        account_delete(user=user)
        messages.success(request, _("Your account is deleted. Thank you for playing."))
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})
