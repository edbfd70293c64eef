"""Every player's name made unique before the database holds it so: the later of two names
that look alike gets a number ("Anna" and "anna" become "Anna" and "anna 2")."""

from django.db import migrations

from accounts.names import name_key

NAME_MAX_LENGTH = 40


def unique_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken: set[str] = set()
    for user in User.objects.order_by("date_joined", "pk").iterator():
        if user.deleted_at is not None:
            continue
        name = user.display_name or user.username
        key = name_key(name)
        number = 1
        while key in taken:
            number += 1
            suffix = f" {number}"
            name = (user.display_name or user.username)[: NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix
            key = name_key(name)
        if name != (user.display_name or user.username):
            user.display_name = name
        taken.add(key)
        User.objects.filter(pk=user.pk).update(display_name=user.display_name, name_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_name_key_deleted_at")]

    operations = [migrations.RunPython(unique_names, migrations.RunPython.noop)]
