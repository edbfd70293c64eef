"""Storyteller's own pages beside the games' (mounted under ``games/``): drawn and sung clues."""

from django.urls import path

from . import views

app_name = "storyteller"

urlpatterns = [
    path("<id:game_id>/clue-media/", views.clue_media_create_page, name="clue_media_create"),
    path("<id:game_id>/clue-media/<id:media_id>/", views.clue_media_file, name="clue_media_file"),
    path("<id:game_id>/cards/report/", views.card_report_page, name="card_report"),
]
