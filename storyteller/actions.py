"""Storyteller's actions: one model per ``type``, their discriminated union, and the engine's call of each.

The pages' forms and the API's JSON are validated by ``ACTION`` (strict for JSON,
lax for a form's strings: the caller says); ``to_engine`` turns a valid action
into what the pure engine takes.
"""

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.actions import Action, FreeText, Id, Resign


class Clue(Action):
    """Phase `clue`, the storyteller (in round 1: whoever gives the first clue): a card and a few words about it,
    or a drawing or sound (where the game's `rules.clue_modes` allow) uploaded first to `clue-media`."""

    type: Literal["clue"]
    card: Id = Field(description="A card id from your hand (`hand[].id`).")
    # The engine judges the length (`clue_too_long`); the schema says it.
    text: FreeText = Field(
        json_schema_extra={"maxLength": 200},
        description="The clue: 1 to 200 characters; may be empty with `media`.",
    )
    media: Id | None = Field(
        default=None,
        description="A drawing or sound you uploaded for this clue (`POST /api/v1/games/{id}/clue-media`'s `id`).",
    )


class Submit(Action):
    """Phase `submit`, everyone but the storyteller: the card(s) that fit the clue best."""

    type: Literal["submit"]
    cards: list[Id] = Field(
        json_schema_extra={"minItems": 1, "maxItems": 2},
        description="Card ids from your hand: `cards_to_submit` of them (one, or two with 3 players).",
    )


class Vote(Action):
    """Phase `vote`, everyone but the storyteller: the table position of the card you think is the storyteller's."""

    type: Literal["vote"]
    position: int = Field(json_schema_extra={"minimum": 1}, description="A table position, from 1; not your own card.")


ACTION_MODELS = (Clue, Submit, Vote, Resign)
StorytellerAction = Annotated[Clue | Submit | Vote | Resign, Field(discriminator="type")]
ACTION: TypeAdapter[StorytellerAction] = TypeAdapter(StorytellerAction)


def to_engine(action: Action) -> dict:
    """The engine's action dict for a valid action (card ids as integers; ``round`` is the core's)."""
    match action:
        case Clue(card=card, text=text, media=media):
            clue = {"type": "clue", "card": int(card), "text": text}
            return clue if media is None else clue | {"media": int(media)}
        case Submit(cards=cards):
            return {"type": "submit", "cards": [int(card) for card in cards]}
        case Vote(position=position):
            return {"type": "vote", "position": position}
        case Resign():
            return {"type": "resign"}
    raise TypeError(f"not a Storyteller action: {action!r}")
