"""Helpers that play the Storyteller engine in tests: legal moves and invariants."""

from __future__ import annotations

import json
import random
from collections import Counter

from games.engine.errors import RuleError
from storyteller.engine import rules as st

DECK = tuple(range(1, 85))  # the seeds' box: 84 cards


class NoShuffle(random.Random):
    """An rng that leaves order alone, so deals and tables are predictable."""

    def shuffle(self, x):  # noqa: ARG002 - keeps the given order
        return None


def start(seats: int, *, seed: int = 0, deck=DECK, **options) -> tuple[st.State, random.Random]:
    rng = random.Random(seed)
    return st.new_game(seats=seats, deck=deck, rng=rng, options=st.Options(**options)), rng


def clue(state: st.State, seat: int | None = None, text: str = "a clue") -> st.State:
    if seat is None:
        seat = state.storyteller if state.storyteller is not None else 0
    return st.give_clue(state, seat=seat, card=state.hands[seat][0], text=text)


def submit(state: st.State, seat: int, rng) -> st.State:
    cards = state.hands[seat][: st.cards_to_submit(state)]
    return st.submit_cards(state, seat=seat, cards=cards, rng=rng)


def submit_all(state: st.State, rng) -> st.State:
    for seat in sorted(st.to_act(state)):
        state = submit(state, seat, rng)
    return state


def position_of(state: st.State, card: int) -> int:
    return state.table.index(card) + 1


def storyteller_position(state: st.State) -> int:
    return position_of(state, state.storyteller_card)


def own_positions(state: st.State, seat: int) -> list[int]:
    return [position_of(state, card) for card in state.submissions[seat]]


def decoy_position(state: st.State, voter: int) -> int:
    """A position that is neither the storyteller's card nor the voter's own."""
    mine = set(own_positions(state, voter))
    return next(p for p in range(1, len(state.table) + 1) if p != storyteller_position(state) and p not in mine)


def legal_moves(state: st.State, seat: int, rng: random.Random) -> dict:
    """One random legal action of ``seat``, which must be in ``to_act``."""
    if state.phase == st.Phase.CLUE:
        return {"type": "clue", "card": rng.choice(state.hands[seat]), "text": "clue"}
    if state.phase == st.Phase.SUBMIT:
        cards = rng.sample(state.hands[seat], st.cards_to_submit(state))
        return {"type": "submit", "cards": cards}
    mine = set(state.submissions[seat])
    positions = [p for p, card in enumerate(state.table, 1) if card not in mine]
    return {"type": "vote", "position": rng.choice(positions)}


def play_to_end(state: st.State, rng: random.Random, max_steps: int = 10_000) -> st.State:
    """Play random legal actions (no timeouts) until the game is finished."""
    for _ in range(max_steps):
        if state.phase == st.Phase.FINISHED:
            return state
        seat = rng.choice(sorted(st.to_act(state)))
        state = st.apply(state, seat=seat, action=legal_moves(state, seat, rng), rng=rng)
    raise AssertionError("the game did not end")


def snapshot(state: st.State) -> str:
    return json.dumps(st.to_dict(state), sort_keys=True)


def cards_in_play(state: st.State) -> list[int]:
    if state.phase == st.Phase.VOTE:
        return list(state.table)
    cards = [c for cards in state.submissions.values() for c in cards]
    if state.storyteller_card is not None:
        cards.append(state.storyteller_card)
    return cards


def all_cards(state: st.State) -> list[int]:
    return (
        [c for hand in state.hands for c in hand] + list(state.draw_pile) + list(state.discard) + cards_in_play(state)
    )


def check_invariants(state: st.State, deck) -> None:
    """What every reachable state must satisfy."""
    # No card lost, none in two places.
    cards = all_cards(state)
    assert Counter(cards) == Counter(deck)

    # Scores are the sum of the rounds' points; each round's points follow the rules.
    for index, result in enumerate(state.history):
        assert result.round == index + 1
        assert set(result.points) == set(range(state.seats))
        if result.skipped:
            assert result.clue is None and result.table == () and result.votes == {}
            assert set(result.points.values()) == {0}
            continue
        owners_by_position = {p: result.owners[c] for p, c in enumerate(result.table, 1)}
        expected = st.score_round(
            storyteller=result.storyteller,
            storyteller_position=result.table.index(result.storyteller_card) + 1,
            owners_by_position=owners_by_position,
            votes=result.votes,
            three_players=state.seats == 3,
        )
        assert result.points == {s: expected.get(s, 0) for s in range(state.seats)}
        assert result.owners[result.storyteller_card] == result.storyteller
        assert result.storyteller not in result.votes
        for voter, position in result.votes.items():
            assert result.owners[result.table[position - 1]] != voter
    totals = [sum(r.points[s] for r in state.history) for s in range(state.seats)]
    assert list(state.scores) == totals
    assert state.last_round == (state.history[-1] if state.history else None)

    active = [s for s in range(state.seats) if s not in state.resigned]
    size = st.hand_size(state)
    k = st.cards_to_submit(state)
    assert not (st.to_act(state) & state.resigned)
    if state.phase == st.Phase.FINISHED:
        assert state.table == () and state.submissions == {} and state.storyteller_card is None
        assert st.to_act(state) == frozenset()
        assert set(st.winners(state)) <= set(active) and st.winners(state)
        return
    assert len(state.history) == state.round - 1
    assert len(active) >= 3
    # Hands are full after every refill while the pile lasts (a game goes on only
    # while it does), less the cards handed in this round.
    for seat in active:
        held = len(state.hands[seat])
        if state.phase == st.Phase.CLUE:
            assert held == size
        elif seat == state.storyteller:
            assert held == size - 1
        elif seat in state.submissions:
            assert held == size - k
        else:
            assert held == size
    if state.phase == st.Phase.CLUE:
        assert state.clue is None and state.submissions == {} and state.table == ()
        assert state.storyteller is not None or state.round == 1
    else:
        assert state.clue and state.storyteller_card is not None
    if state.phase == st.Phase.VOTE:
        assert len(state.table) == 1 + k * len(state.submissions)
        assert set(active) - {state.storyteller} <= set(state.submissions)
        assert state.storyteller not in state.submissions
    else:
        assert state.votes == {}
    assert st.from_dict(json.loads(json.dumps(st.to_dict(state)))) == state


def raises_unchanged(code: str, action, state: st.State) -> None:
    """``action()`` raises RuleError(code) and the state is as it was."""
    before = snapshot(state)
    try:
        action()
    except RuleError as error:
        assert error.code == code, (error.code, error.message)
    else:
        raise AssertionError(f"expected RuleError({code!r})")
    assert snapshot(state) == before
