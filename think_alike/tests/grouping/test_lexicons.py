"""Think Alike's grouping on kept lexicons (issue 32): simplemma's lemmas, wordfreq's
frequency lists, the aims on the held-out set written before tuning, and the cases the
issue names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from think_alike.engine.languages import FREQUENT_TOP, frequent_words, in_lexicon, lemma
from think_alike.engine.matching import SUPPORTED, Equivalences, form_key, group_answers, normalize
from think_alike.tests.grouping import labelled

ROOT = Path(__file__).resolve().parents[3]


def together(a: str, b: str, lang: str, rulings: Equivalences | None = None) -> bool:
    """Whether a round of the two answers puts them in one group."""
    return len(group_answers([(0, 0, a), (1, 0, b)], lang, rulings)) == 1


# --- the aims on the held-out set ----------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_second_held_out_set_has_60_pairs_half_of_them_near_misses(lang):
    pairs = labelled.pairs(lang, labelled.HOLDOUT2)
    assert len(pairs) >= 60
    assert sum(not pair.same for pair in pairs) >= len(pairs) / 2
    assert len({(p.a, p.b) for p in pairs}) == len(pairs), "a pair is labelled twice"


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("held_out", [labelled.HOLDOUT2, labelled.HOLDOUT3], ids=["holdout2", "holdout3"])
def test_held_out_precision_and_recall_reach_the_aims(lang, held_out):
    # holdout3 was measured once clean (docs/playing/grouping.md); since brief 32d's rules it
    # is a regression set, no longer a clean measurement.
    score = labelled.score(lang, held_out)
    wrong = [f"{'same' if p.same else 'apart'} {p.a!r} / {p.b!r}" for p in score.wrong]
    assert score.precision >= 0.97, wrong
    assert score.recall >= 0.90, wrong


# --- the cases the issue names -------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("tuli", "tulli"),  # fire, customs
        ("kuka", "kukka"),  # who, flower
        ("tapaan", "tappaan"),  # I meet, I kill
        ("mato", "matto"),  # worm, carpet: the stemmer gives both one stem
        ("kato", "katto"),  # crop failure, roof
        ("tikkari", "tikari"),  # lollipop, dagger: long enough for a typo
        ("purkki", "purkka"),  # jar, chewing gum
        ("kaakao", "kaakko"),  # cocoa, south-east
        ("porsas", "porras"),  # piglet, stair
    ],
)
def test_finnish_words_a_double_letter_or_a_letter_apart_stay_apart(a, b):
    assert not together(a, b, "fi")


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [
        ("da", "hus", "hug"),
        ("da", "dam", "dame"),  # pond, lady: "dame" is no "dam" + e
        ("da", "ballon", "balkon"),
        ("da", "slange", "slanke"),
        ("da", "pande", "panda"),
        ("en", "house", "horse"),
        ("en", "dinner", "diner"),
        ("en", "mouse", "mousse"),
        ("en", "letter", "litter"),
        ("en", "trial", "trail"),
        ("en", "window", "widow"),
        ("en", "lightning", "lightening"),  # two typos allowed at 9 letters, both words
        ("en", "cloth", "clothes"),  # one stem, two words
        ("nb", "slange", "slanke"),
        ("sv", "soffa", "soppa"),
        ("fr", "cousin", "coussin"),
        ("fr", "couteau", "coteau"),
    ],
)
def test_words_of_the_frequency_list_a_letter_apart_stay_apart(lang, a, b):
    assert a in frequent_words(lang) and b in frequent_words(lang)
    assert not together(a, b, lang)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("kukka", "kukan"),
        ("pöytä", "pöydät"),
        ("katu", "kadut"),
        ("sänky", "sängyt"),
        ("mato", "madot"),
        ("ranta", "rannat"),
        ("silta", "sillat"),
        ("käsi", "kädet"),
        ("hammas", "hampaat"),
        ("rengas", "renkaat"),
        ("sydän", "sydämet"),
        ("ihminen", "ihmiset"),
        ("poika", "pojat"),
    ],
)
def test_finnish_gradation_and_plurals_join(a, b):
    assert together(a, b, "fi")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("hus", "husen"),
        ("huset", "husen"),
        ("ko", "kor"),
        ("bok", "böcker"),
        ("man", "män"),
        ("fot", "fötter"),
        ("ö", "öar"),
        ("bi", "bin"),
        ("by", "byar"),
        ("land", "länder"),
        ("stad", "städer"),
        ("son", "söner"),
        ("lus", "löss"),
    ],
)
def test_swedish_plurals_of_short_words_join(a, b):
    assert together(a, b, "sv")


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [
        ("en", "neighbour", "neighbor"),
        ("en", "centre", "center"),
        ("en", "refrigerator", "refridgerator"),  # a typo in a word no list knows
        ("da", "mariehøne", "mariehøns"),
        ("nb", "strand", "strender"),
        ("fr", "cote", "côte"),  # "cote" is rarer than "côte": mostly it typed bare
        ("fr", "cafe", "café"),
    ],
)
def test_spellings_typos_and_plurals_still_join(lang, a, b):
    assert together(a, b, lang)


@pytest.mark.parametrize(("lang", "a", "b"), [("fr", "mur", "mûr"), ("fr", "sur", "sûr"), ("fr", "côte", "côté")])
def test_french_words_that_differ_by_an_accent_stay_apart(lang, a, b):
    assert not together(a, b, lang)


# --- the turn holder's rulings still win ---------------------------------------------


def test_a_merge_joins_two_words_the_lexicons_keep_apart_and_holds_for_their_forms():
    rulings = Equivalences().merge([normalize("mato", "fi"), normalize("matto", "fi")])
    assert together("mato", "matto", "fi", rulings)
    assert together("madot", "matot", "fi", rulings)


def test_a_split_parts_two_forms_the_lexicons_join():
    rulings = Equivalences().split([normalize("kukan", "fi")], [normalize("kukka", "fi")], "fi")
    assert not together("kukka", "kukan", "fi", rulings)
    assert together("kukka", "kukan", "fi")


def test_a_split_of_a_swedish_plural_holds():
    rulings = Equivalences().split(["böcker"], ["bok"], "sv")
    assert not together("bok", "böcker", "sv", rulings)


# --- the lexicons --------------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_frequency_list_and_the_lemmas_work_offline_in_every_language(lang):
    words = frequent_words(lang)
    assert isinstance(words, frozenset)
    # wordfreq's Danish list has 29,399 words in all; the others have the full top.
    assert len(words) == FREQUENT_TOP or (lang == "da" and len(words) > 25_000)
    plural, singular = {
        "en": ("horses", "horse"),
        "da": ("hestene", "hest"),
        "nb": ("hestene", "hest"),
        "sv": ("hästarna", "häst"),
        "fi": ("hevoset", "hevonen"),
        "fr": ("chevaux", "cheval"),
    }[lang]
    assert lemma(plural, lang) == singular
    assert in_lexicon(plural, lang) and not in_lexicon("qzxqzx", lang)


def test_the_lexicons_load_on_first_use_per_language_only():
    script = (
        "from think_alike.engine import languages, matching\n"
        "assert languages.frequent_words.cache_info().currsize == 0\n"
        "assert matching.normalize('Koirat!', 'fi') == 'koirat'\n"
        "assert languages.frequent_words.cache_info().currsize == 0\n"
        "assert not matching.same_answer('mato', 'matto', 'fi')\n"
        "assert languages.frequent_words.cache_info().currsize == 1\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True)


# --- brief 32d: general rules for what holdout3 found ---------------------------------


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [
        ("sv", "bär", "bar"),  # berry, bar: simplemma gives both the lemma "bära"
        ("sv", "får", "far"),  # sheep, father
        ("sv", "hål", "hal"),  # hole, slippery
        ("sv", "för", "for"),  # for, went
        ("nb", "bær", "bar"),
        ("da", "bær", "bar"),
        ("fi", "tämä", "tama"),  # this, a word of its own
        ("fi", "sää", "saa"),  # weather, gets
    ],
)
def test_own_letters_are_never_folded_by_a_lemma_between_two_known_words(lang, a, b):
    assert in_lexicon(a, lang) and in_lexicon(b, lang)
    assert not together(a, b, lang)
    assert form_key(normalize(a, lang), lang) != form_key(normalize(b, lang), lang)


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [
        ("nb", "mat", "matte"),  # food, mathematics: no doubled consonant + -e of "mat"
        ("nb", "mat", "matten"),
        ("nb", "hat", "hatter"),  # hate, hats (of "hatt")
    ],
)
def test_a_doubled_consonant_rule_never_joins_two_frequent_words_of_other_lemmas(lang, a, b):
    assert a in frequent_words(lang) and b in frequent_words(lang)
    assert not together(a, b, lang)


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [("nb", "katt", "katter"), ("nb", "sokk", "sokker"), ("da", "kat", "katte"), ("da", "bus", "busser")],
)
def test_doubled_consonant_plurals_still_join(lang, a, b):
    assert together(a, b, lang)


@pytest.mark.parametrize(
    ("lang", "a", "b"),
    [
        ("fi", "jäätelö", "jaatelo"),
        ("fi", "pöytä", "poyta"),
        ("fi", "päärynä", "paaryna"),
        ("fi", "työ", "tyo"),
        ("fi", "pöytä", "poydat"),  # a form of it, typed bare
        ("fi", "jäätelö", "jaatelot"),
        ("sv", "smörgås", "smorgås"),
        ("sv", "färg", "farg"),
    ],
)
def test_dotted_letters_typed_without_dots_are_read_as_the_known_word(lang, a, b):
    assert not in_lexicon(b, lang)
    assert together(a, b, lang)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("chien", "chienne"),
        ("acteur", "actrice"),
        ("chanteur", "chanteuse"),
        ("infirmier", "infirmière"),
        ("lion", "lionne"),
        ("boulanger", "boulangère"),
        ("cuisinier", "cuisinière"),
        ("vendeur", "vendeuse"),
        ("chien", "chiennes"),
        ("acteurs", "actrice"),
    ],
)
def test_french_feminine_nouns_of_people_and_animals_are_forms_of_the_masculine(a, b):
    assert together(a, b, "fr")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("colonne", "colon"),  # column, settler: the feminine ending is no feminine here
        ("mère", "mer"),  # mother, sea
        ("selle", "sel"),  # saddle, salt
        ("tonne", "ton"),
        ("personne", "person"),
    ],
)
def test_french_words_that_only_look_like_a_feminine_stay_apart(a, b):
    assert not together(a, b, "fr")
