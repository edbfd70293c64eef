"""Think Alike at a glance, for the home page and the lobby: one task card, as the table shows one."""

from django.core.cache import caches
from django.utils.translation import gettext_lazy as _

CACHE_SECONDS = 600
# The rules' own example first; any card in play where that one is gone.
SHOWN_KEY = "fruit-not-round"

PITCH = _("Everyone answers the same task card, and scores a point for every player who wrote the same.")


def showcase(*, lang: str) -> dict:
    """The kind's ``showcase``: its pitch and a task card in the content language nearest ``lang``."""
    from think_alike.models import TaskCard, content_lang

    lang = content_lang(lang)
    cache = caches["views"]
    key = f"think_alike:showcase-card:{lang}"
    text = cache.get(key)
    if text is None:
        card = TaskCard.objects.in_play().filter(key=SHOWN_KEY).first()
        card = card or TaskCard.objects.in_play().filter(answers=1).order_by("key").first()
        text = card.text(lang) if card else ""
        cache.set(key, text, CACHE_SECONDS)
    showcase: dict = {"pitch": PITCH}
    if text:
        showcase["card"] = {"title": _("Task card"), "text": text, "lang": lang}
    return showcase
