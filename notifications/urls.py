from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.read_all, name="read_all"),
    path("bell/", views.bell, name="bell"),
    path("<id:notification_id>/", views.notification_open_view, name="open"),
    path("emails/", views.email_settings, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("games/<id:game_id>/mute/", views.game_mute, name="game_mute"),
]
