"""games.templatetags.fabula.card_picture: a picture card as every page draws it."""

from django.template import Context, Template
from django.utils import translation


def draw(source: str, **context) -> str:
    return Template("{% load fabula %}" + source).render(Context(context))


CARD = {"image": "/media/cards/1.webp", "alt": "A fox in the snow", "alt_lang": ""}


def test_the_picture_its_words_and_the_zoom_button_in_the_pages_language():
    with translation.override("fr"):
        html = draw("{% card_picture card %}", card=CARD)
    assert html.startswith('<img src="/media/cards/1.webp" alt="A fox in the snow" loading="lazy">')
    assert 'class="zoom"' in html and "Ouvrir la carte en grand" in html
    assert "lang=" not in html  # written in the page's language


def test_words_in_another_language_are_marked_and_the_options_drop_what_they_say():
    card = {**CARD, "alt_lang": "en"}
    html = draw('{% card_picture card zoom=False lazy=False css_class="rules-card" %}', card=card)
    assert html == '<img class="rules-card" src="/media/cards/1.webp" alt="A fox in the snow" lang="en">'


def test_hostile_words_are_escaped():
    card = {"image": '/x.webp" onerror="alert(1)', "alt": '<script>alert("hi")</script>', "alt_lang": '"><b>'}
    html = draw("{% card_picture card zoom=False %}", card=card)
    assert "<script>" not in html and "<b>" not in html and 'onerror="' not in html
    assert "&lt;script&gt;" in html and "&quot; onerror=&quot;" in html


def test_the_pages_main_picture_is_fetched_first_and_never_lazily():
    # the vote's table (storyteller's play.html): Lighthouse's largest paint on a phone
    html = draw("{% card_picture card zoom=False priority=True %}", card=CARD)
    assert html == '<img src="/media/cards/1.webp" alt="A fox in the snow" fetchpriority="high">'
