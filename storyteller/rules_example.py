"""What Storyteller's rules page shows beside its text: cards of the deck a new game is dealt
from, and the rule sheet's worked example, scored by the engine itself.

The worked example (``/rules/storyteller.md``, "Worked example"): five players; the
storyteller's card lies at 4 on the table; only A found it; two players voted for 1, A's
card; one voted for 3, B's card. The sheet says A 3+2 = 5, storyteller 3, B 1, the two
others 0. The page shows the votes and the points ``engine.score_round`` gives for them,
so the page cannot say other than the rules the program plays by.
"""

from django.core.cache import caches
from django.utils.translation import gettext_lazy as _

from games.services.errors import GameError
from storyteller.engine import rules as engine

# Seats 0..4: the storyteller, A, B, C and D; positions on the table 1..5.
STORYTELLER = 0
STORYTELLER_POSITION = 4
OWNERS_BY_POSITION = {1: 1, 2: 3, 3: 2, 4: 0, 5: 4}
VOTES = {1: 4, 2: 1, 3: 1, 4: 3}
NAMES = {0: _("Storyteller"), 1: "A", 2: "B", 3: "C", 4: "D"}

# The table takes the first five; the storyteller's hand is their card on it and five more.
CARDS_SHOWN = 10
CACHE_SECONDS = 600
CACHE_KEY = "storyteller:rules-cards:2"  # :2 holds the alt-text columns, not the English words


def rules_cards() -> list[dict]:
    """Up to ``CARDS_SHOWN`` cards (``image``, ``alt``, ``alt_lang``) of the deck a new game would be dealt from,
    the same ones every time (the deck's first cards in play), read once per ``CACHE_SECONDS``."""
    from storyteller.models.cards import card_alt

    cache = caches["views"]
    cards = cache.get(CACHE_KEY)
    if cards is None:
        cards = _cards_read()
        cache.set(CACHE_KEY, cards, CACHE_SECONDS)
    # The words in the page's language (or the English ones, marked lang="en"), from the cached columns.
    return [{"image": card["image"], **card_alt(card["alt_text"], card["alt_texts"])} for card in cards]


def _cards_read() -> list[dict]:
    from storyteller.decks.services.cards import deck_for_new_game
    from storyteller.models import Card

    try:
        deck = deck_for_new_game(deck=None, seats=engine.MIN_SEATS)
    except GameError:  # no deck can deal a game: the page goes without pictures
        return []
    cards = Card.objects.in_play().filter(deck=deck).exclude(image="").order_by("pk")[:CARDS_SHOWN]
    return [{"image": card.image.url, "alt_text": card.alt_text, "alt_texts": card.alt_texts} for card in cards]


def worked_example(cards: list[dict]) -> dict:
    """The worked example as the page's table: a row per player (the card they laid, the card they
    voted for, the votes their card drew, their points from ``engine.score_round``), and the totals."""
    points = engine.score_round(
        storyteller=STORYTELLER,
        storyteller_position=STORYTELLER_POSITION,
        owners_by_position=OWNERS_BY_POSITION,
        votes=VOTES,
        three_players=False,
    )
    position_of = {seat: position for position, seat in OWNERS_BY_POSITION.items()}
    votes_on = dict.fromkeys(OWNERS_BY_POSITION, 0)
    for position in VOTES.values():
        votes_on[position] += 1

    def card(position: int) -> dict:
        face = cards[position - 1] if len(cards) >= position else {}
        return {"position": position, **face}

    rows = [
        {
            "seat": seat,
            "name": NAMES[seat],
            "storyteller": seat == STORYTELLER,
            "played": card(position_of[seat]),
            "voted": card(VOTES[seat]) if seat in VOTES else None,
            "found": VOTES.get(seat) == STORYTELLER_POSITION,
            "votes_drawn": votes_on[position_of[seat]],
            "points": points[seat],
        }
        for seat in sorted(NAMES)
    ]
    return {
        "rows": rows,
        "table": [card(position) | {"votes": votes_on[position]} for position in sorted(votes_on)],
        "storyteller_position": STORYTELLER_POSITION,
        "votes_cast": len(VOTES),
        "points_total": sum(points.values()),
    }


def rules_context() -> dict:
    """The rules page's context: the storyteller's hand and card, and the worked example on its table."""
    cards = rules_cards()
    clue_card = cards[STORYTELLER_POSITION - 1] if len(cards) >= STORYTELLER_POSITION else None
    hand = [clue_card, *cards[len(OWNERS_BY_POSITION) :]] if clue_card else []
    return {"hand": hand, "clue_card": clue_card, "example": worked_example(cards)}
