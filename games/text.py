"""The text policy lives in ``accounts.text`` (accounts may not import games; both apply it)."""

from accounts.text import MESSAGE, TextRefused, text_clean, text_storable

__all__ = ["MESSAGE", "TextRefused", "text_clean", "text_storable"]
