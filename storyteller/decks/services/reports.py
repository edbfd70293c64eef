"""Players report cards; an admin keeps or removes them; reports moderate, they do not censor (issues 33, 37).

Every report goes to the admins' queue ("Card reports"). A card of the site's decks is never taken out of play
by reports: only an admin's "Remove" does that. A card of a player's own deck is hidden at once
(``Card.hidden_at``) only when ``FABULA_CARD_REPORTS_TO_HIDE`` reports that cost something to fake are open on
it: each from an account at least ``FABULA_CARD_REPORT_TRUST_DAYS`` days old that has finished
``FABULA_CARD_REPORT_TRUST_GAMES`` games with at least two other people (no bots) at the table and did not
resign them, not the deck's owner. An account makes at most ``FABULA_CARD_REPORTS_PER_DAY`` reports in 24
hours. The design and its reasons: docs/playing/decks.md, "Card reports".

A hidden card shows as a grey placeholder; it leaves the hands and draw piles of the games in progress as a
removed card does (``withdraw``). Its owner sees it marked on their deck page and may ask once for a review
(``card_review_request``), which puts it first in the admins' queue. Hiding is reversible ("Keep": shown
again, dealt again in new games, its reports decided); removing is not ("Remove": ``card_remove``).
"""

from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.services.errors import GameError
from games.services.locking import game_lock
from storyteller.engine import rules as engine
from storyteller.models import Card, CardReport
from storyteller.models.cards import REPORT_REASON_MAX_LENGTH

from .own_decks import cards_remove
from .withdraw import cards_faces_changed, cards_swap_out

REASON_MAX_LENGTH = REPORT_REASON_MAX_LENGTH
NO_SUCH_CARD = _("You have seen no such card in this game.")


def cards_seen(state: engine.State, seat: int) -> set[int]:
    """The cards a seat has seen in a game: its hand and what it handed in, its card as storyteller, the table
    of the vote, every revealed round's table."""
    seen = set(state.hands[seat]) if seat < len(state.hands) else set()
    seen.update(state.submissions.get(seat, ()))
    if state.storyteller == seat and state.storyteller_card is not None:
        seen.add(state.storyteller_card)
    if state.phase == engine.Phase.VOTE:
        seen.update(state.table)
    for result in state.history:
        seen.update(result.table)
    return seen


def _reason_clean(reason) -> str:
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise GameError("bad_reason", _("A reason is a few words of text."), "invalid")
    text = "".join(char for char in " ".join(reason.split()) if char.isprintable())
    if len(text) > REASON_MAX_LENGTH:
        raise GameError(
            "bad_reason", _("A reason is at most %(max)d characters.") % {"max": REASON_MAX_LENGTH}, "invalid"
        )
    return text


def reporter_is_trusted(*, user, now) -> bool:
    """Whether ``user``'s reports count towards hiding a player's card before an admin decides: an account
    old enough that has finished enough games with people (see the module's docstring)."""
    joined = getattr(user, "date_joined", None)
    if joined is None or joined > now - timedelta(days=settings.FABULA_CARD_REPORT_TRUST_DAYS):
        return False
    wanted = settings.FABULA_CARD_REPORT_TRUST_GAMES
    if wanted <= 0:
        return True
    played = Seat.objects.filter(user=user, has_resigned=False, game__status=Game.Status.FINISHED).values("game_id")
    with_people = (
        Game.objects.filter(pk__in=played)
        .annotate(people=Count("seats", filter=Q(seats__user__is_bot=False) & ~Q(seats__user=user)))
        .filter(people__gte=2)
    )
    return with_people[:wanted].count() >= wanted


def _trusted_reports(card: Card, *, now) -> int:
    """The open reports of ``card`` that count towards hiding it (its owner's own never do)."""
    reports = CardReport.objects.filter(card=card, resolved_at__isnull=True).exclude(reporter_id=card.deck.owner_id)
    return sum(1 for report in reports.select_related("reporter") if reporter_is_trusted(user=report.reporter, now=now))


def card_report(*, game_id, card_id, user, reason: str = "", now=None) -> tuple[CardReport, bool]:
    """``user``, a player of the game, reports a card they have seen in it; returns (the report, whether the card
    is hidden now). Refused, nothing changed: not a player (403 ``not_a_player``); a card they have not seen
    there, or removed (404 ``not_found``); reported by them already (409 ``already_reported``); more than
    ``FABULA_CARD_REPORTS_PER_DAY`` reports in 24 hours (409 ``too_many_reports``); a reason too long
    (400 ``bad_reason``)."""
    now = now or timezone.now()
    reason = _reason_clean(reason)
    if not isinstance(card_id, int) or isinstance(card_id, bool):
        raise GameError("not_found", NO_SUCH_CARD, "not_found")
    if not isinstance(game_id, int):
        raise GameError("not_found", _("There is no such game."), "not_found")
    with transaction.atomic():
        # The card's row first, then the game's: the order every path that hides or removes cards takes.
        card = Card.objects.select_for_update().filter(pk=card_id, removed_at__isnull=True).first()
        game = game_lock(game_id=game_id)
        user_id = getattr(user, "pk", None)
        seats = game.seats.filter(user_id=user_id).values_list("position", flat=True) if user_id is not None else None
        seat = seats.first() if seats is not None else None
        if seat is None or game.kind != "storyteller":
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        if card is None or not game.state or card.pk not in cards_seen(engine.from_dict(game.state), seat):
            raise GameError("not_found", NO_SUCH_CARD, "not_found")
        if CardReport.objects.filter(card=card, reporter=user).exists():
            raise GameError("already_reported", _("You have already reported this card."))
        today = CardReport.objects.filter(reporter=user, created_at__gte=now - timedelta(days=1)).count()
        if today >= settings.FABULA_CARD_REPORTS_PER_DAY:
            raise GameError(
                "too_many_reports",
                _("You have reported many cards today: the admins look at them first. Try again tomorrow."),
            )
        try:
            with transaction.atomic():
                report = CardReport.objects.create(card=card, reporter=user, game=game, reason=reason)
        except IntegrityError:
            raise GameError("already_reported", _("You have already reported this card.")) from None
        own_card = card.deck.owner_id is not None  # the site's cards wait for an admin, whatever the reports
        if (
            own_card
            and card.hidden_at is None
            and _trusted_reports(card, now=now) >= settings.FABULA_CARD_REPORTS_TO_HIDE
        ):
            card.hidden_at = now
            card.save(update_fields=["hidden_at"])
            cards_faces_changed()
            # Out of the games in progress once this is committed, each game in a transaction of its own:
            # not while this one holds the reporter's game (two cards hidden at once would lock games
            # in two orders).
            transaction.on_commit(partial(cards_swap_out, card_ids=[card.pk], now=now))
    return report, card.hidden_at is not None


def cards_keep(*, cards, now=None) -> int:
    """An admin's "Keep": the cards are shown again and their open reports decided. Returns how many were hidden."""
    now = now or timezone.now()
    ids = [card.pk for card in cards]
    with transaction.atomic():
        shown = Card.objects.filter(pk__in=ids, hidden_at__isnull=False).update(hidden_at=None)
        # Dealt again in new games (``Card.objects.in_play``), and a later hiding may be reviewed again.
        Card.objects.filter(pk__in=ids).update(review_requested_at=None)
        CardReport.objects.filter(card_id__in=ids, resolved_at__isnull=True).update(resolved_at=now)
        cards_faces_changed()
        _bump_games_showing(ids)
    return shown


def _bump_games_showing(ids) -> None:
    """Games in progress that show these cards fetch again (a card shown again shows its picture)."""
    from games.services import events

    from .withdraw import _games_holding

    for game_id in _games_holding(set(ids)):
        game = game_lock(game_id=game_id)
        game.version += 1
        game.save(update_fields=["version"])
        events.game_changed(game=game, user_ids=list(game.seats.values_list("user_id", flat=True)))


def card_remove(*, cards, now=None) -> tuple[int, int]:
    """Remove cards (an admin's "Remove") by the one removal rule (``own_decks.cards_remove``: a card never
    dealt goes with its picture; any other keeps its row, "removed", so that finished games keep its id and
    show a placeholder; ``cards_withdrawn`` takes them out of the games in progress), and decide their open
    reports. Returns (deleted, kept removed)."""
    now = now or timezone.now()
    ids = [card.pk for card in cards]
    with transaction.atomic():
        removed = cards_remove(cards=Card.objects.filter(pk__in=ids))
        kept = set(Card.objects.filter(pk__in=removed).values_list("pk", flat=True))
        CardReport.objects.filter(card_id__in=kept, resolved_at__isnull=True).update(resolved_at=now)
    return len(removed) - len(kept), len(kept)


def card_review_request(*, user, deck_id, card_id, now=None) -> Card:
    """The owner of a card hidden after reports asks an admin to look at it: its reports go first in the admins'
    queue. Once for each time it is hidden. Refused, nothing changed: not a card of the user's own decks
    (404 ``not_found``); not hidden (409 ``not_hidden``); asked already (409 ``review_requested``)."""
    now = now or timezone.now()
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (deck_id, card_id)):
        raise GameError("not_found", _("There is no such card in your decks."), "not_found")
    with transaction.atomic():
        card = (
            Card.objects.select_for_update()
            .filter(
                pk=card_id,
                deck_id=deck_id,
                removed_at__isnull=True,
                deck__owner_id=getattr(user, "pk", None),
                deck__removed_at__isnull=True,
            )
            .first()
        )
        if card is None:
            raise GameError("not_found", _("There is no such card in your decks."), "not_found")
        if card.hidden_at is None:
            raise GameError("not_hidden", _("This card is not hidden: there is nothing to review."))
        if card.review_requested_at is not None:
            raise GameError("review_requested", _("You have already asked for a review of this card."))
        card.review_requested_at = now
        card.save(update_fields=["review_requested_at"])
    return card
