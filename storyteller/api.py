"""Storyteller in the API: its create options and its view, key for key what ``selectors.storyteller_view`` gives;
its own endpoints (``router``: a drawn or sung clue's upload, a card's report). Its actions are
``storyteller.actions``; its decks' endpoints are ``storyteller.decks.api``.
"""

from typing import TYPE_CHECKING, Annotated, Literal

from django.utils.translation import gettext_lazy as _
from ninja import Body, File, Router, Status
from ninja.files import UploadedFile
from pydantic import Field

from games.api.errors import errors
from games.api.limits import rate_hit
from games.api.schemas import Answer, GameViewBase, IdText, PictureUrl, Request, SiteFileUrl, Within, You
from storyteller.decks.services.reports import card_report
from storyteller.engine import rules as engine
from storyteller.services.game import (
    CLUE_MODES,
    HAND_SIZE_MAX,
    HAND_SIZE_MIN,
    LANGS,
    TARGET_SCORE_MAX,
    TARGET_SCORE_MIN,
)
from storyteller.services.media import clue_media_read, clue_media_upload

router = Router(tags=["storyteller"])  # mounted at the API's root by the kind (``StorytellerKind.api_routers``)

ClueMode = Literal[CLUE_MODES]  # type: ignore[valid-type]
GameLang = Literal[LANGS]  # type: ignore[valid-type]
if TYPE_CHECKING:
    Phase = str  # a Literal made at run time from the engine's phases: mypy cannot read it
else:
    Phase = Literal[tuple(str(phase) for phase in engine.Phase if phase != engine.Phase.FINISHED)]


class StorytellerCreateIn(Request):
    target_score: Annotated[
        int | None,
        Within("bad_options", _("A target score is from 5 to 100 points."), TARGET_SCORE_MIN, TARGET_SCORE_MAX),
    ] = Field(
        default=None,
        description="Storyteller's house rule: the game also ends after the round in which someone reaches this "
        "score (5 to 100).",
    )
    hand_size: Annotated[
        int | None,
        Within("bad_options", _("A hand holds 4 to 8 cards."), HAND_SIZE_MIN, HAND_SIZE_MAX),
    ] = Field(
        default=None,
        description="Storyteller's house rule: cards in a hand, 4 to 8 (default 6, or 7 with three players).",
    )
    clue_modes: Annotated[
        list[ClueMode] | None,
        Within("bad_options", _("Clue modes are one or more of: words, drawing, sound."), 1, len(CLUE_MODES)),
    ] = Field(
        default=None,
        description="Storyteller's house rule: how a clue may be given, one or more of `words`, `drawing` "
        '(a picture drawn on the clue form) and `sound` (a short recording); default `["words"]`.',
    )
    chat: bool | None = Field(default=None, description="Whether the table may chat during the game (default true).")
    deck: int | None = Field(
        default=None,
        description="Storyteller: the card deck's id: one of the site's, or one of your decks or a deck shared with "
        "you (`GET /api/v1/decks`). Default: the site's illustrated deck. A deck you may not use, or none, is 404 "
        "`not_found`; a deck with too few cards for the seats 409 `deck_too_small`; a public game on another "
        'player\'s deck that its owner has not made public (`"public"` in `GET /api/v1/decks`) 409 '
        "`deck_private`. A player's deck smaller than the site's is topped up with the site's cards, unless "
        "`own_cards_only`.",
    )
    own_cards_only: bool | None = Field(
        default=None,
        description="Storyteller, with a player's `deck`: deal its cards only, never the site's (default false). "
        "The deck must then hold the deal and one round (hand size × seats, plus the cards one round plays), "
        "else 409 `deck_too_small`. Ignored for a site's deck.",
    )
    lang: GameLang | None = Field(
        default=None,
        description="The game's language, `en`, `da`, `sv`, `nb`, `fi` or `fr`: Storyteller's bots give their clues "
        "in it and read the cards in it; Think Alike's task cards and fields, and the matching of answers. "
        "Default: the request's language (`Accept-Language`) where it is one of them, else `en`.",
    )


class StorytellerOptions(Answer):
    deck: int | None = Field(default=None, description="The card deck's id.")
    own_cards_only: bool = Field(default=False, description="A player's deck, never topped up with the site's cards.")
    top_up: int | None = Field(
        default=None, description="The site's deck that tops up a small player's deck (absent: not topped up)."
    )
    target_score: int | None = Field(default=None, description="The house rule's score, if chosen.")
    hand_size: int | None = Field(default=None, description="The house rule's hand size, if chosen.")
    clue_modes: list[ClueMode] = Field(default=["words"], description="How a clue may be given.")
    chat: bool = True
    lang: GameLang | None = Field(default=None, description="The game's language (its bots' clues); null: English.")


class StorytellerRules(Answer):
    """The house rules the game is played by, defaults filled in."""

    hand_size: int = Field(description="Cards in a hand: 4 to 8 (default 6, or 7 with three players).")
    target_score: int | None = Field(description="The game also ends after the round someone reaches it.")
    clue_modes: list[ClueMode] = Field(description="How a clue may be given: `words`, `drawing`, `sound`.")
    chat: bool = Field(description="Whether the table may chat (never during the vote).")


class ClueMediaLink(Answer):
    kind: Literal["drawing", "sound"]
    url: SiteFileUrl = Field(
        description="The file (PNG or WebP; Ogg, WebM or MP4 audio), for those who may see the game."
    )


class ClueOut(Answer):
    """A clue: its words (may be empty when it has a drawing or sound) and its drawing or sound."""

    text: str
    media: ClueMediaLink | None


class ClueMediaOut(Answer):
    id: int = Field(description="Give it as the clue action's `media`.")


class Card(Answer):
    id: IdText
    image: PictureUrl = Field(
        description="The absolute URL that serves the picture to those who may see this game; empty for a card "
        "removed or hidden (`removed`, `hidden`): show a grey placeholder."
    )
    alt: str = Field(
        description="The picture in words, in the request's language where the card has them; for a removed or "
        "hidden card, what the placeholder says (“Card removed”, “Card hidden after reports”)."
    )
    alt_lang: str = Field(
        "", description="The language of `alt` when it is not the request's (the card has no words in it), else empty."
    )
    removed: bool = Field(
        False, description="Sent (true) only when its owner or an admin deleted it: a grey placeholder, no picture."
    )
    hidden: bool = Field(
        False, description="Sent (true) only when it is hidden after players reported it, until an admin decides."
    )


class TableCard(Answer):
    """A card on the table in the vote phase: no id, no owner (an id would match it to a hand seen earlier)."""

    image: PictureUrl
    alt: str
    alt_lang: str = ""
    removed: bool = False
    hidden: bool = False
    position: int
    mine: bool = Field(description="The caller's own card (or the storyteller's, for the storyteller).")


class RevealedCard(Card):
    position: int
    owner: str | None
    voters: list[str | None]


class ScoreReason(Answer):
    """One line of a player's points in a round."""

    code: Literal[engine.REASONS] = Field(  # type: ignore[valid-type]
        description="The rule: `storyteller_some_found` (3, or 4 by the three-player rule), `storyteller_all_found`, "
        "`storyteller_none_found`, `storyteller_no_votes`, `storyteller_lost_turn` (0), `found` (3 or 4), "
        "`all_found`, `none_found` (2), `not_found`, `no_vote` (0), `votes_on_card` (1 a vote)."
    )
    points: int
    count: int = Field(description="`votes_on_card`: the votes; the storyteller's lines: the players who found it.")
    text: str = Field(description="The reason in words, in the request's language (without the points).")


class PlayerPoints(Answer):
    player: str | None
    points: int = Field(description="The player's points this round: the sum of the reasons' points.")
    reasons: list[ScoreReason]


class LastRound(Answer):
    round: int
    storyteller: str | None
    clue: ClueOut | None = Field(description="Null when the storyteller gave no clue in time.")
    skipped: bool = Field(description="The storyteller gave no clue in time: no cards, no points.")
    storyteller_position: int | None
    table: list[RevealedCard]
    points: dict[str, int] = Field(description="Points this round by username.")
    breakdown: list[PlayerPoints] = Field(
        default=[], description="Each player's points this round with the reasons, in seat order."
    )
    fresh: bool = Field(default=False, description="Just revealed: the next round's clue is not given yet.")


class StorytellerYou(You):
    is_storyteller: bool = Field(default=False, description="Players only.")
    submitted: list[Card] = Field(default=[], description="Players only: the card(s) you handed in this round.")
    vote: int | None = Field(default=None, description="Players only, in the vote phase: your vote's position.")
    storyteller_card: Card | None = Field(default=None, description="The storyteller only: the card of the clue.")


class GameDeckOut(Answer):
    """The deck a game is dealt from, for its players and spectators."""

    id: int
    name: str = Field(description="Its name (a player's deck's too: those who see the game may read it).")
    owned_by: str | None = Field(description="The username of the player whose deck it is; null for the site's.")
    owned_by_name: str = Field(description="Their name as the site shows it; empty for the site's decks.")
    topped_up: bool = Field(description="A player's deck topped up with the site's cards.")


class CardReportIn(Request):
    reason: str = Field("", max_length=300, description="Why, in a few words (optional, at most 300 characters).")


class CardReportOut(Answer):
    card: str
    hidden: bool = Field(
        description="Hidden now, until an admin decides: only a card of a player's own deck, on enough reports "
        "from established accounts (a card of the site's decks never is)."
    )


class StorytellerView(GameViewBase):
    """A game of Storyteller as the caller may see it."""

    deck: GameDeckOut | None = Field(default=None, description="The deck the game is dealt from.")

    kind: Literal["storyteller"]
    phase: Phase | None = Field(description="`clue`, `submit`, `vote`, or null before the start and after the end.")
    options: StorytellerOptions
    rules: StorytellerRules
    storyteller: str | None
    clue: ClueOut | None = Field(description="Once given, this round's clue: words, and a drawing or sound.")
    hand: list[Card] = Field(description="The caller's own cards only.")
    table: list[TableCard] = Field(description="In the vote phase; `mine` marks the caller's own card(s).")
    cards_to_submit: int | None = Field(
        description="How many cards you hand in: 1, or 2 with 3 players (no more than your hand holds, should cards "
        "withdrawn from the game have left it short)."
    )
    draw_pile: int = Field(default=0, description="Once started: the cards left to draw.")
    end_reason: str | None = Field(
        default=None, description="Once finished: why the game ended, in words in the request's language."
    )
    you: StorytellerYou
    last_round: LastRound | None


@router.post(
    "/games/{id:game_id}/clue-media",
    summary="Upload a drawn or sung clue",
    response={201: ClueMediaOut, **errors(400, 401, 403, 404, 409, 429)},
)
def clue_media_create(request, game_id: int, file: UploadedFile = File(...)):
    """Storyteller, where the game's `rules.clue_modes` allow: a drawing (a still PNG or WebP, at most 512 KB,
    4096 pixels a side and 2048 x 2048 in full colour once decoded) or a sound (Opus in Ogg, WebM or a
    fragmented MP4, or AAC in MP4; at most 1 MB and 20 seconds counted from its packets) for the clue you
    are to give now, as the multipart form field `file`. The type is read from the bytes; anything else,
    an animation included, is 400 `bad_media`, a mode the game does not allow 400 `mode_not_allowed`.
    Each seat may try 40 uploads a game, refused ones included (then 409 `too_many_media`). Then give the
    clue with `"media": <id>`."""
    rate_hit("actions", request)
    media = clue_media_upload(game_id=game_id, user=request.user, data=clue_media_read(file))
    return Status(201, {"id": media.pk})


@router.post(
    "/games/{id:game_id}/cards/{id:card_id}/report",
    summary="Report a card",
    response={201: CardReportOut, **errors(400, 401, 403, 404, 409, 429)},
)
def card_report_create(request, game_id: int, card_id: int, payload: CardReportIn = Body(...)):
    """Players of the game: report a card you have seen in it (in your hand, handed in, on the table of the
    vote, or in a revealed round), with an optional reason. Once per player and card: a second report is 409
    `already_reported`. A card you have not seen in this game, or one removed, is 404 `not_found`; not a
    player, 403 `not_a_player`; more than 20 reports in 24 hours (`FABULA_CARD_REPORTS_PER_DAY`), 409
    `too_many_reports`. Every report goes to the admins, who keep or remove the card. A card of the site's
    decks stays in play until they decide. A card of a player's own deck is hidden at once (`"hidden":
    true`: games show a placeholder, and it leaves hands and draw piles of the games in progress) when
    FABULA_CARD_REPORTS_TO_HIDE (2) reports of it are open from accounts at least a week old that have
    finished 3 games with at least two other people (docs/playing/decks.md, "Card reports")."""
    rate_hit("actions", request)
    _report, hidden = card_report(game_id=game_id, card_id=card_id, user=request.user, reason=payload.reason)
    return Status(201, {"card": str(card_id), "hidden": hidden})
