from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<int:game_id>/chat/", views.say, name="say"),
    path("games/<int:game_id>/chat/panel/", views.panel, name="panel"),
    path("games/<int:game_id>/chat/mutes/", views.mute, name="mute"),
    path("games/<int:game_id>/chat/<int:message_id>/report/", views.report, name="report"),
]
