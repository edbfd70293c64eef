"""Odd one out's actions: one model per ``type``, their discriminated union, and the engine's call of each."""

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.actions import Action, FreeText, Resign


class Pick(Action):
    """Phase `pick`, everyone: one of the `words` shown, or a word of your own."""

    type: Literal["pick"]
    # The engine judges the length (`word_too_long`) of the word as it compares it.
    word: FreeText = Field(max_length=200, description="A word: one of `words[].word`, or your own.")


ACTION_MODELS = (Pick, Resign)
OddOneOutAction = Annotated[Pick | Resign, Field(discriminator="type")]
ACTION: TypeAdapter[OddOneOutAction] = TypeAdapter(OddOneOutAction)


def to_engine(action: Action) -> dict:
    """The engine's action dict for a valid action (``round`` is the core's)."""
    match action:
        case Pick(word=word):
            return {"type": "pick", "word": word}
        case Resign():
            return {"type": "resign"}
    raise TypeError(f"not an odd-one-out action: {action!r}")
