"""The kinds' bot strategies: sensible choices, always legal ones."""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from django.utils import timezone

from games.tests.factories import UserFactory
from storyteller import bots as storyteller_bots
from storyteller.engine import rules as st
from think_alike import bots as think_alike_bots
from think_alike.engine import rules as ta
from think_alike.models import TaskCard, ThinkAlikeAnswer, ThinkAlikeRound
from think_alike.tests.content import builtin_content, think_alike_game

DREAM = json.loads((Path(storyteller_bots.__file__).parent / "decks" / "dream.json").read_text())
TEXTS = {n: (card["alt"], ", ".join(card["tags"])) for n, card in enumerate(DREAM["cards"])}
WHALE = next(n for n, (alt, _tags) in TEXTS.items() if "whale" in alt.lower())


@pytest.fixture
def matcher():
    return storyteller_bots.CardWords(TEXTS)


def _storyteller_state(seed=1, seats=4):
    return st.new_game(seats=seats, deck=list(TEXTS), rng=random.Random(seed))


def test_a_clue_is_a_few_telling_words_of_the_card_not_its_description(matcher):
    rng = random.Random(3)
    for seed in range(20):
        state = _storyteller_state(seed)
        action = storyteller_bots.bot_action(state, seat=0, rng=rng, matcher=matcher)
        assert action["type"] == "clue" and action["card"] in state.hands[0]
        clue_words = storyteller_bots.words(action["text"])
        assert 1 <= len(clue_words) <= 2
        card_words = set(storyteller_bots.words(" ".join(TEXTS[action["card"]])))
        assert set(clue_words) <= card_words
        st.apply(state, seat=0, action=action, rng=rng)  # legal


def test_the_card_handed_in_and_the_vote_are_the_nearest_to_the_clue(matcher):
    rng = random.Random(4)
    state = _storyteller_state(2)
    teller_card = state.hands[0][0]
    state = st.give_clue(state, seat=0, card=teller_card, text="whale")
    # Seat 1 holds the whale: it hands it in as its decoy.
    hand = (WHALE, *[c for c in state.hands[1] if c != WHALE][:5])
    state = replace(state, hands=(state.hands[0], hand, *state.hands[2:]))
    action = storyteller_bots.bot_action(state, seat=1, rng=rng, matcher=matcher)
    assert action == {"type": "submit", "cards": [WHALE]}
    for seat in (1, 2, 3):
        state = st.apply(
            state, seat=seat, action=storyteller_bots.bot_action(state, seat=seat, rng=rng, matcher=matcher), rng=rng
        )
    assert state.phase == st.Phase.VOTE
    whale_position = state.table.index(WHALE) + 1
    assert storyteller_bots.bot_action(state, seat=2, rng=rng, matcher=matcher) == {
        "type": "vote",
        "position": whale_position,
    }
    # Its own card is never its vote, however near: seat 1 votes another.
    own = storyteller_bots.bot_action(state, seat=1, rng=rng, matcher=matcher)
    assert own["position"] != whale_position


def test_a_clue_without_words_is_played_at_random_but_legally(matcher):
    rng = random.Random(5)
    state = st.give_clue(_storyteller_state(3), seat=0, card=_storyteller_state(3).hands[0][0], text="x")
    state = replace(state, clue="")
    action = storyteller_bots.bot_action(state, seat=1, rng=rng, matcher=matcher)
    assert action["type"] == "submit" and set(action["cards"]) <= set(state.hands[1])


# --- Think Alike -----------------------------------------------------------------------------


def _think_alike_state(seed=1, board="random"):
    fields = [{"id": 1, "kind": "swap", "text": "Start", "start": True}]
    fields += [{"id": 10 + n, "kind": "association", "text": f"theme {n}"} for n in range(20)]
    fields += [{"id": 50, "kind": "duel", "text": "Duel", "bonus": 2}, {"id": 51, "kind": "move", "text": "Move"}]
    tasks = [{"id": 100 + n, "text": f"A fruit {n}", "answers": 1 + n % 2} for n in range(30)]
    return ta.new_game(seats=4, rng=random.Random(seed), options={"board": board}, fields=fields, tasks=tasks)


def test_every_think_alike_decision_is_legal_to_the_end():
    rng = random.Random(6)
    for seed in range(5):
        state = _think_alike_state(seed, board="draft")
        for _ in range(2000):
            if state.phase == ta.Phase.FINISHED:
                break
            seat = min(ta.to_act(state))
            action = think_alike_bots.bot_action(state, seat=seat, rng=rng)
            state = ta.apply(state, seat=seat, action=action, rng=rng)
        assert state.phase == ta.Phase.FINISHED


def test_bots_answer_the_popular_answer_then_the_same_fallback_word():
    state = _think_alike_state(2)
    rng = random.Random(7)
    while state.phase != ta.Phase.ANSWER:
        seat = min(ta.to_act(state))
        state = ta.apply(state, seat=seat, action=think_alike_bots.bot_action(state, seat=seat, rng=rng), rng=rng)
    wanted = ta.task(state, state.current.task).answers
    popular = think_alike_bots.bot_action(state, seat=1, rng=rng, popular=lambda task, lang, n: ["Banana", "banana!"])
    assert popular["answers"][0] == "Banana" and len(popular["answers"]) == wanted
    if wanted == 2:  # "banana!" is the same answer: the second is another word
        assert popular["answers"][1].lower() != "banana"
    # Without past answers, two bots agree on the card's fallback word.
    one = think_alike_bots.bot_action(state, seat=1, rng=random.Random(1))
    two = think_alike_bots.bot_action(state, seat=2, rng=random.Random(2))
    assert one == two and all(one["answers"])


def test_a_duel_is_against_the_player_with_the_fewest_points():
    state = _think_alike_state(3)
    state = replace(state, phase=ta.Phase.DUEL, scores=(5, 9, 2, 7), turn=0)
    action = think_alike_bots.bot_action(state, seat=0, rng=random.Random(1))
    assert action["opponent"] == 2


@pytest.mark.django_db
def test_past_answers_are_people_s_commonest_to_that_card_not_bots():
    builtin_content()
    task = TaskCard.objects.get(key="fruit-not-round")
    game, users = think_alike_game(3)
    bot = UserFactory(is_bot=True)
    seats = list(game.seats.all())
    bot_seat = game.seats.create(user=bot, position=3, colour="teal")
    played = ThinkAlikeRound.objects.create(
        game=game, number=99, turn=0, task=task, task_text="A fruit", answers_asked=1, scored_at=timezone.now()
    )
    rows = [(seats[0], "Apple"), (seats[1], "apple"), (seats[2], "Pear"), (bot_seat, "Kiwi")]
    other = ThinkAlikeRound.objects.create(
        game=game, number=98, turn=0, task=task, task_text="A fruit", answers_asked=1, scored_at=timezone.now()
    )
    rows2 = [(seats[0], "pear"), (bot_seat, "Kiwi"), (seats[1], "apple"), (seats[2], "The apple")]
    for round_, pairs in ((played, rows), (other, rows2)):
        for seat, text in pairs:
            ThinkAlikeAnswer.objects.create(round=round_, seat=seat, index=0, text=text)
    answers = think_alike_bots.past_answers(task.pk, game.options["lang"], 1)
    assert [a.lower() for a in answers] == ["apple", "pear"]  # kiwi: only a bot gave it
