from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import views
from .throttle import throttled

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/time/", views.time_settings, name="time"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<id:token_id>/revoke/", views.token_delete, name="token_revoke"),
    path("data/", views.data_export, name="data_export"),
    path("delete/", views.delete, name="delete"),
    path(
        "password/reset/",
        # Limited per address and per email asked for: every reset sends an email.
        throttled("password-reset", fields=("email",))(
            auth_views.PasswordResetView.as_view(
                success_url=reverse_lazy("accounts:password_reset_done"),
                email_template_name="registration/password_reset_email.txt",
            )
        ),
        name="password_reset",
    ),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(success_url=reverse_lazy("accounts:password_reset_complete")),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path(
        "password/change/",
        throttled("password-check")(
            auth_views.PasswordChangeView.as_view(success_url=reverse_lazy("accounts:profile"))
        ),
        name="password_change",
    ),
]
