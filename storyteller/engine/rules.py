"""Storyteller: the pure rules engine (rules/storyteller.md).

A state is an immutable value; every action takes a state and returns a new one,
or raises ``RuleError`` and leaves the given state as it was. Nothing here reads
the clock, touches a database or uses the global ``random`` functions: whatever
needs chance takes an ``rng`` (``secrets.SystemRandom()`` in services,
``random.Random(seed)`` in tests).

Where cards are during a round:
- clue phase: in hands, the draw pile and the discard;
- submit phase: also ``storyteller_card`` and the cards in ``submissions``;
- vote phase: ``table`` holds the storyteller's card and every submitted card
  (``storyteller_card`` and ``submissions`` still say who played what);
- after the reveal the table goes to the discard.

Decisions where the rules leave room (online play):
- A game with more than 3 seats keeps the 4+ player rules after resignations leave
  3 players: hand size, cards to submit and scoring follow ``seats``.
- A paused game (fewer than 3 present players) has no deadline: ``expire`` raises
  ``RuleError("paused")`` and absent players are not played automatically; the
  game waits until someone absent acts again.
- A resigned seat keeps its hand (unseen, never refilled); its cards already on
  the table still earn a point per vote.
- The game ends after a played round whose refill leaves the draw pile empty.
- Short hands (the site withdrew cards and had none to replace them): a seat hands in
  what it holds, up to the cards asked; one with an empty hand hands in nothing and is
  not waited for; a storyteller with an empty hand loses the turn at once. A skipped
  round refills hands as a played one does, and ends the game where the pile is empty
  and a hand still short, so empty hands and an empty pile end a game rather than skip
  turns forever.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from games.engine import seats as seating
from games.engine import serial
from games.engine.errors import RuleError
from games.engine.seats import ABSENT_AFTER as ABSENT_AFTER
from games.engine.seats import MIN_SEATS as MIN_SEATS

CardId = int

CLUE_MAX_LENGTH = 200
MAX_SEATS = 6
HAND_SIZE_MIN = 4  # a house rule's hand: 4 to 8 cards
HAND_SIZE_MAX = 8
# Version of the to_dict() layout. 2: Options lost "hand_size" (never set by the
# site; schema 1 states, where it is null, still load). 3: Options has "hand_size"
# again (a house rule), State and RoundResult a "clue_media"; schema 2 states load
# with their defaults (None).
SCHEMA = 3


class Phase(StrEnum):
    CLUE = "clue"
    SUBMIT = "submit"
    VOTE = "vote"
    FINISHED = "finished"


class Rng(Protocol):
    """The part of ``random.Random`` the engine uses."""

    def shuffle(self, x: list[Any]) -> None: ...

    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...


@dataclass(frozen=True)
class Options:
    target_score: int | None = None  # house rule: also ends the game after the round it is reached
    hand_size: int | None = None  # house rule: cards in a hand (None: 6, or 7 with 3 players)


@dataclass(frozen=True)
class RoundResult:
    """The record of one finished round (reveal, history, statistics, replays)."""

    round: int
    storyteller: int
    clue: str | None  # None when the storyteller lost the turn
    storyteller_card: CardId | None
    table: tuple[CardId, ...]  # position p (1-based) is table[p-1]; empty when skipped
    owners: dict[CardId, int]  # card -> seat that played it (storyteller included)
    votes: dict[int, int]  # voter seat -> position voted (abstainers absent)
    points: dict[int, int]  # every seat -> points gained this round (0 included)
    skipped: bool  # the storyteller gave no clue in time: no cards, no points
    clue_media: int | None = None  # a drawn or sung clue's media id (the site's), beside or instead of words


@dataclass(frozen=True)
class State:
    seats: int  # seats are 0..seats-1 in clockwise order
    options: Options
    round: int  # 1-based
    phase: Phase
    storyteller: int | None  # None in round 1 until someone gives the first clue
    clue: str | None
    storyteller_card: CardId | None
    draw_pile: tuple[CardId, ...]  # top of the pile is index 0
    discard: tuple[CardId, ...]
    hands: tuple[tuple[CardId, ...], ...]
    submissions: dict[int, tuple[CardId, ...]]  # seat -> cards handed in (not the storyteller's)
    table: tuple[CardId, ...]  # set when the vote phase starts
    votes: dict[int, int]  # voter seat -> position, this round
    scores: tuple[int, ...]
    misses: tuple[int, ...]  # consecutive missed deadlines; >= ABSENT_AFTER means absent
    resigned: frozenset[int]
    last_round: RoundResult | None
    history: tuple[RoundResult, ...]  # every finished round, in order
    clue_media: int | None = None  # this round's drawn or sung clue (a media id), with ``clue``


# --- reading a state -------------------------------------------------------------


def hand_size(state: State) -> int:
    """The house rule's hand size, else 6 cards, or 7 with 3 players."""
    return _hand_size(state.seats, state.options)


def cards_to_submit(state: State, seat: int | None = None) -> int:
    """Cards each player hands in (1, or 2 with 3 players); with ``seat``, what that seat hands in: no more
    than its hand holds (a hand can run short when cards were withdrawn from the game and none was left to
    replace them)."""
    wanted = _cards_to_submit(state.seats)
    if seat is not None and 0 <= seat < len(state.hands):
        return min(wanted, len(state.hands[seat]))
    return wanted


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
    active = _active(state)
    if state.phase == Phase.CLUE:
        if state.storyteller is None:
            return frozenset(active)
        return frozenset({state.storyteller})
    done = state.submissions if state.phase == Phase.SUBMIT else state.votes
    return frozenset(s for s in active if s != state.storyteller and s not in done)


def first_clue_race(state: State) -> bool:
    """Round 1 before anyone gave a clue: whoever gives it first becomes the storyteller."""
    return state.phase == Phase.CLUE and state.storyteller is None


def winners(state: State) -> tuple[int, ...]:
    """Once finished: the non-resigned seats with the top score (ties share)."""
    if state.phase != Phase.FINISHED:
        return ()
    return seating.winners(state.scores, state.resigned)


def end_reason(state: State) -> str | None:
    """Once finished, why: "too_few" (resignations left too few players), "target" (the house rule's target score
    was reached) or "cards_out" (the draw pile could no longer fill the hands: the rules' end). None before."""
    if state.phase != Phase.FINISHED:
        return None
    if seating.too_few_left(state.seats, state.resigned):
        return "too_few"
    target = state.options.target_score
    if target is not None and any(state.scores[s] >= target for s in _active(state)):
        return "target"
    return "cards_out"


# --- scoring ---------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One line of a round's score: why ``seat`` gained ``points`` (0 included, to say why not).

    ``code`` names the rule (``REASONS``); ``count`` is the number the line speaks of (the votes on
    the seat's card(s) for ``votes_on_card``, the finders for the storyteller's lines), else 0.
    """

    seat: int
    code: str
    points: int
    count: int = 0


# The reason codes, in the order a seat's lines are given.
STORYTELLER_SOME_FOUND = "storyteller_some_found"  # some but not all voters found it: 3 (4: 3-player rule)
STORYTELLER_ALL_FOUND = "storyteller_all_found"  # every voter found it: 0
STORYTELLER_NONE_FOUND = "storyteller_none_found"  # no voter found it: 0
STORYTELLER_NO_VOTES = "storyteller_no_votes"  # nobody voted: 0
STORYTELLER_LOST_TURN = "storyteller_lost_turn"  # no clue in time: 0
FOUND = "found"  # found the storyteller's card (some did not): 3 (4: 3-player rule, the only finder)
ALL_FOUND = "all_found"  # every voter found it: 2 each
NONE_FOUND = "none_found"  # no voter found it: 2 each
NOT_FOUND = "not_found"  # voted for another card while some found it: 0
NO_VOTE = "no_vote"  # played a card but did not vote in time: 0
VOTES_ON_CARD = "votes_on_card"  # 1 for each vote on the seat's own card(s)
REASONS = (
    STORYTELLER_SOME_FOUND,
    STORYTELLER_ALL_FOUND,
    STORYTELLER_NONE_FOUND,
    STORYTELLER_NO_VOTES,
    STORYTELLER_LOST_TURN,
    FOUND,
    ALL_FOUND,
    NONE_FOUND,
    NOT_FOUND,
    NO_VOTE,
    VOTES_ON_CARD,
)


def score_breakdown(
    *,
    storyteller: int,
    storyteller_position: int,
    owners_by_position: Mapping[int, int],
    votes: Mapping[int, int],
    three_players: bool,
) -> tuple[Reason, ...]:
    """The points of one round, line by line, with their reasons (rules: A round, 5; Timeouts).

    The one place the scoring rules live: ``score_round`` adds these lines up. Every seat
    appearing (storyteller, owners, voters) has at least one line, ordered by seat. Only
    votes cast count: abstainers are simply absent from ``votes``.
    """
    lines: dict[int, list[Reason]] = {storyteller: []}
    for seat in (*owners_by_position.values(), *votes):
        lines.setdefault(seat, [])
    finders = [voter for voter, position in votes.items() if position == storyteller_position]
    if not votes:
        lines[storyteller].append(Reason(storyteller, STORYTELLER_NO_VOTES, 0))
    elif not finders or len(finders) == len(votes):
        everyone = bool(finders)
        code = STORYTELLER_ALL_FOUND if everyone else STORYTELLER_NONE_FOUND
        lines[storyteller].append(Reason(storyteller, code, 0, len(finders)))
        for voter in votes:
            lines[voter].append(Reason(voter, ALL_FOUND if everyone else NONE_FOUND, 2))
    else:
        bonus = 4 if three_players and len(finders) == 1 else 3
        lines[storyteller].append(Reason(storyteller, STORYTELLER_SOME_FOUND, bonus, len(finders)))
        for voter in votes:
            if voter in finders:
                lines[voter].append(Reason(voter, FOUND, bonus))
            else:
                lines[voter].append(Reason(voter, NOT_FOUND, 0))
    on_card: dict[int, int] = {}
    for position in votes.values():
        owner = owners_by_position.get(position)
        if position != storyteller_position and owner is not None and owner != storyteller:
            on_card[owner] = on_card.get(owner, 0) + 1
    for seat, seat_lines in lines.items():
        if seat != storyteller and seat not in votes:
            seat_lines.append(Reason(seat, NO_VOTE, 0))
        if seat in on_card:
            seat_lines.append(Reason(seat, VOTES_ON_CARD, on_card[seat], on_card[seat]))
    return tuple(line for seat in sorted(lines) for line in lines[seat])


def score_round(
    *,
    storyteller: int,
    storyteller_position: int,
    owners_by_position: Mapping[int, int],
    votes: Mapping[int, int],
    three_players: bool,
) -> dict[int, int]:
    """Points of one round for every seat appearing (storyteller, owners, voters): ``score_breakdown`` added up."""
    points: dict[int, int] = {}
    for line in score_breakdown(
        storyteller=storyteller,
        storyteller_position=storyteller_position,
        owners_by_position=owners_by_position,
        votes=votes,
        three_players=three_players,
    ):
        points[line.seat] = points.get(line.seat, 0) + line.points
    return points


def round_breakdown(result: RoundResult, *, seats: int) -> tuple[Reason, ...]:
    """The lines of a recorded round's score (``seats``: the game's, as when it was scored).

    Worked out again from the record (owners, table, votes), the same way as when it was
    scored, so rounds of states saved before the breakdown existed have one too.
    """
    if result.skipped:
        return (Reason(result.storyteller, STORYTELLER_LOST_TURN, 0),)
    return score_breakdown(
        storyteller=result.storyteller,
        storyteller_position=result.table.index(result.storyteller_card) + 1,
        owners_by_position={p: result.owners[card] for p, card in enumerate(result.table, start=1)},
        votes=result.votes,
        three_players=seats == 3,
    )


# --- actions ---------------------------------------------------------------------


def new_game(*, seats: int, deck: Sequence[CardId], rng: Rng, options: Options = Options()) -> State:
    if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("bad_seats", f"A game needs {MIN_SEATS} to {MAX_SEATS} players.")
    _check_options(options)
    cards = list(deck)
    if not all(_is_int(card) for card in cards):
        raise RuleError("bad_deck", "Card ids must be integers.")
    if len(set(cards)) != len(cards):
        raise RuleError("bad_deck", "The deck holds the same card twice.")
    size = _hand_size(seats, options)
    if len(cards) < size * seats:
        raise RuleError("deck_too_small", f"The deck needs at least {size * seats} cards for this game.")
    rng.shuffle(cards)
    hands: list[list[CardId]] = [[] for _ in range(seats)]
    top = 0
    for _ in range(size):
        for seat in range(seats):
            hands[seat].append(cards[top])
            top += 1
    return State(
        seats=seats,
        options=options,
        round=1,
        phase=Phase.CLUE,
        storyteller=None,
        clue=None,
        storyteller_card=None,
        draw_pile=tuple(cards[top:]),
        discard=(),
        hands=tuple(tuple(hand) for hand in hands),
        submissions={},
        table=(),
        votes={},
        scores=(0,) * seats,
        misses=(0,) * seats,
        resigned=frozenset(),
        last_round=None,
        history=(),
    )


def give_clue(
    state: State, *, seat: int, card: CardId, text: str, media: int | None = None, rng: Rng | None = None
) -> State:
    """The clue: words, or a drawing or sound (``media``, an id the site checked) with or without words."""
    _check_seat(state, seat)
    if state.round == 1 and state.phase == Phase.SUBMIT and seat not in (state.storyteller, *state.submissions):
        # Beaten in the race for the first clue: the clue stands, this seat hands in a card for it.
        raise RuleError("clue_taken", "Someone gave the first clue before you: hand in a card that fits it.")
    if state.phase != Phase.CLUE:
        raise RuleError("wrong_phase", "It is not the time for a clue.")
    if state.storyteller is not None and seat != state.storyteller:
        raise RuleError("not_your_turn", "Only the storyteller gives the clue.")
    if not isinstance(text, str):
        raise RuleError("bad_action", "A clue is text.")
    if media is not None and not _is_int(media):
        raise RuleError("bad_action", "A clue's media is an id.")
    clue = text.strip()
    if not clue and media is None:
        raise RuleError("clue_empty", "The clue is empty.")
    if len(clue) > CLUE_MAX_LENGTH:
        raise RuleError("clue_too_long", f"A clue has at most {CLUE_MAX_LENGTH} characters.")
    if card not in state.hands[seat]:
        raise RuleError("not_in_hand", "That card is not in your hand.")
    state = replace(
        state,
        phase=Phase.SUBMIT,
        storyteller=seat,
        clue=clue,
        clue_media=media,
        storyteller_card=card,
        hands=_without(state.hands, seat, (card,)),
        misses=seating.clear_misses(state.misses, seat),
    )
    # With 3 present players holding cards at least 2 of them wait to submit now, so nothing is
    # played for absent ones here; where hands ran short, ``rng`` plays for them (``apply`` passes it).
    return _settle(state, rng=rng)


def submit_cards(state: State, *, seat: int, cards: Sequence[CardId], rng: Rng) -> State:
    _check_seat(state, seat)
    if state.phase != Phase.SUBMIT:
        raise RuleError("wrong_phase", "It is not the time to hand in cards.")
    if seat == state.storyteller:
        raise RuleError("not_your_turn", "The storyteller hands in no other card.")
    if seat in state.submissions:
        raise RuleError("already_submitted", "You have already handed in your card.")
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise RuleError("bad_action", "Cards are a list of card ids.")
    cards = tuple(cards)
    if not all(_is_int(card) for card in cards):
        raise RuleError("bad_action", "Cards are a list of card ids.")
    wanted = cards_to_submit(state, seat)
    if len(cards) != wanted:
        raise RuleError("wrong_card_count", f"Hand in exactly {wanted} card(s).")
    if len(set(cards)) != len(cards):
        raise RuleError("duplicate_cards", "Hand in different cards.")
    if any(card not in state.hands[seat] for card in cards):
        raise RuleError("not_in_hand", "That card is not in your hand.")
    state = _hand_in(state, seat, cards)
    state = replace(state, misses=seating.clear_misses(state.misses, seat))
    if not to_act(state):
        state = _lay_table(state, rng)
    return _settle(state, rng)


def cast_vote(state: State, *, seat: int, position: int, rng: Rng) -> State:
    _check_seat(state, seat)
    if state.phase != Phase.VOTE:
        raise RuleError("wrong_phase", "It is not the time to vote.")
    if seat == state.storyteller:
        raise RuleError("not_your_turn", "The storyteller does not vote.")
    if seat in state.votes:
        raise RuleError("already_voted", "You have already voted.")
    if not _is_int(position) or not 1 <= position <= len(state.table):
        raise RuleError("bad_position", f"Vote for a card from 1 to {len(state.table)}.")
    if state.table[position - 1] in state.submissions.get(seat, ()):
        raise RuleError("own_card", "You cannot vote for your own card.")
    state = replace(
        state,
        votes={**state.votes, seat: position},
        misses=seating.clear_misses(state.misses, seat),
    )
    if not to_act(state):
        state = _finish_round(state)
    return _settle(state, rng)


def resign(state: State, *, seat: int, rng: Rng) -> State:
    """The seat leaves; what it owed now is settled as by timeout.

    Fewer than 3 remaining players end the game; a round still in play is then
    abandoned (its cards go to the discard, nobody scores it).
    """
    _check_seat(state, seat)
    state = replace(state, resigned=state.resigned | {seat})
    if state.phase == Phase.CLUE and state.storyteller == seat:
        state = _lose_turn(state)
    elif state.phase == Phase.SUBMIT:
        if seat != state.storyteller and seat not in state.submissions:
            state = _auto_submit(state, seat, rng)
        if not to_act(state):
            state = _lay_table(state, rng)
    elif state.phase == Phase.VOTE and not to_act(state):
        state = _finish_round(state)
    if state.phase != Phase.FINISHED and seating.too_few_left(state.seats, state.resigned):
        state = _abandon(state)
    return _settle(state, rng)


def expire(state: State, *, rng: Rng) -> State:
    """The deadline of the current phase passed (rules: Online play, Timeouts)."""
    if state.phase == Phase.FINISHED:
        raise RuleError("game_finished", "The game is over.")
    if is_paused(state):
        raise RuleError("paused", "The game is paused: too few players are present.")
    waiting = to_act(state)
    if not first_clue_race(state):
        # The race for the first clue is nobody's own turn: running out of it is no miss.
        state = replace(state, misses=seating.count_misses(state.misses, waiting))
    return _settle(_time_out(state, waiting, rng), rng)


def apply(state: State, *, seat: int, action: dict, rng: Rng) -> State:
    """Dispatch a client's action dict to the matching action."""
    if not isinstance(action, Mapping):
        raise RuleError("bad_action", "An action is an object with a type.")
    kind = action.get("type")
    keys = set(action)
    if kind == "clue" and keys in ({"type", "card", "text"}, {"type", "card", "text", "media"}):
        card, text, media = action["card"], action["text"], action.get("media")
        if _is_int(card) and isinstance(text, str) and (media is None or _is_int(media)):
            return give_clue(state, seat=seat, card=card, text=text, media=media, rng=rng)
    elif kind == "submit" and keys == {"type", "cards"}:
        cards = action["cards"]
        if isinstance(cards, (list, tuple)) and all(_is_int(c) for c in cards):
            return submit_cards(state, seat=seat, cards=cards, rng=rng)
    elif kind == "vote" and keys == {"type", "position"}:
        if _is_int(action["position"]):
            return cast_vote(state, seat=seat, position=action["position"], rng=rng)
    elif kind == "resign" and keys == {"type"}:
        return resign(state, seat=seat, rng=rng)
    raise RuleError("bad_action", "That action is not understood.")


# --- serialisation ---------------------------------------------------------------


def to_dict(state: State) -> dict:
    """A JSON-safe dict (string keys) that ``from_dict`` turns back into ``state``."""
    return {"schema": SCHEMA, **serial.dump(state)}


def from_dict(data: Mapping[str, Any]) -> State:
    """The state ``to_dict`` wrote, in this layout or an older one still in databases."""
    data = dict(data)
    schema = data.pop("schema", SCHEMA)
    if schema == 1:
        data = _from_schema_1(data)
    elif schema not in (2, SCHEMA):  # schema 2 lacks only fields with defaults
        raise ValueError(f"Unknown storyteller state schema {schema!r}")
    return serial.load(State, data)


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    options = dict(data["options"])
    if options.pop("hand_size", None) is not None:
        raise ValueError("A storyteller state of schema 1 with a hand size cannot be read any more.")
    return {**data, "options": options}


# --- internals -------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hand_size(seats: int, options: Options = Options()) -> int:
    if options.hand_size is not None:
        return options.hand_size
    return 7 if seats == 3 else 6


def _cards_to_submit(seats: int) -> int:
    return 2 if seats == 3 else 1


def _check_options(options: Options) -> None:
    target = options.target_score
    if target is not None and (not _is_int(target) or target < 1):
        raise RuleError("bad_options", "A target score is a positive number.")
    size = options.hand_size
    if size is not None and (not _is_int(size) or not HAND_SIZE_MIN <= size <= HAND_SIZE_MAX):
        raise RuleError("bad_options", f"A hand holds {HAND_SIZE_MIN} to {HAND_SIZE_MAX} cards.")


def _check_seat(state: State, seat: int) -> None:
    seating.check_seat(seat, seats=state.seats, resigned=state.resigned, finished=state.phase == Phase.FINISHED)


def _active(state: State) -> tuple[int, ...]:
    return seating.active(state.seats, state.resigned)


def _without(
    hands: tuple[tuple[CardId, ...], ...], seat: int, cards: Sequence[CardId]
) -> tuple[tuple[CardId, ...], ...]:
    return tuple(tuple(c for c in hand if c not in cards) if s == seat else hand for s, hand in enumerate(hands))


def _hand_in(state: State, seat: int, cards: tuple[CardId, ...]) -> State:
    return replace(
        state,
        hands=_without(state.hands, seat, cards),
        submissions={**state.submissions, seat: cards},
    )


def _auto_submit(state: State, seat: int, rng: Rng | None) -> State:
    """A card (two with 3 players) drawn at random from the hand; a short hand hands in what it holds."""
    hand = state.hands[seat]
    wanted = cards_to_submit(state, seat)
    if wanted == len(hand):
        return _hand_in(state, seat, tuple(hand))
    if rng is None:
        raise AssertionError("a random submission needs an rng")
    return _hand_in(state, seat, tuple(rng.sample(hand, wanted)))


def _lay_table(state: State, rng: Rng | None) -> State:
    cards = [state.storyteller_card]
    for seat in sorted(state.submissions):
        cards.extend(state.submissions[seat])
    if len(cards) > 1:
        if rng is None:
            raise AssertionError("laying a table needs an rng")
        rng.shuffle(cards)
    return replace(state, phase=Phase.VOTE, table=tuple(cards))


def _time_out(state: State, waiting: frozenset[int], rng: Rng | None) -> State:
    """Settle the seats in ``waiting`` by the timeout rules (misses not counted here)."""
    if state.phase == Phase.CLUE:
        if state.storyteller is None:
            present = sorted(present_seats(state))
            return replace(state, storyteller=(present or list(_active(state)))[0])
        return _lose_turn(state)
    if state.phase == Phase.SUBMIT:
        for seat in sorted(waiting):
            state = _auto_submit(state, seat, rng)
        return _lay_table(state, rng)
    if state.phase == Phase.VOTE:
        return _finish_round(state)
    return state


def _settle(state: State, rng: Rng | None) -> State:
    """Play absent players by the timeout rules when only they hold the game up, and settle at once what an
    empty hand cannot do (hand in a card, give a clue)."""
    while not is_paused(state):
        waiting = to_act(state)
        if state.phase == Phase.SUBMIT and any(not state.hands[s] for s in waiting):
            for seat in sorted(s for s in waiting if not state.hands[s]):
                state = _hand_in(state, seat, ())
            if not to_act(state):
                state = _lay_table(state, rng)
            continue
        if state.phase == Phase.CLUE and state.storyteller is not None and not state.hands[state.storyteller]:
            state = _lose_turn(state)
            continue
        if not waiting or any(not is_absent(state, s) for s in waiting):
            break
        state = _time_out(state, waiting, rng)
    return state


def _next_storyteller(state: State) -> int:
    return seating.next_active(state.storyteller, state.seats, state.resigned)


def _record(state: State, result: RoundResult) -> State:
    return replace(state, last_round=result, history=state.history + (result,))


def _start_next_round(state: State) -> State:
    return replace(
        state,
        round=state.round + 1,
        phase=Phase.CLUE,
        storyteller=_next_storyteller(state),
        **_no_round_in_play(),
    )


def _no_round_in_play() -> dict[str, Any]:
    return {"clue": None, "clue_media": None, "storyteller_card": None, "submissions": {}, "table": (), "votes": {}}


def _lose_turn(state: State) -> State:
    """The storyteller gave no clue: the round is recorded as skipped, the role passes.

    Hands are refilled as after a played round (in play as the rules have it, every hand is full then, so
    this changes nothing); where the pile is empty and a hand is still short, the game ends (no round could
    ever be played again by everyone)."""
    result = RoundResult(
        round=state.round,
        storyteller=state.storyteller,
        clue=None,
        storyteller_card=None,
        table=(),
        owners={},
        votes={},
        points=dict.fromkeys(range(state.seats), 0),
        skipped=True,
    )
    state = _refill(_record(state, result))
    if not state.draw_pile and any(len(state.hands[s]) < hand_size(state) for s in _active(state)):
        return replace(state, phase=Phase.FINISHED, **_no_round_in_play())
    return _start_next_round(state)


def _finish_round(state: State) -> State:
    """Score and reveal the round, discard the table, refill, then end or go on."""
    owners = {state.storyteller_card: state.storyteller}
    for seat, cards in state.submissions.items():
        for card in cards:
            owners[card] = seat
    owners_by_position = {p: owners[card] for p, card in enumerate(state.table, start=1)}
    gained = score_round(
        storyteller=state.storyteller,
        storyteller_position=state.table.index(state.storyteller_card) + 1,
        owners_by_position=owners_by_position,
        votes=state.votes,
        three_players=state.seats == 3,
    )
    points = {s: gained.get(s, 0) for s in range(state.seats)}
    result = RoundResult(
        round=state.round,
        storyteller=state.storyteller,
        clue=state.clue,
        clue_media=state.clue_media,
        storyteller_card=state.storyteller_card,
        table=state.table,
        owners=owners,
        votes=dict(state.votes),
        points=points,
        skipped=False,
    )
    scores = tuple(score + points[s] for s, score in enumerate(state.scores))
    state = replace(_record(state, result), scores=scores, discard=state.discard + state.table)
    state = _refill(state)
    target = state.options.target_score
    reached = target is not None and any(scores[s] >= target for s in _active(state))
    if not state.draw_pile or reached:
        return replace(state, phase=Phase.FINISHED, **_no_round_in_play())
    return _start_next_round(state)


def _refill(state: State) -> State:
    """Deal one card at a time, from the storyteller's left, until hands are full."""
    size = hand_size(state)
    hands = [list(hand) for hand in state.hands]
    pile = list(state.draw_pile)
    order = seating.clockwise_after(state.storyteller, state.seats, state.resigned)
    top = 0
    dealt = True
    while dealt and top < len(pile):
        dealt = False
        for seat in order:
            if top < len(pile) and len(hands[seat]) < size:
                hands[seat].append(pile[top])
                top += 1
                dealt = True
    return replace(state, hands=tuple(tuple(hand) for hand in hands), draw_pile=tuple(pile[top:]))


def _abandon(state: State) -> State:
    """End the game now; cards of an unfinished round go to the discard."""
    if state.table:
        in_play: tuple[CardId, ...] = state.table
    else:
        in_play = tuple(c for cards in state.submissions.values() for c in cards)
        if state.storyteller_card is not None:
            in_play = (state.storyteller_card,) + in_play
    return replace(state, phase=Phase.FINISHED, discard=state.discard + in_play, **_no_round_in_play())
