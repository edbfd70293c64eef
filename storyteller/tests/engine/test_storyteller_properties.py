"""Properties of Storyteller games: a rule-based state machine that plays the engine.

Hypothesis plays legal actions drawn from the state, out-of-turn and malformed
actions, expired deadlines and resignations, and checks after every step what the
rules (rules/storyteller.md) promise: points add up, no card is lost or doubled,
the state round-trips through JSON, a refused action changes nothing, what a seat
does touches only its own hidden cards, and the game ends exactly when the rules say.
A failing run shrinks to a short list of steps.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine.errors import RuleError
from storyteller.engine import rules as st
from storyteller.engine.rules import Phase
from storyteller.tests.engine.storyteller_play import check_invariants, play_to_end, snapshot, start

NEXT_PHASES = {
    Phase.CLUE: {Phase.CLUE, Phase.SUBMIT, Phase.FINISHED},
    Phase.SUBMIT: {Phase.SUBMIT, Phase.VOTE, Phase.FINISHED},
    Phase.VOTE: {Phase.VOTE, Phase.CLUE, Phase.FINISHED},
}
CLUES = hs.sampled_from(["a clue", "  two words ", "x" * st.CLUE_MAX_LENGTH, "ü"])


def legal_action(data, state: st.State, seat: int) -> dict:
    """A legal action of ``seat`` (in ``to_act``), drawn from the state."""
    hand = state.hands[seat]
    if state.phase == Phase.CLUE:
        return {"type": "clue", "card": data.draw(hs.sampled_from(hand)), "text": data.draw(CLUES)}
    if state.phase == Phase.SUBMIT:
        k = st.cards_to_submit(state)
        cards = data.draw(hs.lists(hs.sampled_from(hand), min_size=k, max_size=k, unique=True))
        return {"type": "submit", "cards": cards}
    mine = set(state.submissions[seat])
    positions = [p for p, card in enumerate(state.table, 1) if card not in mine]
    return {"type": "vote", "position": data.draw(hs.sampled_from(positions))}


def malformed_action(data, state: st.State, seat: int) -> dict:
    """An action of ``seat`` (in ``to_act``) that the rules refuse."""
    hand = state.hands[seat]
    elsewhere = sorted({c for h in state.hands for c in h} - set(hand)) or [-1]
    k = st.cards_to_submit(state)
    wrong_phase = {Phase.CLUE: "vote", Phase.SUBMIT: "clue", Phase.VOTE: "submit"}[state.phase]
    choices = [
        {"type": "dance"},
        {"type": wrong_phase, "card": hand[0], "text": "x", "cards": list(hand[:k]), "position": 1},
        {"type": "clue", "card": hand[0], "text": data.draw(hs.sampled_from(["", "   ", "y" * 201]))},
        {"type": "clue", "card": data.draw(hs.sampled_from(elsewhere)), "text": "x"},
        {"type": "clue", "card": hand[0], "text": "x", "extra": 1},
        {"type": "submit", "cards": [data.draw(hs.sampled_from(elsewhere))] * k},
        {"type": "submit", "cards": list(hand[: k + 1]) if len(hand) > k else []},
        {"type": "submit", "cards": [hand[0]] * 2},
        {"type": "submit", "cards": "12"},
        {"type": "vote", "position": data.draw(hs.sampled_from([0, -1, len(state.table) + 1, True, "1"]))},
    ]
    if state.phase == Phase.VOTE:
        choices.append({"type": "vote", "position": state.table.index(state.submissions[seat][0]) + 1})
    if state.phase == Phase.CLUE:  # only wrong in the other phases
        choices = [c for c in choices if c["type"] != "vote" or isinstance(c["position"], str)]
    return data.draw(hs.sampled_from(choices))


class StorytellerGame(RuleBasedStateMachine):
    @initialize(
        seats=hs.integers(3, 6),
        # Few cards beyond the hands: games end within the steps a run has.
        extra=hs.integers(0, 12),
        target_score=hs.sampled_from([None, None, 3, 6]),
        resignations=hs.integers(0, 2),
        rng=hs.randoms(use_true_random=False),
    )
    def start(self, seats, extra, target_score, resignations, rng):
        self.resignations = resignations  # at most, so that most runs play rounds
        size = 7 if seats == 3 else 6
        self.deck = tuple(range(100, 100 + size * seats + extra))
        self.rng = rng
        self.state = st.new_game(seats=seats, deck=self.deck, rng=rng, options=st.Options(target_score=target_score))

    # --- helpers -----------------------------------------------------------------

    def step(self, after: st.State) -> None:
        before = self.state
        assert after.phase in NEXT_PHASES[before.phase], (before.phase, after.phase)
        assert after.history[: len(before.history)] == before.history
        self.state = after

    def refused(self, call) -> RuleError:
        frozen = snapshot(self.state)
        with pytest.raises(RuleError) as error:
            call()
        assert snapshot(self.state) == frozen
        return error.value

    def on(self) -> bool:
        return self.state.phase != Phase.FINISHED

    # --- rules ---------------------------------------------------------------------

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act(self, data):
        before = self.state
        seat = data.draw(hs.sampled_from(sorted(st.to_act(before))))
        action = legal_action(data, before, seat)
        after = st.apply(before, seat=seat, action=action, rng=self.rng)
        assert after.misses[seat] == 0
        if after.phase == before.phase == Phase.SUBMIT:
            # Handing in touches the seat's own cards only (absent seats are
            # played only when the phase moves on).
            changed = {s for s in range(before.seats) if after.hands[s] != before.hands[s]}
            assert changed == {seat}
            assert {s: c for s, c in after.submissions.items() if s != seat} == before.submissions
            assert set(after.submissions[seat]) == set(action["cards"])
        if after.phase == before.phase == Phase.VOTE:
            assert after.hands == before.hands and after.submissions == before.submissions
            assert after.votes == {**before.votes, seat: action["position"]}
        self.step(after)

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act_again(self, data):
        """Legal play, twice as often as each other rule, so that games get somewhere."""
        self.act(data)

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act_malformed(self, data):
        seat = data.draw(hs.sampled_from(sorted(st.to_act(self.state))))
        action = malformed_action(data, self.state, seat)
        self.refused(lambda: st.apply(self.state, seat=seat, action=action, rng=self.rng))

    @rule(data=hs.data())
    def act_out_of_turn(self, data):
        state = self.state
        others = sorted(set(range(-1, state.seats + 1)) - st.to_act(state))
        seat = data.draw(hs.sampled_from(others))
        if 0 <= seat < state.seats and self.on() and st.to_act(state):
            # What the seat would send if it were its turn.
            action = legal_action(data, state, next(iter(st.to_act(state)))) | {}
            if action["type"] == "clue":
                action["card"] = state.hands[seat][0]
        else:
            action = {"type": "vote", "position": 1}
        self.refused(lambda: st.apply(state, seat=seat, action=action, rng=self.rng))

    @precondition(lambda self: self.on() and not st.is_paused(self.state))
    @rule()
    def expire(self):
        before = self.state
        # The race for the first clue is nobody's own turn: it counts no miss.
        waiting = frozenset() if st.first_clue_race(before) else st.to_act(before)
        after = st.expire(before, rng=self.rng)
        for seat in range(before.seats):
            assert after.misses[seat] == before.misses[seat] + (seat in waiting)
        self.step(after)

    @precondition(lambda self: self.on() and st.is_paused(self.state))
    @rule()
    def expire_while_paused(self):
        assert self.refused(lambda: st.expire(self.state, rng=self.rng)).code == "paused"

    @precondition(lambda self: self.on() and self.resignations)
    @rule(data=hs.data())
    def resign(self, data):
        self.resignations -= 1
        before = self.state
        seat = data.draw(hs.sampled_from(sorted(set(range(before.seats)) - before.resigned)))
        after = st.resign(before, seat=seat, rng=self.rng)
        assert after.resigned == before.resigned | {seat}
        assert seat not in st.to_act(after) and seat not in st.winners(after)
        self.step(after)

    @precondition(lambda self: not self.on())
    @rule(data=hs.data())
    def act_after_the_end(self, data):
        seat = data.draw(hs.integers(0, self.state.seats - 1))
        action = {"type": "vote", "position": 1}
        assert self.refused(lambda: st.apply(self.state, seat=seat, action=action, rng=self.rng)).code in {
            "game_finished"
        }
        assert self.refused(lambda: st.expire(self.state, rng=self.rng)).code == "game_finished"

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def keeps_the_rules(self):
        # Cards conserved and never doubled, points add up round by round, hands
        # full, and the state round-trips through JSON: see check_invariants.
        check_invariants(self.state, self.deck)
        assert st.from_dict(json.loads(json.dumps(st.to_dict(self.state)))) == self.state

    @invariant()
    def ends_exactly_when_the_rules_say(self):
        state = self.state
        active = [s for s in range(state.seats) if s not in state.resigned]
        target = state.options.target_score
        reached = target is not None and any(state.scores[s] >= target for s in active)
        if state.phase == Phase.FINISHED:
            # The draw pile ran out, the target was reached, or too few are left.
            assert not state.draw_pile or reached or len(active) < st.MIN_SEATS
            top = max(state.scores[s] for s in active)
            assert st.winners(state) == tuple(s for s in active if state.scores[s] == top)
        else:
            assert not reached
            # The game ends after a played round whose refill empties the pile; a
            # deck just big enough for the hands leaves it empty from the start.
            assert state.draw_pile or all(result.skipped for result in state.history)
            assert st.winners(state) == ()
            assert st.to_act(state), "an unfinished game always waits for someone"


TestStorytellerGame = StorytellerGame.TestCase
TestStorytellerGame.settings = settings(
    max_examples=75, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize(("seats", "rounds"), [(3, 13), (4, 15), (5, 11), (6, 8)])
def test_games_without_timeouts_last_as_the_seeds_say(seats, rounds):
    state, rng = start(seats, seed=seats)
    final = play_to_end(state, rng)
    assert len(final.history) == rounds
    assert not any(result.skipped for result in final.history)


@settings(max_examples=300, deadline=None)
@given(data=hs.data(), seats=hs.integers(3, 6))
def test_score_round_shares_out_points_by_the_rules(data, seats):
    three = seats == 3
    k = 2 if three else 1
    storyteller = data.draw(hs.integers(0, seats - 1))
    owners_list = [storyteller] + [s for s in range(seats) if s != storyteller for _ in range(k)]
    owners_list = data.draw(hs.permutations(owners_list))
    owners = dict(enumerate(owners_list, start=1))
    st_pos = owners_list.index(storyteller) + 1
    votes = {}
    for voter in range(seats):
        if voter == storyteller or data.draw(hs.integers(0, 3)) == 0:
            continue  # the storyteller never votes; others sometimes abstain
        choices = [p for p, seat in owners.items() if seat != voter]
        votes[voter] = data.draw(hs.sampled_from(choices))
    points = st.score_round(
        storyteller=storyteller,
        storyteller_position=st_pos,
        owners_by_position=owners,
        votes=votes,
        three_players=three,
    )
    assert set(points) == set(range(seats))
    finders = {v for v, p in votes.items() if p == st_pos}
    decoy_votes = len(votes) - len(finders)
    if not votes:
        assert set(points.values()) == {0}
    elif not finders or len(finders) == len(votes):
        assert points[storyteller] == 0
        assert sum(points.values()) == 2 * len(votes) + decoy_votes
    else:
        bonus = 4 if three and len(finders) == 1 else 3
        assert points[storyteller] == bonus
        assert sum(points.values()) == bonus * (1 + len(finders)) + decoy_votes
    for seat in range(seats):
        if seat != storyteller:
            on_mine = sum(1 for p in votes.values() if owners[p] == seat)
            assert points[seat] >= on_mine
            if seat not in votes:
                assert points[seat] == on_mine  # abstainers: only votes on their cards
