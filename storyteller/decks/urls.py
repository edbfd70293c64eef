"""A player's own decks on the pages (mounted at ``decks/``)."""

from django.urls import path

from . import views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("<id:deck_id>/", views.deck_page, name="deck"),
    path("<id:deck_id>/rename/", views.deck_rename, name="rename"),
    path("<id:deck_id>/delete/", views.deck_delete, name="delete"),
    path("<id:deck_id>/public/", views.deck_public, name="public"),
    path("<id:deck_id>/share/", views.deck_share, name="share"),
    path("<id:deck_id>/unshare/", views.deck_unshare, name="unshare"),
    path("<id:deck_id>/cards/", views.card_upload, name="card_upload"),
    path("<id:deck_id>/cards/<id:card_id>/alt/", views.card_alt, name="card_alt"),
    path("<id:deck_id>/cards/<id:card_id>/move/", views.card_move, name="card_move"),
    path("<id:deck_id>/cards/<id:card_id>/delete/", views.card_delete, name="card_delete"),
    path("<id:deck_id>/cards/<id:card_id>/review/", views.card_review, name="card_review"),
]
