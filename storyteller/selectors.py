"""The Storyteller game as one viewer may see it.

The rules of secrecy live here: a hand is shown to its owner only; the table
shows no owners before the reveal; votes and owners appear only in the record
of a revealed round.
"""

import time

from django.urls import reverse

from games.models import Game, Seat
from games.selectors.common import (
    seat_of,
    usernames,
    view_base,
    view_finish,
    view_waiting,
)
from storyteller.engine import rules as engine
from storyteller.models import Card, ClueMedia
from storyteller.services.game import storyteller_rules


def _card(card: dict | None, card_id: int) -> dict:
    if card is None:  # a card deleted from the database by hand: still playable
        return {"id": card_id, "image": "", "alt": ""}
    return dict(card)


class _CardFaces:
    """What a card shows (its picture's URL, its words for screen readers), by id, kept in this process
    for ``ttl`` seconds: every view of every game shows cards, and a deck changes rarely (an admin's new
    words for a card show within that time)."""

    def __init__(self, ttl: float = 120.0):
        self.ttl = ttl
        self._faces: dict[int, tuple[float, dict]] = {}

    def get(self, ids) -> dict[int, dict]:
        now = time.monotonic()
        found = {}
        missing = []
        for card_id in ids:
            entry = self._faces.get(card_id)
            if entry is not None and now - entry[0] < self.ttl:
                found[card_id] = entry[1]
            else:
                missing.append(card_id)
        if missing:
            for card in Card.objects.filter(pk__in=missing).only("pk", "image", "alt_text"):
                face = {"id": card.pk, "image": card.image.url if card.image else "", "alt": card.alt_text}
                self._faces[card.pk] = (now, face)
                found[card.pk] = face
        return found

    def clear(self) -> None:
        self._faces.clear()


card_faces = _CardFaces()


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
    if game.state is None:
        return view

    state = engine.from_dict(game.state)
    view["rules"]["hand_size"] = engine.hand_size(state)
    last = state.last_round
    media_kinds = _media_kinds({state.clue_media, last.clue_media if last is not None else None})
    view["phase"] = None if state.phase == engine.Phase.FINISHED else str(state.phase)
    view["storyteller"] = player(state.storyteller) if state.storyteller is not None else None
    if state.clue is not None:
        view["clue"] = clue_out(game_id=game.pk, text=state.clue, media_id=state.clue_media, kinds=media_kinds)
    view["cards_to_submit"] = engine.cards_to_submit(state)
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
        if me is not None and state.storyteller == me.position:
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
        }
    if state.phase == engine.Phase.FINISHED:
        view_finish(view, winners=[player(pos) for pos in engine.winners(state)])
    return view
