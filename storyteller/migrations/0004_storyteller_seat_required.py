import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_kinds_move_to_their_apps"),
        ("storyteller", "0003_round_rows_from_json"),
    ]

    operations = [
        migrations.AlterField(
            model_name="storytellerround",
            name="storyteller_seat",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="storyteller_rounds",
                to="games.seat",
                verbose_name="storyteller",
            ),
        ),
    ]
