"""The games' own models move to their apps (storyteller, think_alike), tables and rows kept.

A game's deck moves from a column of the core's Game into its options ("deck": id):
only Storyteller deals from a deck. The other models leave the core's state only
(``SeparateDatabaseAndState``): their tables stay as they are, and the games' apps
take them over in their first migrations (same ``db_table``).
"""

from django.db import migrations, models

import games.kinds


def deck_into_options(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(deck__isnull=False).only("pk", "options", "deck_id").iterator():
        game.options = {**(game.options or {}), "deck": game.deck_id}
        game.save(update_fields=["options"])


def deck_from_options(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(kind="storyteller").only("pk", "options").iterator():
        deck = (game.options or {}).pop("deck", None)
        if deck is not None:
            game.deck_id = deck
            game.save(update_fields=["options", "deck"])


MOVED_OUT = [
    # Links among the moved models, then the models: the state the apps take over.
    migrations.RemoveField(model_name="thinkalikeround", name="hint_field"),
    migrations.RemoveField(model_name="card", name="deck"),
    migrations.RemoveField(model_name="carddeal", name="card"),
    migrations.RemoveField(model_name="storytellerround", name="storyteller_card"),
    migrations.RemoveField(model_name="storytellertablecard", name="card"),
    migrations.RemoveField(model_name="carddeal", name="game"),
    migrations.RemoveField(model_name="storytellerround", name="game"),
    migrations.RemoveField(model_name="storytellertablecard", name="round"),
    migrations.RemoveField(model_name="storytellertablecard", name="owner"),
    migrations.RemoveField(model_name="thinkalikeround", name="task"),
    migrations.RemoveField(model_name="thinkalikeround", name="game"),
    migrations.DeleteModel(name="BoardField"),
    migrations.DeleteModel(name="Card"),
    migrations.DeleteModel(name="CardDeal"),
    migrations.DeleteModel(name="Deck"),
    migrations.DeleteModel(name="StorytellerRound"),
    migrations.DeleteModel(name="StorytellerTableCard"),
    migrations.DeleteModel(name="TaskCard"),
    migrations.DeleteModel(name="ThinkAlikeRound"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_think_alike"),
    ]

    operations = [
        migrations.RunPython(deck_into_options, deck_from_options),
        migrations.RemoveField(model_name="game", name="deck"),
        migrations.AlterField(
            model_name="game",
            name="kind",
            field=models.CharField(choices=games.kinds.choices, max_length=20),
        ),
        migrations.SeparateDatabaseAndState(state_operations=MOVED_OUT, database_operations=[]),
    ]
