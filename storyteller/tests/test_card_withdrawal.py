"""Cards that can no longer be shown (issue 33): removed or hidden cards leave the games in progress, show as
grey placeholders in views, pages and replays, and players report cards until enough reports hide one."""

import random

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import token_create
from games.services.games import game_create, game_join
from games.tests.api.conftest import error_of
from games.tests.api.openapi import CheckedClient
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.play import play_step, view_for
from storyteller.decks.selectors import card_picture_url
from storyteller.decks.services.reports import card_remove, card_report
from storyteller.engine import rules as engine
from storyteller.models import Card, CardDeal, CardReport
from storyteller.signals import cards_withdrawn

from .own_decks import established, own_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def dream(db):
    return deck_with_cards(84, slug="dream", name="Dreams")


def own_game(players=4, cards=30, own_cards_only=True, *, owner=None, **options):
    users = [owner or UserFactory(), *UserFactory.create_batch(players - 1)]
    deck = own_deck(users[0], cards)
    options = {"deck": deck.pk, "own_cards_only": own_cards_only, **options}
    game = game_create(creator=users[0], max_seats=players, options=options)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, users, deck


def state_of(game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def into_the_vote(game, users):
    """Play until the vote phase (clue, then every submission)."""
    rng = random.Random(1)
    while state_of(game).phase != engine.Phase.VOTE:
        play_step(game, users, rng)


class TestWithdrawn:
    def test_withdrawn_cards_leave_hands_and_pile_for_the_site_deck(self, dream):
        game, users, deck = own_game(own_cards_only=True)
        before = state_of(game)
        in_hand = before.hands[1][0]
        in_pile = before.draw_pile[0]
        version = game.version
        cards_withdrawn.send(sender=Card, card_ids=[in_hand, in_pile])
        after = state_of(game)
        assert game.version == version + 1
        assert in_hand not in after.hands[1] and len(after.hands[1]) == len(before.hands[1])
        assert in_pile not in after.draw_pile and len(after.draw_pile) == len(before.draw_pile)
        new_hand_card = (set(after.hands[1]) - set(before.hands[1])).pop()
        assert Card.objects.get(pk=new_hand_card).deck_id == dream.pk
        assert after.hands[1].index(new_hand_card) == 0  # in the withdrawn card's place
        assert CardDeal.objects.filter(game=game, card_id=new_hand_card).exists()  # dealt, as the stats count
        # The rest of the game is as it was.
        assert after.hands[0] == before.hands[0] and after.draw_pile[1:] == before.draw_pile[1:]

    def test_a_card_already_handed_in_stays_as_a_placeholder_until_the_reveal(self, dream):
        game, users, deck = own_game()
        into_the_vote(game, users)
        table = state_of(game).table
        Card.objects.filter(pk=table[0]).update(removed_at=timezone.now(), image="")
        cards_withdrawn.send(sender=Card, card_ids=[table[0]])
        assert state_of(game).table == table
        face = next(card for card in view_for(game, users[0])["table"] if card["position"] == 1)
        assert face == {
            "image": "",
            "alt": "Card removed",
            "alt_lang": "",
            "removed": True,
            "position": 1,
            "mine": face["mine"],
        }

    def test_finished_games_are_never_changed(self, dream):
        game, users, deck = own_game(players=3, own_cards_only=True)
        rng = random.Random(2)
        while play_step(game, users, rng):
            pass
        game.refresh_from_db()
        state, version = game.state, game.version
        dealt = list(deck.cards.values_list("pk", flat=True))
        cards_withdrawn.send(sender=Card, card_ids=dealt)
        game.refresh_from_db()
        assert (game.state, game.version) == (state, version)

    def test_other_games_are_left_alone(self, dream):
        game, users, deck = own_game()
        other, _users = own_game()[:2]
        version = other.version
        cards_withdrawn.send(sender=Card, card_ids=list(deck.cards.values_list("pk", flat=True)))
        other.refresh_from_db()
        assert other.version == version


class TestPlaceholders:
    def test_a_removed_card_shows_a_placeholder_at_once_in_views_and_pages(self, dream, client):
        game, users, deck = own_game()
        card_id = state_of(game).hands[0][0]
        assert view_for(game, users[0])["hand"][0]["image"]  # its face is cached now
        card_remove(cards=[Card.objects.get(pk=card_id)])
        card = Card.objects.get(pk=card_id)  # it was dealt: its row stays, removed
        assert card.removed_at is not None and not card.image and card.alt_text == ""
        assert card_id not in state_of(game).hands[0]  # and it left the hand
        game, users, deck = own_game()
        played = state_of(game).hands[0][0]
        Card.objects.filter(pk=played).update(hidden_at=timezone.now())
        from storyteller.decks.services.withdraw import cards_faces_changed

        cards_faces_changed()
        assert next(c for c in view_for(game, users[0])["hand"] if c["id"] == played) == {
            "id": played,
            "image": "",
            "alt": "Card hidden after reports",
            "alt_lang": "",
            "hidden": True,
        }
        client.force_login(users[0])
        html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert 'class="card-placeholder" role="img" aria-label="Card hidden after reports"' in html

    def test_a_replay_shows_placeholders_for_removed_and_hidden_cards(self, dream, client):
        game, users, deck = own_game(players=3, own_cards_only=True)
        rng = random.Random(2)
        while play_step(game, users, rng):
            pass
        round_table = state_of(game).history[0].table
        card_remove(cards=Card.objects.filter(pk=round_table[0]))
        Card.objects.filter(pk=round_table[1]).update(hidden_at=timezone.now())
        client.force_login(users[1])
        html = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        assert 'aria-label="Card removed"' in html and 'aria-label="Card hidden after reports"' in html

    def test_a_hidden_cards_picture_is_for_staff_and_its_owner_only(self, dream, client):
        game, users, deck = own_game()
        card = Card.objects.get(pk=state_of(game).hands[0][0])
        url = card_picture_url(card)
        client.force_login(users[1])  # a player of the game, not the deck's owner
        assert client.get(url).status_code == 200
        Card.objects.filter(pk=card.pk).update(hidden_at=timezone.now())
        assert client.get(url).status_code == 404
        client.force_login(users[0])  # its owner still sees it (their deck page marks it hidden)
        assert client.get(url).status_code == 200
        client.force_login(UserFactory(is_staff=True))  # staff without the right to look at cards
        assert client.get(url).status_code == 404
        client.force_login(UserFactory(is_staff=True, is_superuser=True))
        assert client.get(url).status_code == 200


class TestRemoveRule:
    def test_a_card_never_dealt_is_deleted_with_its_picture(self, dream, django_capture_on_commit_callbacks):
        deck = own_deck(UserFactory(), 2)
        card = deck.cards.first()
        storage, name = card.image.storage, card.image.name
        assert storage.exists(name)
        with django_capture_on_commit_callbacks(execute=True):
            assert card_remove(cards=[card]) == (1, 0)
        assert not Card.objects.filter(pk=card.pk).exists() and not storage.exists(name)


class TestReports:
    def api(self, user):
        _token, secret = token_create(user=user, name="tests")
        return CheckedClient(secret, user=user)

    def test_two_players_reports_hide_a_card_at_once(self, dream):
        game, users, deck = own_game()
        established(*users[1:3])  # fresh accounts' reports never hide a card: test_card_reports.py
        into_the_vote(game, users)
        card = state_of(game).table[0]
        first = self.api(users[1]).post(f"/games/{game.pk}/cards/{card}/report", {"reason": "Not nice"})
        assert first.status_code == 201 and first.json() == {"card": str(card), "hidden": False}
        assert error_of(self.api(users[1]).post(f"/games/{game.pk}/cards/{card}/report", {})) == (
            409,
            "already_reported",
        )
        second = self.api(users[2]).post(f"/games/{game.pk}/cards/{card}/report", {})
        assert second.status_code == 201 and second.json()["hidden"] is True
        assert Card.objects.get(pk=card).hidden_at is not None
        # The vote's table shows it as a placeholder, by the API's documented keys (the client checks them).
        table = self.api(users[0]).get(f"/games/{game.pk}").json()["table"]
        assert table[0] | {"mine": False} == {
            "image": "",
            "alt": "Card hidden after reports",
            "alt_lang": "",
            "hidden": True,
            "position": 1,
            "mine": False,
        }
        assert list(CardReport.objects.filter(card_id=card).values_list("reason", flat=True)) == ["", "Not nice"]

    def test_only_a_card_the_player_has_seen_there(self, dream):
        game, users, deck = own_game()
        state = state_of(game)
        others_card = state.hands[2][0]
        client = self.api(users[1])
        assert error_of(client.post(f"/games/{game.pk}/cards/{others_card}/report", {})) == (404, "not_found")
        assert error_of(client.post(f"/games/{game.pk}/cards/999999/report", {})) == (404, "not_found")
        outsider = self.api(UserFactory())
        own = state.hands[1][0]
        assert error_of(outsider.post(f"/games/{game.pk}/cards/{own}/report", {})) == (403, "not_a_player")
        assert error_of(client.post(f"/games/{game.pk}/cards/{own}/report", {"reason": "x" * 301}))[0] == 400
        assert not CardReport.objects.exists()
        assert client.post(f"/games/{game.pk}/cards/{own}/report", {}).status_code == 201

    def test_a_hidden_card_leaves_the_hands(self, dream, settings, django_capture_on_commit_callbacks):
        settings.FABULA_CARD_REPORTS_TO_HIDE = 1
        game, users, deck = own_game()
        established(users[1])
        card = state_of(game).hands[1][0]
        with django_capture_on_commit_callbacks(execute=True):
            _report, hidden = card_report(game_id=game.pk, card_id=card, user=users[1], reason="")
        assert hidden and card not in state_of(game).hands[1]

    def test_the_site_decks_cards_may_be_reported_too(self, dream):
        users = UserFactory.create_batch(3)
        game = game_create(creator=users[0], max_seats=3)
        for user in users[1:]:
            game_join(game_id=game.pk, user=user)
        card = state_of(game).hands[0][0]
        card_report(game_id=game.pk, card_id=card, user=users[0])
        assert CardReport.objects.get().card.deck_id == dream.pk

    def test_the_game_page_reports_a_card(self, dream, client):
        game, users, deck = own_game()
        card = state_of(game).hands[0][0]
        client.force_login(users[0])
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        url = reverse("storyteller:card_report", args=[game.pk])
        assert f'action="{url}"' in page and f'name="card" value="{card}"' in page
        response = client.post(url, {"card": card, "reason": "A face I know"}, follow=True)
        assert "the card is reported" in response.content.decode()
        assert CardReport.objects.get().reason == "A face I know"
        response = client.post(url, {"card": card}, follow=True)
        assert "already reported this card" in response.content.decode()
        response = client.post(url, {"card": "x"}, follow=True)
        assert "You have seen no such card in this game." in response.content.decode()


class TestAdmin:
    def staff(self, client):
        client.force_login(UserFactory(is_staff=True, is_superuser=True))

    def reported(self, dream):
        game, users, deck = own_game()
        established(*users[1:3])
        into_the_vote(game, users)
        card = state_of(game).table[0]
        for user in users[1:3]:
            card_report(game_id=game.pk, card_id=card, user=user, reason=f"by {user.username}")
        return game, users, Card.objects.get(pk=card)

    def test_the_reports_list_shows_the_picture_and_the_reasons(self, dream, client):
        game, users, card = self.reported(dream)
        self.staff(client)
        html = client.get(reverse("admin:storyteller_cardreport_changelist")).content.decode()
        assert card.image.url in html and f"by {users[1].username}" in html
        assert client.get(card.image.url).status_code == 200  # staff see a hidden card's picture

    def test_keep_shows_it_again_and_decides_the_reports(self, dream, client):
        game, users, card = self.reported(dream)
        self.staff(client)
        response = client.post(
            reverse("admin:storyteller_cardreport_changelist"),
            {"action": "keep_cards", "_selected_action": list(card.reports.values_list("pk", flat=True))},
            follow=True,
        )
        assert response.status_code == 200
        card.refresh_from_db()
        assert card.hidden_at is None and not card.reports.filter(resolved_at__isnull=True).exists()
        assert view_for(game, users[0])["table"][0].get("hidden") is None

    def test_remove_follows_the_removal_rule(self, dream, client, django_capture_on_commit_callbacks):
        game, users, card = self.reported(dream)
        self.staff(client)
        name = card.image.name
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("admin:storyteller_cardreport_changelist"),
                {"action": "remove_cards", "_selected_action": [card.reports.first().pk]},
                follow=True,
            )
        card.refresh_from_db()
        assert card.removed_at is not None and card.image == "" and card.alt_text == ""
        assert not card.image.storage.exists(name)
        assert not card.reports.filter(resolved_at__isnull=True).exists()
