from django import template

from accounts.avatars import avatar_svg, table_letters
from accounts.models import is_deleted_username

register = template.Library()


@register.simple_tag
def avatar(who, name=None, colour=None, *, shape=None, size=32, label=False, css_class="avatar", table=None):
    """A player's generated avatar (inline SVG).

    ``who``: a user (their username, name and colour), or a username with ``name`` and
    ``colour`` beside it (a view's player). ``shape``: a seat's position, so one table's
    avatars all differ; ``label``: the avatar names the player (else it is decorative);
    ``table``: the view's players, so that no two of them show the same letters.
    """
    if hasattr(who, "username"):
        key, name, colour = who.username, name or who.name, colour or who.colour
    else:
        key = who
    letters = None
    if table:
        usernames = [str(player["username"]) for player in table]
        if str(key) in usernames:
            letters = table_letters(tuple(str(player["name"]) for player in table))[usernames.index(str(key))]
    return avatar_svg(
        key=str(key),
        name=str(name if name is not None else key),
        colour=str(colour or ""),
        shape=None if shape in (None, "") else int(shape),
        size=int(size),
        label=bool(label),
        css_class=css_class,
        letters=letters,
    )


@register.filter
def is_deleted(who) -> bool:
    """Whether ``who`` (a user, or a view's player's username) is a deleted account: shown as "deleted
    player", with no link to a profile that is no more."""
    if hasattr(who, "deleted_at"):
        return who.deleted_at is not None
    return is_deleted_username(who)
