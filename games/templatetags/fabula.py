from django import template
from django.utils.translation import gettext as _

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
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None
