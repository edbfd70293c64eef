"""The Think Alike game as one viewer may see it.

The rule of secrecy here: in the answer phase, a viewer sees their own answers
only; everybody's answers appear together, grouped, once the round reaches its
review (all have answered, or the deadline passed). Everything else on the table
(the board, the die, the hint, the task card, the turn holder's choices once
made, the merges) is seen by all, as at a real table.
"""

from django.utils.translation import gettext

from games.models import Game, Seat
from games.selectors.common import (
    seat_of,
    usernames,
    view_base,
    view_finish,
    view_waiting,
)
from games.selectors.games import game_state
from think_alike.engine import rules as engine
from think_alike.engine.matching import Group
from think_alike.models import BoardField
from think_alike.services.game import landed_kind

# Why a finished game ended (``engine.end_reason``), in the request's language.
END_REASONS = {
    "too_few": lambda: gettext("Too few players were left after resignations."),
    "target": lambda: gettext("A player reached the target score."),
    "tasks": lambda: gettext("The agreed number of task cards was played."),
    "cards_out": lambda: gettext("The task cards ran out."),
    "time": lambda: gettext("The time limit passed, and the round in play was finished."),
}


def _field(state: engine.State, field_id: int) -> dict:
    f = engine.field(state, field_id)
    return {"id": str(f.id), "kind": f.kind, "text": f.text, "bonus": f.bonus, "start": f.start}


def _task(state: engine.State, task_id: int | None) -> dict | None:
    if task_id is None:
        return None
    t = engine.task(state, task_id)
    return {"id": str(t.id), "text": t.text, "answers": t.answers}


def think_alike_rules(options: dict) -> dict:
    """The options a game is played by, defaults filled in (a game of before ``chat``: chat on)."""
    return {
        "stop": options.get("stop") or "points",
        "target": options.get("target"),
        "count": options.get("count"),
        "minutes": options.get("minutes"),
        "board": options.get("board") or "random",
        "lang": options.get("lang") or "en",
        "chat": options.get("chat", True),
    }


def think_alike_view(*, game: Game, seats: list[Seat], viewer) -> dict:
    me = seat_of(seats, viewer)
    player = usernames(seats)

    view = view_base(game=game, seats=seats, me=me) | {
        "rules": think_alike_rules(game.options or {}),
        "lang": game.options.get("lang", "en"),
        "stop": _stop_before_start(game.options),
        "board": [],
        "token": None,
        "turn": None,
        "drafter": None,
        "starter": None,
        "start_rolls": [],
        "current": None,
        "task": None,
        "hint": None,
        "groups": [],
        "rulings": [],
        "no_answer": [],
        "choices": None,
        "equivalences": [],
    }
    if me is not None:
        view["you"] |= {"is_turn_holder": False, "answers": None}
    if game.state is None:
        return view

    state = game_state(game)
    finished = state.phase == engine.Phase.FINISHED
    phase = str(state.phase)
    view["phase"] = None if finished else phase
    view["stop"] = _stop(state)
    view["tasks_left"] = len(state.pile)
    view_waiting(view, seats=seats, waiting=sorted(engine.to_act(state)) if not finished else [])
    view["starter"] = player(state.starter)
    view["start_rolls"] = [
        [{"player": player(seat), "roll": roll} for seat, roll in enumerate(throw) if roll is not None]
        for throw in state.start_rolls
    ]
    view["board"] = [_field(state, field_id) | {"position": position} for position, field_id in enumerate(state.board)]
    view["token"] = state.token
    view["turn"] = None if finished or state.phase == engine.Phase.DRAFT else player(state.turn)
    view["drafter"] = player(state.drafter) if state.drafter is not None else None
    view["equivalences"] = sorted(sorted(keys) for keys in state.equivalences.members().values())

    current = state.current
    if current is not None:
        view["current"] = _round(state, current, player, phase=phase)
        view["task"] = view["current"]["task"]
        view["hint"] = view["current"]["hint"]
    if state.phase == engine.Phase.REVIEW:
        current = _round_in_play(state)
        # Every answer of the round is out now: grouped, with who gave it.
        view["groups"] = _groups(current.groups, current.answers, player, rulings=current.rulings)
        view["rulings"] = _rulings(current.rulings)
        view["no_answer"] = _no_answer(current, state, player)

    if me is not None:
        you = view["you"]
        you["is_turn_holder"] = not finished and state.phase != engine.Phase.DRAFT and state.turn == me.position
        if current is not None and current.answers:
            given = current.answers[me.position]
            you["answers"] = None if given is None else list(given)
        you["absent"] = me.is_absent
        if me.position in engine.to_act(state):
            view["choices"] = _choices(state, player, me.position)

    if state.last_round is not None:
        view["last_round"] = _last_round(state, state.last_round, player)
    if finished:
        view_finish(view, winners=[player(pos) for pos in engine.winners(state)])
        reason = engine.end_reason(state)  # a finished game's, always
        if reason is not None:
            view["end_reason"] = END_REASONS[reason]()
    return view


def _stop_before_start(options: dict) -> dict:
    return {
        "stop": options.get("stop", "points"),
        "target": options.get("target"),
        "count": options.get("count"),
        "minutes": options.get("minutes"),
        "ends_at": None,
        "played": 0,
        "final_round": False,
    }


def _stop(state: engine.State) -> dict:
    opts = state.options
    return {
        "stop": opts.stop,
        "target": opts.target,
        "count": opts.count,
        "minutes": None,
        "ends_at": opts.ends_at,
        "played": len(state.history),
        "final_round": state.final_round,
    }


def _round(state: engine.State, played: engine.Round, player, *, phase: str | None = None) -> dict:
    """What everyone sees of a round's setup: the die, the way, the action, the hint and the card."""
    duel = played.duel
    kind = landed_kind(played)
    if phase in (engine.Phase.SWAP, engine.Phase.MOVE_TO, engine.Phase.DUEL):
        kind = {"swap": "swap", "move_to": "move", "duel": "duel"}[phase]
    destinations = None
    if phase == engine.Phase.MOVE:
        destinations = {direction: engine.destination(state, direction) for direction in engine.DIRECTIONS}
    return {
        "number": played.number,
        "turn": player(played.turn),
        "start": played.start,
        "die": played.die,
        "direction": played.direction,
        "destinations": destinations,
        "landed": played.landed,
        "landed_kind": kind,
        "swap": None
        if played.swap is None
        else {"removed": _field(state, played.swap[0]), "added": _field(state, played.swap[1])},
        "moved_to": played.moved_to,
        "duel": None
        if duel is None
        else {
            "challenger": player(duel.challenger),
            "opponent": player(duel.opponent),
            "bonus": duel.bonus,
            "winner": player(duel.winner) if duel.winner is not None else None,
        },
        "auto": played.auto,
        "token": played.token,
        # What the token stands on: the hint's field, or (later swaps aside) the field at its place.
        "token_text": engine.hint(state, played)
        or (engine.field(state, state.board[played.token]).text if played.token is not None else None),
        "hint": engine.hint(state, played),
        "task": _task(state, played.task),
    }


def _groups(groups: tuple[Group, ...], answers, player, *, rulings=()) -> list[dict]:
    merged = {r.result for r in rulings if r.kind == "merge"}
    split = {r.result for r in rulings if r.kind == "split"} | {
        g for r in rulings if r.kind == "split" for g in r.groups
    }
    out = []
    for group in groups:
        players = sorted(group.seats)
        out.append(
            {
                "id": group.id,
                "key": group.key,
                "answers": [
                    {"player": player(seat), "seat": seat, "index": index, "text": answers[seat][index]}
                    for seat, index in group.items
                ],
                "players": [player(seat) for seat in players],
                "points_each": len(players) - 1,
                "merged": group.id in merged,
                "split": group.id in split,
            }
        )
    return out


def _rulings(rulings) -> list[dict]:
    return [
        {"kind": r.kind, "groups": list(r.groups), "result": r.result, "items": [list(i) for i in r.items]}
        for r in rulings
    ]


def _choices(state: engine.State, player, seat: int) -> dict | None:
    """What the viewer may choose now, where the rules leave a choice among things on the table."""
    phase = state.phase
    if phase == engine.Phase.DRAFT:
        return {"fields": [_field(state, fid) for fid in engine.unused_fields(state)]}
    if phase == engine.Phase.SWAP:
        removable = [
            _field(state, fid) | {"position": pos}
            for pos, fid in enumerate(state.board)
            if not engine.field(state, fid).start
        ]
        return {
            "remove": removable,
            "add": [_field(state, fid) for fid in engine.unused_fields(state)],
            "positions": [field["position"] for field in removable],
        }
    if phase == engine.Phase.MOVE_TO:
        return {"positions": [p for p in range(engine.BOARD_SIZE) if p != state.token]}
    if phase == engine.Phase.DUEL:
        active = [s for s in range(state.seats) if s not in state.resigned and s != seat]
        return {
            "opponents": [{"seat": s, "player": player(s)} for s in active],
            "positions": list(engine.association_positions(state)),
        }
    if phase == engine.Phase.MOVE:
        return {"directions": list(engine.DIRECTIONS)}
    if phase == engine.Phase.ANSWER:
        task_id = _round_in_play(state).task
        if task_id is None:
            raise ValueError("A round's answer phase comes after its task is drawn.")
        return {"answers": engine.task(state, task_id).answers}
    if phase == engine.Phase.REVIEW:
        return {"groups": [group.id for group in _round_in_play(state).groups]}
    return None


def _round_in_play(state: engine.State) -> engine.Round:
    """The round being played: the answer and review phases always have one (the engine's state says so only by
    its phase)."""
    if state.current is None:
        raise ValueError(f"A game in its {state.phase} phase has no round in play.")
    return state.current


def _no_answer(played: engine.Round, state: engine.State, player) -> list:
    return [player(seat) for seat, given in enumerate(played.answers) if given is None and seat not in state.resigned]


def _last_round(state: engine.State, played: engine.Round, player) -> dict:
    if played.points is None:  # the engine keeps a round as the last once it is scored
        raise ValueError("The last round is a scored one.")
    out = _round(state, played, player)
    out["groups"] = _groups(played.groups, played.answers, player, rulings=played.rulings)
    out["rulings"] = _rulings(played.rulings)
    out["answers"] = [
        {"player": player(seat), "answers": None if given is None else list(given)}
        for seat, given in enumerate(played.answers)
    ]
    out["no_answer"] = _no_answer(played, state, player)
    out["points"] = {player(seat): points for seat, points in enumerate(played.points)}
    # Just scored: the next round's answers have not begun (its turn holder rolls, moves, or no round follows).
    out["fresh"] = state.phase in engine.TURN_HOLDER_PHASES or state.phase == engine.Phase.FINISHED
    return out


def think_alike_fields(*, lang: str) -> list[dict]:
    """The board fields in play, in a language: what a course is chosen from, the start field first."""
    return [
        {"id": str(f.pk), "kind": f.kind, "text": f.text(lang), "bonus": f.bonus, "start": f.is_start}
        for f in BoardField.objects.in_play().order_by("-is_start", "kind", "pk")
    ]
