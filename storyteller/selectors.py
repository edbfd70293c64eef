"""The Storyteller game as one viewer may see it.

The rules of secrecy live here: a hand is shown to its owner only; the table
shows no owners before the reveal; votes and owners appear only in the record
of a revealed round.
"""

import time

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.models import Game, Seat
from games.selectors.common import (
    seat_of,
    usernames,
    view_base,
    view_finish,
    view_waiting,
)
from games.selectors.games import game_state
from infrastructure.caches import BoundedCache
from storyteller.decks.selectors import card_picture_url
from storyteller.engine import rules as engine
from storyteller.models import Card, ClueMedia, Deck
from storyteller.models.cards import alt_language, alt_languages
from storyteller.services.game import storyteller_rules

# Why a finished game ended, in words (issue 39: "The game is over." said nothing of it).
END_REASONS = {
    "too_few": lambda: gettext("Too few players were left after resignations."),
    "target": lambda: gettext("A player reached the target score."),
    "cards_out": lambda: gettext("The draw pile ran out: the hands could no longer be refilled."),
}


def _card(card: dict | None, card_id: int) -> dict:
    if card is None:  # a card deleted from the database by hand: still playable, shown as removed
        return {"id": card_id, "image": "", "alt": gettext("Card removed"), "alt_lang": "", "removed": True}
    return dict(card)


# What a placeholder says in place of a picture no longer shown (rendered per language).
REMOVED_TEXT = gettext_lazy("Card removed")
HIDDEN_TEXT = gettext_lazy("Card hidden after reports")
FACES_GENERATION_KEY = "storyteller:card-faces:generation"


def card_face(card: Card, language: str) -> dict:
    """What ``card`` shows in ``language``: its picture's URL and its words, or, removed (no picture) or hidden
    after reports, a grey placeholder's words with no URL (``removed`` / ``hidden``: what the views say)."""
    if card.removed_at is not None or not card.image:
        with translation.override(language):
            return {"id": card.pk, "image": "", "alt": str(REMOVED_TEXT), "alt_lang": "", "removed": True}
    if card.hidden_at is not None:
        with translation.override(language):
            return {"id": card.pk, "image": "", "alt": str(HIDDEN_TEXT), "alt_lang": "", "hidden": True}
    return {"id": card.pk, "image": card_picture_url(card), **card.alt_in(language)}


class _CardFaces:
    """What a card shows (its picture's URL, its words for screen readers in the active language), by
    card and language, kept in this process for ``FABULA_CARD_FACES_TTL_SECONDS``: every view of every game
    shows cards, and a deck changes rarely (an admin's new words for a card show within that time). At most
    ``FABULA_CARD_FACES_ENTRIES`` faces are kept, the least recently used dropped first.

    A card hidden or removed must show as a placeholder at once, in every process: ``forget`` moves a
    generation number in the shared cache, and each ``get`` that sees it moved forgets every face.

    A face's ``alt_lang`` is "" when its words are in the active language, else the language they
    are in (English, where a card has no translation): what an ``<img lang>`` says.
    """

    def __init__(self):
        # Sized from settings, bounded, emptied by infrastructure.caches.reset_process_caches.
        self.faces = BoundedCache(
            "card_faces", size=settings.FABULA_CARD_FACES_ENTRIES, ttl=settings.FABULA_CARD_FACES_TTL_SECONDS
        )
        self._generation = None

    @property
    def ttl(self) -> float | None:
        return self.faces.ttl

    @ttl.setter
    def ttl(self, seconds: float | None) -> None:
        self.faces.ttl = seconds

    def _check_generation(self) -> None:
        generation = cache.get(FACES_GENERATION_KEY, 0)
        if generation != self._generation:
            self.faces.clear()
            self._generation = generation

    def get(self, ids) -> dict[int, dict]:
        self._check_generation()
        language = alt_language(translation.get_language())
        found = {}
        missing = []
        for card_id in ids:
            face = self.faces.get((card_id, language))
            if face is not None:
                found[card_id] = face
            else:
                missing.append(card_id)
        if missing:
            # One read gives the faces in every language: the next viewer in another one reads nothing.
            languages = [settings.LANGUAGE_CODE, *alt_languages()]
            for card in Card.objects.filter(pk__in=missing).only(
                "pk", "image", "alt_text", "alt_texts", "alt_language", "hidden_at", "removed_at"
            ):
                for other in languages:
                    face = card_face(card, other)
                    self.faces.put((card.pk, other), face)
                    if other == language:
                        found[card.pk] = face
        return found

    def forget(self) -> None:
        """Cards were hidden, shown again or removed: every process reads every face afresh."""
        try:
            cache.incr(FACES_GENERATION_KEY)
        except ValueError:  # not there yet (or evicted)
            cache.set(FACES_GENERATION_KEY, int(time.time() * 1000), None)
        self.faces.clear()

    def clear(self) -> None:
        self.faces.clear()


class _DeckLabels:
    """The deck a game is dealt from, as its views name it, kept in this process for
    ``FABULA_CARD_FACES_TTL_SECONDS`` (at most ``FABULA_DECK_LABELS_ENTRIES``; emptied by the one reset)."""

    def __init__(self):
        self.labels = BoundedCache(
            "deck_labels", size=settings.FABULA_DECK_LABELS_ENTRIES, ttl=settings.FABULA_CARD_FACES_TTL_SECONDS
        )

    def get(self, deck_id) -> dict | None:
        if not isinstance(deck_id, int):
            return None
        entry = self.labels.get(deck_id)
        if entry is None:
            deck = Deck.objects.filter(pk=deck_id).select_related("owner").first()
            label = None
            if deck is not None and deck.removed_at is None:  # a removed deck has no name left to say
                owner = deck.owner
                label = {
                    "id": deck.pk,
                    "name": deck.name,
                    "owned_by": owner.username if owner is not None else None,
                    "owned_by_name": owner.name if owner is not None else "",
                }
            entry = (label,)
            self.labels.put(deck_id, entry)
        return entry[0]

    def clear(self) -> None:
        self.labels.clear()


card_faces = _CardFaces()
deck_labels = _DeckLabels()


def clue_media_url(*, game_id: int, media_id: int) -> str:
    """Where a clue's file is served to those who may see the game (pages' session, API's token)."""
    return reverse("storyteller:clue_media_file", args=[game_id, media_id])


def clue_out(*, game_id: int, text: str | None, media_id: int | None, kinds: dict[int, str]) -> dict:
    """A clue as views show it: its words and its drawing or sound (None: none)."""
    media = None
    if media_id is not None and media_id in kinds:
        media = {"kind": kinds[media_id], "url": clue_media_url(game_id=game_id, media_id=media_id)}
    return {"text": text or "", "media": media}


def _media_kinds(ids) -> dict[int, str]:
    ids = [media_id for media_id in ids if media_id is not None]
    return dict(ClueMedia.objects.filter(pk__in=ids).values_list("pk", "kind")) if ids else {}


def reason_text(line: engine.Reason) -> str:
    """A line of a round's score in words, in the active language (without its points)."""
    code, n = line.code, line.count
    if code == engine.STORYTELLER_SOME_FOUND:
        if line.points == 4:
            return gettext("storyteller: only one player found it (three-player rule)")
        return gettext("storyteller: some found it, not everyone")
    if code == engine.FOUND:
        if line.points == 4:
            return gettext("the only one to find the storyteller's card (three-player rule)")
        return gettext("found the storyteller's card")
    if code == engine.VOTES_ON_CARD:
        return ngettext("%(n)s vote on their card", "%(n)s votes on their card", n) % {"n": n}
    return str(_REASON_TEXTS.get(code, code))


_REASON_TEXTS = {
    engine.STORYTELLER_ALL_FOUND: gettext_lazy("storyteller: everyone found it, too plain"),
    engine.STORYTELLER_NONE_FOUND: gettext_lazy("storyteller: nobody found it, too obscure"),
    engine.STORYTELLER_NO_VOTES: gettext_lazy("storyteller: nobody voted"),
    engine.STORYTELLER_LOST_TURN: gettext_lazy("storyteller: no clue in time"),
    engine.ALL_FOUND: gettext_lazy("everyone found the storyteller's card"),
    engine.NONE_FOUND: gettext_lazy("nobody found the storyteller's card"),
    engine.NOT_FOUND: gettext_lazy("missed the storyteller's card"),
    engine.NO_VOTE: gettext_lazy("did not vote"),
}


def breakdown_out(lines, points: dict[int, int], player) -> list[dict]:
    """Each seat's points of a round with their reasons in words, in seat order (``player``: a seat's name)."""
    reasons: dict[int, list[dict]] = {}
    for line in lines:
        reasons.setdefault(line.seat, []).append(
            {"code": line.code, "points": line.points, "count": line.count, "text": reason_text(line)}
        )
    seats = sorted(set(points) | set(reasons))
    return [{"player": player(seat), "points": points.get(seat, 0), "reasons": reasons.get(seat, [])} for seat in seats]


def storyteller_view(*, game: Game, seats: list[Seat], viewer) -> dict:
    me = seat_of(seats, viewer)
    player = usernames(seats)

    view = view_base(game=game, seats=seats, me=me) | {
        "rules": storyteller_rules(game.options or {}, seats=game.max_seats),
        "storyteller": None,
        "clue": None,
        "hand": [],
        "table": [],
        "cards_to_submit": None,
    }
    if me is not None:
        view["you"] |= {"is_storyteller": False, "submitted": [], "vote": None}
    options = game.options or {}
    label = deck_labels.get(options.get("deck"))
    if label is not None:
        view["deck"] = label | {"topped_up": bool(options.get("top_up"))}
    if game.state is None:
        return view

    state = game_state(game)
    view["rules"]["hand_size"] = engine.hand_size(state)
    last = state.last_round
    media_kinds = _media_kinds({state.clue_media, last.clue_media if last is not None else None})
    view["phase"] = None if state.phase == engine.Phase.FINISHED else str(state.phase)
    view["storyteller"] = player(state.storyteller) if state.storyteller is not None else None
    if state.clue is not None:
        view["clue"] = clue_out(game_id=game.pk, text=state.clue, media_id=state.clue_media, kinds=media_kinds)
    # The viewer's own count: a hand left short by withdrawn cards hands in what it holds.
    view["cards_to_submit"] = engine.cards_to_submit(state, me.position if me is not None else None)
    view["draw_pile"] = len(state.draw_pile)
    view_waiting(view, seats=seats, waiting=sorted(engine.to_act(state)) if view["phase"] else [])

    # Every card this viewer may see, fetched in one query.
    wanted: set[int] = set()
    my_story_card = None
    if me is not None:
        wanted.update(state.hands[me.position])
        wanted.update(state.submissions.get(me.position, ()))
        if state.storyteller == me.position and state.phase != engine.Phase.FINISHED:
            my_story_card = state.storyteller_card
            if my_story_card is not None:
                wanted.add(my_story_card)
    if state.phase == engine.Phase.VOTE:
        wanted.update(state.table)
    if last is not None:
        wanted.update(last.table)
    cards = card_faces.get(wanted) if wanted else {}

    if me is not None:
        you = view["you"]
        view["hand"] = [_card(cards.get(cid), cid) for cid in state.hands[me.position]]
        you["is_storyteller"] = state.storyteller == me.position
        if my_story_card is not None:
            you["storyteller_card"] = _card(cards.get(my_story_card), my_story_card)
        you["submitted"] = [_card(cards.get(cid), cid) for cid in state.submissions.get(me.position, ())]
        if state.phase == engine.Phase.VOTE:
            you["vote"] = state.votes.get(me.position)

    if state.phase == engine.Phase.VOTE:
        mine = set(state.submissions.get(me.position, ())) if me is not None else set()
        if me is not None and state.storyteller == me.position and state.storyteller_card is not None:
            mine.add(state.storyteller_card)
        view["table"] = [
            _card(cards.get(cid), cid) | {"position": index + 1, "mine": cid in mine}
            for index, cid in enumerate(state.table)
        ]
        for item in view["table"]:
            del item["id"]  # a table card's id would let a client match it to a hand seen earlier

    if last is not None:
        votes_by_position: dict[int, list[str]] = {}
        for voter, position in sorted(last.votes.items()):
            votes_by_position.setdefault(position, []).append(player(voter))
        storyteller_position = (
            last.table.index(last.storyteller_card) + 1 if last.storyteller_card in last.table else None
        )
        view["last_round"] = {
            "round": last.round,
            "storyteller": player(last.storyteller),
            "clue": None
            if last.skipped
            else clue_out(game_id=game.pk, text=last.clue, media_id=last.clue_media, kinds=media_kinds),
            "skipped": last.skipped,
            "storyteller_position": storyteller_position,
            "table": [
                _card(cards.get(cid), cid)
                | {
                    "position": index + 1,
                    "owner": player(last.owners[cid]),
                    "voters": votes_by_position.get(index + 1, []),
                }
                for index, cid in enumerate(last.table)
            ],
            "points": {player(pos): pts for pos, pts in sorted(last.points.items())},
            "breakdown": breakdown_out(engine.round_breakdown(last, seats=state.seats), last.points, player),
            # Just revealed: no clue given since (the board shows it on top, animated).
            "fresh": state.phase == engine.Phase.CLUE and state.round == last.round + 1,
        }
    reason = engine.end_reason(state)  # None until the game is finished
    if reason is not None:
        view_finish(view, winners=[player(pos) for pos in engine.winners(state)])
        view["end_reason"] = END_REASONS[reason]()
    return view
