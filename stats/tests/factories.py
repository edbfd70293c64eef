"""Finished games written straight into the database, round by round, for exact cases."""

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Game, Seat
from storyteller.engine import rules as engine
from storyteller.models import (
    Card,
    Deck,
    StorytellerRound,
    StorytellerRoundScore,
    StorytellerTableCard,
    StorytellerVote,
)

FACTORY_CARDS = 12  # more than any table holds: the cards of a game without a deck cycle through them


def _factory_cards() -> list[int]:
    deck, _ = Deck.objects.get_or_create(slug="stats-factory", defaults={"name": "Stats factory"})
    have = Card.objects.filter(deck=deck).count()
    Card.objects.bulk_create(Card(deck=deck, alt_text=f"Card {n}") for n in range(have, FACTORY_CARDS))
    return list(Card.objects.filter(deck=deck).order_by("pk").values_list("pk", flat=True))


def story_round(storyteller: int, clue: str, table: list[tuple[int, list[int]]], *, skipped: bool = False) -> dict:
    """A round: ``table`` lists (owner, voters) per position 1..n; the storyteller's card is the one it owns."""
    return {"storyteller": storyteller, "clue": clue, "table": table, "skipped": skipped}


def finished_game(
    users,
    rounds: list[dict],
    *,
    finished_at: datetime | None = None,
    visibility: str = Game.Visibility.PUBLIC,
    resigned: tuple[int, ...] = (),
    deck=None,
) -> Game:
    """A finished Storyteller game whose rounds are scored by the engine's own rule (``score_round``).

    Cards on the table are the deck's cards in order (when a deck is given), else
    a factory deck's. Writes the rows ``storyteller_record`` writes: rounds, table
    cards, votes, scores (and the rounds' JSON record of before the rows).
    """
    finished_at = finished_at or timezone.now()
    cards = list(Card.objects.filter(deck=deck).order_by("pk").values_list("pk", flat=True)) if deck else []
    cards = cards or _factory_cards()
    game = Game.objects.create(
        kind="storyteller",
        status=Game.Status.FINISHED,
        phase="finished",
        phase_seconds=3600,
        max_seats=len(users),
        creator=users[0],
        options={"deck": deck.pk} if deck else {},
        visibility=visibility,
        started_at=finished_at - timedelta(hours=len(rounds) + 1),
        finished_at=finished_at,
        round=len(rounds),
    )
    scores = [0] * len(users)
    next_card = 0
    rows = []
    for number, spec in enumerate(rounds, start=1):
        storyteller = spec["storyteller"]
        table = []
        points = dict.fromkeys(range(len(users)), 0)
        if not spec["skipped"]:
            owners_by_position, votes = {}, {}
            storyteller_position = None
            for position, (owner, voters) in enumerate(spec["table"], start=1):
                card = cards[next_card % len(cards)]
                next_card += 1
                table.append({"position": position, "card": card, "owner": owner, "voters": list(voters)})
                owners_by_position[position] = owner
                if owner == storyteller:
                    storyteller_position = position
                for voter in voters:
                    votes[voter] = position
            points.update(
                engine.score_round(
                    storyteller=storyteller,
                    storyteller_position=storyteller_position,
                    owners_by_position=owners_by_position,
                    votes=votes,
                    three_players=len(users) == 3,
                )
            )
        for seat, gained in points.items():
            scores[seat] += gained
        rows.append(
            StorytellerRound(
                game=game,
                number=number,
                storyteller=storyteller,
                clue="" if spec["skipped"] else spec["clue"],
                skipped=spec["skipped"],
                table=table,
                points={str(seat): gained for seat, gained in points.items()},
                scores_after={str(seat): score for seat, score in enumerate(scores)},
                revealed_at=finished_at - timedelta(minutes=len(rounds) - number),
            )
        )
    present = [seat for seat in range(len(users)) if seat not in resigned]
    top = max(scores[seat] for seat in present)
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            user=user,
            position=seat,
            score=scores[seat],
            has_resigned=seat in resigned,
            is_winner=seat in present and scores[seat] == top,
        )
        for seat, user in enumerate(users)
    )
    seat_ids = {seat.position: seat.pk for seat in seats}
    for row in rows:
        row.storyteller_seat_id = seat_ids[row.storyteller]
    StorytellerRound.objects.bulk_create(rows)
    laid = StorytellerTableCard.objects.bulk_create(
        StorytellerTableCard(
            round=row,
            card_id=entry["card"],
            owner_id=seat_ids[entry["owner"]],
            position=entry["position"],
            is_storyteller_card=entry["owner"] == row.storyteller,
            votes=len(entry["voters"]),
            votes_cast=sum(len(other["voters"]) for other in row.table),
        )
        for row in rows
        for entry in row.table
    )
    by_position = {(card.round_id, card.position): card for card in laid}
    StorytellerVote.objects.bulk_create(
        StorytellerVote(round=row, voter_id=seat_ids[voter], table_card=by_position[(row.pk, entry["position"])])
        for row in rows
        for entry in row.table
        for voter in entry["voters"]
    )
    StorytellerRoundScore.objects.bulk_create(
        StorytellerRoundScore(round=row, seat_id=seat_ids[int(seat)], points=row.points[seat], score_after=score)
        for row in rows
        for seat, score in row.scores_after.items()
    )
    return game
