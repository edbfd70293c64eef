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
from think_alike.engine import matching as ta_matching
from think_alike.engine import rules as ta
from think_alike.models import TaskCard, ThinkAlikeAnswer, ThinkAlikeRound
from think_alike.tests.content import builtin_content, think_alike_game

DREAM = json.loads((Path(storyteller_bots.__file__).parent / "decks" / "builtin" / "dream.json").read_text())
LANGS = storyteller_bots.LANGS


def texts_in(lang):
    return {
        n: (card["alt_texts"].get(lang) if lang != "en" else None) or card["alt"]
        for n, card in enumerate(DREAM["cards"])
    }


TAGS = {n: [tag.lower() for tag in card["tags"]] for n, card in enumerate(DREAM["cards"])}
ALL_TAGS = {tag for tags in TAGS.values() for tag in tags}
WHALE = next(n for n, text in texts_in("en").items() if "whale" in text.lower())


@pytest.fixture(scope="module")
def decks():
    return {lang: storyteller_bots.DeckReading(texts_in(lang), lang, ALL_TAGS) for lang in LANGS}


def _storyteller_state(seed=1, seats=4):
    return st.new_game(seats=seats, deck=sorted(texts_in("en")), rng=random.Random(seed))


def _is_tag_string(clue: str) -> bool:
    """Whether the clue is two or more tags put side by side (in any order): what the bots once said."""
    words = clue.split()
    if len(words) < 2:
        return False
    left = clue
    for _ in range(len(words)):
        for tag in sorted(ALL_TAGS, key=len, reverse=True):
            if left == tag:
                return True
            if left.startswith(tag + " "):
                left = left[len(tag) + 1 :]
                break
        else:
            return False
    return False


@pytest.mark.parametrize("lang", LANGS)
def test_a_clue_is_words_of_the_card_in_the_game_s_language_never_a_string_of_tags(decks, lang):
    deck = decks[lang]
    rng = random.Random(3)
    for seed in range(12):
        state = _storyteller_state(seed)
        level = ("easy", "normal", "hard")[seed % 3]
        action = storyteller_bots.bot_action(state, seat=0, rng=rng, deck=deck, seed=100 + seed, level=level)
        assert action["type"] == "clue" and action["card"] in state.hands[0]
        clue = action["text"]
        card_words = storyteller_bots.tokens(deck.texts[action["card"]], lang)
        clue_words = clue.split()
        assert 1 <= len(clue_words) <= storyteller_bots.MAX_FRAGMENT
        assert all(word in card_words for word in clue_words), (lang, clue, deck.texts[action["card"]])
        assert " ".join(clue_words) in " ".join(card_words)  # a fragment as written, not words put together
        assert storyteller_bots.is_content(clue_words[0], lang) and storyteller_bots.is_content(clue_words[-1], lang)
        assert not _is_tag_string(clue)
        if lang != "en":  # the game's language, not English: not a word of the card's English alt text
            english = storyteller_bots.tokens(DREAM["cards"][action["card"]]["alt"], "en")
            assert clue != " ".join(english) and clue.lower() not in {"bat cat", "bird beam"}
        st.apply(state, seat=0, action=action, rng=rng)  # legal


def test_the_storyteller_aims_at_a_clue_some_find_and_others_not(decks):
    deck = decks["en"]
    reader = deck.reader(7)
    hand = [WHALE]
    options = storyteller_bots.clue_options(deck, reader, hand, voters=3, decoys=3, hand_size=6)
    by_text = {option.text: option for option in options}
    # The whale is on one card only: everybody would find it. The hard storyteller says something else.
    assert by_text["whale"].chance > 0.8
    best = max(options, key=lambda option: option.value)
    assert best.text != "whale" and 0.25 < best.chance < 0.8
    card, text = storyteller_bots.clue_for(
        deck, reader, hand, random.Random(1), level="hard", voters=3, decoys=3, hand_size=6
    )
    assert card == WHALE and by_text[text].value >= best.value - 0.01


def test_decoys_and_votes_are_near_the_clue_and_never_the_voter_s_own_card(decks):
    deck = decks["en"]
    rng = random.Random(4)
    state = _storyteller_state(2)
    state = st.give_clue(state, seat=0, card=state.hands[0][0], text="whale")
    hand = (WHALE, *[c for c in state.hands[1] if c != WHALE][:5])
    state = replace(state, hands=(state.hands[0], hand, *state.hands[2:]))
    # A hard bot holding the whale hands it in for the clue "whale".
    action = storyteller_bots.bot_action(state, seat=1, rng=rng, deck=deck, seed=11, level="hard")
    assert action == {"type": "submit", "cards": [WHALE]}
    for seat in (1, 2, 3):
        action = storyteller_bots.bot_action(state, seat=seat, rng=rng, deck=deck, seed=10 + seat, level="hard")
        state = st.apply(state, seat=seat, action=action, rng=rng)
    assert state.phase == st.Phase.VOTE
    whale_position = state.table.index(WHALE) + 1
    votes = [
        storyteller_bots.bot_action(state, seat=2, rng=random.Random(n), deck=deck, seed=12, level="hard")["position"]
        for n in range(20)
    ]
    assert votes.count(whale_position) >= 18  # a hard reader is sure of an obvious clue
    for n in range(20):  # its own card is never its vote, however near
        own = storyteller_bots.bot_action(state, seat=1, rng=random.Random(n), deck=deck, seed=11, level="easy")
        assert own["position"] != whale_position


def test_two_bots_do_not_always_read_a_clue_alike(decks):
    deck = decks["fi"]
    disagreements = 0
    for seed in range(30):
        state = _storyteller_state(seed)
        rng = random.Random(seed)
        clue = storyteller_bots.bot_action(state, seat=0, rng=rng, deck=deck, seed=1, level="normal")
        state = st.apply(state, seat=0, action=clue, rng=rng)
        for seat in (1, 2, 3):
            action = storyteller_bots.bot_action(state, seat=seat, rng=rng, deck=deck, seed=seat + 1, level="normal")
            state = st.apply(state, seat=seat, action=action, rng=rng)
        votes = {
            seat: storyteller_bots.bot_action(state, seat=seat, rng=rng, deck=deck, seed=seat + 1, level="normal")
            for seat in (1, 2, 3)
        }
        cards = {state.table[vote["position"] - 1] for vote in votes.values()}
        disagreements += len(cards) > 1
    assert 3 <= disagreements <= 27  # sometimes they agree, sometimes not
    # Each bot is its own reader, the same every time: its leaning comes from its seed.
    one, other = deck.reader(1), deck.reader(2)
    assert deck.reader(1) is one and storyteller_bots.Reader(deck, 1).word_share == one.word_share
    assert one.word_share != other.word_share or one.spread != other.spread


def test_a_clue_without_words_is_played_at_random_but_legally(decks):
    rng = random.Random(5)
    state = st.give_clue(_storyteller_state(3), seat=0, card=_storyteller_state(3).hands[0][0], text="x")
    state = replace(state, clue="")
    action = storyteller_bots.bot_action(state, seat=1, rng=rng, deck=decks["en"], seed=2)
    assert action["type"] == "submit" and set(action["cards"]) <= set(state.hands[1])


def _play(levels, deck, rng):
    state = st.new_game(seats=len(levels), deck=sorted(deck.texts), rng=rng)
    seeds = [rng.randrange(1, 10**6) for _ in levels]
    while state.phase != st.Phase.FINISHED:
        seat = rng.choice(sorted(st.to_act(state)))
        action = storyteller_bots.bot_action(state, seat=seat, rng=rng, deck=deck, seed=seeds[seat], level=levels[seat])
        state = st.apply(state, seat=seat, action=action, rng=rng)
    return state


def test_hard_storyteller_bots_beat_easy_ones_in_a_seeded_simulation(decks):
    rng = random.Random(2026)
    points = {"hard": 0, "easy": 0}
    for game in range(6):
        levels = ["hard", "easy", "hard", "easy"] if game % 2 else ["easy", "hard", "easy", "hard"]
        state = _play(levels, decks[("en", "fi", "fr")[game % 3]], rng)
        for seat, level in enumerate(levels):
            points[level] += state.scores[seat]
    assert points["hard"] > points["easy"] * 1.25, points


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
    popular = think_alike_bots.bot_action(
        state, seat=1, rng=rng, popular=lambda task, lang, n: ["Banana", "banana!"], level="hard"
    )
    assert popular["answers"][0] == "Banana" and len(popular["answers"]) == wanted
    if wanted == 2:  # "banana!" is the same answer: the second is another word
        assert popular["answers"][1].lower() != "banana"
    # Without past answers, two bots agree on the card's fallback word.
    one = think_alike_bots.bot_action(state, seat=1, rng=random.Random(1), level="hard")
    two = think_alike_bots.bot_action(state, seat=2, rng=random.Random(2), level="hard")
    assert one == two and all(one["answers"])


def test_a_duel_is_against_the_player_with_the_fewest_points():
    state = _think_alike_state(3)
    state = replace(state, phase=ta.Phase.DUEL, scores=(5, 9, 2, 7), turn=0)
    action = think_alike_bots.bot_action(state, seat=0, rng=random.Random(1), level="hard")
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


# --- Think Alike in every language, at every level ------------------------------------------------

CONTENT = Path(think_alike_bots.__file__).parent / "content"


def _content(lang):
    fields = [
        {"id": n, "kind": f["kind"], "text": f["text"][lang], "bonus": f.get("bonus"), "start": f.get("start")}
        for n, f in enumerate(json.loads((CONTENT / "fields.json").read_text(encoding="utf-8")), start=1)
    ]
    tasks = [
        {"id": n, "text": t["text"][lang], "answers": t["answers"]}
        for n, t in enumerate(json.loads((CONTENT / "tasks.json").read_text(encoding="utf-8")), start=1)
    ]
    return fields, tasks


def _to_answer(lang, seed):
    fields, tasks = _content(lang)
    rng = random.Random(seed)
    state = ta.new_game(seats=4, rng=rng, options={"lang": lang}, fields=fields, tasks=tasks)
    while state.phase != ta.Phase.ANSWER:
        seat = min(ta.to_act(state))
        action = think_alike_bots.bot_action(state, seat=seat, rng=rng, level="hard")
        state = ta.apply(state, seat=seat, action=action, rng=rng)
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_think_alike_bots_answer_in_the_game_s_language(lang):
    known = think_alike_bots.word_list(lang)[0]
    english = think_alike_bots.word_list("en")[0]
    for seed in range(8):
        state = _to_answer(lang, seed)
        task_words = set(ta_matching.normalize(ta.task(state, state.current.task).text, lang).split())
        for level in ("easy", "normal", "hard"):
            answers = think_alike_bots.bot_action(state, seat=1, rng=random.Random(seed), level=level)["answers"]
            for answer in filter(None, answers):
                key = ta_matching.normalize(answer, lang)
                assert key in known or key in task_words, (lang, answer)
                if lang != "en":
                    assert key not in english or key in known, (lang, answer)


def test_think_alike_hard_bots_think_alike_more_than_easy_ones():
    agreed = {"easy": 0, "hard": 0}
    for seed in range(20):
        state = _to_answer("sv", seed)
        for level in agreed:
            one = think_alike_bots.bot_action(state, seat=1, rng=random.Random(seed), level=level)
            two = think_alike_bots.bot_action(state, seat=2, rng=random.Random(seed + 100), level=level)
            agreed[level] += one == two
    assert agreed["hard"] == 20 and agreed["easy"] < 14, agreed


def test_think_alike_hard_bots_beat_easy_ones_in_a_seeded_simulation():
    fields, tasks = _content("fr")
    rng = random.Random(32)
    points = {"hard": 0, "easy": 0}
    for game in range(4):
        levels = ["hard", "easy", "hard", "easy"] if game % 2 else ["easy", "hard", "easy", "hard"]
        state = ta.new_game(seats=4, rng=rng, options={"lang": "fr"}, fields=fields, tasks=tasks)
        while state.phase != ta.Phase.FINISHED:
            seat = rng.choice(sorted(ta.to_act(state)))
            action = think_alike_bots.bot_action(state, seat=seat, rng=rng, level=levels[seat])
            state = ta.apply(state, seat=seat, action=action, rng=rng)
        for seat, level in enumerate(levels):
            points[level] += state.scores[seat]
    assert points["hard"] > points["easy"] * 1.25, points
