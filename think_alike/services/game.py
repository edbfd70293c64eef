"""Think Alike beside its engine: a new game's options, its first state, its round records."""

from datetime import timedelta
from typing import TypeGuard

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.engine.errors import RuleError
from games.models import Game
from games.services.errors import GameError, from_rule_error
from think_alike.engine import rules as engine
from think_alike.models import (
    LANGS,
    BoardField,
    TaskCard,
    ThinkAlikeAnswer,
    ThinkAlikeGroup,
    ThinkAlikeRound,
    ThinkAlikeRoundScore,
    ThinkAlikeRuling,
    content_lang,
)

MAX_TARGET = 999
MIN_MINUTES = 5
MAX_MINUTES = 30 * 24 * 60


def _is_int(value) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid(message) -> GameError:
    return GameError("bad_options", message, "invalid")


def think_alike_options_clean(options: dict, *, max_seats: int | None = None) -> dict:
    """The options of a new game of Think Alike, checked; raises ``GameError`` ("bad_options").

    ``stop``: "points" (``target``, default players x 6 at the start), "tasks"
    (``count``) or "time" (``minutes`` from the start); ``board``: "random",
    "draft" or "course" (``course``: 16 field ids, the start field first); ``lang``:
    the language of the task cards and fields, and of answer matching.
    """
    stop = options.get("stop") or "points"
    if stop not in engine.STOPS:
        raise _invalid(_("Choose how the game ends: a point target, a number of task cards or a time limit."))
    tasks_in_play = TaskCard.objects.in_play().count()
    if not tasks_in_play:
        raise _invalid(_("There are no task cards in play: an admin must add some first."))
    cleaned: dict = {"stop": stop}
    if stop == "points":
        target = options.get("target")
        if target not in (None, ""):
            if not _is_int(target) or not 1 <= target <= MAX_TARGET:
                raise _invalid(_("A point target is from 1 to %(max)d points.") % {"max": MAX_TARGET})
            cleaned["target"] = target
    elif stop == "tasks":
        count = options.get("count")
        if not _is_int(count) or not 1 <= count <= tasks_in_play:
            raise _invalid(_("Play from 1 to %(max)d task cards.") % {"max": tasks_in_play})
        cleaned["count"] = count
    else:
        minutes = options.get("minutes")
        if not _is_int(minutes) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise _invalid(
                _("A time limit is from %(min)d minutes to %(max)d minutes (30 days).")
                % {"min": MIN_MINUTES, "max": MAX_MINUTES}
            )
        cleaned["minutes"] = minutes
    board = options.get("board") or "random"
    if board not in engine.BOARD_WAYS:
        raise _invalid(_("Choose how the board is laid: at random, drafted by the players, or a course."))
    cleaned["board"] = board
    if board == "course":
        cleaned["course"] = _course_clean(options.get("course"))
    else:
        fields = BoardField.objects.in_play()
        if not fields.filter(is_start=True).exists() or fields.count() < engine.BOARD_SIZE:
            raise _invalid(
                _("There are not enough board fields in play for a board of %(n)d: an admin must add some.")
                % {"n": engine.BOARD_SIZE}
            )
    lang = options.get("lang")
    if not lang:  # the creator's language, where the cards are written in it and answers matched in it
        lang = content_lang(translation.get_language())
        lang = lang if lang in engine.LANGS else "en"
    if lang not in LANGS or lang not in engine.LANGS:
        raise _invalid(_("Choose the language of the task cards: one of %(langs)s.") % {"langs": ", ".join(LANGS)})
    cleaned["lang"] = lang
    chat = options.get("chat", True)
    if not isinstance(chat, bool):
        raise _invalid(_("Chat is on or off."))
    cleaned["chat"] = chat  # the table may talk (default on)
    return cleaned


def _course_clean(course) -> list[int]:
    if not isinstance(course, (list, tuple)):
        raise _invalid(_("A course is a list of %(n)d fields.") % {"n": engine.BOARD_SIZE})
    ids = []
    for item in course:
        if isinstance(item, str) and item.isdigit() and len(item) <= 18:
            item = int(item)
        if not _is_int(item):
            raise _invalid(_("A course names its fields by their ids."))
        ids.append(item)
    if len(ids) != engine.BOARD_SIZE:
        raise _invalid(_("A course has exactly %(n)d fields, the start field first.") % {"n": engine.BOARD_SIZE})
    if len(set(ids)) != len(ids):
        raise _invalid(_("A course has every field once."))
    found = {f.pk: f for f in BoardField.objects.in_play().filter(pk__in=ids)}
    if len(found) != len(ids):
        raise _invalid(_("A course may only use board fields in play."))
    if not found[ids[0]].is_start:
        raise _invalid(_("A course begins with the start field."))
    return ids


def think_alike_new_state(*, game: Game, seats: int, rng) -> engine.State:
    """Deal the game: the fields and task cards in play now, in the game's language."""
    options = game.options
    lang = options.get("lang", "en")
    course = options.get("course") or []
    fields = BoardField.objects.filter(Q(is_retired=False) | Q(pk__in=course)).order_by("pk")
    tasks = TaskCard.objects.in_play().order_by("pk")
    engine_options = {"stop": options.get("stop", "points"), "board": options.get("board", "random"), "lang": lang}
    if options.get("target") is not None:
        engine_options["target"] = options["target"]
    if options.get("count") is not None:
        engine_options["count"] = options["count"]
    if engine_options["stop"] == "time":
        if game.started_at is None:  # games.services.games.game_start sets it first
            raise ValueError("A game is dealt as it starts: it has no start yet.")
        engine_options["ends_at"] = (game.started_at + timedelta(minutes=options["minutes"])).isoformat()
    if course:
        engine_options["course"] = course
    try:
        return engine.new_game(
            seats=seats,
            rng=rng,
            options=engine_options,
            fields=[
                {"id": f.pk, "kind": f.kind, "text": f.text(lang), "bonus": f.bonus, "start": f.is_start}
                for f in fields
            ],
            tasks=[{"id": t.pk, "text": t.text(lang), "answers": t.answers} for t in tasks],
        )
    except RuleError as error:
        raise from_rule_error(error, kinds.get(game.kind)) from None


def think_alike_record(*, game: Game, before, after, now) -> None:
    """A ThinkAlikeRound per round scored by this change."""
    done = len(before.history) if before is not None else 0
    new_rounds = after.history[done:]
    if not new_rounds:
        return
    # Scores after each new round: the final scores minus the points of later new rounds.
    running = list(after.scores)
    scores_after = []
    for played in reversed(new_rounds):
        scores_after.append(list(running))
        running = [score - points for score, points in zip(running, played.points)]
    scores_after.reverse()
    # A card or field deleted by hand since the deal keeps its text here, not its link.
    task_ids = set(TaskCard.objects.filter(pk__in=[r.task for r in new_rounds]).values_list("pk", flat=True))
    field_ids = set(
        BoardField.objects.filter(pk__in=[r.field for r in new_rounds if r.field]).values_list("pk", flat=True)
    )
    rows = []
    for played, scores in zip(new_rounds, scores_after):
        task = engine.task(after, played.task)
        duel = played.duel
        rows.append(
            ThinkAlikeRound(
                game=game,
                number=played.number,
                turn=played.turn,
                task_id=played.task if played.task in task_ids else None,
                task_text=task.text,
                answers_asked=task.answers,
                die=played.die,
                direction=played.direction or "",
                landed_kind=landed_kind(played),
                hint_field_id=played.field if played.field in field_ids else None,
                hint=engine.hint(after, played) or "",
                swap=list(played.swap) if played.swap else None,
                moved_to=played.moved_to,
                duel_opponent=duel.opponent if duel else None,
                duel_bonus=duel.bonus if duel else None,
                duel_winner=duel.winner if duel else None,
                auto=played.auto,
                # The JSON record of before the rows (answers to scores_after): written still, read by nothing.
                answers={
                    str(seat): None if given is None else list(given) for seat, given in enumerate(played.answers)
                },
                groups=[group.to_dict() for group in played.groups],
                rulings=[_ruling_dict(ruling) for ruling in played.rulings],
                points={str(seat): points for seat, points in enumerate(played.points)},
                scores_after={str(seat): score for seat, score in enumerate(scores)},
                scored_at=now,
            )
        )
    ThinkAlikeRound.objects.bulk_create(rows)
    _record_round_rows(game, rows, new_rounds, scores_after)


def _record_round_rows(game: Game, rows: list[ThinkAlikeRound], new_rounds, scores_after) -> None:
    """What everyone wrote and scored in these rounds, as rows: groups, answers, rulings, scores."""
    seat_ids = dict(game.seats.values_list("position", "pk"))
    groups = ThinkAlikeGroup.objects.bulk_create(
        ThinkAlikeGroup(round=row, number=group.id, key=group.key)
        for row, played in zip(rows, new_rounds)
        for group in played.groups
    )
    group_of = {}  # (round id, seat, index) -> its group's row
    made = iter(groups)
    for row, played in zip(rows, new_rounds):
        for group in played.groups:
            group_row = next(made)
            for seat, index in group.items:
                group_of[(row.pk, seat, index)] = group_row
    ThinkAlikeAnswer.objects.bulk_create(
        ThinkAlikeAnswer(
            round=row, seat_id=seat_ids[seat], index=index, text=text, group=group_of.get((row.pk, seat, index))
        )
        for row, played in zip(rows, new_rounds)
        for seat, given in enumerate(played.answers)
        for index, text in enumerate(given or ())
    )
    ThinkAlikeRuling.objects.bulk_create(
        ThinkAlikeRuling(
            round=row,
            order=order,
            kind=ruling.kind,
            groups=list(ruling.groups),
            result=ruling.result,
            items=[list(item) for item in ruling.items],
        )
        for row, played in zip(rows, new_rounds)
        for order, ruling in enumerate(played.rulings)
    )
    ThinkAlikeRoundScore.objects.bulk_create(
        ThinkAlikeRoundScore(
            round=row,
            seat_id=seat_ids[seat],
            answered=seat < len(played.answers) and played.answers[seat] is not None,
            points=played.points[seat],
            score_after=score,
        )
        for row, played, scores in zip(rows, new_rounds, scores_after)
        for seat, score in enumerate(scores)
    )


def landed_kind(played) -> str:
    """The kind of field the die took the token to in a round past its setup.

    Only a swap field makes a swap, a move field a move and a duel field a duel;
    a round with none of them landed on an association field (the hint) or on a
    swap field with nothing left to swap in.
    """
    if played.landed is None:
        return ""
    if played.swap is not None:
        return "swap"
    if played.moved_to is not None:
        return "move"
    if played.duel is not None:
        return "duel"
    return "association" if played.field is not None else "swap"


def _ruling_dict(ruling) -> dict:
    return {
        "kind": ruling.kind,
        "groups": list(ruling.groups),
        "result": ruling.result,
        "items": [list(i) for i in ruling.items],
    }
