"""Players report cards; enough reports hide a card at once; an admin keeps or removes it (issue 33).

A card is hidden (``Card.hidden_at``) when ``FABULA_CARD_REPORTS_TO_HIDE`` players have reported it and no
admin has decided since: games show it as a grey placeholder, and it leaves the hands and draw piles of the
games in progress as a removed card does (``withdraw``). Hiding is reversible ("Keep": shown again, its
reports decided); removing is not ("Remove": the removal rule, ``card_remove``).
"""

from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.services.errors import GameError
from games.services.locking import game_lock
from storyteller.engine import rules as engine
from storyteller.models import Card, CardReport

from .own_decks import cards_remove
from .withdraw import cards_faces_changed, cards_swap_out

REASON_MAX_LENGTH = CardReport._meta.get_field("reason").max_length
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


def card_report(*, game_id, card_id, user, reason: str = "", now=None) -> tuple[CardReport, bool]:
    """``user``, a player of the game, reports a card they have seen in it; returns (the report, whether the card
    is hidden now). Refused, nothing changed: not a player (403 ``not_a_player``); a card they have not seen
    there, or removed (404 ``not_found``); reported by them already (409 ``already_reported``); a reason too long
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
        seat = game.seats.filter(user_id=getattr(user, "pk", None)).values_list("position", flat=True).first()
        if seat is None or game.kind != "storyteller":
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        if card is None or not game.state or card.pk not in cards_seen(engine.from_dict(game.state), seat):
            raise GameError("not_found", NO_SUCH_CARD, "not_found")
        try:
            with transaction.atomic():
                report = CardReport.objects.create(card=card, reporter=user, game=game, reason=reason)
        except IntegrityError:
            raise GameError("already_reported", _("You have already reported this card.")) from None
        open_reports = CardReport.objects.filter(card=card, resolved_at__isnull=True).count()
        if card.hidden_at is None and open_reports >= settings.FABULA_CARD_REPORTS_TO_HIDE:
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
