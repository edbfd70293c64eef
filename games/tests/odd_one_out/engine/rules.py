"""Odd one out: the pure rules of a tiny game that lives only in the tests.

It proves the game-kind seam: a kind of its own, installed by the test settings
alone, played through the same services, pages and API as the real games.

Every round the game shows a few words; every player picks one of them (or writes
one of their own). When all have picked, or the deadline passes (those who did not
pick abstain), the players whose word is the majority's score a point: the word
picked by strictly more players than any other, and by at least two. After the
last round the highest score wins (ties share the win; resigned seats never win).

A state is an immutable value; ``apply``, ``expire`` and ``resign`` return a new
one or raise ``RuleError``. No Django, no clock, no global random: the word lists
of every round are drawn with the ``rng`` given to ``new_game``. The game never
pauses: an absent player (``ABSENT_AFTER`` missed deadlines in a row) simply
abstains until they pick again. Fewer than two players left end the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from games.engine.errors import RuleError

MIN_SEATS = 3
MAX_SEATS = 6
ROUNDS = 3  # the default number of rounds
ROUNDS_MAX = 5
WORDS_SHOWN = 4
WORD_MAX_LENGTH = 30
ABSENT_AFTER = 2
SCHEMA = 1


class Phase(StrEnum):
    PICK = "pick"
    FINISHED = "finished"


class Rng(Protocol):
    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...


@dataclass(frozen=True)
class RoundResult:
    round: int
    words: tuple[str, ...]
    picks: dict[int, str]  # seat -> word (abstainers absent)
    majority: str | None
    points: dict[int, int]  # every seat -> points of this round


@dataclass(frozen=True)
class State:
    seats: int
    rounds: int
    round: int  # 1-based
    phase: Phase
    word_lists: tuple[tuple[str, ...], ...]  # the words shown in each round
    picks: dict[int, str]  # this round's picks so far: secret until the round ends
    scores: tuple[int, ...]
    misses: tuple[int, ...]
    resigned: frozenset[int]
    history: tuple[RoundResult, ...]

    @property
    def words(self) -> tuple[str, ...]:
        """The words shown in the round in play (none once finished)."""
        return self.word_lists[self.round - 1] if self.phase == Phase.PICK else ()

    @property
    def last_round(self) -> RoundResult | None:
        return self.history[-1] if self.history else None


# --- reading a state ---------------------------------------------------------------


def normalise(word: str) -> str:
    """The form in which words are compared: spaces collapsed, case folded."""
    return " ".join(word.split()).casefold()


def active(state: State) -> tuple[int, ...]:
    return tuple(seat for seat in range(state.seats) if seat not in state.resigned)


def to_act(state: State) -> frozenset[int]:
    if state.phase != Phase.PICK:
        return frozenset()
    return frozenset(seat for seat in active(state) if seat not in state.picks)


def present_seats(state: State) -> frozenset[int]:
    return frozenset(seat for seat in active(state) if state.misses[seat] < ABSENT_AFTER)


def is_paused(state: State) -> bool:
    return False  # absent players abstain; the game goes on


def winners(state: State) -> tuple[int, ...]:
    if state.phase != Phase.FINISHED or not active(state):
        return ()
    top = max(state.scores[seat] for seat in active(state))
    return tuple(seat for seat in active(state) if state.scores[seat] == top)


def majority(picks: Mapping[int, str]) -> str | None:
    """The word more players picked than any other, by two at least; None if there is none."""
    counts = Counter(picks.values()).most_common()
    if not counts or counts[0][1] < 2 or (len(counts) > 1 and counts[1][1] == counts[0][1]):
        return None
    return counts[0][0]


# --- actions -------------------------------------------------------------------------


def new_game(*, seats: int, rounds: int = ROUNDS, words: Sequence[str], rng: Rng) -> State:
    if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("bad_seats", f"A game needs {MIN_SEATS} to {MAX_SEATS} players.")
    if not _is_int(rounds) or not 1 <= rounds <= ROUNDS_MAX:
        raise RuleError("bad_options", f"A game has 1 to {ROUNDS_MAX} rounds.")
    pool = sorted({normalise(word) for word in words if normalise(word)})
    if len(pool) < WORDS_SHOWN:
        raise RuleError("bad_options", f"A game needs {WORDS_SHOWN} different words at least.")
    return State(
        seats=seats,
        rounds=rounds,
        round=1,
        phase=Phase.PICK,
        word_lists=tuple(tuple(rng.sample(pool, WORDS_SHOWN)) for _ in range(rounds)),
        picks={},
        scores=(0,) * seats,
        misses=(0,) * seats,
        resigned=frozenset(),
        history=(),
    )


def pick(state: State, *, seat: int, word: str) -> State:
    _check_seat(state, seat)
    if seat in state.picks:
        raise RuleError("already_picked", "You have already picked a word this round.")
    if not isinstance(word, str) or not normalise(word):
        raise RuleError("word_empty", "Pick a word or write one.")
    if len(normalise(word)) > WORD_MAX_LENGTH:
        raise RuleError("word_too_long", f"A word has at most {WORD_MAX_LENGTH} characters.")
    misses = tuple(0 if s == seat else missed for s, missed in enumerate(state.misses))
    state = replace(state, picks={**state.picks, seat: normalise(word)}, misses=misses)
    return _settle(state) if not to_act(state) else state


def expire(state: State, *, rng: Rng | None = None) -> State:
    """The deadline passed: those who did not pick abstain, and the round is scored."""
    if state.phase == Phase.FINISHED:
        raise RuleError("game_finished", "The game is over.")
    waiting = to_act(state)
    misses = tuple(missed + 1 if seat in waiting else missed for seat, missed in enumerate(state.misses))
    return _settle(replace(state, misses=misses))


def resign(state: State, *, seat: int, rng: Rng | None = None) -> State:
    """The seat leaves for good; a pick it made this round still counts."""
    _check_seat(state, seat)
    state = replace(state, resigned=state.resigned | {seat})
    if len(active(state)) < 2:
        return replace(state, phase=Phase.FINISHED, picks={})
    return _settle(state) if not to_act(state) else state


def apply(state: State, *, seat: int, action: Mapping[str, Any], rng: Rng | None = None) -> State:
    if not isinstance(action, Mapping):
        raise RuleError("bad_action", "An action is an object with a type.")
    if action.get("type") == "pick" and set(action) == {"type", "word"}:
        return pick(state, seat=seat, word=action["word"])
    if action.get("type") == "resign" and set(action) == {"type"}:
        return resign(state, seat=seat)
    raise RuleError("bad_action", "That action is not understood.")


# --- serialisation -------------------------------------------------------------------


def to_dict(state: State) -> dict:
    return {
        "schema": SCHEMA,
        "seats": state.seats,
        "rounds": state.rounds,
        "round": state.round,
        "phase": str(state.phase),
        "word_lists": [list(words) for words in state.word_lists],
        "picks": {str(seat): word for seat, word in state.picks.items()},
        "scores": list(state.scores),
        "misses": list(state.misses),
        "resigned": sorted(state.resigned),
        "history": [
            {
                "round": result.round,
                "words": list(result.words),
                "picks": {str(seat): word for seat, word in result.picks.items()},
                "majority": result.majority,
                "points": {str(seat): points for seat, points in result.points.items()},
            }
            for result in state.history
        ],
    }


def from_dict(data: Mapping[str, Any]) -> State:
    if data.get("schema") != SCHEMA:
        raise ValueError(f"Unknown odd-one-out state schema {data.get('schema')!r}")
    return State(
        seats=data["seats"],
        rounds=data["rounds"],
        round=data["round"],
        phase=Phase(data["phase"]),
        word_lists=tuple(tuple(words) for words in data["word_lists"]),
        picks={int(seat): word for seat, word in data["picks"].items()},
        scores=tuple(data["scores"]),
        misses=tuple(data["misses"]),
        resigned=frozenset(data["resigned"]),
        history=tuple(
            RoundResult(
                round=result["round"],
                words=tuple(result["words"]),
                picks={int(seat): word for seat, word in result["picks"].items()},
                majority=result["majority"],
                points={int(seat): points for seat, points in result["points"].items()},
            )
            for result in data["history"]
        ),
    )


# --- internals -----------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seat(state: State, seat: int) -> None:
    if state.phase == Phase.FINISHED:
        raise RuleError("game_finished", "The game is over.")
    if not _is_int(seat) or not 0 <= seat < state.seats:
        raise RuleError("not_a_player", "That seat is not in this game.")
    if seat in state.resigned:
        raise RuleError("resigned", "You have resigned from this game.")


def _settle(state: State) -> State:
    """Score the round in play, then open the next one or finish."""
    word = majority(state.picks)
    points = {seat: int(word is not None and state.picks.get(seat) == word) for seat in range(state.seats)}
    result = RoundResult(round=state.round, words=state.words, picks=dict(state.picks), majority=word, points=points)
    state = replace(
        state,
        scores=tuple(score + points[seat] for seat, score in enumerate(state.scores)),
        history=(*state.history, result),
        picks={},
    )
    if state.round >= state.rounds:
        return replace(state, phase=Phase.FINISHED)
    return replace(state, round=state.round + 1)
