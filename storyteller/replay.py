"""A finished Storyteller game round by round, read from its round rows."""

from django.utils.translation import get_language

from games.models import Game, Seat
from games.selectors.common import replay_link, replay_player_of, replay_players, replay_standings
from storyteller.engine import rules as engine
from storyteller.models import StorytellerRound, StorytellerRoundScore, StorytellerTableCard, StorytellerVote
from storyteller.models.cards import alt_language
from storyteller.selectors import breakdown_out, card_face, clue_out
from storyteller.services.game import storyteller_rules


def storyteller_replay(*, game: Game, seats: list[Seat]) -> dict:
    """Every revealed round of a Storyteller game, as it happened.

    Four queries, whatever the number of rounds: the rounds, their table cards
    (with the pictures), the votes, the scores.
    """
    players = replay_players(seats)
    player = replay_player_of(players)

    rounds = list(
        StorytellerRound.objects.filter(game=game)
        .order_by("number")
        .values("id", "number", "storyteller", "clue", "skipped", "clue_media_id", "clue_media__kind")
    )
    tables: dict[int, list[StorytellerTableCard]] = {}
    for laid in (
        StorytellerTableCard.objects.filter(round__game=game)
        .select_related("card", "owner")
        .only(
            "round_id",
            "position",
            "is_storyteller_card",
            "card__image",
            "card__alt_text",
            "card__alt_texts",
            "card__hidden_at",
            "card__removed_at",
            "owner__position",
        )
        .order_by("round_id", "position")
    ):
        tables.setdefault(laid.round_id, []).append(laid)
    voters: dict[int, list[int]] = {}
    for table_card, voter in (
        StorytellerVote.objects.filter(round__game=game)
        .order_by("voter__position")
        .values_list("table_card_id", "voter__position")
    ):
        voters.setdefault(table_card, []).append(voter)
    points: dict[int, dict[str, int]] = {}
    scores_after: dict[int, dict[str, int]] = {}
    for round_id, seat, gained, score in (
        StorytellerRoundScore.objects.filter(round__game=game)
        .order_by("seat__position")
        .values_list("round_id", "seat__position", "points", "score_after")
    ):
        points.setdefault(round_id, {})[str(seat)] = gained
        scores_after.setdefault(round_id, {})[str(seat)] = score

    replay = []
    for round_ in rounds:
        table = []
        votes = found = 0
        owners_by_position: dict[int, int] = {}
        votes_by_seat: dict[int, int] = {}
        storyteller_position = 0
        for laid in tables.get(round_["id"], ()):
            their_voters = voters.get(laid.pk, [])
            votes += len(their_voters)
            owners_by_position[laid.position] = laid.owner.position
            votes_by_seat.update(dict.fromkeys(their_voters, laid.position))
            if laid.is_storyteller_card:
                found = len(their_voters)
                storyteller_position = laid.position
            card = laid.card
            table.append(
                {
                    "id": card.pk,
                    **card_face(card, alt_language(get_language())),
                    "position": laid.position,
                    "owner": player(laid.owner.position),
                    "voters": [player(voter) for voter in their_voters],
                    "is_storytellers": laid.is_storyteller_card,
                }
            )
        if round_["skipped"]:
            outcome = "skipped"
        elif not votes:
            outcome = "no_votes"
        elif found == votes:
            outcome = "all_found"
        elif found == 0:
            outcome = "none_found"
        else:
            outcome = "just_right"
        standing = {"points": points.get(round_["id"], {}), "scores_after": scores_after.get(round_["id"], {})}
        if round_["skipped"] or not storyteller_position:
            lines: tuple[engine.Reason, ...] = (engine.Reason(round_["storyteller"], engine.STORYTELLER_LOST_TURN, 0),)
        else:
            lines = engine.score_breakdown(
                storyteller=round_["storyteller"],
                storyteller_position=storyteller_position,
                owners_by_position=owners_by_position,
                votes=votes_by_seat,
                three_players=len(seats) == 3,
            )
        round_points = {int(seat): pts for seat, pts in standing["points"].items()}
        replay.append(
            {
                "number": round_["number"],
                "storyteller": player(round_["storyteller"]),
                "clue": None
                if round_["skipped"]
                else clue_out(
                    game_id=game.pk,
                    text=round_["clue"],
                    media_id=round_["clue_media_id"],
                    kinds={round_["clue_media_id"]: round_["clue_media__kind"]},
                ),
                "outcome": outcome,
                "votes": votes,
                "found": found,
                "table": table,
                "standings": replay_standings(standing, player),
                "breakdown": breakdown_out(lines, round_points, player),
            }
        )
    replay_link(replay)
    rules = storyteller_rules(game.options or {}, seats=len(seats))
    # ``house`` is what the board's line of house rules reads (``view.rules``).
    return {
        "game": game,
        "players": list(players.values()),
        "rounds": replay,
        "rules": rules,
        "house": {"rules": rules},
    }
