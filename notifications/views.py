import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Game, Seat
from infrastructure.ids import id_from_query

from . import presence, push
from .emails import email_preferences, emails_unsubscribe, user_from_unsubscribe_token
from .forms import EmailPreferencesForm
from .models import Notification
from .quiet import email_language_remember
from .selectors import bell_groups
from .services import notification_open, notifications_read_all, unread_count


@login_required
@require_GET
def notification_list(request):
    """What still waits for the person, by game; the count it shows is the bell's, by construction."""
    groups = bell_groups(user=request.user)
    return render(
        request, "notifications/list.html", {"groups": groups, "unread": sum(len(notes) for _game, notes in groups)}
    )


@login_required
@require_POST
def read_all(request):
    notifications_read_all(user=request.user, now=timezone.now())
    return redirect("notifications:list")


@login_required
@require_GET
def notification_open_view(request, notification_id: int):
    try:
        notification = notification_open(user=request.user, notification_id=notification_id, now=timezone.now())
    except Notification.DoesNotExist:
        raise Http404 from None
    return redirect(notification.game)


@require_GET
def bell(request):
    """The bell's count; from a visible game page also "this person is looking at game X".

    Looking at a game reads its notifications: the page itself shows what they say.
    """
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    game_id = id_from_query(request.GET.get("game"))
    if game_id is not None and request.GET.get("visible") == "visible":
        now = timezone.now()
        presence.game_seen(user_id=request.user.pk, game_id=game_id, now=now)
        notifications_read_all(user=request.user, now=now, game_id=game_id)
    return render(request, "notifications/partials/bell_count.html", {"unread": unread_count(user=request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def email_settings(request):
    form = EmailPreferencesForm(request.POST or None, instance=email_preferences(user=request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        email_language_remember(user=request.user, language=getattr(request, "LANGUAGE_CODE", ""))
        messages.success(request, _("Your email settings are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {"form": form, "vapid_public_key": push.vapid_public_key()})


@csrf_exempt  # the signed token is the credential; mail programs post here (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """One click, no login: the link in every email and its List-Unsubscribe header.

    A GET only asks (mail scanners open links); the button, or the mail
    program's own unsubscribe, posts.
    """
    user = user_from_unsubscribe_token(token)
    if user is None:
        raise Http404
    if request.method == "POST":
        emails_unsubscribe(user=user)
        return render(request, "notifications/unsubscribed.html", {"person": user})
    return render(request, "notifications/unsubscribe.html", {"person": user, "token": token})


# Push subscriptions: posted by static/notifications/push.js, CSRF-checked like any form. Errors in
# the API's format, {"error": {"code", "message"}}: push_off 404, too_large 413, bad_request 400,
# bad_subscription and endpoint_refused 400, endpoint_taken 409.
PUSH_BODY_MAX_BYTES = 4096


def _push_error(status: int, code: str, message) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": str(message)}}, status=status)


def _push_json(request) -> tuple[dict | None, JsonResponse | None]:
    if not push.push_enabled():
        return None, _push_error(404, "push_off", _("Push notifications are not available on this site."))
    if len(request.body) > PUSH_BODY_MAX_BYTES:
        return None, _push_error(413, "too_large", _("The request is too large."))
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None, _push_error(400, "bad_request", _("The request is not JSON."))
    if not isinstance(data, dict):
        return None, _push_error(400, "bad_request", _("A push subscription is a JSON object."))
    return data, None


@login_required
@require_POST
def push_subscribe(request):
    data, refusal = _push_json(request)
    if refusal is not None or data is None:
        return refusal
    try:
        push.subscription_save(
            user=request.user,
            data=data,
            user_agent=request.headers.get("User-Agent", ""),
            language=getattr(request, "LANGUAGE_CODE", ""),
            now=timezone.now(),
        )
    except push.SubscriptionInvalid as error:
        return _push_error(error.status, error.code, error.message)
    return JsonResponse({"subscribed": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request):
    data, refusal = _push_json(request)
    if refusal is not None or data is None:
        return refusal
    removed = push.subscription_delete(user=request.user, endpoint=data.get("endpoint"))
    return JsonResponse({"subscribed": False, "removed": removed})


@login_required
@require_POST
def game_mute(request, game_id: int):
    """Mute or unmute one game for its player: no turn email, reminder or push for it."""
    game = get_object_or_404(Game, pk=game_id)
    if not Seat.objects.filter(game=game, user=request.user).exists():
        raise Http404
    value = request.POST.get("muted")
    if value not in ("0", "1"):
        return HttpResponse(_("Say whether to mute the game."), status=400, content_type="text/plain; charset=utf-8")
    muted = push.game_mute_set(user=request.user, game=game, muted=value == "1", now=timezone.now())
    if request.headers.get("HX-Request") == "true":
        return render(request, "notifications/partials/mute.html", {"game": game, "muted": muted})
    messages.success(request, _("This game is muted.") if muted else _("This game is no longer muted."))
    return redirect(game)


@require_GET
def service_worker(request):
    """The service worker, from the site's root so that its scope is the whole site."""
    response = render(request, "notifications/sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Browsers look for a new worker on their own; this makes sure no cache answers for the site.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    """The web app manifest: the site installs as an app that opens on the player's games."""
    data = {
        "id": "/",
        "name": _("Fabula: party games, one turn at a time"),
        "short_name": "Fabula",
        "description": _("Storytelling and word games with friends who are never online at the same time."),
        "lang": getattr(request, "LANGUAGE_CODE", ""),
        "start_url": reverse("games:mine"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {
                "src": static(f"notifications/icons/{name}"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    return response


# site.css: the header's background (the browser's bar matches it) and --bg.
# The icons as tools/make_icons.py draws them.
THEME_COLOUR = "#2b2238"
BACKGROUND_COLOUR = "#f7f3ec"
ICONS = [
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "maskable"),
]
