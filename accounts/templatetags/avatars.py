from django import template

from accounts.avatars import avatar_svg

register = template.Library()


@register.simple_tag
def avatar(who, name=None, colour=None, *, shape=None, size=32, label=False, css_class="avatar"):
    """A player's generated avatar (inline SVG).

    ``who``: a user (their username, name and colour), or a username with ``name`` and
    ``colour`` beside it (a view's player). ``shape``: a seat's position, so one table's
    avatars all differ; ``label``: the avatar names the player (else it is decorative).
    """
    if hasattr(who, "username"):
        key, name, colour = who.username, name or who.name, colour or who.colour
    else:
        key = who
    return avatar_svg(
        key=str(key),
        name=str(name if name is not None else key),
        colour=str(colour or ""),
        shape=None if shape in (None, "") else int(shape),
        size=int(size),
        label=bool(label),
        css_class=css_class,
    )
