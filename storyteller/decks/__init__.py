"""Storyteller's decks: the built-in decks, the site's cards and a player's own, card pictures, reports.

- ``services/``: ``cards`` (a game's deck, pictures made into cards, the admin's imports), ``own_decks`` (a
  player's decks and pictures, quotas, sharing), ``builtin`` (loading the decks shipped in ``builtin/``),
  ``reports`` (players report cards, admins keep or remove them), ``withdraw`` (removed or hidden cards out
  of the games in progress), ``picture_decoding`` and ``picture_worker`` (decoding uploads in a process of
  their own);
- ``selectors``: who may see a card's picture, and where; what a game on a deck needs;
- ``api`` (``/api/v1/decks``, a ninja ``Router``), ``views`` and ``urls`` ("My decks", mounted at
  ``decks/`` in the namespace ``decks``), the card pictures' door (``card_picture``);
- ``builtin/``: the built-in decks' manifests (``<slug>.json``; their pictures are in
  ``storyteller/static/cards/<slug>/``).

The models stay in ``storyteller.models.cards``, the templates in ``storyteller/templates/storyteller/decks/``
and the page script in ``storyteller/static/js/decks.js``: where Django's loaders look for them.
"""
