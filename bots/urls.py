from django.urls import path

from . import views

app_name = "bots"

urlpatterns = [
    path("<id:game_id>/bots/", views.bot_add, name="add"),
    path("play-now/", views.play_now, name="play_now"),
]
