"""What Think Alike's rules page shows beside its text: a board of the game's own fields and
two of its task cards, drawn as the game draws them (the ring, the task card).

The choice is stable (the first fields and cards in play, by id) so the page does not change
from one visit to the next, and read once per language every ``CACHE_SECONDS``.
"""

from django.core.cache import caches

from think_alike.engine.rules import BOARD_SIZE
from think_alike.models import LANGS, BoardField, TaskCard

CACHE_SECONDS = 600
# Where the action fields lie on the example board (the start field is at 0, the rest are associations).
ACTION_PLACES = {4: ("swap", None), 8: ("duel", 2), 10: ("move", None), 13: ("duel", 4)}
DIE = 3  # the example roll: from the start field, three fields clockwise, onto an association field


def rules_context(*, lang: str) -> dict:
    lang = lang if lang in LANGS else "en"
    cache = caches["views"]
    key = f"think_alike:rules-example:{lang}"
    context = cache.get(key)
    if context is None:
        context = _example(lang)
        cache.set(key, context, CACHE_SECONDS)
    return context


def _face(field: BoardField, lang: str, position: int) -> dict:
    return {
        "id": str(field.pk),
        "kind": field.kind,
        "text": field.text(lang),
        "bonus": field.bonus,
        "start": field.is_start,
        "position": position,
    }


def _example(lang: str) -> dict:
    fields = list(BoardField.objects.in_play().order_by("pk"))
    start = next((field for field in fields if field.is_start), None)
    associations = [field for field in fields if field.kind == "association"]
    board: list[dict] = []
    actions = {
        place: next((f for f in fields if f.kind == kind and f.bonus == bonus and not f.is_start), None)
        for place, (kind, bonus) in ACTION_PLACES.items()
    }
    pool = iter(associations)
    try:
        for position in range(BOARD_SIZE):
            field = start if position == 0 else actions.get(position) or next(pool)
            if field is None:  # no start field: no board to show
                raise StopIteration
            board.append(_face(field, lang, position))
    except StopIteration:  # too few fields in play for a board: the page goes without one
        board = []
    tasks = TaskCard.objects.in_play().order_by("pk")
    one = tasks.filter(answers=1).first()
    several = tasks.filter(answers__gt=1).first()
    shown = [{"text": task.text(lang), "answers": task.answers} for task in (one, several) if task is not None]
    view = None
    if board:
        token = DIE
        view = {
            "board": board,
            "token": token,
            "round": 1,
            "phase": "answer",
            "current": {"die": DIE, "direction": "cw"},
            "hint": board[token]["text"] if board[token]["kind"] == "association" else "",
            "lang": lang,
        }
    return {"view": view, "tasks": shown, "lang": lang}
