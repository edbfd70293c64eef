"""The content audit's rules that a program can check, on the built-in task cards and fields.

- Every card and field has its six texts; no two cards (nor association fields) share a text
  in a language once case, accents' composition, punctuation and spacing are set aside.
- No near-duplicates: two cards whose words, minus the little words, a count and a plural
  ending, are the same (``Something in a handbag`` and ``Three things in a handbag``).
- Multi-answer cards are listed here, reviewed one by one: each asks for several answers that
  may well differ (``Two of the seven dwarfs``), says how many in every language, and is not a
  single card with a count (its words are not all the words of a single-answer card).
- The digits a card names are the same in every language; no template placeholders.

What no program checks (that the texts of one card ask the same thing in every language, each
written for its language) was read by a person; ``MULTI_ANSWER`` records that reading for the
multi-answer cards. Finnish is left out of the near-duplicate rule: its endings and compounds
need more than a plural ending stripped, and its cards were compared with the others by hand.
"""

import json
from itertools import combinations

import pytest

from think_alike.models import LANGS
from think_alike.services.content import CONTENT_DIR, COUNT_WORDS, PLACEHOLDER, normalized

TASKS = json.loads((CONTENT_DIR / "tasks.json").read_text(encoding="utf-8"))
FIELDS = json.loads((CONTENT_DIR / "fields.json").read_text(encoding="utf-8"))
ASSOCIATIONS = [field for field in FIELDS if field["kind"] == "association"]

# Every card asking for more than one answer, and how many: a new one is added here once
# someone has checked it really asks for different answers.
MULTI_ANSWER = {
    "magician-pockets": 3,
    "flag-colours": 2,
    "picnic-basket": 3,
    "noahs-ark": 2,
    "three-fruits": 3,
    "garage": 3,
    "rainy-day-need": 2,
    "christmas-see": 3,
    "superhero-outfit": 2,
    "africa-animals": 3,
    "pancake-ingredients": 2,
    "school-bag": 3,
    "swimming-pool": 2,
    "rainbow": 3,
    "tent-night": 2,
    "soup-vegetables": 3,
    "winter-sports": 2,
    "table-setting": 3,
    "snowman": 2,
    "suitcase": 3,
    "seven-dwarfs": 2,
    "hospital-jobs": 3,
    "red-riding-hood": 2,
    "classroom": 3,
    "ride-animals": 2,
    "farm-three": 3,
    "burger": 2,
    "aquarium": 3,
    "campfire": 2,
    "sleepover": 3,
    "face-parts": 2,
    "band-instruments": 3,
    "sewing-kit": 2,
    "christmas-treats": 3,
    "chess-pieces": 2,
    "spring-signs": 3,
    "car-brands": 2,
    "gym-bag": 3,
    "bicycle-parts": 2,
    "europe-countries": 3,
    "wrap-present": 2,
    "garden-shed": 3,
    "doctor-tools": 2,
    "andersen-tales": 3,
    "bedside-table": 2,
    "library": 3,
    "pond": 2,
    "hot-dog": 3,
    "clown": 2,
    "hiking": 3,
    "knight": 2,
    "tea": 2,
}

# The little words a card's task does not turn on, and the plural and article endings stripped.
LITTLE = {
    "en": "a an the something someone somewhere you your in on at to of that is are with for and from thing things "
    "one people can do it its",
    "da": "en et den det de noget nogen man i på til af der er med for og fra ting som kan sin sine",
    "sv": "en ett den det de något någon man i på till av som är med för och från sak saker kan sig",
    "nb": "en et ei den det de noe noen man i på til av som er med for og fra ting kan seg",
    "fr": "un une le la les l de du des d quelque chose choses qu on qui que dans sur à au aux en et est pour avec",
}
ENDINGS = {
    "en": ("es", "s"),
    "da": ("erne", "ene", "er", "en", "et", "e"),
    "sv": ("orna", "arna", "erna", "or", "ar", "er", "en", "et", "na", "n"),
    "nb": ("ene", "er", "en", "et", "a", "e"),
    "fr": ("x", "s"),
}


def _stem(word: str, lang: str) -> str:
    for ending in ENDINGS[lang]:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def words(text: str, lang: str) -> frozenset[str]:
    """What a task turns on: its words less the little ones and any count, plural endings stripped."""
    little = set(LITTLE[lang].split()) | {count[lang] for count in COUNT_WORDS.values()}
    return frozenset(_stem(word, lang) for word in normalized(text).split() if word not in little)


@pytest.mark.parametrize("items", [TASKS, FIELDS], ids=["tasks", "fields"])
def test_every_language_is_there(items):
    for item in items:
        assert tuple(item["text"]) == LANGS, item["key"]
        for lang, text in item["text"].items():
            assert text and text == " ".join(text.split()) and len(text) <= 120, (item["key"], lang)
            assert not PLACEHOLDER.search(text), (item["key"], lang)


@pytest.mark.parametrize("items", [TASKS, ASSOCIATIONS], ids=["tasks", "associations"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_duplicates_in_a_language(items, lang):
    seen: dict[str, str] = {}
    for item in items:
        other = seen.setdefault(normalized(item["text"][lang]), item["key"])
        assert other == item["key"], f"{item['key']} and {other} say the same in {lang}"


@pytest.mark.parametrize("lang", sorted(ENDINGS))
def test_no_near_duplicates(lang):
    found = [
        (a["key"], b["key"])
        for a, b in combinations(TASKS, 2)
        if words(a["text"][lang], lang) == words(b["text"][lang], lang)
    ]
    assert not found


def test_the_near_duplicate_rule_finds_a_card_repeated_with_a_count():
    """The rule above, on cards the audit took out (their texts as they were)."""
    assert words("Something in a handbag", "en") == words("Three things in a handbag", "en")
    assert words("Noget på en legeplads", "da") == words("To ting på en legeplads", "da")
    assert words("Et dyr i havet", "da") == words("To dyr i havet", "da")
    assert words("A planet", "en") == words("Two planets", "en")
    assert words("A hot place", "en") != words("A cold place", "en")


def test_the_multi_answer_cards_are_the_reviewed_ones():
    assert {task["key"]: task["answers"] for task in TASKS if task["answers"] > 1} == MULTI_ANSWER


@pytest.mark.parametrize("lang", LANGS)
def test_a_multi_answer_card_says_how_many(lang):
    for task in TASKS:
        first = normalized(task["text"][lang]).split()[0]
        if task["answers"] > 1:
            assert first == COUNT_WORDS[task["answers"]][lang], (task["key"], lang)
        else:
            assert first not in {count[lang] for count in COUNT_WORDS.values()}, (task["key"], lang)


@pytest.mark.parametrize("lang", sorted(ENDINGS))
def test_a_multi_answer_card_is_not_a_single_card_with_a_count(lang):
    singles = [(task["key"], words(task["text"][lang], lang)) for task in TASKS if task["answers"] == 1]
    for task in TASKS:
        if task["answers"] > 1:
            asked = words(task["text"][lang], lang)
            repeated = [key for key, single in singles if asked <= single]
            assert asked and not repeated, (task["key"], lang, repeated)


def test_the_rule_would_have_found_the_audited_repeats():
    singles = {"Something you find in a kitchen drawer", "A pizza topping", "Something in the sky"}
    for multi in ("Three things in a kitchen drawer", "Two pizza toppings", "Three things in the sky"):
        assert any(words(multi, "en") <= words(single, "en") for single in singles), multi


def test_the_numbers_named_are_the_same_in_every_language():
    for task in TASKS:
        digits = {
            lang: sorted(c for c in normalized(text).split() if c.isdigit()) for lang, text in task["text"].items()
        }
        assert len({tuple(found) for found in digits.values()}) == 1, task["key"]
