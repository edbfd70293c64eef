"""The rules pages: illustrated with each game's own cards (read once, not per card), and
Storyteller's worked example scored by the engine's own scoring function."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.tests.factories import deck_with_cards
from storyteller import rules_example
from storyteller.engine import rules as storyteller_engine
from think_alike.tests.content import small_content

pytestmark = pytest.mark.django_db


class Page(HTMLParser):
    """The images (their attributes), the headings' levels and the worked example's cells of a page."""

    def __init__(self, html: str):
        super().__init__()
        self.images: list[dict] = []
        self.headings: list[int] = []
        self.cells: dict[str, list[str]] = {}
        self._cell: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs)
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "td" and attrs.get("class") in ("example-points", "example-total", "example-votes"):
            self._cell = attrs["class"]
            self.cells.setdefault(self._cell, []).append("")

    def handle_data(self, data):
        if self._cell:
            self.cells[self._cell][-1] += data.strip()

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None


def rules_page(client, kind: str, **headers) -> Page:
    response = client.get(reverse("games:rules", args=[kind]), headers=headers)
    assert response.status_code == 200
    return Page(response.content.decode())


def assert_headings_in_order(page: Page):
    assert page.headings[0] == 1 and page.headings.count(1) == 1
    for before, after in zip(page.headings, page.headings[1:], strict=False):
        assert after <= before + 1, page.headings


def test_storytellers_rules_show_the_decks_cards_each_with_its_alt_text(client):
    deck = deck_with_cards(name="Rules deck")
    page = rules_page(client, "storyteller")
    cards = {card.image.url: card.alt_text for card in deck.cards.order_by("pk")}
    shown = [image for image in page.images if image["src"] in cards]
    assert len(shown) >= 1 + 6 + 5 + 5 + 5  # the storyteller's card, a hand, the table twice, the example
    for image in shown:
        assert image["alt"] == cards[image["src"]]
    assert all(image.get("alt") for image in page.images)
    assert_headings_in_order(page)


def test_storytellers_rules_describe_the_cards_in_the_pages_language(client):
    deck = deck_with_cards(name="Rules deck")
    cards = list(deck.cards.order_by("pk"))
    for card in cards[1:]:
        card.alt_texts = {"fi": f"Kuva {card.pk}"}
        card.save(update_fields=["alt_texts"])
    english = rules_page(client, "storyteller")  # cached in the English page's words: the Finnish one differs
    finnish = rules_page(client, "storyteller", accept_language="fi")
    by_src = {image["src"]: image for image in finnish.images}
    for card in cards[1:6]:
        image = by_src[card.image.url]
        assert image["alt"] == f"Kuva {card.pk}" and "lang" not in image
    untranslated = by_src[cards[0].image.url]  # no Finnish words: the English ones, said to be English
    assert untranslated["alt"] == cards[0].alt_text and untranslated["lang"] == "en"
    assert all("lang" not in image for image in english.images)


def test_the_hand_is_the_storytellers_card_and_five_more_and_the_table_the_first_five(client):
    deck = deck_with_cards()
    urls = [card.image.url for card in deck.cards.order_by("pk")]
    context = rules_example.rules_context()
    assert [card["image"] for card in context["hand"]] == [urls[3], *urls[5:10]]
    assert [card["image"] for card in context["example"]["table"]] == urls[:5]
    assert context["clue_card"]["image"] == urls[rules_example.STORYTELLER_POSITION - 1]


def test_the_worked_example_is_scored_by_the_engine_as_the_rule_sheet_says(client):
    deck_with_cards()
    page = rules_page(client, "storyteller")
    points = [int(cell) for cell in page.cells["example-points"]]  # storyteller, A, B, C, D
    expected = storyteller_engine.score_round(
        storyteller=0,
        storyteller_position=4,
        owners_by_position={1: 1, 2: 3, 3: 2, 4: 0, 5: 4},
        votes={1: 4, 2: 1, 3: 1, 4: 3},
        three_players=False,
    )
    assert points == [expected[seat] for seat in range(5)]
    assert points == [3, 5, 1, 0, 0]  # /rules/storyteller.md: "A 3+2 = 5, storyteller 3, B 1, the two others 0"
    assert sorted(points, reverse=True) == [5, 3, 1, 0, 0]
    assert page.cells["example-total"] == ["9"]
    assert [int(cell) for cell in page.cells["example-votes"]] == [1, 2, 1, 0, 0, 4]  # each card's votes; votes cast


def test_the_example_shows_what_the_engine_counts_not_numbers_of_its_own(client, monkeypatch):
    def scored(**round_):
        return dict.fromkeys(range(5), 7)

    monkeypatch.setattr(storyteller_engine, "score_round", scored)
    page = rules_page(client, "storyteller")
    assert page.cells["example-points"] == ["7"] * 5 and page.cells["example-total"] == ["35"]


def test_the_cards_are_read_once_and_the_same_every_time(client, django_assert_max_num_queries):
    deck_with_cards(84)
    with django_assert_max_num_queries(3):
        first = rules_page(client, "storyteller")
    with django_assert_max_num_queries(0):  # cached: no query at all, whatever the deck's size
        again = rules_page(client, "storyteller")
    assert [image["src"] for image in first.images] == [image["src"] for image in again.images]
    from django.core.cache import caches

    caches["views"].clear()
    assert [image["src"] for image in rules_page(client, "storyteller").images] == [
        image["src"] for image in first.images
    ]


def test_without_a_playable_deck_the_rules_still_show_the_example(client):
    page = rules_page(client, "storyteller")
    assert not [image for image in page.images if "cards/" in image["src"]]
    assert [int(cell) for cell in page.cells["example-points"]] == [3, 5, 1, 0, 0]


def test_think_alikes_rules_show_its_board_and_task_cards(client):
    content = small_content(tasks=5)
    html = client.get(reverse("games:rules", args=["think_alike"])).content.decode()
    assert html.count('class="ring-field kind-') == 16
    assert "ring-at-15" in html
    for kind in ("swap", "move", "duel"):
        assert f"kind-{kind}" in html
    assert content["start"].text_en in html
    assert content["tasks"][0].text_en in html
    assert "The die shows 3" in html
    assert_headings_in_order(Page(html))


def test_think_alikes_rules_show_its_cards_in_the_pages_language(client):
    content = small_content(tasks=5)
    html = client.get(reverse("games:rules", args=["think_alike"]), headers={"accept-language": "da"}).content.decode()
    assert content["tasks"][0].text_da in html and content["associations"][0].text_da in html


def test_think_alikes_rules_without_content_have_no_board(client):
    html = client.get(reverse("games:rules", args=["think_alike"])).content.decode()
    assert "ring-field" not in html and "task-card" not in html
