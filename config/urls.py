from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.throttle import login_guarded
from games import kinds
from games import views as game_views

urlpatterns = [
    # The API first: a bot's every request is resolved here, and no other pattern takes a path under it.
    path("api/v1/", include("games.api.urls")),
    path("", game_views.home, name="home"),
    path("healthz", game_views.healthz, name="healthz"),
    path(
        "accounts/login/",
        login_guarded(auth_views.LoginView.as_view(redirect_authenticated_user=True)),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("accounts.urls")),
    path("privacy/", TemplateView.as_view(template_name="privacy.html"), name="privacy"),
    path("games/", include("games.urls")),
    path("", include("chat.urls")),  # games/<id>/chat/...: the game page's chat panel
    path("games/", include("bots.urls")),  # games/<id>/bots/
    path("", include(kinds.url_patterns())),  # each kind's own pages (GameKind.url_patterns): this file names none
    path("notifications/", include("notifications.urls")),
    path("", include("notifications.root_urls")),  # sw.js, manifest.webmanifest
    path("", include("stats.urls")),  # leaderboards/, players/<name>/, games/<id>/replay/
    path("i18n/", include("django.conf.urls.i18n")),
    path(settings.FABULA_ADMIN_PATH, admin.site.urls),
]

# A database with no connection to give answers 503 with Retry-After, not 500.
handler500 = "games.busy.server_error"
