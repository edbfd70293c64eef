from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<id:game_id>/chat/", views.say, name="say"),
    path("games/<id:game_id>/chat/panel/", views.panel, name="panel"),
    path("games/<id:game_id>/chat/mutes/", views.mute, name="mute"),
    path("games/<id:game_id>/chat/<id:message_id>/report/", views.report, name="report"),
]
