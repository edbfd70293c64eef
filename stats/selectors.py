"""Every read of statistics: replays, player profiles and leaderboards.

Each page reads a fixed number of queries, whatever the number of rounds, games
or players behind it (the tests count them).
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404

from games.models import Card, Game, Seat, StorytellerRound, ThinkAlikeRound
from games.selectors.storyteller import _card as card_view

from . import ratings
from .kinds import KINDS, STORYTELLER_MIN_TURNS, THINK_ALIKE_MIN_ANSWERS, Board, Totals, board_of
from .models import GameRecord, Leaderboard, LeaderboardEntry, Period, PlayerStats

LEADERBOARD_PAGE_SIZE = 50
PROFILE_PAGE_SIZE = 20


# --- replays ---------------------------------------------------------------------------


def _players(seats: list[Seat]) -> dict[int, dict]:
    return {
        seat.position: {
            "seat": seat.position,
            "username": seat.user.username,
            "name": seat.user.name,
            "colour": seat.colour,
        }
        for seat in seats
    }


def storyteller_replay(*, game: Game, seats: list[Seat]) -> dict:
    """Every revealed round of a Storyteller game, as it happened: one query for the rounds, one for the cards."""
    players = _players(seats)
    unknown = {"seat": None, "username": "", "name": "?", "colour": "white"}

    def player(position):
        return players.get(position, unknown)

    rounds = list(
        StorytellerRound.objects.filter(game=game)
        .order_by("number")
        .values("number", "storyteller", "clue", "skipped", "table", "points", "scores_after")
    )
    card_ids = {entry["card"] for round_ in rounds for entry in round_["table"]}
    cards = Card.objects.in_bulk(card_ids) if card_ids else {}
    replay = []
    for round_ in rounds:
        storyteller = round_["storyteller"]
        table = []
        votes = found = 0
        for entry in round_["table"]:
            is_storytellers = entry["owner"] == storyteller
            votes += len(entry["voters"])
            if is_storytellers:
                found = len(entry["voters"])
            table.append(
                card_view(cards.get(entry["card"]), entry["card"])
                | {
                    "position": entry["position"],
                    "owner": player(entry["owner"]),
                    "voters": [player(voter) for voter in entry["voters"]],
                    "is_storytellers": is_storytellers,
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
        replay.append(
            {
                "number": round_["number"],
                "storyteller": player(storyteller),
                "clue": round_["clue"],
                "outcome": outcome,
                "votes": votes,
                "found": found,
                "table": table,
                "standings": _standings(round_, player),
            }
        )
    for before, after in zip(replay, replay[1:]):
        before["next"], after["previous"] = after["number"], before["number"]
    return {"game": game, "players": list(players.values()), "rounds": replay}


def _standings(round_: dict, player) -> list[dict]:
    """Every seat: the points of a round and the score after it, best score first."""
    return sorted(
        (
            player(int(seat)) | {"points": round_["points"].get(seat, 0), "score": score}
            for seat, score in round_["scores_after"].items()
        ),
        key=lambda row: (-row["score"], int(row["seat"] if row["seat"] is not None else 99)),
    )


def think_alike_replay(*, game: Game, seats: list[Seat]) -> dict:
    """Every scored round of a Think Alike game: one query; field texts come from the game's own state."""
    players = _players(seats)
    unknown = {"seat": None, "username": "", "name": "?", "colour": "white"}

    def player(position):
        return players.get(position, unknown)

    fields = {f["id"]: f["text"] for f in (game.state or {}).get("fields", [])}
    replay = []
    for round_ in ThinkAlikeRound.objects.filter(game=game).order_by("number").values():
        answers = round_["answers"]
        groups = []
        for group in round_["groups"]:
            in_group = sorted({seat for seat, _index in group["items"]})
            groups.append(
                {
                    "answers": [
                        {"player": player(seat), "text": answers[str(seat)][index]} for seat, index in group["items"]
                    ],
                    "points_each": len(in_group) - 1,
                }
            )
        swap = round_["swap"]
        turn = round_["turn"]
        opponent, winner = round_["duel_opponent"], round_["duel_winner"]
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
                "groups": groups,
                "merges": sum(1 for ruling in round_["rulings"] if ruling["kind"] == "merge"),
                "splits": sum(1 for ruling in round_["rulings"] if ruling["kind"] == "split"),
                "no_answer": [player(int(seat)) for seat, given in answers.items() if given is None],
                "standings": _standings(round_, player),
            }
        )
    for before, after in zip(replay, replay[1:]):
        before["next"], after["previous"] = after["number"], before["number"]
    return {"game": game, "players": list(players.values()), "rounds": replay}


REPLAYS = {Game.Kind.STORYTELLER: storyteller_replay, Game.Kind.THINK_ALIKE: think_alike_replay}
REPLAY_TEMPLATES = {
    Game.Kind.STORYTELLER: "stats/partials/replay_storyteller.html",
    Game.Kind.THINK_ALIKE: "stats/partials/replay_think_alike.html",
}


def game_replay(*, game: Game, seats: list[Seat]) -> dict:
    """The replay of a game the viewer may see (``games.selectors.games.game_get_for_viewer`` says who)."""
    build = REPLAYS.get(game.kind)
    if build is None:
        raise Http404("no replay for this kind of game")
    return build(game=game, seats=seats) | {"template": REPLAY_TEMPLATES[game.kind]}


# --- profiles -------------------------------------------------------------------------------


@dataclass(frozen=True)
class KindProfile:
    kind: str
    label: str
    games: int
    wins: int
    rounds: int
    points: int
    points_per_round: float | None
    rating: float
    rating_mu: float
    rating_sigma: float
    figures: list
    ranks: list  # [(board, period label, entry)]


def player_get(*, username: str):
    try:
        return get_user_model().objects.get(username=username, is_active=True)
    except get_user_model().DoesNotExist:
        raise Http404("no such player") from None


def player_games(*, player, viewer, page) -> Page:
    """The player's finished games, newest first, with their result; a private game only to its players.

    Each record on the page carries ``table``: every player's record in that game.
    """
    # The game's visibility comes with the page's rows (select_related), not as an
    # annotation: the paginator's count then needs no join on the player's own page.
    records = GameRecord.objects.filter(user=player).select_related("game").only(
        "game_id", "kind", "finished_at", "rank", "players", "score", "won", "resigned", "game__visibility"
    )
    if not (viewer.is_authenticated and viewer.pk == player.pk):
        visible = Q(game__visibility=Game.Visibility.PUBLIC)
        if viewer.is_authenticated:
            visible |= Q(Exists(Seat.objects.filter(game=OuterRef("game"), user=viewer)))
        records = records.filter(visible)
    records = records.order_by("-finished_at", "-game_id")
    page_obj = Paginator(records, PROFILE_PAGE_SIZE).get_page(page)
    tables: dict[int, list[GameRecord]] = {}
    game_ids = [record.game_id for record in page_obj]
    if game_ids:
        for other in (
            GameRecord.objects.filter(game_id__in=game_ids).select_related("user").order_by("game_id", "rank", "seat")
        ):
            tables.setdefault(other.game_id, []).append(other)
    for record in page_obj:
        record.table = tables.get(record.game_id, [])
        record.visibility = record.game.visibility
    return page_obj


def player_profile(*, player) -> list[KindProfile]:
    """The player's statistics and leaderboard places, per kind of game: two queries."""
    entries: dict[str, list] = {}
    for entry in LeaderboardEntry.objects.filter(user=player).select_related("leaderboard"):
        entries.setdefault(entry.leaderboard.kind, []).append(entry)
    profiles = []
    for stats in PlayerStats.objects.filter(user=player).order_by("kind"):
        kind_stats = KINDS.get(stats.kind)
        if kind_stats is None:
            continue
        totals = Totals(games=stats.games, wins=stats.wins, rounds=stats.rounds, points=stats.points, counts=stats.counts)
        places = []
        for board in kind_stats.boards:
            for period in Period:
                entry = next(
                    (e for e in entries.get(stats.kind, []) if e.leaderboard.board == board.slug and e.leaderboard.period == period),
                    None,
                )
                if entry is not None:
                    page = -(-entry.position // LEADERBOARD_PAGE_SIZE)
                    places.append({"board": board, "period": period, "entry": entry, "page": page})
        profiles.append(
            KindProfile(
                kind=stats.kind,
                label=Game.Kind(stats.kind).label,
                games=stats.games,
                wins=stats.wins,
                rounds=stats.rounds,
                points=stats.points,
                points_per_round=stats.points / stats.rounds if stats.rounds else None,
                rating=ratings.ordinal(stats.rating_mu, stats.rating_sigma),
                rating_mu=stats.rating_mu,
                rating_sigma=stats.rating_sigma,
                figures=kind_stats.figures(totals),
                ranks=places,
            )
        )
    return profiles


# --- leaderboards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardView:
    kind: str
    board: Board
    period: str
    boards: tuple[Board, ...]
    size: int
    as_of: object
    page: int
    pages: int
    entries: list[LeaderboardEntry]
    mine: LeaderboardEntry | None
    my_page: int | None
    min_turns: int
    min_answers: int = THINK_ALIKE_MIN_ANSWERS


def leaderboard_page(*, kind: str, board: str, period: str, page, viewer) -> LeaderboardView:
    """One page of a precomputed board and the viewer's own entry: three queries, whatever the board's size."""
    definition = board_of(kind, board)
    if definition is None or period not in Period.values:
        raise Http404("no such leaderboard")
    head = Leaderboard.objects.filter(kind=kind, board=board, period=period).first()
    size = head.size if head else 0
    pages = max(1, -(-size // LEADERBOARD_PAGE_SIZE))
    try:
        number = min(max(int(page), 1), pages)
    except (TypeError, ValueError):
        number = 1
    entries, mine = [], None
    if head is not None:
        first = (number - 1) * LEADERBOARD_PAGE_SIZE
        entries = list(
            LeaderboardEntry.objects.filter(
                leaderboard=head, position__gt=first, position__lte=first + LEADERBOARD_PAGE_SIZE
            )
            .select_related("user")
            .order_by("position")
        )
        if viewer.is_authenticated:
            mine = LeaderboardEntry.objects.filter(leaderboard=head, user=viewer).first()
    return LeaderboardView(
        kind=kind,
        board=definition,
        period=period,
        boards=KINDS[kind].boards,
        size=size,
        as_of=head.as_of if head else None,
        page=number,
        pages=pages,
        entries=entries,
        mine=mine,
        my_page=-(-mine.position // LEADERBOARD_PAGE_SIZE) if mine else None,
        min_turns=STORYTELLER_MIN_TURNS,
    )
