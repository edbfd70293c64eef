"""A player's public record (issue 38; added to the API by ``FABULA_API_ROUTERS``): ``GET /players/{username}``."""

from django.utils import timezone
from ninja import Router
from pydantic import Field

from games.api.errors import errors
from games.api.schemas import Answer

from .selectors import player_record

router = Router(tags=["players"])


class ReliabilityOut(Answer):
    finished_share: float | None = Field(
        description="Of the player's games that ended in the last 12 months, the share they played to the end "
        "(not resigned, not absent at the end); null under 5 such games."
    )
    on_time_share: float | None = Field(
        description="Of their turns in those 12 months, the share played before the deadline; null under 5 games."
    )
    games_counted: int = Field(description="Their games that ended in the last 12 months.")


class PlayerOut(Answer):
    username: str
    rating: int | None = Field(description="Their best rating over the kinds of game they played; null: none yet.")
    games_finished: int = Field(description="Every game they played to its end.")
    reliability: ReliabilityOut


@router.get("/players/{username}", summary="A player's record", response={200: PlayerOut, **errors(401, 404, 429)})
def players_detail(request, username: str):
    """A player's public record: their rating, the games they finished, and over the last 12 months the share of
    their games they finished and of their turns they played in time (what a game's `min_reliability` asks of
    `finished_share`). 404 for no such player, or a deleted account."""
    return player_record(username=username, now=timezone.now())
