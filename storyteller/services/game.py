"""Storyteller beside its engine: a new game's options and first state, its round records."""

from typing import TypeGuard

from django.db import IntegrityError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.engine.errors import RuleError
from games.models import Game
from games.services.errors import GameError, from_rule_error
from infrastructure.raw_sql import raw_sql_insert
from storyteller.decks.services.cards import (
    NO_SUCH_DECK,
    deck_choice_for_new_game,
    deck_for_new_game,
    own_cards_needed,
    top_up_target,
)
from storyteller.engine import rules as engine
from storyteller.models import (
    Card,
    CardDeal,
    Deck,
    StorytellerRound,
    StorytellerRoundScore,
    StorytellerTableCard,
    StorytellerVote,
)
from storyteller.models.cards import alt_language

TARGET_SCORE_MIN = 5
TARGET_SCORE_MAX = 100
HAND_SIZE_MIN = engine.HAND_SIZE_MIN
HAND_SIZE_MAX = engine.HAND_SIZE_MAX
# How a clue may be given (rules: the mime or song variant, online a drawing or a sound).
CLUE_MODES = ("words", "drawing", "sound")
DEFAULT_CLUE_MODES = ["words"]
# A game's language: its bots' clues are in it, and they read the cards' alt texts in it.
LANGS = ("en", "da", "sv", "nb", "fi", "fr")


def storyteller_options_clean(
    options: dict, *, max_seats: int, creator=None, visibility: str = Game.Visibility.PUBLIC
) -> dict:
    """A new game's options, checked: ``deck`` (a deck's id: a site's deck, or a player's deck
    ``creator`` may use; default: the illustrated deck), ``own_cards_only`` (a player's deck only, never
    topped up from the site's deck; default false) and the house rules: ``target_score`` (also end at
    this score, 5 to 100), ``hand_size`` (4 to 8 cards; default 6, 7 with 3 players), ``clue_modes``
    (how a clue may be given: a non-empty subset of words, drawing, sound; default words), ``chat``
    (the table talks; default on) and ``lang`` (the game's language, one of ``LANGS``: its bots
    speak it and read the cards in it; default the creator's, the request's language). A public game
    (``visibility``) on a player's deck not the creator's own is 409 ``deck_private`` unless its owner made
    the deck public."""
    cleaned: dict = {}
    target = options.get("target_score")
    if target not in (None, ""):
        if not _is_int(target) or not TARGET_SCORE_MIN <= target <= TARGET_SCORE_MAX:
            raise GameError("bad_options", _("A target score is from 5 to 100 points."), "invalid")
        cleaned["target_score"] = target
    size = options.get("hand_size")
    if size not in (None, ""):
        if not _is_int(size) or not HAND_SIZE_MIN <= size <= HAND_SIZE_MAX:
            raise GameError("bad_options", _("A hand holds 4 to 8 cards."), "invalid")
        cleaned["hand_size"] = size
    cleaned["clue_modes"] = clue_modes_clean(options.get("clue_modes"))
    chat = options.get("chat", True)
    if not isinstance(chat, bool):
        raise GameError("bad_options", _("Chat is on or off."), "invalid")
    cleaned["chat"] = chat
    own_only = options.get("own_cards_only", False)
    if own_only is None:
        own_only = False
    if not isinstance(own_only, bool):
        raise GameError("bad_options", _("“Own cards only” is on or off."), "invalid")
    lang = options.get("lang")
    if lang in (None, ""):
        lang = alt_language(translation.get_language())
    if lang not in LANGS:
        raise GameError("bad_options", _("A game's language is one of: %(langs)s.") % {"langs": ", ".join(LANGS)})
    cleaned["lang"] = lang
    deck = options.get("deck")
    if isinstance(deck, Deck):
        deck = deck.pk
    if deck in (None, ""):
        deck = None
    elif not _is_int(deck):
        raise GameError("bad_options", NO_SUCH_DECK, "invalid")
    # Enough cards for the house rule's hand, or the usual one, at every seat.
    choice = deck_choice_for_new_game(
        deck_id=deck,
        creator=creator,
        seats=max_seats,
        hand_size=cleaned.get("hand_size"),
        own_cards_only=own_only,
        table_deck=_table_deck(deck, rematch_of=options.get("rematch_of"), creator=creator),
        public=visibility == Game.Visibility.PUBLIC,
    )
    cleaned.update(choice.options())
    return cleaned


def _table_deck(deck: int | None, *, rematch_of, creator) -> bool:
    """Whether a rematch (``rematch_of``: set by the kind, never by a client) goes on with the old game's deck:
    ``creator`` played that game on it, and whoever chose the deck for it (its creator) may still use it. A
    deck its owner stopped sharing with them deals no more games to their table (nor its newer cards)."""
    creator_id = getattr(creator, "pk", None)
    if deck is None or creator_id is None or not _is_int(rematch_of):
        return False
    old = Game.objects.filter(pk=rematch_of, seats__user_id=creator_id, options__deck=deck).first()
    return old is not None and Deck.objects.usable_by(old.creator_id).filter(pk=deck).exists()


def storyteller_visibility_for(options: dict, *, visibility: str, creator_id: int | None) -> str:
    """The visibility a game of ``options`` may keep with ``creator_id`` its creator (a rematch's presser, or
    whoever the part was handed to): ``visibility``, but private on another player's private deck, where only
    its owner may make a public game (a client asking for one is refused instead: ``deck_private``). The
    table's seats are held all the same; nobody else is let in to see the cards."""
    deck_id = options.get("deck")
    if visibility != Game.Visibility.PUBLIC or not _is_int(deck_id):
        return visibility
    deck = Deck.objects.filter(pk=deck_id, owner__isnull=False).only("owner", "is_public").first()
    if deck is not None and deck.owner_id != creator_id and not deck.is_public:
        return Game.Visibility.PRIVATE
    return visibility


def clue_modes_clean(modes) -> list[str]:
    """A game's clue modes: a non-empty list of ``CLUE_MODES``, in their order (default: words only)."""
    if modes is None:
        return list(DEFAULT_CLUE_MODES)
    if (
        not isinstance(modes, (list, tuple))
        or not modes
        or any(not isinstance(mode, str) or mode not in CLUE_MODES for mode in modes)
    ):
        raise GameError("bad_options", _("Clue modes are one or more of: words, drawing, sound."), "invalid")
    return [mode for mode in CLUE_MODES if mode in modes]


def storyteller_rules(options: dict, *, seats: int) -> dict:
    """A game's house rules as its views show them (a game of before the house rules: the defaults)."""
    return {
        "hand_size": options.get("hand_size") or (7 if seats == 3 else 6),
        "target_score": options.get("target_score"),
        "clue_modes": list(options.get("clue_modes") or DEFAULT_CLUE_MODES),
        "chat": options.get("chat", True),
    }


def _is_int(value) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def storyteller_new_state(*, game: Game, seats: int, rng) -> engine.State:
    """Deal a game from the deck its options name (chosen when it was created), if its table may still be dealt
    from it (``_table_may_deal``)."""
    _table_may_deal(game, seats=seats)
    card_ids = storyteller_deal_cards(options=game.options, seats=seats, rng=rng)
    options = engine.Options(target_score=game.options.get("target_score"), hand_size=game.options.get("hand_size"))
    try:
        return engine.new_game(seats=seats, deck=card_ids, rng=rng, options=options)
    except RuleError as error:
        raise from_rule_error(error, kinds.get(game.kind)) from None


def _table_may_deal(game: Game, *, seats: int) -> None:
    """At the start: a player's deck deals a game only to a table where its owner, or a player it is shared with
    now, sits. A table that lost that since the game was made (its owner stopped sharing the deck with the
    player who chose it, and nobody else at it may use it) is dealt from the site's deck instead, and the game's
    options say so: cards uploaded since never reach a player the deck is no longer shared with (issue 37)."""
    options = game.options or {}
    deck_id = options.get("deck")
    if not _is_int(deck_id):
        return
    deck = Deck.objects.filter(pk=deck_id, owner__isnull=False, removed_at__isnull=True).first()
    if deck is None:
        return
    seated = list(game.seats.values_list("user_id", flat=True))
    if deck.owner_id in seated or deck.shared_with.filter(pk__in=seated).exists():
        return
    site = Deck.objects.builtin().filter(pk=options.get("top_up")).first() if _is_int(options.get("top_up")) else None
    if site is None:
        site = deck_for_new_game(deck=None, seats=seats, hand_size=options.get("hand_size"))
    kept = {key: value for key, value in options.items() if key not in ("deck", "own_cards_only", "top_up")}
    game.options = {**kept, "deck": site.pk}


def storyteller_deal_cards(*, options: dict, seats: int, rng) -> list[int]:
    """The cards a game is dealt from (the engine shuffles them).

    A site's deck: its cards in play. A player's deck: its cards in play, topped up with the site's
    deck's (``top_up``, picked at random) to as many as the site's deck would give; with
    ``own_cards_only`` not topped up, unless cards removed or hidden since the game was created leave
    too few for the deal and one round: then only those are made up, so the game can still start.
    """
    deck_id = options.get("deck")
    own = list(Card.objects.in_play().filter(deck_id=deck_id).values_list("id", flat=True))
    deck = Deck.objects.filter(pk=deck_id).only("pk", "owner").first() if deck_id is not None else None
    if deck is None or deck.owner_id is None:
        return own
    hand_size = options.get("hand_size")
    top_up = Deck.objects.filter(pk=options["top_up"]).first() if options.get("top_up") else None
    if options.get("own_cards_only") or top_up is None:
        target = own_cards_needed(seats, hand_size)
    else:
        target = top_up_target(top_up=top_up, seats=seats, hand_size=hand_size)
    if len(own) >= target:
        return own
    if top_up is None:
        top_up = deck_for_new_game(deck=None, seats=seats, hand_size=hand_size)
    spare = list(Card.objects.in_play().filter(deck=top_up).exclude(pk__in=own).values_list("id", flat=True))
    return own + rng.sample(spare, min(len(spare), target - len(own)))


def storyteller_record(*, game: Game, before, after, now, seats: list | None = None) -> None:
    """``seats``: the game's seats, if the caller read them (under the game's lock): a revealed round's rows name
    them."""
    _record_deals(game, before, after, now)
    _record_rounds(game, before, after, now, seats)


def _record_deals(game: Game, before, after, now) -> None:
    """A row per card that left the draw pile for a hand: the only way cards leave it."""
    if before is None:
        dealt = [card for hand in after.hands for card in hand]
    else:
        still = set(after.draw_pile)
        dealt = [card for card in before.draw_pile if card not in still]
    _deals_insert(CardDeal(game=game, card_id=card, dealt_at=now) for card in dealt)


# Most actions deal no card: no statement at all; a deal, written out once (infrastructure.raw_sql).
_deals_insert = raw_sql_insert(CardDeal)


def _record_rounds(game: Game, before, after, now, seats: list | None = None) -> None:
    """The rows of each round this change revealed: the round, its table, its votes, its seats' scores."""
    done = len(before.history) if before is not None else 0
    new_rounds = after.history[done:]
    if not new_rounds:
        return
    if seats is not None:
        seat_ids = {seat.position: seat.pk for seat in seats}
    else:
        seat_ids = dict(game.seats.values_list("position", "pk"))
    # Scores after each new round: the final scores minus the points of later new rounds.
    running = list(after.scores)
    after_scores = []
    for result in reversed(new_rounds):
        after_scores.append(list(running))
        for seat, pts in result.points.items():
            running[seat] -= pts
    after_scores.reverse()
    rounds = StorytellerRound.objects.bulk_create(
        StorytellerRound(
            game=game,
            number=result.round,
            storyteller=result.storyteller,
            storyteller_seat_id=seat_ids[result.storyteller],
            clue=result.clue or "",
            clue_media_id=result.clue_media,
            storyteller_card_id=result.storyteller_card,
            skipped=result.skipped,
            # The JSON record of before the rows: written still, read by nothing.
            table=_table_json(result),
            points={str(seat): pts for seat, pts in result.points.items()},
            scores_after={str(seat): score for seat, score in enumerate(scores)},
            revealed_at=now,
        )
        for result, scores in zip(new_rounds, after_scores)
    )
    cards = StorytellerTableCard.objects.bulk_create(
        StorytellerTableCard(
            round=row,
            card_id=card,
            owner_id=seat_ids[result.owners[card]],
            position=index + 1,
            is_storyteller_card=card == result.storyteller_card,
            votes=sum(1 for position in result.votes.values() if position == index + 1),
            votes_cast=len(result.votes),
        )
        for row, result in zip(rounds, new_rounds)
        for index, card in enumerate(result.table)
    )
    by_position = {(card.round_id, card.position): card for card in cards}
    StorytellerVote.objects.bulk_create(
        storyteller_vote_row(round_=row, voter=seat_ids[voter], table_card=by_position[(row.pk, position)])
        for row, result in zip(rounds, new_rounds)
        for voter, position in sorted(result.votes.items())
    )
    StorytellerRoundScore.objects.bulk_create(
        StorytellerRoundScore(round=row, seat_id=seat_ids[seat], points=result.points.get(seat, 0), score_after=score)
        for row, result, scores in zip(rounds, new_rounds, after_scores)
        for seat, score in enumerate(scores)
    )


def storyteller_vote_row(*, round_: StorytellerRound, voter: int, table_card: StorytellerTableCard) -> StorytellerVote:
    """A vote's row, refused when the voter owns the card: the rules' "nobody votes for their own card".

    The engine refuses such a vote first; this holds the rows to it too, where a
    constraint cannot (the card's owner is in another table).
    """
    if table_card.owner_id == voter:
        raise IntegrityError("storyteller_vote_not_own_card: a voter never votes for their own card")
    if table_card.round_id != round_.pk:
        raise IntegrityError("storyteller_vote_same_round: a vote goes to a card of its own round")
    return StorytellerVote(round=round_, voter_id=voter, table_card=table_card)


def _table_json(result) -> list[dict]:
    voters: dict[int, list[int]] = {}
    for voter, position in sorted(result.votes.items()):
        voters.setdefault(position, []).append(voter)
    return [
        {"position": index + 1, "card": card, "owner": result.owners[card], "voters": voters.get(index + 1, [])}
        for index, card in enumerate(result.table)
    ]
