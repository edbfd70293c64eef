"""The rows of the rounds revealed before there were rows, from their JSON record.

``table`` ([{position, card, owner, voters}], seats as positions), ``points`` and
``scores_after`` ({position: points}) of each StorytellerRound become its
storyteller's seat, its table cards (where card statistics had not written them
yet), its votes and its seats' scores. A card deleted by hand since cannot be
linked: it is left off the table, with the votes it drew. The JSON columns stay.
"""

from django.db import migrations

GAMES_AT_A_TIME = 500


def rows_from_json(apps, schema_editor):
    Round = apps.get_model("storyteller", "StorytellerRound")
    TableCard = apps.get_model("storyteller", "StorytellerTableCard")
    Vote = apps.get_model("storyteller", "StorytellerVote")
    Score = apps.get_model("storyteller", "StorytellerRoundScore")
    Seat = apps.get_model("games", "Seat")
    Card = apps.get_model("storyteller", "Card")

    game_ids = list(Round.objects.order_by("game_id").values_list("game_id", flat=True).distinct())
    for start in range(0, len(game_ids), GAMES_AT_A_TIME):
        chunk = game_ids[start : start + GAMES_AT_A_TIME]
        seat_ids = {
            (game_id, position): pk
            for pk, game_id, position in Seat.objects.filter(game_id__in=chunk).values_list("pk", "game_id", "position")
        }
        rounds = list(Round.objects.filter(game_id__in=chunk).order_by("pk"))
        round_ids = [round_.pk for round_ in rounds]
        laid = {
            (row.round_id, row.position): row for row in TableCard.objects.filter(round_id__in=round_ids)
        }
        wanted = {entry["card"] for round_ in rounds for entry in round_.table}
        cards = set(Card.objects.filter(pk__in=wanted).values_list("pk", flat=True))

        new_cards = []
        for round_ in rounds:
            round_.storyteller_seat_id = seat_ids.get((round_.game_id, round_.storyteller))
            if round_.skipped or any((round_.pk, entry["position"]) in laid for entry in round_.table):
                continue
            votes_cast = sum(len(entry["voters"]) for entry in round_.table)
            for entry in round_.table:
                owner = seat_ids.get((round_.game_id, entry["owner"]))
                if entry["card"] not in cards or owner is None:
                    continue
                new_cards.append(
                    TableCard(
                        round_id=round_.pk,
                        card_id=entry["card"],
                        owner_id=owner,
                        position=entry["position"],
                        is_storyteller_card=entry["card"] == round_.storyteller_card_id,
                        votes=len(entry["voters"]),
                        votes_cast=votes_cast,
                    )
                )
        for row in TableCard.objects.bulk_create(new_cards, batch_size=1000):
            laid[(row.round_id, row.position)] = row
        Round.objects.bulk_update(rounds, ["storyteller_seat"], batch_size=1000)

        votes, scores = [], []
        for round_ in rounds:
            for entry in round_.table:
                card = laid.get((round_.pk, entry["position"]))
                if card is None:
                    continue
                for voter in entry["voters"]:
                    seat = seat_ids.get((round_.game_id, voter))
                    if seat is not None and seat != card.owner_id:
                        votes.append(Vote(round_id=round_.pk, voter_id=seat, table_card_id=card.pk))
            for position, score in round_.scores_after.items():
                seat = seat_ids.get((round_.game_id, int(position)))
                if seat is not None:
                    scores.append(
                        Score(
                            round_id=round_.pk, seat_id=seat, points=round_.points.get(position, 0), score_after=score
                        )
                    )
        Vote.objects.bulk_create(votes, batch_size=1000)
        Score.objects.bulk_create(scores, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_kinds_move_to_their_apps"),
        ("storyteller", "0002_round_rows"),
    ]

    operations = [
        # Backwards: 0002's tables go, with their rows; table cards made here stay (card statistics read them).
        migrations.RunPython(rows_from_json, migrations.RunPython.noop),
    ]
