import functools
from pathlib import Path

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from infrastructure.caches import register as register_cache

register = template.Library()


@register.filter
def human_join(names) -> str:
    """["Anna", "Bo", "Tom"] -> "Anna, Bo and Tom", in the page's language."""
    names = [str(n) for n in names]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


@register.filter
def counts_upto(count) -> range:
    """0..count: each state of a counter that goes up to ``count`` (cards chosen of those to hand in)."""
    return range((count or 0) + 1)


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


# Markup that a board repeats for every card or player: made once per language, not an
# {% include %} each time (an include costs a template lookup and a context per use).
_ICONS = Path(__file__).resolve().parents[2] / "templates" / "includes" / "icons"


@functools.cache
def _icon(name: str) -> str:
    if not name.isidentifier():
        raise template.TemplateSyntaxError(f"no icon {name!r}")
    return (_ICONS / f"{name}.svg").read_text().strip()


@register.simple_tag
def icon(name: str) -> SafeString:
    """An icon of templates/includes/icons/ (decorative: the caller gives it words for screen readers)."""
    return mark_safe(_icon(name))  # noqa: S308 (our own files)


@functools.cache
def _zoom_button(language: str | None) -> SafeString:
    label = _("Open the card large")
    return format_html(
        '<button type="button" class="zoom" data-zoom title="{}">{}<span class="sr-only">{}</span></button>',
        label,
        mark_safe(_icon("zoom")),  # noqa: S308 (our own file)
        label,
    )


@register.simple_tag
def zoom_button() -> SafeString:
    """The button that opens a card large."""
    return _zoom_button(get_language())


@register.simple_tag
def card_picture(
    card: dict, *, zoom: bool = True, lazy: bool = True, priority: bool = False, css_class: str = ""
) -> SafeString:
    """A picture card as every page draws it: its image, its description (``alt``, marked with the language it
    is written in when that is not the page's, ``alt_lang``) and, unless ``zoom`` is off, the button that opens
    it large; ``priority``: fetched first, the page's main picture (the vote's table). One tag for the dozen places a
    card is drawn; each card's HTML is made once per language."""
    if not card.get("image"):  # removed, or hidden after reports: a grey placeholder that says so
        return _card_placeholder(card.get("alt") or "", css_class)
    return _card_picture(
        card["image"],
        card["alt"],
        card.get("alt_lang") or "",
        zoom,
        lazy and not priority,
        priority,
        css_class,
        get_language() if zoom else "",
    )


@functools.lru_cache(maxsize=64)
def _card_placeholder(text, css_class) -> SafeString:
    return format_html(
        '<span class="card-placeholder{}" role="img" aria-label="{}"><span aria-hidden="true">{}</span></span>',
        f" {css_class}" if css_class else "",
        text,
        text,
    )


@functools.lru_cache(maxsize=settings.FABULA_CARD_PICTURES_ENTRIES)
def _card_picture(image, alt, alt_lang, zoom, lazy, priority, css_class, language) -> SafeString:
    return format_html(
        '<img{} src="{}" alt="{}"{}{}{}>{}',
        format_html(' class="{}"', css_class) if css_class else "",
        image,
        alt,
        format_html(' lang="{}"', alt_lang) if alt_lang else "",
        mark_safe(' loading="lazy"') if lazy else "",  # noqa: S308 (a constant)
        mark_safe(' fetchpriority="high"') if priority else "",  # noqa: S308 (a constant)
        _zoom_button(language) if zoom else "",
    )


register_cache("games.templatetags.fabula._card_picture", _card_picture.cache_clear)
register_cache("games.templatetags.fabula._zoom_button", _zoom_button.cache_clear)  # one a language
register_cache("games.templatetags.fabula._icon", _icon.cache_clear)  # one an icon file
