from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:kind>/<slug:board>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
    path("games/<id:game_id>/replay/", views.replay, name="replay"),
]
