"""Think Alike: the pure rules engine (rules/think-alike.md).

A state is an immutable value; ``apply``, ``expire`` and ``resign`` take a state and
return a new one, or raise ``RuleError`` and leave the given state as it was.
Nothing here reads the clock, touches a database or uses the global ``random``
functions: chance comes from the ``rng`` argument and time from ``now``.

Seats are 0..seats-1 in clockwise order. The board is a circle of 16 positions,
0..15; position 0 holds the start field, "cw" counts up, "ccw" counts down.

A game:
- ``new_game`` rolls for the starter: every seat rolls a die, the highest roll
  starts, and only the seats tied on the highest roll roll again (all rolls are
  kept in ``start_rolls``, one tuple per throw, ``None`` for seats not rolling).
- Board (``options["board"]``): "random" lays the start field and 15 random fields;
  "course" takes the creator's 16 field ids, the start field first; "draft" starts
  with the start field alone and the players, from the starter on in seat order,
  each add one unused field (action ``place_field``) until there are 16.
- A round: ``roll`` (phase roll), ``move`` cw/ccw (phase move); the field reached:
  - association: its text is the hint, a task card is drawn;
  - swap (the start field too): ``swap`` one board field other than the start field
    for an unused one; the token stands on the new field, then a task is drawn;
  - move: ``move_to`` any other position, then a task is drawn;
  - duel: the task is drawn first (the rules: the turn holder reads the card out,
    then moves the token), then ``duel`` names the opponent and an association
    field for the token.
  A field reached by ``swap`` or ``move_to`` does not act again; on an action field
  there is no hint this round.
- Phase answer: every seat that has not resigned ``answer``s once, the turn holder
  too: a list of exactly as many strings as the task asks for, each at most 60
  characters; a blank string is allowed and simply matches nothing.
- Phase review: the answers are grouped (``matching.group_answers``, with the
  game's rulings); the turn holder may ``merge`` groups or ``split`` one, then
  ``confirm``s. Rulings hold for the rest of the game (``equivalences``).
- Score: for each group, every seat in it gets one point per other seat in it; a
  seat with two answers in one group counts once. A duel's bonus goes to whichever
  of the two duellists scored more this round; a tie gives none; a duel with a
  resigned duellist gives none.
- The turn passes clockwise to the next seat that has not resigned.
- The game ends after the round in which its stop condition is met: a score at or
  over the target, the agreed number of task cards played, the end time passed
  (known from ``now``), or the task pile running out. Equal top scores share the
  win; resigned seats do not win.

Online play (decisions of this project):
- ``expire``: a draft turn places a random unused field; a turn holder who has not
  rolled or chosen gets the rest of their setup done at random (roll, direction,
  swap, move, duel) and the task is drawn; those who have not answered score
  nothing this round; an expired review is confirmed as it stands.
- Every expired deadline but the review's counts a miss for each seat awaited;
  ``ABSENT_AFTER`` misses in a row mark a seat absent. An unhurried turn holder
  who lets the review run out did nothing wrong: the review is optional. Any action
  of a seat (``rejoin`` for one that only wants to say it is back) clears its misses.
- Absent seats are played by the timeout rules as soon as only absent seats are
  awaited. A game with fewer than 3 present seats is paused: ``expire`` raises
  ``RuleError("paused")`` and nobody is played automatically.
- ``resign``: a resigning turn holder's round is dropped before its answer phase
  (a task drawn for it stays out of the pile) and the turn passes; later, the round
  goes on and a review left without its turn holder is confirmed at once. Answers
  already given stay in play. Fewer than 3 seats left end the game at once; the
  unfinished round is dropped.
- ``now`` is only needed for the "time" stop condition; without it that condition
  is not checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from games.engine import seats as seating
from games.engine import serial
from games.engine.errors import RuleError
from games.engine.seats import ABSENT_AFTER as ABSENT_AFTER
from games.engine.seats import MIN_SEATS as MIN_SEATS
from think_alike.engine import matching
from think_alike.engine.matching import Equivalences, Group

MAX_SEATS = 10
BOARD_SIZE = 16
DIE_SIDES = 6
MAX_ANSWER_LENGTH = 60
MAX_ANSWERS_PER_TASK = 10
POINTS_PER_SEAT = 6  # the seed's common target: players x 6
SCHEMA = 1  # version of the to_dict() layout

FIELD_KINDS = ("association", "swap", "move", "duel")
DUEL_BONUSES = (2, 4)
DIRECTIONS = ("cw", "ccw")
BOARD_WAYS = ("random", "draft", "course")
STOPS = ("points", "tasks", "time")
LANGS = matching.LANGS


class Phase(StrEnum):
    DRAFT = "draft"  # players lay the board
    ROLL = "roll"  # the turn holder rolls the die
    MOVE = "move"  # the turn holder picks the direction
    SWAP = "swap"  # landed on a swap field
    MOVE_TO = "move_to"  # landed on a move field
    DUEL = "duel"  # landed on a duel field (the task is already drawn)
    ANSWER = "answer"  # everyone writes their answers
    REVIEW = "review"  # the turn holder checks the groups, then confirms
    FINISHED = "finished"


TURN_HOLDER_PHASES = frozenset({Phase.ROLL, Phase.MOVE, Phase.SWAP, Phase.MOVE_TO, Phase.DUEL})


class Rng(Protocol):
    """The part of ``random.Random`` the engine uses."""

    def randint(self, a: int, b: int) -> int: ...

    def choice(self, seq: Sequence[Any]) -> Any: ...

    def shuffle(self, x: list[Any]) -> None: ...

    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...


@dataclass(frozen=True)
class Field:
    id: int
    kind: str  # one of FIELD_KINDS
    text: str
    bonus: int | None = None  # duel fields: 2 or 4
    start: bool = False  # the one start field (a swap field)


@dataclass(frozen=True)
class Task:
    id: int
    text: str
    answers: int  # how many answers the card asks for


@dataclass(frozen=True)
class Options:
    stop: str = "points"  # one of STOPS
    target: int | None = None  # stop "points"
    count: int | None = None  # stop "tasks"
    ends_at: str | None = None  # stop "time": ISO 8601 with offset (naive = UTC)
    board: str = "random"  # one of BOARD_WAYS
    course: tuple[int, ...] | None = None  # board "course": 16 field ids, start first
    lang: str = "en"  # for matching answers


@dataclass(frozen=True)
class Duel:
    challenger: int  # the turn holder
    opponent: int
    bonus: int
    winner: int | None = None  # set when the round is scored; None: tie or void


@dataclass(frozen=True)
class Ruling:
    """A merge or split made by the turn holder in review, shown to everyone."""

    kind: str  # "merge" | "split"
    groups: tuple[int, ...]  # merge: the groups merged; split: the group split
    result: int  # merge: the merged group's id; split: the new group's id
    items: tuple[tuple[int, int], ...] = ()  # split: the (seat, index) items moved


@dataclass(frozen=True)
class Round:
    """A round in play (``State.current``) or finished (``State.history``)."""

    number: int
    turn: int  # the turn holder
    start: int  # token position when the round began
    die: int | None = None
    direction: str | None = None
    landed: int | None = None  # position the die took the token to
    swap: tuple[int, int] | None = None  # (field id removed, field id added)
    moved_to: int | None = None  # position chosen on a move field
    duel: Duel | None = None
    auto: bool = False  # the turn holder's choices were made at random (timeout)
    token: int | None = None  # where the token stands for the task
    field: int | None = None  # the association field giving the hint, or None
    task: int | None = None  # task id
    answers: tuple[tuple[str, ...] | None, ...] = ()  # per seat; None: no answer
    groups: tuple[Group, ...] = ()  # set in review; final (merges applied) in history
    rulings: tuple[Ruling, ...] = ()
    next_group: int = 1  # id for the next group a split makes
    points: tuple[int, ...] | None = None  # per seat, duel bonus included; set when scored


@dataclass(frozen=True)
class State:
    seats: int
    options: Options
    fields: tuple[Field, ...]  # every field the game may use
    tasks: tuple[Task, ...]  # every task card of the game
    phase: Phase
    round: int  # 1-based; 0 while the board is drafted
    scores: tuple[int, ...]
    misses: tuple[int, ...]  # consecutive missed deadlines; >= ABSENT_AFTER: absent
    resigned: frozenset[int]
    last_round: Round | None  # the last scored round
    history: tuple[Round, ...]  # every scored round, in order
    final_round: bool  # the round in play is known to be the last
    start_rolls: tuple[tuple[int | None, ...], ...]
    starter: int
    board: tuple[int, ...]  # field ids by position; position 0 is the start field
    token: int  # position of the turn token
    turn: int  # the turn holder (the starter while drafting)
    drafter: int | None  # who places the next field while drafting
    pile: tuple[int, ...]  # task ids still to draw, top first
    equivalences: Equivalences
    current: Round | None


# --- reading a state -------------------------------------------------------------


def field(state: State, field_id: int) -> Field:
    for candidate in state.fields:
        if candidate.id == field_id:
            return candidate
    raise KeyError(field_id)


def task(state: State, task_id: int) -> Task:
    for candidate in state.tasks:
        if candidate.id == task_id:
            return candidate
    raise KeyError(task_id)


def start_field(state: State) -> Field:
    return next(f for f in state.fields if f.start)


def unused_fields(state: State) -> tuple[int, ...]:
    """Field ids not on the board (the start field is always on it), sorted."""
    on_board = set(state.board)
    return tuple(sorted(f.id for f in state.fields if f.id not in on_board and not f.start))


def association_positions(state: State) -> tuple[int, ...]:
    kinds = {f.id: f.kind for f in state.fields}
    return tuple(p for p, fid in enumerate(state.board) if kinds[fid] == "association")


def destination(state: State, direction: str) -> int:
    """Where the rolled die takes the token in ``direction``."""
    step = state.current.die if direction == "cw" else -state.current.die
    return (state.token + step) % BOARD_SIZE


def hint(state: State, round_: Round | None = None) -> str | None:
    """The association of a round (the current one by default), or None."""
    round_ = round_ or state.current
    if round_ is None or round_.field is None:
        return None
    return field(state, round_.field).text


def is_absent(state: State, seat: int) -> bool:
    return seating.is_absent(state.misses, seat)


def present_seats(state: State) -> frozenset[int]:
    return seating.present(state.seats, state.resigned, state.misses)


def is_paused(state: State) -> bool:
    return state.phase != Phase.FINISHED and seating.too_few_present(state.seats, state.resigned, state.misses)


def to_act(state: State) -> frozenset[int]:
    """The seats whose action the game waits for now."""
    if state.phase == Phase.FINISHED:
        return frozenset()
    if state.phase == Phase.DRAFT:
        return frozenset({state.drafter})
    if state.phase == Phase.ANSWER:
        return frozenset(s for s in _active(state) if state.current.answers[s] is None)
    if state.turn in state.resigned:
        return frozenset()
    return frozenset({state.turn})


def winners(state: State) -> tuple[int, ...]:
    """Once finished: the non-resigned seats with the top score (ties share)."""
    if state.phase != Phase.FINISHED:
        return ()
    return seating.winners(state.scores, state.resigned)


def end_reason(state: State) -> str | None:
    """Once finished, why: "too_few" (resignations left fewer than 3 seats), "target" (a score reached the target),
    "tasks" (the agreed number of task cards was played), "cards_out" (the task cards ran out first) or "time" (the
    end time passed and its round was finished). None before."""
    if state.phase != Phase.FINISHED:
        return None
    if seating.too_few_left(state.seats, state.resigned):
        return "too_few"
    opts = state.options
    if opts.stop == "points" and any(state.scores[s] >= opts.target for s in _active(state)):
        return "target"
    if opts.stop == "tasks" and len(state.history) >= opts.count:
        return "tasks"
    if not state.pile:
        return "cards_out"
    if opts.stop == "time":
        return "time"
    return "cards_out"  # unreachable by the rules: every other way to the end is named above


def score_groups(groups: Sequence[Group], seats: int) -> tuple[int, ...]:
    """Points per seat: one per other seat in each group the seat is in."""
    points = [0] * seats
    for group in groups:
        in_group = group.seats
        for seat in in_group:
            points[seat] += len(in_group) - 1
    return tuple(points)


# --- starting --------------------------------------------------------------------


def new_game(
    *,
    seats: int,
    rng: Rng,
    options: Mapping[str, Any] | None = None,
    fields: Sequence[Mapping[str, Any]],
    tasks: Sequence[Mapping[str, Any]],
) -> State:
    """A new game.

    ``fields``: ``{"id": int, "kind": "association"|"swap"|"move"|"duel", "text": str,
    "bonus": 2|4 (duels only), "start": true (exactly one, a swap field)}``.
    ``tasks``: ``{"id": int, "text": str, "answers": int}``.
    ``options``: ``stop`` ("points" with ``target``, default seats x 6; "tasks" with
    ``count``; "time" with ``ends_at``), ``board`` ("random", "draft" or "course"
    with ``course``: 16 field ids, start first) and ``lang`` ("en" or "da").
    Other keys are ignored (the service may keep its own settings beside them).
    """
    if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("bad_seats", f"A game needs {MIN_SEATS} to {MAX_SEATS} players.")
    pool = _parse_fields(fields)
    deck = _parse_tasks(tasks)
    opts = _parse_options(options or {}, seats=seats, pool=pool, deck=deck)
    start_rolls, starter = _roll_for_starter(seats, rng)
    pile = [t.id for t in deck]
    rng.shuffle(pile)
    start = next(f.id for f in pool if f.start)
    if opts.board == "course":
        board: tuple[int, ...] = opts.course
    elif opts.board == "random":
        others = sorted(f.id for f in pool if not f.start)
        board = (start, *rng.sample(others, BOARD_SIZE - 1))
    else:
        board = (start,)
    state = State(
        seats=seats,
        options=opts,
        fields=pool,
        tasks=deck,
        phase=Phase.DRAFT,
        round=0,
        scores=(0,) * seats,
        misses=(0,) * seats,
        resigned=frozenset(),
        last_round=None,
        history=(),
        final_round=False,
        start_rolls=start_rolls,
        starter=starter,
        board=board,
        token=0,
        turn=starter,
        drafter=starter,
        pile=tuple(pile),
        equivalences=Equivalences(),
        current=None,
    )
    if opts.board == "draft":
        return state
    return _begin_round(replace(state, round=1, drafter=None))


def _roll_for_starter(seats: int, rng: Rng) -> tuple[tuple[tuple[int | None, ...], ...], int]:
    rolling = list(range(seats))
    throws = []
    for _ in range(100):
        throw = tuple(rng.randint(1, DIE_SIDES) if s in rolling else None for s in range(seats))
        throws.append(throw)
        best = max(r for r in throw if r is not None)
        rolling = [s for s in rolling if throw[s] == best]
        if len(rolling) == 1:
            break
    # After 100 tied throws (only a broken die does that) the first tied seat starts.
    return tuple(throws), rolling[0]


def _parse_fields(fields: Sequence[Mapping[str, Any]]) -> tuple[Field, ...]:
    parsed = []
    try:
        for raw in fields:
            kind, bonus = raw["kind"], raw.get("bonus")
            if not _is_int(raw["id"]) or kind not in FIELD_KINDS:
                raise RuleError("bad_fields", f"Field {raw!r} is not a field.")
            if not isinstance(raw["text"], str):
                raise RuleError("bad_fields", f"Field {raw!r} has no text.")
            if kind == "duel" and not (_is_int(bonus) and bonus in DUEL_BONUSES):
                raise RuleError("bad_fields", "A duel field has a bonus of 2 or 4.")
            start = raw.get("start", False) is True
            parsed.append(
                Field(
                    id=raw["id"],
                    kind=kind,
                    text=raw["text"],
                    bonus=bonus if kind == "duel" else None,
                    start=start,
                )
            )
    except (KeyError, TypeError, AttributeError) as error:
        raise RuleError("bad_fields", "Every field has an id, a kind and a text.") from error
    if len({f.id for f in parsed}) != len(parsed):
        raise RuleError("bad_fields", "Two fields have the same id.")
    starts = [f for f in parsed if f.start]
    if len(starts) != 1 or starts[0].kind != "swap":
        raise RuleError("bad_fields", "Exactly one field is the start field, a swap field.")
    return tuple(parsed)


def _parse_tasks(tasks: Sequence[Mapping[str, Any]]) -> tuple[Task, ...]:
    parsed = []
    try:
        for raw in tasks:
            answers = raw["answers"]
            if not _is_int(raw["id"]) or not isinstance(raw["text"], str):
                raise RuleError("bad_tasks", f"Task {raw!r} is not a task.")
            if not _is_int(answers) or not 1 <= answers <= MAX_ANSWERS_PER_TASK:
                raise RuleError("bad_tasks", "A task asks for 1 to 10 answers.")
            parsed.append(Task(id=raw["id"], text=raw["text"], answers=answers))
    except (KeyError, TypeError, AttributeError) as error:
        raise RuleError("bad_tasks", "Every task has an id, a text and answers.") from error
    if not parsed:
        raise RuleError("bad_tasks", "The game needs task cards.")
    if len({t.id for t in parsed}) != len(parsed):
        raise RuleError("bad_tasks", "Two tasks have the same id.")
    return tuple(parsed)


def _parse_options(raw: Mapping[str, Any], *, seats: int, pool: tuple[Field, ...], deck: tuple[Task, ...]) -> Options:
    if not isinstance(raw, Mapping):
        raise RuleError("bad_options", "Options are an object.")
    stop = raw.get("stop", "points")
    lang = raw.get("lang", "en")
    way = raw.get("board", "random")
    if stop not in STOPS:
        raise RuleError("bad_options", f"The stop condition is one of {', '.join(STOPS)}.")
    if lang not in LANGS:
        raise RuleError("bad_options", f"The language is one of {', '.join(LANGS)}.")
    if way not in BOARD_WAYS:
        raise RuleError("bad_options", f"The board is laid {', '.join(BOARD_WAYS)}.")
    target = count = ends_at = course = None
    if stop == "points":
        target = raw.get("target", seats * POINTS_PER_SEAT)
        if not _is_int(target) or target < 1:
            raise RuleError("bad_options", "The target score is a positive number.")
    elif stop == "tasks":
        count = raw.get("count")
        if not _is_int(count) or not 1 <= count <= len(deck):
            raise RuleError("bad_options", f"Play 1 to {len(deck)} task cards.")
    else:
        value = raw.get("ends_at")
        if not isinstance(value, str):
            raise RuleError("bad_options", "The end time is an ISO 8601 date and time.")
        try:
            ends_at = _aware(datetime.fromisoformat(value)).isoformat()
        except ValueError as error:
            raise RuleError("bad_options", "The end time is an ISO 8601 date and time.") from error
    ids = {f.id for f in pool}
    if way == "course":
        given = raw.get("course")
        if not isinstance(given, (list, tuple)) or not all(_is_int(i) for i in given):
            raise RuleError("bad_options", "A course is a list of 16 field ids.")
        course = tuple(given)
        if len(course) != BOARD_SIZE or len(set(course)) != BOARD_SIZE:
            raise RuleError("bad_options", "A course has 16 different fields.")
        if not set(course) <= ids:
            raise RuleError("bad_options", "The course names a field the game does not have.")
        if not next(f for f in pool if f.id == course[0]).start:
            raise RuleError("bad_options", "A course begins with the start field.")
    elif len(pool) < BOARD_SIZE:
        raise RuleError("bad_fields", "The game needs at least 16 fields.")
    return Options(stop=stop, target=target, count=count, ends_at=ends_at, board=way, course=course, lang=lang)


# --- actions ---------------------------------------------------------------------


def apply(
    state: State,
    *,
    seat: int,
    action: Mapping[str, Any],
    rng: Rng,
    now: datetime | None = None,
) -> State:
    """Apply a client's action (a dict with a "type"); see ``ACTIONS`` for payloads."""
    if not isinstance(action, Mapping):
        raise RuleError("bad_action", "An action is an object with a type.")
    kind = action.get("type")
    if kind == "resign" and set(action) == {"type"}:
        return resign(state, seat=seat, rng=rng, now=now)
    _check_seat(state, seat)
    if kind not in ACTIONS:
        raise RuleError("bad_action", "That action is not understood.")
    keys, handler = ACTIONS[kind]
    if set(action) != {"type", *keys}:
        raise RuleError("bad_action", f"A {kind} action has {', '.join(keys) or 'no fields'}.")
    state = _note_time(state, now)
    state = handler(state, seat, action, rng, now)
    state = replace(state, misses=seating.clear_misses(state.misses, seat))
    return _settle(state, rng, now)


def expire(state: State, *, rng: Rng, now: datetime | None = None) -> State:
    """The deadline of the current phase passed (rules: Online play, Timeouts)."""
    if state.phase == Phase.FINISHED:
        raise RuleError("game_finished", "The game is over.")
    if is_paused(state):
        raise RuleError("paused", "The game is paused: too few players are present.")
    state = _note_time(state, now)
    return _settle(_time_out(state, rng, now), rng, now)


def resign(state: State, *, seat: int, rng: Rng, now: datetime | None = None) -> State:
    """The seat leaves the game for good (see the module docstring)."""
    _check_seat(state, seat)
    state = _note_time(state, now)
    state = replace(state, resigned=state.resigned | {seat})
    if seating.too_few_left(state.seats, state.resigned):
        return _finish(state)
    if state.phase == Phase.DRAFT and state.drafter == seat:
        state = replace(state, drafter=_next_seat(state, seat))
    elif state.phase in TURN_HOLDER_PHASES and state.turn == seat:
        # The round has not reached its answers: it is dropped, the turn passes.
        state = _begin_round(replace(state, turn=_next_seat(state, seat), current=None))
    elif state.phase == Phase.ANSWER and not to_act(state):
        state = _to_review(state)
    return _settle(state, rng, now)


def _place_field(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.DRAFT)
    field_id = action["field"]
    _check_new_field(state, field_id)
    state = replace(state, board=state.board + (field_id,))
    if len(state.board) < BOARD_SIZE:
        return replace(state, drafter=_next_seat(state, seat))
    turn = state.starter
    if turn in state.resigned:
        turn = _next_seat(state, turn)
    return _begin_round(replace(state, drafter=None, round=1, turn=turn))


def _roll(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.ROLL)
    return _do_roll(state, rng)


def _move(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.MOVE)
    direction = action["direction"]
    if direction not in DIRECTIONS:
        raise RuleError("bad_action", 'The direction is "cw" or "ccw".')
    return _do_move(state, direction)


def _swap(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.SWAP)
    remove, add = action["remove"], action["add"]
    if not _is_int(remove) or not _is_int(add):
        raise RuleError("bad_action", "A swap names two field ids.")
    if remove not in state.board:
        raise RuleError("not_on_board", "That field is not on the board.")
    if field(state, remove).start:
        raise RuleError("start_field", "The start field stays on the board.")
    _check_new_field(state, add)
    return _do_swap(state, remove, add)


def _move_to(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.MOVE_TO)
    position = action["position"]
    if not _is_int(position) or not 0 <= position < BOARD_SIZE:
        raise RuleError("bad_position", f"A position is 0 to {BOARD_SIZE - 1}.")
    if position == state.token:
        raise RuleError("same_position", "Move the token to another field.")
    return _do_move_to(state, position)


def _duel(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.DUEL)
    opponent, position = action["opponent"], action["position"]
    if not _is_int(opponent) or not 0 <= opponent < state.seats:
        raise RuleError("bad_opponent", "Challenge a player of this game.")
    if opponent == seat or opponent in state.resigned:
        raise RuleError("bad_opponent", "Challenge another player who is still in the game.")
    choices = association_positions(state)
    if not choices:
        if position is not None:
            raise RuleError("bad_position", "The board has no association field: no position.")
    elif not _is_int(position) or not 0 <= position < BOARD_SIZE:
        raise RuleError("bad_position", f"A position is 0 to {BOARD_SIZE - 1}.")
    elif position not in choices:
        raise RuleError("not_association", "Move the token to an association field.")
    return _do_duel(state, opponent, position)


def _answer(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    if state.phase != Phase.ANSWER:
        raise RuleError("wrong_phase", "It is not the time to answer.")
    if state.current.answers[seat] is not None:
        raise RuleError("already_answered", "You have already answered.")
    given = action["answers"]
    if not isinstance(given, (list, tuple)) or not all(isinstance(a, str) for a in given):
        raise RuleError("bad_action", "Answers are a list of texts.")
    wanted = task(state, state.current.task).answers
    if len(given) != wanted:
        raise RuleError("wrong_answer_count", f"Give exactly {wanted} answer(s).")
    answers = tuple(" ".join(a.split()) for a in given)
    if any(len(a) > MAX_ANSWER_LENGTH for a in answers):
        raise RuleError("answer_too_long", f"An answer has at most {MAX_ANSWER_LENGTH} characters.")
    current = replace(state.current, answers=_with(state.current.answers, seat, answers))
    state = replace(state, current=current)
    if not to_act(state):
        state = _to_review(state)
    return state


def _merge(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.REVIEW)
    ids = action["groups"]
    if not isinstance(ids, (list, tuple)) or not all(_is_int(i) for i in ids):
        raise RuleError("bad_action", "A merge names group ids.")
    ids = sorted(set(ids))
    groups = {g.id: g for g in state.current.groups}
    if any(i not in groups for i in ids):
        raise RuleError("unknown_group", "There is no such group.")
    if len(ids) < 2:
        raise RuleError("bad_merge", "Merge at least two groups.")
    merged = [groups[i] for i in ids]
    items = tuple(sorted(item for g in merged for item in g.items))
    new_group = Group(id=ids[0], key=min(g.key for g in merged), items=items)
    current = state.current
    kept = tuple(new_group if g.id == ids[0] else g for g in current.groups if g.id not in ids[1:])
    keys = {_key(state, item) for item in items}
    current = replace(
        current,
        groups=kept,
        rulings=current.rulings + (Ruling(kind="merge", groups=tuple(ids), result=ids[0]),),
    )
    return replace(state, current=current, equivalences=state.equivalences.merge(keys))


def _split(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.REVIEW)
    group_id, raw_items = action["group"], action["items"]
    if not _is_int(group_id) or not isinstance(raw_items, (list, tuple)):
        raise RuleError("bad_action", "A split names a group and the items to move.")
    moved = set()
    for pair in raw_items:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(map(_is_int, pair)):
            raise RuleError("bad_action", "Items are [seat, index] pairs.")
        moved.add(tuple(pair))
    current = state.current
    group = next((g for g in current.groups if g.id == group_id), None)
    if group is None:
        raise RuleError("unknown_group", "There is no such group.")
    if not moved or not moved < set(group.items):
        raise RuleError("bad_split", "Move some, not all, of the group's answers.")
    rest = tuple(i for i in group.items if i not in moved)
    moved_items = tuple(sorted(moved))
    new_id = current.next_group
    kept = Group(id=group.id, key=min(_key(state, i) for i in rest), items=rest)
    split_off = Group(id=new_id, key=min(_key(state, i) for i in moved_items), items=moved_items)
    groups = tuple(kept if g.id == group.id else g for g in current.groups) + (split_off,)
    ruling = Ruling(kind="split", groups=(group.id,), result=new_id, items=moved_items)
    current = replace(current, groups=groups, rulings=current.rulings + (ruling,), next_group=new_id + 1)
    equivalences = state.equivalences.split(
        {_key(state, i) for i in moved_items}, {_key(state, i) for i in rest}, state.options.lang
    )
    return replace(state, current=current, equivalences=equivalences)


def _confirm(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    _expect(state, seat, Phase.REVIEW)
    return _score_round(state, now)


def _rejoin(state: State, seat: int, action: Mapping, rng: Rng, now) -> State:
    if not is_absent(state, seat):
        raise RuleError("not_absent", "You are not marked absent.")
    return state  # apply() clears the misses


# Every action type but "resign" ({"type": "resign"}, which ``apply`` hands to
# ``resign``): the payload keys beside "type", exactly, and the handler.
ACTIONS = {
    "place_field": (("field",), _place_field),  # {"field": field id}
    "roll": ((), _roll),  # {}
    "move": (("direction",), _move),  # {"direction": "cw" | "ccw"}
    "swap": (("remove", "add"), _swap),  # {"remove": field id, "add": field id}
    "move_to": (("position",), _move_to),  # {"position": 0..15}
    "duel": (("opponent", "position"), _duel),  # {"opponent": seat, "position": 0..15|None}
    "answer": (("answers",), _answer),  # {"answers": [str, ...]}
    "merge": (("groups",), _merge),  # {"groups": [group id, group id, ...]}
    "split": (("group", "items"), _split),  # {"group": id, "items": [[seat, index], ...]}
    "confirm": ((), _confirm),  # {}
    "rejoin": ((), _rejoin),  # {}
}


# --- the course of a round -------------------------------------------------------


def _begin_round(state: State) -> State:
    if not state.pile:
        return _finish(state)
    current = Round(number=state.round, turn=state.turn, start=state.token, answers=(None,) * state.seats)
    return replace(state, phase=Phase.ROLL, current=current)


def _do_roll(state: State, rng: Rng) -> State:
    die = rng.randint(1, DIE_SIDES)
    return replace(state, phase=Phase.MOVE, current=replace(state.current, die=die))


def _do_move(state: State, direction: str) -> State:
    landed = destination(state, direction)
    current = replace(state.current, direction=direction, landed=landed)
    state = replace(state, token=landed, current=current)
    here = field(state, state.board[landed])
    if here.kind == "association":
        return _draw(_stand(state, landed))
    if here.kind == "swap":
        if not unused_fields(state):  # nothing to swap in: no swap, no hint
            return _draw(_stand(state, landed))
        return replace(state, phase=Phase.SWAP)
    if here.kind == "move":
        return replace(state, phase=Phase.MOVE_TO)
    return replace(_draw(_stand(state, landed)), phase=Phase.DUEL)


def _do_swap(state: State, remove: int, add: int) -> State:
    position = state.board.index(remove)
    board = _with(state.board, position, add)
    state = replace(state, board=board, current=replace(state.current, swap=(remove, add)))
    return _draw(_stand(state, position))


def _do_move_to(state: State, position: int) -> State:
    state = replace(state, current=replace(state.current, moved_to=position))
    return _draw(_stand(state, position))


def _do_duel(state: State, opponent: int, position: int | None) -> State:
    bonus = field(state, state.board[state.current.landed]).bonus
    duel = Duel(challenger=state.turn, opponent=opponent, bonus=bonus)
    state = replace(state, current=replace(state.current, duel=duel))
    if position is not None:
        state = _stand(state, position)
    return replace(state, phase=Phase.ANSWER)


def _stand(state: State, position: int) -> State:
    """Put the token on ``position``; an association field there is the hint."""
    here = field(state, state.board[position])
    hint_field = here.id if here.kind == "association" else None
    current = replace(state.current, token=position, field=hint_field)
    return replace(state, token=position, current=current)


def _draw(state: State) -> State:
    top, pile = state.pile[0], state.pile[1:]
    opts = state.options
    last = not pile or (opts.stop == "tasks" and len(state.history) + 1 >= opts.count)
    return replace(
        state,
        pile=pile,
        phase=Phase.ANSWER,
        final_round=state.final_round or last,
        current=replace(state.current, task=top),
    )


def _to_review(state: State) -> State:
    answers = [
        (seat, index, text)
        for seat, given in enumerate(state.current.answers)
        if given is not None
        for index, text in enumerate(given)
    ]
    groups = matching.group_answers(answers, state.options.lang, state.equivalences)
    current = replace(state.current, groups=groups, next_group=len(groups) + 1)
    return replace(state, phase=Phase.REVIEW, current=current)


def _score_round(state: State, now: datetime | None) -> State:
    current = state.current
    base = score_groups(current.groups, state.seats)
    points = list(base)
    duel = current.duel
    if duel is not None:
        winner = None
        if not {duel.challenger, duel.opponent} & state.resigned:
            mine, theirs = base[duel.challenger], base[duel.opponent]
            if mine != theirs:
                winner = duel.challenger if mine > theirs else duel.opponent
                points[winner] += duel.bonus
        duel = replace(duel, winner=winner)
    record = replace(current, points=tuple(points), duel=duel)
    state = replace(
        state,
        scores=tuple(s + p for s, p in zip(state.scores, points)),
        history=state.history + (record,),
        last_round=record,
        current=None,
    )
    state = _note_time(state, now)
    opts = state.options
    reached = opts.stop == "points" and any(state.scores[s] >= opts.target for s in _active(state))
    if state.final_round or reached or not state.pile:
        return _finish(state)
    return _begin_round(replace(state, round=state.round + 1, turn=_next_seat(state, state.turn)))


def _finish(state: State) -> State:
    return replace(state, phase=Phase.FINISHED, current=None, drafter=None)


# --- timeouts --------------------------------------------------------------------


def _time_out(state: State, rng: Rng, now: datetime | None) -> State:
    """Play the awaited seats by the timeout rules, counting their misses."""
    waiting = to_act(state)
    if state.phase != Phase.REVIEW:  # an unconfirmed review is no miss (see the docstring)
        state = replace(state, misses=seating.count_misses(state.misses, waiting))
    if state.phase == Phase.DRAFT:
        choice = {"field": rng.choice(unused_fields(state))}
        return _place_field(state, state.drafter, choice, rng, now)
    if state.phase in TURN_HOLDER_PHASES:
        return _random_setup(state, rng)
    if state.phase == Phase.ANSWER:
        return _to_review(state)
    return _score_round(state, now)


def _random_setup(state: State, rng: Rng) -> State:
    state = replace(state, current=replace(state.current, auto=True))
    while state.phase in TURN_HOLDER_PHASES:
        if state.phase == Phase.ROLL:
            state = _do_roll(state, rng)
        elif state.phase == Phase.MOVE:
            state = _do_move(state, rng.choice(DIRECTIONS))
        elif state.phase == Phase.SWAP:
            removable = sorted(fid for fid in state.board if not field(state, fid).start)
            state = _do_swap(state, rng.choice(removable), rng.choice(unused_fields(state)))
        elif state.phase == Phase.MOVE_TO:
            others = [p for p in range(BOARD_SIZE) if p != state.token]
            state = _do_move_to(state, rng.choice(others))
        else:
            opponents = sorted(set(_active(state)) - {state.turn})
            positions = association_positions(state)
            position = rng.choice(positions) if positions else None
            state = _do_duel(state, rng.choice(opponents), position)
    return state


def _settle(state: State, rng: Rng, now: datetime | None) -> State:
    """Go on where nobody present is awaited: a review without its turn holder is
    confirmed, and absent seats are played by the timeout rules (unless paused)."""
    while state.phase != Phase.FINISHED:
        waiting = to_act(state)
        if not waiting and state.phase == Phase.REVIEW:
            state = _score_round(state, now)  # the turn holder resigned
        elif not is_paused(state) and all(is_absent(state, s) for s in waiting):
            state = _time_out(state, rng, now)
        else:
            break
    return state


def _note_time(state: State, now: datetime | None) -> State:
    opts = state.options
    if (
        opts.stop == "time"
        and now is not None
        and state.phase != Phase.FINISHED
        and not state.final_round
        and _aware(now) >= datetime.fromisoformat(opts.ends_at)
    ):
        return replace(state, final_round=True)
    return state


# --- serialisation ---------------------------------------------------------------


def to_dict(state: State) -> dict:
    """A JSON-safe dict that ``from_dict`` turns back into ``state``."""
    return {"schema": SCHEMA, **serial.dump(state)}


def from_dict(data: Mapping[str, Any]) -> State:
    data = dict(data)
    schema = data.pop("schema", SCHEMA)
    if schema != SCHEMA:
        raise ValueError(f"Unknown think-alike state schema {schema!r}")
    return serial.load(State, data)


# --- internals -------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _active(state: State) -> tuple[int, ...]:
    return seating.active(state.seats, state.resigned)


def _next_seat(state: State, seat: int) -> int:
    return seating.next_active(seat, state.seats, state.resigned)


def _with(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _key(state: State, item: tuple[int, int]) -> str:
    seat, index = item
    return matching.normalize(state.current.answers[seat][index], state.options.lang)


def _check_seat(state: State, seat: int) -> None:
    seating.check_seat(seat, seats=state.seats, resigned=state.resigned, finished=state.phase == Phase.FINISHED)


def _expect(state: State, seat: int, phase: Phase) -> None:
    if state.phase != phase:
        raise RuleError("wrong_phase", f"This is not the {phase} phase.")
    if seat not in to_act(state):
        raise RuleError("not_your_turn", "It is not your turn.")


def _check_new_field(state: State, field_id: Any) -> None:
    if not _is_int(field_id):
        raise RuleError("bad_action", "A field is named by its id.")
    if field_id not in {f.id for f in state.fields}:
        raise RuleError("unknown_field", "There is no such field.")
    if field(state, field_id).start or field_id in state.board:
        raise RuleError("field_in_use", "That field is already on the board.")
