"""Think Alike's grouping per language: quality on the labelled pairs, no chaining, and
turn holders' rulings kept on every form of the words for the rest of the game."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from think_alike.engine import rules as ta
from think_alike.engine.matching import (
    SUPPORTED,
    Equivalences,
    form_key,
    group_answers,
    normalize,
    same_answer,
)
from think_alike.engine.rules import Phase
from think_alike.tests.engine.think_alike_play import act, answer_all, group_of, start, to_task
from think_alike.tests.grouping import labelled

# --- quality on the labelled pairs -------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_labelled_set_is_large_enough(lang):
    pairs = labelled.pairs(lang)
    assert sum(p.same for p in pairs) >= 40
    assert sum(not p.same for p in pairs) >= 40
    assert len({(p.a, p.b) for p in pairs}) == len(pairs), "a pair is labelled twice"
    holdout = labelled.pairs(lang, labelled.HOLDOUT)  # read by bench/grouping.py
    assert sum(p.same for p in holdout) >= 20 and sum(not p.same for p in holdout) >= 20


@pytest.mark.parametrize("lang", SUPPORTED)
def test_precision_and_recall_per_language(lang):
    score = labelled.score(lang)
    wrong = [f"{'same' if p.same else 'apart'}: {p.a!r} / {p.b!r}" for p in score.wrong]
    assert score.precision >= 0.95, wrong
    assert score.recall >= 0.85, wrong


def test_a_grouping_that_merges_everything_fails_the_precision_bar(monkeypatch):
    # The quality test can fail: lumping all answers together scores far below the bar.
    monkeypatch.setattr(labelled, "grouped_together", lambda pair: True)
    assert labelled.score("en").precision < 0.95
    monkeypatch.setattr(labelled, "grouped_together", lambda pair: False)
    assert labelled.score("en").recall < 0.85


# --- per language ------------------------------------------------------------------


def match(a: str, b: str, lang: str) -> bool:
    return same_answer(normalize(a, lang), normalize(b, lang), lang)


@pytest.mark.parametrize(
    ("lang", "text", "key"),
    [
        ("sv", "Ett äpple", "äpple"),
        ("sv", "En HUND", "hund"),
        ("sv", "smørgås", "smörgås"),  # Danish/Norwegian keyboard
        ("nb", "Ei jente", "jente"),
        ("nb", "syv", "7"),
        ("fi", "Neljä", "4"),
        ("fi", "Jäätelö!", "jäätelö"),  # ä, ö kept
        ("fr", "L'Éléphant", "éléphant"),  # accents kept in French keys
        ("fr", "de la glace", "glace"),
        ("fr", "dix-sept", "17"),
        ("fr", "Œuf", "oeuf"),
        ("fr", "sel & poivre", "sel et poivre"),
        ("da", "Crème brûlée", "creme brulee"),  # folded elsewhere
    ],
)
def test_normalize_per_language(lang, text, key):
    assert normalize(text, lang) == key


@pytest.mark.parametrize(
    ("lang", "a", "b", "same"),
    [
        ("fr", "côte", "côté", False),  # both words: the accent tells them apart
        ("fr", "côtes", "côté", False),
        ("fr", "côte", "côtes", True),
        ("fr", "cote", "côte", True),  # typed without accents
        ("fr", "mûr", "mur", False),
        ("fi", "tähti", "tahti", False),  # ä is a letter of its own
        ("sv", "hål", "hal", False),
        ("nb", "bok", "bøk", False),
        ("da", "skole", "skåle", False),
        ("en", "house", "horse", False),  # both common words: never a typo
        ("en", "elephant", "elephnat", True),  # a typo in a longer word
        ("en", "cat", "cta", False),  # too short for a typo
        ("da", "fisker", "fisk", False),  # fisherman, fish
    ],
)
def test_letters_accents_and_typos(lang, a, b, same):
    assert match(a, b, lang) is same
    assert match(b, a, lang) is same


# --- no chaining -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "a", "b", "c"),
    [
        ("fr", "côte", "cote", "côté"),
        ("da", "hav", "haven", "have"),
    ],
)
def test_no_chaining_through_a_shared_neighbour(lang, a, b, c):
    # a ~ b and b ~ c, but not a ~ c: a and c never end in one group.
    assert match(a, b, lang) and match(b, c, lang) and not match(a, c, lang)
    for order in itertools.permutations([a, b, c]):
        groups = group_answers([(seat, 0, text) for seat, text in enumerate(order)], lang)
        for group in groups:
            texts = {order[seat] for seat, _ in group.items}
            assert not {a, c} <= texts, (order, groups)


def test_complete_linkage_picks_the_group_of_the_most_answered():
    # "cote" fits "côte" (two seats) and "côté" (one): it joins the larger.
    groups = group_answers([(0, 0, "côte"), (1, 0, "côte"), (2, 0, "cote"), (3, 0, "côté")], "fr")
    assert [set(g.items) for g in groups] == [{(0, 0), (1, 0), (2, 0)}, {(3, 0)}]


VOCABULARY = sorted({text for pair in labelled.pairs("en") for text in (pair.a, pair.b)})


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.sampled_from(VOCABULARY), min_size=2, max_size=10))
def test_every_two_answers_of_a_group_match(answers):
    groups = group_answers([(seat, 0, text) for seat, text in enumerate(answers)], "en")
    keys = [normalize(text, "en") for text in answers]
    for group in groups:
        for (x, _), (y, _) in itertools.combinations(group.items, 2):
            assert same_answer(keys[x], keys[y], "en"), (answers[x], answers[y])
    assert sorted(item for g in groups for item in g.items) == [(seat, 0) for seat in range(len(answers))]


# --- rulings on every form ---------------------------------------------------------


def grouped(answers, lang, rulings) -> list[set[str]]:
    groups = group_answers([(seat, 0, text) for seat, text in enumerate(answers)], lang, rulings)
    return sorted(({answers[seat] for seat, _ in g.items} for g in groups), key=sorted)


def test_forms_share_a_form_key():
    assert form_key("sofas", "en") == form_key("sofa", "en") != form_key("couch", "en")
    assert form_key("couches", "en") == form_key("couch", "en")
    assert form_key("hundene", "da") == form_key("hund", "da")
    assert form_key("côte", "fr") != form_key("côté", "fr")


def test_a_merge_holds_for_every_form_in_both_directions():
    rulings = Equivalences().merge(["sofa", "couch"])
    assert grouped(["sofas", "couches", "chair"], "en", rulings) == [{"chair"}, {"sofas", "couches"}]
    rulings = Equivalences().merge(["sofas", "couches"])
    assert grouped(["sofa", "couch", "chair"], "en", rulings) == [{"chair"}, {"sofa", "couch"}]


def test_a_split_of_other_forms_undoes_an_earlier_merge_for_every_form():
    rulings = Equivalences().merge(["sofa", "couch", "settee"]).split(["sofas"], ["couches"], "en")
    for answers in (["sofa", "couch"], ["sofas", "couches"], ["sofa", "couches"], ["sofas", "couch"]):
        assert len(grouped(answers, "en", rulings)) == 2, answers
    # The rest of the merged class stays with the rest of the split.
    assert grouped(["couch", "settees"], "en", rulings) == [{"couch", "settees"}]
    assert len(grouped(["sofa", "settee"], "en", rulings)) == 2


def test_a_split_keeps_other_forms_apart_that_would_match():
    # "bananna" is one typo from "banana": ruled different, every form stays apart.
    assert len(grouped(["bananas", "banannas"], "en", Equivalences())) == 1
    rulings = Equivalences().split(["bananna"], ["banana"], "en")
    assert len(grouped(["bananas", "banannas"], "en", rulings)) == 2
    assert len(grouped(["banana", "bananas"], "en", rulings)) == 1


def test_a_split_of_two_forms_of_one_word_keeps_those_keys_apart():
    # "tigre" is a Danish plural of "tiger": one word, so the ruling is on the keys.
    assert form_key("tigre", "da") == form_key("tiger", "da")
    rulings = Equivalences().split(["tigre"], ["tiger"], "da")
    assert len(grouped(["tiger", "tigre"], "da", rulings)) == 2
    assert len(grouped(["tigeren", "tiger"], "da", rulings)) == 1


def test_a_merge_after_a_split_joins_every_form_again():
    rulings = Equivalences().merge(["sofa", "couch"]).split(["sofa"], ["couch"], "en").merge(["couches", "sofas"])
    assert grouped(["sofa", "couch"], "en", rulings) == [{"sofa", "couch"}]


def test_an_unrelated_merge_survives_a_split():
    rulings = Equivalences().merge(["sofa", "settee"]).split(["sofas"], ["chairs"], "en")
    assert grouped(["sofa", "settee", "chair"], "en", rulings) == [{"chair"}, {"sofa", "settee"}]


def play(answers, lang="en", **options):
    state, rng = start(4, rolls=[2] * 20, lang=lang, **options)
    state = answer_all(to_task(state, rng), rng, answers)
    assert state.phase == Phase.REVIEW
    return state, rng


def next_round(state, rng, answers):
    state = act(state, state.turn, rng, "confirm")
    state = answer_all(to_task(state, rng), rng, answers)
    assert state.phase == Phase.REVIEW
    return state


def test_in_a_game_a_merge_in_round_1_and_a_split_in_round_2_hold_on_every_form():
    state, rng = play({0: "sofa", 1: "couch", 2: "chair", 3: "stool"})
    state = act(state, 0, rng, "merge", groups=[group_of(state, 0).id, group_of(state, 1).id])
    state = next_round(state, rng, {0: "Sofas", 1: "couches", 2: "x", 3: "y"})
    assert group_of(state, 0) == group_of(state, 1)
    turn = state.turn
    group = group_of(state, 0)
    state = act(state, turn, rng, "split", group=group.id, items=[[1, 0]])
    state = next_round(state, rng, {0: "a sofa", 1: "the couch", 2: "x", 3: "y"})
    assert group_of(state, 0) != group_of(state, 1)


def test_in_a_game_the_language_groups_its_plurals():
    state, _ = play({0: "Ett äpple", 1: "äpplen", 2: "päron", 3: "päronen"}, lang="sv")
    assert group_of(state, 0) == group_of(state, 1)
    assert group_of(state, 2) == group_of(state, 3) != group_of(state, 0)


# --- stored states -----------------------------------------------------------------

SCHEMA_1 = json.loads((Path(ta.__file__).parent.parent / "tests/engine/fixtures/states_schema1.json").read_text())


def test_old_stored_rulings_still_load_and_still_hold():
    old = [data for data in SCHEMA_1 if data["equivalences"]["same"] or data["equivalences"]["apart"]]
    assert old
    for data in old:
        state = ta.from_dict(data)
        assert ta.to_dict(state) == data  # the layout of the rulings is unchanged
        rulings = state.equivalences
        for key, target in rulings.same:
            assert len(group_answers([(0, 0, key), (1, 0, target)], "en", rulings)) == 1
        for a, b in rulings.apart:
            if rulings.canonical(a) != rulings.canonical(b):
                assert len(group_answers([(0, 0, a), (1, 0, b)], "en", rulings)) == 2


def test_an_old_format_equivalences_dict_loads():
    old = {"same": [["pear", "apple"], ["pears", "apple"]], "apart": [["apple", "apples"]]}
    rulings = Equivalences.from_dict(old)
    assert rulings.to_dict() == old
    assert grouped(["pears", "apple", "kiwi"], "en", rulings) == [{"apple", "pears"}, {"kiwi"}]
