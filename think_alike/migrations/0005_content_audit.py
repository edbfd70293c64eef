"""The content audit of issue 16, for databases loaded before it (``load_content`` then adds the new
cards and fills in the four new languages of every card and field).

- The multi-answer cards that only repeated a single card with a count are retired: new cards that
  really ask for several different answers take their place.
- Cards whose English and Danish texts asked different things, or that near-duplicated another card,
  are rewritten.

Either only where an admin has not edited the card since: its text is still the one shipped.
"""

from django.db import migrations

# key: the English text shipped
RETIRED = {
    "two-superpowers": "Two superpowers",
    "birthday-party-two": "Two things at a birthday party",
    "island-two": "Two things you would take to a desert island",
    "drawer-three": "Three things in a kitchen drawer",
    "cinema-buy": "Two things you buy at the cinema",
    "two-planets": "Two planets",
    "sky-three": "Three things in the sky",
    "zoo-two": "Two animals at the zoo",
    "pizza-two": "Two pizza toppings",
    "birds-three": "Three birds",
    "circus-three": "Three things at the circus",
    "beach-bag": "Two things in a beach bag",
    "board-games-two": "Two board games",
    "summer-words": "Three words for summer",
    "spice-rack": "Three spices in the spice rack",
    "playground-two": "Two things in a playground",
    "wedding-two": "Two things at a wedding",
    "handbag-three": "Three things in a handbag",
    "sea-animals-two": "Two animals in the sea",
    "costumes-two": "Two fancy-dress costumes",
    "forest-three": "Three things you find in the forest",
    "school-subjects-two": "Two school subjects",
    "sandwich-two": "Two things in a sandwich",
    "bathroom-cabinet": "Three things in the bathroom cabinet",
    "breakfast-table": "Two things on the breakfast table",
}

# key: [[English, Danish] shipped, [English, Danish] now]
REWRITTEN = {
    "three-fruits": [["Three fruits", "Tre frugter"], ["Three fruits in a fruit salad", "Tre frugter i en frugtsalat"]],
    "home-town": [["A city in Europe", "En by i Danmark"], ["A town or city in Britain", "En by i Danmark"]],
    "famous-dane": [["A famous Dane", "En kendt dansker"], ["A famous Brit", "En kendt dansker"]],
    "christmas-treats": [
        ["Three Christmas treats", "Tre slags julesmåkager"],
        ["Three things you bake for Christmas", "Tre ting, man bager til jul"],
    ],
    "scary": [
        ["Something scary", "Noget uhyggeligt"],
        ["Something scary in a haunted house", "Noget uhyggeligt i et spøgelseshus"],
    ],
    "rainy-day-place": [
        ["Somewhere to go on a rainy day", "Et sted at tage hen en regnvejrsdag"],
        ["A place to go on a school trip", "Et sted, man tager hen på skoleudflugt"],
    ],
    "farm-three": [
        ["Three things on a farm", "Tre ting på en bondegård"],
        ["Three things a farmer grows", "Tre ting, en landmand dyrker"],
    ],
    "holiday": [["A holiday", "En højtid"], ["A holiday people celebrate", "En højtid"]],
    "midnight-snack": [["A midnight snack", "Noget, man spiser ved midnat"], ["A midnight snack", "En midnatssnack"]],
}


def audit(apps, schema_editor):
    TaskCard = apps.get_model("think_alike", "TaskCard")
    for key, text_en in RETIRED.items():
        TaskCard.objects.filter(key=key, text_en=text_en).update(is_retired=True)
    for key, ((old_en, old_da), (new_en, new_da)) in REWRITTEN.items():
        TaskCard.objects.filter(key=key, text_en=old_en, text_da=old_da).update(text_en=new_en, text_da=new_da)


def unaudit(apps, schema_editor):
    TaskCard = apps.get_model("think_alike", "TaskCard")
    for key, text_en in RETIRED.items():
        TaskCard.objects.filter(key=key, text_en=text_en).update(is_retired=False)
    for key, ((old_en, old_da), (new_en, new_da)) in REWRITTEN.items():
        TaskCard.objects.filter(key=key, text_en=new_en, text_da=new_da).update(text_en=old_en, text_da=old_da)


class Migration(migrations.Migration):
    dependencies = [("think_alike", "0004_content_languages")]

    operations = [migrations.RunPython(audit, unaudit)]
