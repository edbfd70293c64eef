"""Properties of whole Storyteller games played with random actions and timeouts."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from storyteller.engine import rules as st
from games.engine.errors import RuleError
from storyteller.engine.rules import Phase
from storyteller.tests.engine.storyteller_play import check_invariants, legal_moves, snapshot

NEXT_PHASES = {
    Phase.CLUE: {Phase.CLUE, Phase.SUBMIT, Phase.FINISHED},
    Phase.SUBMIT: {Phase.SUBMIT, Phase.VOTE, Phase.FINISHED},
    Phase.VOTE: {Phase.VOTE, Phase.CLUE, Phase.FINISHED},
}

whole_games = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def random_action(state: st.State, rng: random.Random) -> dict:
    """Any action, legal or not, as a client might send it."""
    kind = rng.choice(["clue", "submit", "vote", "dance"])
    card = rng.choice([c for hand in state.hands for c in hand] or [0])
    if kind == "clue":
        return {"type": "clue", "card": card, "text": rng.choice(["", " ", "x", "y" * 201])}
    if kind == "submit":
        return {"type": "submit", "cards": [card] * rng.randint(0, 2)}
    if kind == "vote":
        return {"type": "vote", "position": rng.randint(0, 7)}
    return {"type": kind}


def play(state, rng, *, expire_p, resign_p, noise_p, deck, max_steps=20_000):
    """Play to the end, checking every state on the way; returns the final state."""
    check_invariants(state, deck)
    for _ in range(max_steps):
        if state.phase == Phase.FINISHED:
            return state
        before = state
        roll = rng.random()
        if roll < noise_p:
            seat = rng.randrange(-1, state.seats + 1)
            frozen = snapshot(state)
            try:
                state = st.apply(state, seat=seat, action=random_action(state, rng), rng=rng)
            except RuleError:
                assert snapshot(before) == frozen
                continue
        elif roll < noise_p + resign_p:
            seat = rng.choice(sorted(set(range(state.seats)) - state.resigned))
            state = st.resign(state, seat=seat, rng=rng)
        elif roll < noise_p + resign_p + expire_p and not st.is_paused(state):
            waiting = st.to_act(state)
            state = st.expire(state, rng=rng)
            for seat in range(state.seats):
                if seat in waiting:
                    assert state.misses[seat] == before.misses[seat] + 1
        else:
            waiting = st.to_act(state)
            assert waiting, "an unfinished game always waits for someone"
            seat = rng.choice(sorted(waiting))
            state = st.apply(state, seat=seat, action=legal_moves(state, seat, rng), rng=rng)
            assert state.misses[seat] == 0
        assert state.phase in NEXT_PHASES[before.phase], (before.phase, state.phase)
        assert len(state.history) >= len(before.history)
        assert state.history[: len(before.history)] == before.history
        check_invariants(state, deck)
    raise AssertionError("the game did not end")


@whole_games
@given(
    seats=hs.integers(3, 6),
    seed=hs.integers(0, 2**32 - 1),
    extra_cards=hs.sampled_from([0, 7, 30, 60]),
    expire_p=hs.sampled_from([0.0, 0.05, 0.25]),
    resign_p=hs.sampled_from([0.0, 0.0, 0.01]),
    noise_p=hs.sampled_from([0.0, 0.1]),
    target_score=hs.sampled_from([None, None, None, 10]),
)
def test_random_games_keep_every_invariant_to_the_end(
    seats, seed, extra_cards, expire_p, resign_p, noise_p, target_score
):
    rng = random.Random(seed)
    options = st.Options(target_score=target_score)
    size = 7 if seats == 3 else 6
    deck = tuple(range(100, 100 + size * seats + extra_cards))
    state = st.new_game(seats=seats, deck=deck, rng=rng, options=options)
    final = play(
        state, rng, expire_p=expire_p, resign_p=resign_p, noise_p=noise_p, deck=deck
    )
    active = [s for s in range(seats) if s not in final.resigned]
    top = max(final.scores[s] for s in active)
    ended_by_target = target_score is not None and top >= target_score
    assert final.draw_pile == () or ended_by_target or len(active) < 3
    assert st.winners(final) == tuple(s for s in active if final.scores[s] == top)


@whole_games
@given(seats=hs.integers(3, 6), seed=hs.integers(0, 2**32 - 1))
def test_games_without_timeouts_last_as_the_seeds_say(seats, seed):
    rng = random.Random(seed)
    deck = tuple(range(84))
    state = st.new_game(seats=seats, deck=deck, rng=rng)
    final = play(state, rng, expire_p=0.0, resign_p=0.0, noise_p=0.0, deck=deck)
    assert len(final.history) == {3: 13, 4: 15, 5: 11, 6: 8}[seats]
    assert not any(result.skipped for result in final.history)


@settings(max_examples=300, deadline=None)
@given(data=hs.data(), seats=hs.integers(3, 6))
def test_score_round_shares_out_points_by_the_rules(data, seats):
    three = seats == 3
    k = 2 if three else 1
    storyteller = data.draw(hs.integers(0, seats - 1))
    owners_list = [storyteller] + [s for s in range(seats) if s != storyteller for _ in range(k)]
    owners_list = data.draw(hs.permutations(owners_list))
    owners = {p: seat for p, seat in enumerate(owners_list, start=1)}
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
