"""Drawing Storyteller's board: what it repeats for every card, made in one place and cheaply."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games.templatetags.fabula import card_picture

register = template.Library()


@register.simple_tag
def report_choices(view: dict) -> SafeString | None:
    """The cards a player may report, as the report form's radio buttons: those in their hand, then those of the
    last round's table, leaving out removed and hidden cards (and a table's unknown one); None when the player holds
    no card and no round was revealed (no form at all). Each card's picture is made once per card
    (``card_picture``); the markup is also the key the form is kept under (storyteller/partials/report.html)."""
    hand = view.get("hand") or []
    revealed = (view.get("last_round") or {}).get("table") or []
    if not hand and not revealed:
        return None
    return format_html_join(
        "",
        '<label class="card-pick"><input type="radio" name="card" value="{}" required>{}</label>',
        (
            (card["id"], card_picture(card, zoom=False))
            for card in (*hand, *(card for card in revealed if card.get("id")))
            if not card.get("removed") and not card.get("hidden")
        ),
    )
