"""What people type that others read (clues, answers, names): one policy, for the pages, the API and the engine.

A text is kept only if it is valid Unicode (no lone surrogates: they cannot be
stored nor sent in a page), with no control characters, nothing that turns the
direction of the text around it (U+202A-202E, U+2066-2069) and nothing invisible
(zero-width characters, fillers, soft hyphens). Other spaces (no-break, ideographic)
fold to the ordinary one. What is kept is NFC-normalised: two spellings of one
word are equal, and a length counts the characters a person sees (code points of
the normal form, as JSON Schema's ``maxLength`` counts them). A letter carries at most
``MAX_MARKS_PER_LETTER`` combining marks after normalisation: no written language
stacks more, and a pile of hundreds ("Zalgo" text) spills over the lines around it.

``text_clean`` is the policy; ``games.actions.FreeText`` applies it to the action
models and the API's requests. Nothing here imports a model or pydantic: any
layer may call it.
"""

import unicodedata

from django.utils.translation import gettext_lazy as _

# The same words display names were refused with before this policy (and so translated already).
MESSAGE = _("Use letters, digits, spaces and punctuation only.")

# Combining marks (Unicode categories Mn, Me) one letter may carry, as NFC keeps them. Vietnamese
# needs two at most (ệ is one letter in NFC anyway), Thai a vowel and a tone mark, Hebrew with
# cantillation or Tibetan stacks three or four; UAX #15's stream-safe format allows 30.
MAX_MARKS_PER_LETTER = 4
TOO_MANY_MARKS = _("Too many accents or marks on one letter.")

# Printable by Python's reckoning (letters, marks, symbols) yet shown as nothing: fillers and blanks.
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
ZERO_WIDTH_JOINER = "\u200d"
EMOJI_PRESENTATION = "\ufe0f"
# Emoji newer than this Python's Unicode tables are unassigned to it, not refused.
EMOJI_BLOCKS = range(0x1F000, 0x1FB00)


class TextRefused(ValueError):
    """A text the policy does not keep; ``message`` says so to a person (lazily translated)."""

    code = "bad_text"

    def __init__(self, message=MESSAGE):
        super().__init__("text refused by the policy (accounts.text)")
        self.message = message


def text_clean(value: str) -> str:
    """``value`` as the site keeps it (NFC, spaces folded), or ``TextRefused``."""
    if not text_storable(value):
        raise TextRefused
    kept = "".join(" " if unicodedata.category(char) == "Zs" else char for char in unicodedata.normalize("NFC", value))
    if not all(_allowed(kept, index) for index in range(len(kept))):
        raise TextRefused
    if _most_marks(kept) > MAX_MARKS_PER_LETTER:
        raise TextRefused(TOO_MANY_MARKS)
    return kept


def _most_marks(text: str) -> int:
    """The longest run of combining marks in ``text``: the most any one letter carries."""
    most = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def text_storable(value: str) -> bool:
    """Whether any string (a password, a username) can be stored and sent: valid Unicode, no NUL."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


def _allowed(text: str, index: int) -> bool:
    char = text[index]
    if char == " ":
        return True
    if char in INVISIBLE:
        return False
    if char == ZERO_WIDTH_JOINER:  # only inside an emoji sequence (👩‍💻), where it shows as one picture
        return 0 < index < len(text) - 1 and _emoji(text[index - 1], before=True) and _emoji(text[index + 1])
    if unicodedata.category(char) == "Cn":
        return ord(char) in EMOJI_BLOCKS
    # Not printable: controls, format characters (bidi, zero-width), private use, separators but the space.
    return char.isprintable()


def _emoji(char: str, *, before: bool = False) -> bool:
    if ord(char) in EMOJI_BLOCKS or unicodedata.category(char) == "So":
        return True
    # An emoji may end in its presentation selector before a joiner (skin tones are in the emoji blocks).
    return before and char == EMOJI_PRESENTATION
