"""The rows of the rounds scored before there were rows, from their JSON record.

``answers`` ({position: [texts] or None}), ``groups`` ([{id, key, items: [[seat,
index]]}]), ``rulings`` ([{kind, groups, result, items}]), ``points`` and
``scores_after`` ({position: points}) of each ThinkAlikeRound become its answer,
group, ruling and score rows. The JSON columns stay.
"""

from django.db import migrations

GAMES_AT_A_TIME = 500


def rows_from_json(apps, schema_editor):
    Round = apps.get_model("think_alike", "ThinkAlikeRound")
    Group = apps.get_model("think_alike", "ThinkAlikeGroup")
    Answer = apps.get_model("think_alike", "ThinkAlikeAnswer")
    Ruling = apps.get_model("think_alike", "ThinkAlikeRuling")
    Score = apps.get_model("think_alike", "ThinkAlikeRoundScore")
    Seat = apps.get_model("games", "Seat")

    game_ids = list(Round.objects.order_by("game_id").values_list("game_id", flat=True).distinct())
    for start in range(0, len(game_ids), GAMES_AT_A_TIME):
        chunk = game_ids[start : start + GAMES_AT_A_TIME]
        seat_ids = {
            (game_id, position): pk
            for pk, game_id, position in Seat.objects.filter(game_id__in=chunk).values_list("pk", "game_id", "position")
        }
        rounds = list(Round.objects.filter(game_id__in=chunk).order_by("pk"))
        groups = Group.objects.bulk_create(
            (
                Group(round_id=round_.pk, number=group["id"], key=group.get("key", "")[:200])
                for round_ in rounds
                for group in round_.groups
            ),
            batch_size=1000,
        )
        group_of = {}  # (round, seat position, index) -> group row id
        by_round_number = {(row.round_id, row.number): row.pk for row in groups}
        for round_ in rounds:
            for group in round_.groups:
                for seat, index in group["items"]:
                    group_of[(round_.pk, seat, index)] = by_round_number[(round_.pk, group["id"])]
        answers, rulings, scores = [], [], []
        for round_ in rounds:
            for position, given in round_.answers.items():
                seat = seat_ids.get((round_.game_id, int(position)))
                if seat is None or given is None:
                    continue
                for index, text in enumerate(given):
                    answers.append(
                        Answer(
                            round_id=round_.pk, seat_id=seat, index=index, text=text,
                            group_id=group_of.get((round_.pk, int(position), index)) if text else None,
                        )
                    )
            for order, ruling in enumerate(round_.rulings):
                rulings.append(
                    Ruling(
                        round_id=round_.pk, order=order, kind=ruling["kind"], groups=list(ruling["groups"]),
                        result=ruling["result"], items=[list(item) for item in ruling.get("items", [])],
                    )
                )
            for position, score in round_.scores_after.items():
                seat = seat_ids.get((round_.game_id, int(position)))
                if seat is not None:
                    scores.append(
                        Score(
                            round_id=round_.pk, seat_id=seat, answered=round_.answers.get(position) is not None,
                            points=round_.points.get(position, 0), score_after=score,
                        )
                    )
        Answer.objects.bulk_create(answers, batch_size=1000)
        Ruling.objects.bulk_create(rulings, batch_size=1000)
        Score.objects.bulk_create(scores, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_kinds_move_to_their_apps"),
        ("think_alike", "0002_round_rows"),
    ]

    operations = [
        # Backwards: 0002's tables go, with their rows.
        migrations.RunPython(rows_from_json, migrations.RunPython.noop),
    ]
