"""A finished Think Alike game round by round, read from its round rows."""

from django.db.models import Count, Q

from games.models import Game, Seat
from games.selectors.common import replay_link, replay_player_of, replay_players, replay_standings
from think_alike.models import ThinkAlikeAnswer, ThinkAlikeRound, ThinkAlikeRoundScore


def think_alike_replay(*, game: Game, seats: list[Seat]) -> dict:
    """Every scored round of a Think Alike game, as it happened.

    Three queries, whatever the number of rounds: the rounds (with their merges
    and splits counted), the grouped answers, the scores. Field texts come from
    the game's own state.
    """
    players = replay_players(seats)
    player = replay_player_of(players)

    fields = {f["id"]: f["text"] for f in (game.state or {}).get("fields", [])}
    rounds = (
        ThinkAlikeRound.objects.filter(game=game)
        .order_by("number")
        .annotate(
            merges=Count("ruling_rows", filter=Q(ruling_rows__kind="merge")),
            splits=Count("ruling_rows", filter=Q(ruling_rows__kind="split")),
        )
        .values(
            "id",
            "number",
            "turn",
            "task_text",
            "hint",
            "die",
            "direction",
            "landed_kind",
            "auto",
            "swap",
            "duel_opponent",
            "duel_bonus",
            "duel_winner",
            "merges",
            "splits",
        )
    )
    groups: dict[int, dict[int, list[tuple[int, str]]]] = {}
    for round_id, group_id, seat, text in (
        ThinkAlikeAnswer.objects.filter(round__game=game, group__isnull=False)
        .order_by("group__number", "seat__position", "index")
        .values_list("round_id", "group_id", "seat__position", "text")
    ):
        groups.setdefault(round_id, {}).setdefault(group_id, []).append((seat, text))
    standings: dict[int, dict] = {}
    for round_id, seat, answered, gained, score in (
        ThinkAlikeRoundScore.objects.filter(round__game=game)
        .order_by("seat__position")
        .values_list("round_id", "seat__position", "answered", "points", "score_after")
    ):
        standing = standings.setdefault(round_id, {"points": {}, "scores_after": {}, "no_answer": []})
        standing["points"][str(seat)] = gained
        standing["scores_after"][str(seat)] = score
        if not answered:
            standing["no_answer"].append(seat)

    replay = []
    for round_ in rounds:
        swap = round_["swap"]
        turn = round_["turn"]
        opponent, winner = round_["duel_opponent"], round_["duel_winner"]
        standing = standings.get(round_["id"], {"points": {}, "scores_after": {}, "no_answer": []})
        replay.append(
            {
                "number": round_["number"],
                "turn": player(turn),
                "task": round_["task_text"],
                "hint": round_["hint"],
                "die": round_["die"],
                "direction": round_["direction"],
                "landed_kind": round_["landed_kind"],
                "auto": round_["auto"],
                "swap": {"removed": fields.get(swap[0], "?"), "added": fields.get(swap[1], "?")} if swap else None,
                "duel": None
                if opponent is None
                else {
                    "challenger": player(turn),
                    "opponent": player(opponent),
                    "bonus": round_["duel_bonus"],
                    "winner": player(winner) if winner is not None else None,
                },
                "groups": [
                    {
                        "answers": [{"player": player(seat), "text": text} for seat, text in items],
                        "points_each": len({seat for seat, _text in items}) - 1,
                    }
                    for items in groups.get(round_["id"], {}).values()
                ],
                "merges": round_["merges"],
                "splits": round_["splits"],
                "no_answer": [player(seat) for seat in standing["no_answer"]],
                "standings": replay_standings(standing, player),
            }
        )
    replay_link(replay)
    return {"game": game, "players": list(players.values()), "rounds": replay}
