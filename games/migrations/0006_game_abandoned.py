"""Game.abandoned: a game that finished before any round was scored (``GameKind.round_scored``).

The games finished before this migration are judged from their states by their kinds; those
abandoned lose the "shared win" their seats were given (the nightly statistics rebuild then
takes them out of the ratings)."""

from django.db import migrations, models

CHUNK = 500


def mark_abandoned(apps, schema_editor):
    from games import kinds

    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    finished = Game.objects.filter(status="finished", state__isnull=False).order_by("pk")
    abandoned = []
    for game_id, kind_slug, state in finished.values_list("pk", "kind", "state").iterator(chunk_size=CHUNK):
        kind = kinds.get(kind_slug)
        if kind is None:
            continue
        if not kind.round_scored(kind.engine.from_dict(state)):
            abandoned.append(game_id)
    for start in range(0, len(abandoned), CHUNK):
        ids = abandoned[start : start + CHUNK]
        Game.objects.filter(pk__in=ids).update(abandoned=True)
        Seat.objects.filter(game_id__in=ids).update(is_winner=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="abandoned",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_abandoned, migrations.RunPython.noop),
    ]
