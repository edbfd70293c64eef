from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/fragment/", views.lobby_fragment, name="lobby_fragment"),
    path("mine/", views.mine, name="mine"),
    path("mine/fragment/", views.mine_fragment, name="mine_fragment"),
    path("new/", views.create, name="create"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<str:kind>/", views.rules, name="rules"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("<id:game_id>/", views.detail, name="detail"),
    path("<id:game_id>/board/", views.board_fragment, name="board"),
    path("<id:game_id>/join/", views.join, name="join"),
    path("<id:game_id>/leave/", views.leave, name="leave"),
    path("<id:game_id>/start/", views.start, name="start"),
    path("<id:game_id>/act/", views.act, name="act"),
    path("<id:game_id>/nudge/", views.nudge, name="nudge"),
    path("<id:game_id>/rematch/", views.rematch, name="rematch"),
    path("<id:game_id>/decline/", views.decline, name="decline"),
    path("<id:game_id>/open-seats/", views.open_seats, name="open_seats"),
]
