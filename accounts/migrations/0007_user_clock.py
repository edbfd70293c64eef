import datetime

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_user_is_bot"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="time_zone",
            field=models.CharField(default="UTC", max_length=64, verbose_name="time zone"),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_hours_start",
            field=models.TimeField(blank=True, default=datetime.time(23, 0), null=True, verbose_name="quiet hours from"),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_hours_end",
            field=models.TimeField(blank=True, default=datetime.time(7, 0), null=True, verbose_name="quiet hours until"),
        ),
        migrations.AddField(
            model_name="user",
            name="away_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="away until"),
        ),
    ]
