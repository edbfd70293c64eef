"""Storyteller's own signals."""

from django.dispatch import Signal

# Cards that can no longer be shown (``card_ids``: removed by their owner or an admin, or their owner's
# account deleted). Sent inside the transaction that removed them: a receiver swaps them out of games
# in progress (they finish with the built-in deck) and lets open pages show the change.
cards_withdrawn = Signal()
