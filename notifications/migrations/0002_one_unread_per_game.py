"""One unread notification per player and game (issue 15): the older unread rows of a
game are marked read (the newest stays, and tells the latest news), then the database
holds the rule."""

from django.db import migrations, models
from django.db.models import Count, Max, Q


def collapse_unread(apps, schema_editor):
    Notification = apps.get_model("notifications", "Notification")
    unread = Notification.objects.filter(read_at__isnull=True)
    crowded = unread.values("user_id", "game_id").annotate(newest=Max("id"), rows=Count("id")).filter(rows__gt=1).order_by()
    for group in crowded.iterator():
        older = unread.filter(user_id=group["user_id"], game_id=group["game_id"]).exclude(pk=group["newest"])
        newest = Notification.objects.filter(pk=group["newest"]).values_list("created_at", flat=True).first()
        older.update(read_at=newest)


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(collapse_unread, migrations.RunPython.noop),
        migrations.RemoveIndex(
            model_name="notification",
            name="notification_unread_idx",
        ),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=Q(read_at__isnull=True),
                fields=("user", "game"),
                name="notification_one_unread_per_game",
            ),
        ),
    ]
