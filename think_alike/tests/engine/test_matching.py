"""Answer matching for Think Alike: normalisation, similarity, grouping, rulings."""

from __future__ import annotations

import pytest

from think_alike.engine.matching import Equivalences, Group, group_answers, normalize, same_answer


def match(a: str, b: str, lang: str) -> bool:
    return same_answer(normalize(a, lang), normalize(b, lang), lang)


MUST_MATCH = [
    # English: case, spaces, punctuation, accents, articles
    ("en", "Apple", "apple"),
    ("en", "  the   Apple ", "apple"),
    ("en", "a dog", "dog"),
    ("en", "An owl", "owl"),
    ("en", "dog!", "dog"),
    ("en", "Café", "cafe"),
    ("en", "naïve", "naive"),
    ("en", "ice-cream", "ice cream"),
    ("en", "icecream", "ice cream"),
    ("en", "McDonald's", "mcdonalds"),
    ("en", "don´t", "dont"),
    ("en", "ＦＵＬＬ", "full"),  # full-width letters (NFKC)
    ("en", "salt & pepper", "salt and pepper"),
    ("en", "Seven", "7"),
    # English: plural forms
    ("en", "apples", "apple"),
    ("en", "horses", "horse"),
    ("en", "boxes", "box"),
    ("en", "glasses", "glass"),
    ("en", "berries", "berry"),
    ("en", "movies", "movie"),
    ("en", "tomatoes", "tomato"),
    ("en", "knives", "knife"),
    ("en", "wolves", "wolf"),
    ("en", "children", "child"),
    ("en", "mice", "mouse"),
    ("en", "icecreams", "ice cream"),
    ("en", "red apples", "red apple"),
    # English: obvious misspellings
    ("en", "banana", "bananna"),
    ("en", "elephant", "elephnat"),
    ("en", "chocolate", "chocolat"),
    ("en", "spaghetti", "spagetti"),
    ("en", "peanut butter", "peanut buter"),
    ("en", "potatos", "potatoes"),
    ("en", "strawberry", "strawbery"),
    ("en", "hippopotamus", "hipopotamos"),  # two typos in a long word
    # Danish: case, articles, accents, letters typed abroad
    ("da", "En hund", "hund"),
    ("da", "det hvide hus", "hvide hus"),
    ("da", "Idé", "ide"),
    ("da", "smörrebröd", "smørrebrød"),  # Swedish/German keyboard
    ("da", "jordbær", "jordbaer"),
    ("da", "blåbær", "blaabaer"),
    ("da", "fire", "4"),
    ("da", "Rødhætte", "rødhætte"),
    ("da", "hot dog", "hotdog"),
    # Danish: plural and definite forms
    ("da", "Hunde", "hund"),
    ("da", "hundene", "hund"),
    ("da", "æbler", "æble"),
    ("da", "æblerne", "æble"),
    ("da", "æblet", "æble"),
    ("da", "kager", "kage"),
    ("da", "kagen", "kage"),
    ("da", "pandekager", "pandekage"),
    ("da", "bilerne", "bil"),
    ("da", "katte", "kat"),
    ("da", "busser", "bus"),
    ("da", "tigre", "tiger"),
    ("da", "cykler", "cykel"),
    ("da", "søstre", "søster"),
    ("da", "fingre", "finger"),
    ("da", "børn", "barn"),
    ("da", "mænd", "mand"),
    ("da", "bøger", "bog"),
    ("da", "kartofler", "kartoffel"),
    # Danish: misspellings
    ("da", "elefant", "elefannt"),
    ("da", "chokolade", "chokolde"),
]

MUST_NOT_MATCH = [
    # English: different common words, however close
    ("en", "house", "horse"),
    ("en", "houses", "horses"),
    ("en", "mouse", "moose"),
    ("en", "skirt", "shirt"),
    ("en", "light", "night"),
    ("en", "flour", "floor"),
    ("en", "sheep", "sheet"),
    ("en", "sweet", "sweat"),
    ("en", "plane", "plant"),
    ("en", "heart", "heard"),
    ("en", "cat", "hat"),
    ("en", "bear", "beer"),
    ("en", "sun", "son"),
    ("en", "moon", "mood"),
    ("en", "sky", "ski"),
    ("en", "red car", "red cat"),
    ("en", "12345", "12346"),
    ("en", "apple", ""),
    # Danish: the letters æ, ø, å are never folded into a, o
    ("da", "bær", "bar"),
    ("da", "mør", "mor"),
    ("da", "får", "far"),
    ("da", "sø", "so"),
    ("da", "øl", "ol"),
    ("da", "skole", "skåle"),
    ("da", "hest", "høst"),
    # Danish: different common words
    ("da", "sokker", "sukker"),
    ("da", "hjerte", "hjerne"),
    ("da", "vinter", "vinder"),
    ("da", "kanel", "kanal"),
    ("da", "bolle", "bolde"),
    ("da", "lykke", "lukke"),
    ("da", "måne", "måned"),
    ("da", "kat", "kant"),
    ("da", "sol", "sal"),
    ("da", "hav", "hus"),
    # Danish: a person in -er is not the plural of a thing
    ("da", "fisker", "fisk"),
    ("da", "bager", "bag"),
]


@pytest.mark.parametrize(("lang", "a", "b"), MUST_MATCH)
def test_answers_that_must_match(lang, a, b):
    assert match(a, b, lang)
    assert match(b, a, lang)


@pytest.mark.parametrize(("lang", "a", "b"), MUST_NOT_MATCH)
def test_answers_that_must_not_match(lang, a, b):
    assert not match(a, b, lang)
    assert not match(b, a, lang)


@pytest.mark.parametrize(
    ("lang", "text", "key"),
    [
        ("en", "  The  Big   Apple!! ", "big apple"),
        ("en", "Rock'n'Roll", "rocknroll"),
        ("en", "the", "the"),  # a lone article is the answer, not an article
        ("en", "Three", "3"),
        ("da", "Æblet", "æblet"),
        ("da", "Én", "1"),
        ("da", "Smörgås", "smørgås"),
        ("da", "Crème brûlée", "creme brulee"),
        ("en", "Crème brûlée", "creme brulee"),
        ("en", "Müsli", "müsli"),  # ü is a letter of its own, kept
        ("en", "...", ""),
        ("en", "   ", ""),
    ],
)
def test_normalize(lang, text, key):
    assert normalize(text, lang) == key


def test_unknown_language_is_refused():
    with pytest.raises(ValueError):
        normalize("x", "de")


def items(group: Group) -> set:
    return set(group.items)


def test_grouping_joins_matching_answers_and_ranks_by_size():
    groups = group_answers(
        [
            (0, 0, "Apple"),
            (1, 0, "apples"),
            (2, 0, "the apple"),
            (3, 0, "Banana"),
            (4, 0, "bananas"),
        ],
        "en",
    )
    assert [g.id for g in groups] == [1, 2]
    assert items(groups[0]) == {(0, 0), (1, 0), (2, 0)}
    assert items(groups[1]) == {(3, 0), (4, 0)}
    assert groups[0].key == "apple"


def test_grouping_leaves_blank_answers_out():
    groups = group_answers([(0, 0, ""), (1, 0, "  "), (2, 0, "?!"), (3, 0, "pear")], "en")
    assert [g.items for g in groups] == [((3, 0),)]


def test_grouping_does_not_depend_on_order():
    answers = [(0, 0, "cat"), (1, 0, "cats"), (2, 0, "dog"), (3, 0, "Dog"), (0, 1, "bird")]
    assert group_answers(answers, "en") == group_answers(list(reversed(answers)), "en")


def test_grouping_keeps_one_seats_two_answers_in_one_group():
    groups = group_answers([(0, 0, "apple"), (0, 1, "Apples"), (1, 0, "apple")], "en")
    assert len(groups) == 1
    assert groups[0].seats == {0, 1}


def test_grouping_danish():
    groups = group_answers([(0, 0, "Hundene"), (1, 0, "en hund"), (2, 0, "bær"), (3, 0, "bar"), (4, 0, "HUND")], "da")
    by_items = [items(g) for g in groups]
    assert {(0, 0), (1, 0), (4, 0)} in by_items
    assert {(2, 0)} in by_items and {(3, 0)} in by_items


def test_a_merge_joins_the_keys_in_later_rounds():
    rulings = Equivalences().merge(["banana", "pear"])
    groups = group_answers([(0, 0, "Bananas"), (1, 0, "pear"), (2, 0, "kiwi")], "en", rulings)
    assert items(groups[0]) == {(0, 0), (1, 0)}


def test_a_merge_also_joins_inflected_forms_of_merged_keys():
    rulings = Equivalences().merge(["steed", "horse"])
    groups = group_answers([(0, 0, "steeds"), (1, 0, "horse")], "en", rulings)
    assert len(groups) == 1


def test_merges_chain_across_rounds():
    rulings = Equivalences().merge(["a1", "b1"]).merge(["b1", "c1"])
    assert rulings.canonical("a1") == rulings.canonical("c1")
    groups = group_answers([(0, 0, "a1"), (1, 0, "c1")], "en", rulings)
    assert len(groups) == 1


def test_a_split_keeps_the_keys_apart_in_later_rounds():
    rulings = Equivalences().split(["apples"], ["apple"], "en")
    groups = group_answers([(0, 0, "apple"), (1, 0, "apples"), (2, 0, "Apple")], "en", rulings)
    assert {frozenset(g.items) for g in groups} == {
        frozenset({(0, 0), (2, 0)}),
        frozenset({(1, 0)}),
    }


def test_a_split_undoes_an_earlier_merge():
    rulings = Equivalences().merge(["apple", "pear"]).split(["pear"], ["apple"], "en")
    assert rulings.canonical("pear") != rulings.canonical("apple")
    groups = group_answers([(0, 0, "apple"), (1, 0, "pear")], "en", rulings)
    assert len(groups) == 2


def test_a_merge_overrides_an_earlier_split():
    rulings = Equivalences().split(["apples"], ["apple"], "en").merge(["apple", "apples"])
    groups = group_answers([(0, 0, "apple"), (1, 0, "apples")], "en", rulings)
    assert len(groups) == 1


def test_apart_is_not_bridged_by_a_third_answer():
    # "strawberri" matches both "strawberry" and "strawbery", which were ruled apart.
    answers = [(0, 0, "strawberry"), (1, 0, "strawbery"), (2, 0, "strawberri")]
    assert len(group_answers(answers, "en")) == 1
    rulings = Equivalences().split(["strawbery"], ["strawberry"], "en")
    groups = group_answers(answers, "en", rulings)
    assert len(groups) == 2
    assert not any({(0, 0), (1, 0)} <= set(g.items) for g in groups)


def test_a_split_of_identical_keys_is_not_remembered():
    rulings = Equivalences()
    assert rulings.split(["bat"], ["bat", "bats"], "en") == rulings


def test_equivalences_round_trip():
    rulings = Equivalences().merge(["a", "b", "c"]).split(["x"], ["y"], "en")
    assert Equivalences.from_dict(rulings.to_dict()) == rulings
