"""Think Alike's actions: one model per ``type``, their discriminated union, and the engine's call of each.

The pages' forms and the API's JSON are validated by ``ACTION`` (strict for JSON,
lax for a form's strings: the caller says); ``to_engine`` turns a valid action
into what the pure engine takes. Limits the engine judges with a code of its own
(an answer's length, how many answers) are only described here.
"""

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.actions import Action, FreeText, Id, Resign

FieldId = Annotated[Id, Field(description="A board field's id (`board[].id`, `choices`).")]
Position = Annotated[int, Field(json_schema_extra={"minimum": 0, "maximum": 15})]


class PlaceField(Action):
    """Phase `draft`, the drafter: lay the next field of the board."""

    type: Literal["place_field"]
    field: FieldId = Field(description="A field not on the board yet (`choices.fields[].id`).")


class Roll(Action):
    """Phase `roll`, the turn holder: roll the die."""

    type: Literal["roll"]


class Move(Action):
    """Phase `move`, the turn holder: move the token the die's number of fields."""

    type: Literal["move"]
    direction: Literal["cw", "ccw"] = Field(description="Clockwise (positions count up) or counter-clockwise.")


class Swap(Action):
    """Phase `swap`, the turn holder: replace a field of the board (not the start) by an unused one.

    The token goes to the new field.
    """

    type: Literal["swap"]
    remove: FieldId = Field(description="A field on the board (`choices.remove[].id`).")
    add: FieldId = Field(description="A field not on the board (`choices.add[].id`).")


class MoveTo(Action):
    """Phase `move_to`, the turn holder: move the token to any other field."""

    type: Literal["move_to"]
    position: Position = Field(description="A board position, 0 to 15 (`choices.positions`).")


class Duel(Action):
    """Phase `duel`, the turn holder: name the opponent and the association field the token moves to."""

    type: Literal["duel"]
    opponent: int = Field(description="The opponent's seat (`choices.opponents[].seat`).")
    position: Position | None = Field(
        description="An association field's position (`choices.positions`); null only if the board has none."
    )


class Answer(Action):
    """Phase `answer`, everyone: your answers, as many as the task card asks for."""

    type: Literal["answer"]
    answers: list[Annotated[FreeText, Field(json_schema_extra={"maxLength": 60})]] = Field(
        json_schema_extra={"maxItems": 10},
        description="Exactly `task.answers` texts of at most 60 characters; a blank one matches nothing.",
    )


class Merge(Action):
    """Phase `review`, the turn holder: these groups mean the same (for the rest of the game)."""

    type: Literal["merge"]
    groups: list[int] = Field(json_schema_extra={"minItems": 2}, description="Two or more group ids (`groups[].id`).")


class Split(Action):
    """Phase `review`, the turn holder: these answers of a group mean something else."""

    type: Literal["split"]
    group: int = Field(description="A group id (`groups[].id`).")
    items: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(
        description="`[seat, index]` of the answers to split off (`groups[].answers[]`): some, not all, of the group's."
    )


class Confirm(Action):
    """Phase `review`, the turn holder: the groups are right; score the round."""

    type: Literal["confirm"]


class Rejoin(Action):
    """A player marked absent is back (any other action says so too)."""

    type: Literal["rejoin"]


ACTION_MODELS = (PlaceField, Roll, Move, Swap, MoveTo, Duel, Answer, Merge, Split, Confirm, Rejoin, Resign)
ThinkAlikeAction = Annotated[
    PlaceField | Roll | Move | Swap | MoveTo | Duel | Answer | Merge | Split | Confirm | Rejoin | Resign,
    Field(discriminator="type"),
]
ACTION: TypeAdapter[ThinkAlikeAction] = TypeAdapter(ThinkAlikeAction)


def to_engine(action: Action) -> dict:
    """The engine's action dict for a valid action (field ids as integers; ``round`` is the core's)."""
    match action:
        case PlaceField(field=field):
            return {"type": "place_field", "field": int(field)}
        case Move(direction=direction):
            return {"type": "move", "direction": direction}
        case Swap(remove=remove, add=add):
            return {"type": "swap", "remove": int(remove), "add": int(add)}
        case MoveTo(position=position):
            return {"type": "move_to", "position": position}
        case Duel(opponent=opponent, position=position):
            return {"type": "duel", "opponent": opponent, "position": position}
        case Answer(answers=answers):
            return {"type": "answer", "answers": list(answers)}
        case Merge(groups=groups):
            return {"type": "merge", "groups": list(groups)}
        case Split(group=group, items=items):
            return {"type": "split", "group": group, "items": [list(item) for item in items]}
        case Roll() | Confirm() | Rejoin() | Resign():
            return {"type": action.type}
    raise TypeError(f"not a Think Alike action: {action!r}")


def form_items(values: list[str]) -> list[list[str]]:
    """A split's ticked answers from a page's form: each is "seat:index"."""
    return [value.split(":", 1) for value in values]
