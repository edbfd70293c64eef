"""When two players' names are the same name: after Unicode folding, and when they only look alike.

A name's key is what the database keeps unique (``User.name_key``): the name in
NFKC (full-width and other compatibility forms become plain letters), without
case, with runs of spaces made one, and with the letters of other scripts that
look like Latin ones (Unicode's confusables, the commonest of them) replaced by
those, as UTS #39's "skeleton" does. "Anna", "ANNA", "Ａｎｎａ" and "Аnna" (a
Cyrillic А) have one key, so one of them at most is a player's name.
"""

import unicodedata

KEY_MAX_LENGTH = 255

# Each character on the left looks like the Latin one on the right, in that case: the
# capitals are mapped before the name loses its case (Greek Ν is an N; its small ν is
# a v), the small letters after too. Cyrillic, Greek, and the Latin letters and digits
# that stand for one another in most type faces.
_LOOK_ALIKES = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "З": "3", "І": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "Ӏ": "I", "Ү": "Y", "Ԁ": "D", "Ԛ": "Q",
    "Ԝ": "W", "Һ": "h",
    "а": "a", "г": "r", "е": "e", "з": "3", "і": "i", "ј": "j", "к": "k", "о": "o", "п": "n", "р": "p",
    "с": "c", "у": "y", "х": "x", "ь": "b", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
    "ү": "y",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x", "ω": "w", "γ": "y",
    "ϲ": "c", "ϳ": "j",
    # Latin: a capital I, a small L, a one and a bar; an O and a zero; a dotless i
    "I": "l", "1": "l", "|": "l", "0": "O", "ı": "i",
}  # fmt: skip
_TABLE = str.maketrans(_LOOK_ALIKES)
# Pairs of letters that read as one.
_DIGRAPHS = (("rn", "m"), ("vv", "w"))


def name_key(name: str) -> str:
    """The key under which ``name`` is unique: equal keys for names a reader could take for one another."""
    # Decomposed, so that a letter with a mark matches its look-alike's; the marks stay (Zoë is not Zoe).
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name or ""))
    text = text.translate(_TABLE).casefold().translate(_TABLE)
    text = " ".join(text.split())
    for pair, single in _DIGRAPHS:
        text = text.replace(pair, single)
    return unicodedata.normalize("NFC", text)[:KEY_MAX_LENGTH]
