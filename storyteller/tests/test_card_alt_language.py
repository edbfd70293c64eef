"""A card's words say which language they are in: the site's decks' in English (with translations), a player's
own card's in the language its owner wrote them in, so a screen reader reads them in that language."""

from django.utils import translation

from storyteller.models.cards import card_alt


def test_the_site_cards_words_are_english_where_no_translation_is_had():
    assert card_alt("A red boat", {"fi": "Punainen vene"}, "fi") == {"alt": "Punainen vene", "alt_lang": ""}
    assert card_alt("A red boat", {}, "sv") == {"alt": "A red boat", "alt_lang": "en"}
    assert card_alt("A red boat", {}, "en") == {"alt": "A red boat", "alt_lang": ""}


def test_a_players_own_words_are_marked_in_their_own_language():
    # Written in Finnish: to a Finnish page they are its own words; to others they are marked Finnish.
    assert card_alt("Mökki järven rannalla", {}, "fi", source="fi") == {"alt": "Mökki järven rannalla", "alt_lang": ""}
    assert card_alt("Mökki järven rannalla", {}, "en", source="fi") == {
        "alt": "Mökki järven rannalla",
        "alt_lang": "fi",
    }
    assert card_alt("Mökki järven rannalla", {}, "fr", source="fi") == {
        "alt": "Mökki järven rannalla",
        "alt_lang": "fi",
    }
    with translation.override("nb"):
        assert card_alt("Hytta ved vannet", {}, source="nb-NO") == {"alt": "Hytta ved vannet", "alt_lang": ""}
