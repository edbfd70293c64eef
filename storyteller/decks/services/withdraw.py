"""Cards that can no longer be shown, out of the games in progress (issue 33).

A card removed (its owner deleted it or its deck, an admin removed it, its owner's account is gone) or hidden
after reports shows as a grey placeholder wherever a game shows it. In every game in progress it leaves the
draw pile, replaced by a card of the site's deck not yet in that game (none left: the pile goes without it and
the game ends sooner), and then the hands, each replaced by a card of the site's deck, else by the top of the
draw pile; where neither has a card, the hand keeps it, as a grey placeholder its holder may still play: a hand
never runs shorter than a move needs (issue 37). A resigned seat's hand, which nobody plays, is left as it is.
A card already handed in this round (the storyteller's, the submissions, the table)
stays until the reveal puts it in the discard, as a placeholder: taking it back would undo a move the rules
call final. Finished games keep every card and show placeholders (they are never changed). Each game changed
is changed under its row lock with its version moved, so open pages fetch it again.
"""

import secrets
from dataclasses import replace

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services import events
from games.services.errors import GameError
from games.services.locking import game_lock
from storyteller.engine import rules as engine
from storyteller.models import Card, CardDeal, Deck

from .cards import deck_for_new_game

KIND = "storyteller"


def _cards_in(state: engine.State) -> set[int]:
    """Every card a game holds or has held: hands, pile, discard, this round's, every revealed round's."""
    cards = {card for hand in state.hands for card in hand}
    cards.update(state.draw_pile, state.discard, state.table)
    cards.update(card for handed in state.submissions.values() for card in handed)
    if state.storyteller_card is not None:
        cards.add(state.storyteller_card)
    for result in state.history:
        cards.update(result.table)
    return cards


def _games_holding(ids: set[int]) -> list[int]:
    """The games in progress whose state holds any of ``ids`` (read without a lock: each is read again under it).

    Every game in progress is looked at: a card may be in a game whose options name another deck (the site's,
    swapped in before). Cards are withdrawn rarely; games in progress are few beside the finished ones.
    """
    found = []
    for game_id, state in (
        Game.objects.filter(kind=KIND, status=Game.Status.ACTIVE).values_list("pk", "state").iterator(chunk_size=200)
    ):
        if state and _cards_in(engine.from_dict(state)) & ids:
            found.append(game_id)
    return sorted(found)  # locked in one order by every path: two withdrawals at once wait, never deadlock


def cards_swap_out(*, card_ids, now=None) -> list[int]:
    """Swap the cards ``card_ids`` out of every game in progress (see the module's docstring); returns the ids
    of the games changed. Call it inside a transaction (each game is locked in a savepoint of its own)."""
    ids = {int(card_id) for card_id in card_ids}
    if not ids:
        return []
    now = now or timezone.now()
    changed = []
    for game_id in _games_holding(ids):
        with transaction.atomic():
            if _swap_in_game(game_id, ids, now=now):
                changed.append(game_id)
    return changed


def _swap_in_game(game_id: int, ids: set[int], *, now) -> bool:
    try:
        game = game_lock(game_id=game_id)
    except GameError:
        return False
    if game.status != Game.Status.ACTIVE or not game.state:
        return False
    state = engine.from_dict(game.state)
    held = _cards_in(state)
    if not held & ids:
        return False
    pool = _replacements(game, exclude=held | ids)
    pile = [card if card not in ids else pool.pop() for card in state.draw_pile if card not in ids or pool]
    dealt: list[int] = []
    hands = []
    for seat, hand in enumerate(state.hands):
        kept = []
        for card in hand:
            if card in ids and seat not in state.resigned and (pool or pile):
                card = pool.pop() if pool else pile.pop(0)
                dealt.append(card)
            kept.append(card)
        hands.append(tuple(kept))
    game.state = engine.to_dict(replace(state, hands=tuple(hands), draw_pile=tuple(pile)))
    # Moved even when only this round's table or a revealed round shows it: open pages show the placeholder.
    game.version += 1
    game.save(update_fields=["state", "version"])
    CardDeal.objects.bulk_create(CardDeal(game=game, card_id=card, dealt_at=now) for card in dealt)
    user_ids = list(game.seats.values_list("user_id", flat=True))
    events.game_changed(game=game, user_ids=user_ids)
    return True


def _replacements(game: Game, *, exclude: set[int]) -> list[int]:
    """Cards of the site's deck (the game's top-up deck, else the default one) not in ``exclude``, shuffled."""
    options = game.options or {}
    deck = Deck.objects.builtin().filter(pk=options.get("top_up")).first() if options.get("top_up") else None
    if deck is None:
        chosen = Deck.objects.builtin().filter(pk=options.get("deck")).first()
        deck = chosen
    if deck is None:
        try:
            deck = deck_for_new_game(deck=None, seats=engine.MIN_SEATS)
        except GameError:
            return []
    pool = list(Card.objects.in_play().filter(deck=deck).exclude(pk__in=exclude).values_list("pk", flat=True))
    secrets.SystemRandom().shuffle(pool)
    return pool


def cards_withdrawn_receiver(sender, card_ids=(), **kwargs) -> None:
    """``storyteller.signals.cards_withdrawn``: every process shows them as placeholders at once, and the
    games in progress that hold them go on without them."""
    cards_faces_changed()
    cards_swap_out(card_ids=card_ids)


def cards_faces_changed() -> None:
    """Cards were hidden, shown again or removed: every process reads the faces afresh, now and once the
    change is committed (a face read in between, from before it, is not kept)."""
    from storyteller.selectors import card_faces

    card_faces.forget()
    transaction.on_commit(card_faces.forget)
