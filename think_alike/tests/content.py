"""Think Alike content for tests: a small world whose every field and card the test knows."""

from games.services.games import game_create, game_join
from games.tests.factories import UserFactory
from think_alike.models import BoardField, TaskCard
from think_alike.services.content import content_load_builtin

# How the test content writes a text in the languages other than English and Danish.
MARKS = {"sv": "(sv)", "nb": "(nb)", "fi": "(fi)", "fr": "(fr)"}


def texts(en: str, da: str) -> dict:
    """The six text columns of a card or field: ``en``, ``da``, and ``en`` marked for the other four."""
    return {"text_en": en, "text_da": da, **{f"text_{lang}": f"{en} {mark}" for lang, mark in MARKS.items()}}


def small_content(*, tasks: int = 40, answers: int = 1, associations: int = 20) -> dict:
    """A start field, ``associations`` association fields, a swap, a move and two duels; ``tasks`` cards.

    Returns {"start": field, "associations": [...], "swap", "move", "duel2", "duel4", "tasks": [...]}.
    """
    start = BoardField.objects.create(key="start", kind="swap", is_start=True, **texts("Start", "Start"))
    made = {
        "start": start,
        "associations": [
            BoardField.objects.create(key=f"theme-{n}", kind="association", **texts(f"Theme {n}", f"Tema {n}"))
            for n in range(associations)
        ],
        "swap": BoardField.objects.create(key="swap", kind="swap", **texts("Swap", "Byt")),
        "move": BoardField.objects.create(key="move", kind="move", **texts("Move", "Flyt")),
        "duel2": BoardField.objects.create(key="duel-2", kind="duel", bonus=2, **texts("Duel for 2", "Duel om 2")),
        "duel4": BoardField.objects.create(key="duel-4", kind="duel", bonus=4, **texts("Duel for 4", "Duel om 4")),
    }
    made["tasks"] = TaskCard.objects.bulk_create(
        TaskCard(key=f"task-{n}", answers=answers, **texts(f"Task {n}", f"Opgave {n}")) for n in range(tasks)
    )
    return made


def builtin_content() -> None:
    content_load_builtin()


def course_ids(content: dict, *action_fields: str) -> list[int]:
    """The start field, the named action fields ("swap", "move", "duel2", "duel4"), then association fields: 16."""
    ids = [content["start"].pk] + [content[name].pk for name in action_fields]
    ids += [f.pk for f in content["associations"]][: 16 - len(ids)]
    return ids


def think_alike_game(players: int = 3, *, users=None, **create_kwargs):
    """A game of Think Alike with ``players`` seated and started (the last join starts it)."""
    users = users or UserFactory.create_batch(players)
    options = create_kwargs.pop("options", {})
    game = game_create(creator=users[0], kind="think_alike", max_seats=players, options=options, **create_kwargs)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game, users
