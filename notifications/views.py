from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import presence
from .emails import email_preferences, emails_unsubscribe, user_from_unsubscribe_token
from .forms import EmailPreferencesForm
from .models import Notification
from .services import notification_open, notifications_read_all, unread_count

LIST_LENGTH = 100


@login_required
@require_GET
def notification_list(request):
    notifications = Notification.objects.filter(user=request.user).select_related("game", "actor")[:LIST_LENGTH]
    return render(
        request,
        "notifications/list.html",
        {"notifications": notifications, "unread": unread_count(user=request.user)},
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
    game_id = request.GET.get("game", "")
    if game_id.isdigit() and request.GET.get("visible") == "visible":
        now = timezone.now()
        presence.game_seen(user_id=request.user.pk, game_id=int(game_id), now=now)
        notifications_read_all(user=request.user, now=now, game_id=int(game_id))
    return render(request, "notifications/partials/bell_count.html", {"unread": unread_count(user=request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def email_settings(request):
    form = EmailPreferencesForm(request.POST or None, instance=email_preferences(user=request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your email settings are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {"form": form})


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
