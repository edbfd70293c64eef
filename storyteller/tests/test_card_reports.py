"""Reports moderate; they do not censor (issue 37): a report of a site's card only reaches the admins; a player's
own card is hidden before an admin decides only on reports from established accounts; the owner is told and
may ask for a review; "Keep" gives the card back; and a hand never runs short."""

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import token_create
from bots.services import game_bot_add
from games.models import Game, Seat
from games.services.errors import GameError
from games.services.games import game_create, game_join
from games.tests.api.conftest import error_of
from games.tests.api.openapi import CheckedClient
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_step, view_for
from storyteller.decks.services.reports import card_report, card_review_request, cards_keep, reporter_is_trusted
from storyteller.engine import rules as engine
from storyteller.models import Card, CardReport
from storyteller.signals import cards_withdrawn

from .own_decks import established
from .test_card_withdrawal import own_game, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def dream(db):
    return deck_with_cards(84, slug="dream", name="Dreams")


def api(user):
    _token, secret = token_create(user=user, name="tests")
    return CheckedClient(secret, user=user)


def site_game(players=3, bots=2, creator=None):
    creator = creator or UserFactory()
    game = game_create(creator=creator, max_seats=players)
    for user in UserFactory.create_batch(players - 1 - bots):
        game_join(game_id=game.pk, user=user)
    for _ in range(bots):
        game_bot_add(game_id=game.pk, user=creator)
    game.refresh_from_db()
    return game


def on_the_table(game, users) -> int:
    """Play to the vote and answer a card every player has seen (the first on the table)."""
    rng = random.Random(1)
    while state_of(game).phase != engine.Phase.VOTE:
        play_step(game, users, rng)
    return state_of(game).table[0]


def short_hands() -> list[tuple[int, int, int]]:
    """(game, seat, cards) of every hand in a game in play holding fewer cards than its hand size."""
    short = []
    for game in Game.objects.filter(kind="storyteller", status=Game.Status.ACTIVE):
        state = engine.from_dict(game.state)
        for seat, hand in enumerate(state.hands):
            if seat not in state.resigned and len(hand) < engine.hand_size(state) - _in_play(state, seat):
                short.append((game.pk, seat, len(hand)))
    return short


def _in_play(state: engine.State, seat: int) -> int:
    """Cards of ``seat`` out of its hand this round (its clue card, what it handed in), back by the refill."""
    handed = len(state.submissions.get(seat, ()))
    return handed + (1 if state.storyteller == seat and state.storyteller_card is not None else 0)


class TestTheAttack:
    @pytest.mark.parametrize("accounts", ["fresh", "established"])
    def test_two_accounts_reporting_every_card_dealt_take_no_site_card_out_of_play(self, dream, accounts):
        """The finding of issue 37: two accounts each made 3-seat games with two bots and reported every card
        they were dealt, again and again. Now no card of the site's deck is hidden, every hand in play is
        whole, and a 6-seat game on the site's deck deals."""
        attackers = UserFactory.create_batch(2)
        if accounts == "established":
            established(*attackers)  # even accounts whose reports count hide no card of the site's
        bystanders = [site_game(players=4, bots=1) for _ in range(2)]  # games of others, in play meanwhile
        before = {game.pk: state_of(game).hands for game in bystanders}
        reported, made, refused = set(), 0, 0
        for _round in range(8):
            for attacker in attackers:
                game = site_game(creator=attacker)
                seat = Seat.objects.get(game=game, user=attacker).position
                for card in state_of(game).hands[seat]:
                    try:
                        _report, hidden = card_report(game_id=game.pk, card_id=card, user=attacker, reason="spam")
                    except GameError as error:
                        assert error.code in ("too_many_reports", "already_reported")
                        refused += 1
                    else:
                        assert hidden is False
                        reported.add(card)
                        made += 1
        assert len(reported) > 20 and refused  # they reported many cards, and the daily limit stopped them
        assert not Card.objects.filter(deck=dream, hidden_at__isnull=False).exists()
        assert Card.objects.in_play().filter(deck=dream).count() == 84
        assert CardReport.objects.filter(resolved_at__isnull=True).count() == made  # the admins' queue
        big = site_game(players=6, bots=5)
        state = state_of(big)
        assert big.status == Game.Status.ACTIVE and [len(hand) for hand in state.hands] == [6] * 6
        assert short_hands() == []
        assert {game.pk: state_of(game).hands for game in bystanders} == before  # nothing swapped out of them

    def test_reports_of_every_card_of_an_own_deck_leave_no_hand_short(
        self, dream, settings, django_capture_on_commit_callbacks
    ):
        """The same against a player's own deck by established accounts whose reports hide at once: the cards
        they were dealt are hidden, one after another, with no site card to replace them; no hand in play runs
        short, and the game goes on to its end."""
        settings.FABULA_CARD_REPORTS_TO_HIDE = 1
        game, users, deck = own_game(players=3, cards=30, own_cards_only=True)
        established(*users[1:])
        Card.objects.filter(deck=dream).update(is_retired=True)  # the worst case: nothing from the site's deck
        rng = random.Random(3)
        while True:
            for user in users[1:]:
                seat = Seat.objects.get(game=game, user=user).position
                for card in state_of(game).hands[seat]:
                    with django_capture_on_commit_callbacks(execute=True):
                        try:
                            card_report(game_id=game.pk, card_id=card, user=user)
                        except GameError as error:
                            assert error.code == "already_reported"
                assert short_hands() == []
            if not play_step(game, users, rng):
                break
        assert state_of(game).phase == engine.Phase.FINISHED
        assert Card.objects.filter(deck=deck, hidden_at__isnull=False).count() >= 14


class TestWhatCounts:
    def test_a_site_card_is_never_hidden_by_reports(self, dream, settings):
        settings.FABULA_CARD_REPORTS_TO_HIDE = 1
        game = site_game(players=3, bots=0)
        users = [seat.user for seat in game.seats.order_by("position")]
        established(*users)
        card = state_of(game).hands[0][0]
        _report, hidden = card_report(game_id=game.pk, card_id=card, user=users[0])
        assert hidden is False and Card.objects.get(pk=card).hidden_at is None
        assert card in state_of(game).hands[0]
        assert CardReport.objects.get(card_id=card).resolved_at is None  # in the admins' queue

    def test_fresh_accounts_reports_do_not_hide_an_own_card(self, dream):
        game, users, deck = own_game()
        card = on_the_table(game, users)
        for user in users:
            _report, hidden = card_report(game_id=game.pk, card_id=card, user=user)
            assert hidden is False
        assert Card.objects.get(pk=card).hidden_at is None
        assert CardReport.objects.filter(card_id=card, resolved_at__isnull=True).count() == 4  # for the admins

    def test_established_accounts_hide_an_own_card(self, dream, django_capture_on_commit_callbacks):
        game, users, deck = own_game()
        established(users[1], users[2])
        card = on_the_table(game, users)
        hand = state_of(game).hands[1]
        held = hand[0]
        _report, hidden = card_report(game_id=game.pk, card_id=card, user=users[1])
        assert hidden is False
        with django_capture_on_commit_callbacks(execute=True):
            _report, hidden = card_report(game_id=game.pk, card_id=card, user=users[2])
        assert hidden is True and Card.objects.get(pk=card).hidden_at is not None
        # A card held in a hand leaves it once hidden (replaced from the site's deck).
        Card.objects.filter(pk=held).update(hidden_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            cards_withdrawn.send(sender=Card, card_ids=[held])
        assert held not in state_of(game).hands[1] and len(state_of(game).hands[1]) == len(hand)

    @pytest.mark.parametrize(
        "why",
        ["too_new", "too_few_games", "games_with_bots", "resigned", "not_finished", "its_owner"],
    )
    def test_what_does_not_count(self, dream, why):
        user = UserFactory()
        days, games = (2, 3) if why == "too_new" else (30, 2 if why == "too_few_games" else 3)
        established(user, days=days, games=games)
        games_of = Game.objects.filter(seats__user=user)
        if why == "games_with_bots":
            from django.contrib.auth import get_user_model

            get_user_model().objects.filter(seats__game__in=games_of).exclude(pk=user.pk).update(is_bot=True)
        if why == "resigned":
            Seat.objects.filter(user=user).update(has_resigned=True)
        if why == "not_finished":
            games_of.update(status=Game.Status.ACTIVE)
        if why == "its_owner":
            assert reporter_is_trusted(user=user, now=timezone.now())
            game, users, deck = own_game(owner=user)
            established(users[1])
            card = on_the_table(game, users)
            card_report(game_id=game.pk, card_id=card, user=user)
            _report, hidden = card_report(game_id=game.pk, card_id=card, user=users[1])
            assert hidden is False  # one report that counts: the owner's own does not
            return
        assert not reporter_is_trusted(user=user, now=timezone.now())

    def test_at_most_so_many_reports_a_day(self, dream, settings):
        settings.FABULA_CARD_REPORTS_PER_DAY = 3
        game, users, deck = own_game(players=3)
        hand = state_of(game).hands[1]
        client = api(users[1])
        for card in hand[:3]:
            assert client.post(f"/games/{game.pk}/cards/{card}/report", {}).status_code == 201
        assert error_of(client.post(f"/games/{game.pk}/cards/{hand[3]}/report", {})) == (409, "too_many_reports")
        assert CardReport.objects.count() == 3
        CardReport.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
        assert client.post(f"/games/{game.pk}/cards/{hand[3]}/report", {}).status_code == 201


class TestTheOwner:
    def hidden_card(self, dream):
        game, users, deck = own_game()
        card = Card.objects.get(pk=on_the_table(game, users))
        established(users[1], users[2])
        for user in users[1:3]:
            card_report(game_id=game.pk, card_id=card.pk, user=user)
        card.refresh_from_db()
        assert card.hidden_at is not None
        return game, users, deck, card

    def test_the_deck_pages_tell_the_owner_and_offer_a_review_once(self, dream, client):
        game, users, deck, card = self.hidden_card(dream)
        client.force_login(users[0])
        listing = client.get(reverse("decks:list")).content.decode()
        assert "1 card hidden after reports" in listing
        page = client.get(reverse("decks:deck", args=[deck.pk])).content.decode()
        assert "Players reported a card of this deck" in page
        review = reverse("decks:card_review", args=[deck.pk, card.pk])
        assert f'action="{review}"' in page
        page = client.post(review, follow=True).content.decode()
        assert "An admin will look at this card first." in page and f'action="{review}"' not in page
        assert "You asked for a review" in page
        page = client.post(review, follow=True).content.decode()
        assert "already asked for a review" in page
        card.refresh_from_db()
        assert card.review_requested_at is not None
        client.force_login(users[1])  # a player of the game, not its owner: no such card of theirs
        assert client.post(review).status_code == 404

    def test_the_api_asks_for_a_review(self, dream):
        game, users, deck, card = self.hidden_card(dream)
        client = api(users[0])
        cards = client.get(f"/decks/{deck.pk}").json()["cards"]
        assert next(c for c in cards if c["id"] == card.pk) | {"image": ""} == {
            "id": card.pk,
            "image": "",
            "alt": card.alt_text,
            "alt_lang": "en",
            "waiting": False,
            "hidden": True,
            "review_requested": False,
        }
        answer = client.post(f"/decks/{deck.pk}/cards/{card.pk}/review", {})
        assert answer.status_code == 200 and answer.json()["review_requested"] is True
        assert error_of(client.post(f"/decks/{deck.pk}/cards/{card.pk}/review", {})) == (409, "review_requested")
        shown = deck.cards.exclude(pk=card.pk).first()
        assert error_of(client.post(f"/decks/{deck.pk}/cards/{shown.pk}/review", {})) == (409, "not_hidden")
        assert error_of(api(users[1]).post(f"/decks/{deck.pk}/cards/{card.pk}/review", {}))[0] == 404

    def test_a_review_puts_the_card_first_in_the_admins_queue(self, dream, client):
        game, users, deck, card = self.hidden_card(dream)
        other = state_of(game).table[1]
        card_report(game_id=game.pk, card_id=other, user=users[2])  # reported later: first by date
        card_review_request(user=users[0], deck_id=deck.pk, card_id=card.pk)
        client.force_login(UserFactory(is_staff=True, is_superuser=True))
        html = client.get(reverse("admin:storyteller_cardreport_changelist")).content.decode()
        assert "its owner asks for a review" in html
        assert html.index(f"#{card.pk} ·") < html.index(f"#{other} ·")

    def test_keep_restores_the_card_fully(self, dream, client, django_capture_on_commit_callbacks):
        game, users, deck, card = self.hidden_card(dream)
        card_review_request(user=users[0], deck_id=deck.pk, card_id=card.pk)
        with django_capture_on_commit_callbacks(execute=True):
            assert cards_keep(cards=[card]) == 1
        card.refresh_from_db()
        assert card.hidden_at is None and card.review_requested_at is None
        assert not card.reports.filter(resolved_at__isnull=True).exists()
        assert Card.objects.in_play().filter(pk=card.pk).exists()  # back in the deck for future deals
        client.force_login(users[0])
        assert "hidden after reports" not in client.get(reverse("decks:list")).content.decode()
        again = game_create(creator=users[0], max_seats=3, options={"deck": deck.pk, "own_cards_only": True})
        for user in users[1:3]:
            game_join(game_id=again.pk, user=user)
        state = state_of(again)
        assert card.pk in {c for hand in state.hands for c in hand} | set(state.draw_pile)  # dealt again


class TestHandsNeverShort:
    def test_a_withdrawn_card_is_replaced_from_the_pile_when_the_site_deck_has_none(self, dream):
        game, users, deck = own_game(own_cards_only=True)
        Card.objects.filter(deck=dream).update(is_retired=True)
        before = state_of(game)
        card = before.hands[1][0]
        cards_withdrawn.send(sender=Card, card_ids=[card])
        after = state_of(game)
        assert after.hands[1][0] == before.draw_pile[0] and after.draw_pile == before.draw_pile[1:]

    def test_with_nothing_left_the_hand_keeps_the_card_as_a_placeholder_it_may_play(self, dream, client):
        game, users, deck = own_game(own_cards_only=True)
        Card.objects.filter(deck=dream).update(is_retired=True)
        before = state_of(game)
        pile = list(before.draw_pile)
        withdrawn = [*pile, *before.hands[1]]
        Card.objects.filter(pk__in=withdrawn).update(removed_at=timezone.now(), image="")
        cards_withdrawn.send(sender=Card, card_ids=withdrawn)
        after = state_of(game)
        assert after.draw_pile == () and after.hands[1] == before.hands[1]  # kept: nothing to replace them
        assert short_hands() == []
        hand = view_for(game, users[1])["hand"]
        assert [card["removed"] for card in hand] == [True] * 6
        # It may still play them: the clue, a submission.
        client.force_login(users[1])
        html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert 'aria-label="Card removed"' in html

    @pytest.mark.parametrize("sizes", [(1, 0), (0, 0), (1, 1)])
    def test_the_deadline_and_the_bots_cope_with_short_hands_in_a_stored_game(self, dream, caplog, sizes):
        """Hands left short by an older release: the bots act or leave it to the deadline, and the deadline
        task hands in what is held (it raised "Sample larger than population"), all without an error."""
        import logging
        from dataclasses import replace

        from bots.services import bot_turn_play, phase_key_json
        from games.services.games import game_act
        from games.tasks import games_expire_due

        game = site_game(players=3, bots=2)
        creator = game.creator
        state = state_of(game)
        game_act(game_id=game.pk, user=creator, action={"type": "clue", "card": state.hands[0][0], "text": "moon"})
        state = state_of(game)
        hands = (state.hands[0], state.hands[1][: sizes[0]], state.hands[2][: sizes[1]])
        Game.objects.filter(pk=game.pk).update(state=engine.to_dict(replace(state, hands=hands)))
        game.refresh_from_db()
        kind = game.game_kind
        with caplog.at_level(logging.WARNING):
            for seat in game.seats.filter(user__is_bot=True):
                bot_turn_play(
                    game_id=game.pk, user_id=seat.user_id, phase_key=phase_key_json(kind.phase_key(state_of(game)))
                )
            if state_of(game).phase == engine.Phase.SUBMIT:
                games_expire_due(now=timezone.now() + timedelta(days=30))
        assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []
        after = state_of(game)
        assert after.phase == engine.Phase.VOTE and len(after.table) == 1 + sum(sizes)


@pytest.mark.django_db(transaction=True)
def test_the_migration_shows_again_the_site_cards_that_reports_hid():
    from .test_rows_migration import latest, migrate

    old = migrate([("storyteller", "0008_player_decks")])
    OldDeck, OldCard = old.get_model("storyteller", "Deck"), old.get_model("storyteller", "Card")
    owner = UserFactory()
    site = OldDeck.objects.create(slug="site", name="Site")
    own = OldDeck.objects.create(slug="own", name="Own", owner_id=owner.pk)
    hidden_at = timezone.now()
    site_card = OldCard.objects.create(deck=site, image="cards/a.webp", alt_text="a", hidden_at=hidden_at)
    own_card = OldCard.objects.create(deck=own, image="cards/own/b.webp", alt_text="b", hidden_at=hidden_at)
    migrate(latest())
    assert Card.objects.get(pk=site_card.pk).hidden_at is None
    assert Card.objects.get(pk=own_card.pk).hidden_at is not None


class TestTheReportFormOnTheBoard:
    """The form is drawn once for a hand and the last round's cards in a language, and reused while the others play:
    always the cards the viewer holds now, in the viewer's language, with the viewer's browser's CSRF token."""

    @staticmethod
    def _form(client, game) -> tuple[list[int], str, str]:
        html = client.get(reverse("games:board", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
        form = html.split('id="card-report"', 1)[1].split("</details>", 1)[0]
        token = form.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        return [int(card) for card in re.findall(r'name="card" value="(\d+)"', form)], form, token

    def test_it_follows_the_hand_and_the_language(self, dream, client):
        game, users = started_game(3, deck=dream)
        viewer = users[0]
        client.force_login(viewer)
        rng = random.Random(3)
        seen = set()
        for _ in range(14):  # two rounds: the viewer's hand changes with their own play and with each round
            cards, form, token = self._form(client, game)
            state = state_of(game)
            revealed = view_for(game, viewer)["last_round"]
            assert cards == [
                *state.hands[game.seats.get(user=viewer).position],
                *(card["id"] for card in (revealed["table"] if revealed else []) if card["id"]),
            ]
            assert re.fullmatch(r"[A-Za-z0-9]{64}", token)  # the browser's own token (masked), not the placeholder
            assert "fabula-csrf-" not in form and "Report the card" in form
            seen.add(tuple(cards))
            play_step(game, users, rng)
        assert len(seen) > 2
        client.cookies["django_language"] = "fr"
        _cards, form, _token = self._form(client, game)
        assert "Report the card" not in form
