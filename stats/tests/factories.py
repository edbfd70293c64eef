"""Finished games written straight into the database, round by round, for exact cases."""

from datetime import datetime, timedelta

from django.utils import timezone

from storyteller.engine import rules as engine
from games.models import Game, Seat
from storyteller.models import Card, StorytellerRound


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
    made-up ids.
    """
    finished_at = finished_at or timezone.now()
    cards = list(Card.objects.filter(deck=deck).order_by("pk").values_list("pk", flat=True)) if deck else []
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
        points = {seat: 0 for seat in range(len(users))}
        if not spec["skipped"]:
            owners_by_position, votes = {}, {}
            storyteller_position = None
            for position, (owner, voters) in enumerate(spec["table"], start=1):
                card = cards[next_card % len(cards)] if cards else 1000 + next_card
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
    StorytellerRound.objects.bulk_create(rows)
    present = [seat for seat in range(len(users)) if seat not in resigned]
    top = max(scores[seat] for seat in present)
    Seat.objects.bulk_create(
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
    return game
