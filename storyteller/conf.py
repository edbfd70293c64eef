"""Storyteller's own settings, read from the site's environment (config/settings/base.py loads them).

Each is a ``FABULA_*`` name, as the site's settings are, so that ``.env``, the environment and the
tests' ``settings`` fixture treat them alike; ``FABULA_BODY_LIMITS`` adds this kind's routes that take
files to the site's request-body limits.
"""

MB = 1024 * 1024


def settings(env) -> dict:
    """This kind's settings from ``env`` (django-environ's ``Env``)."""
    return {
        # Kept in each process's memory (infrastructure.caches): what a card shows, by card and language
        # (storyteller.selectors.card_faces; an admin's new words for a card show within the time to live), and
        # the deck a game is dealt from, as its views name it (storyteller.selectors.deck_labels; the same time).
        "FABULA_CARD_FACES_ENTRIES": env.int("FABULA_CARD_FACES_ENTRIES", default=20000),
        "FABULA_CARD_FACES_TTL_SECONDS": env.float("FABULA_CARD_FACES_TTL_SECONDS", default=120.0),
        "FABULA_DECK_LABELS_ENTRIES": env.int("FABULA_DECK_LABELS_ENTRIES", default=2048),
        # Card reports (storyteller.decks.services.reports, docs "Card reports"): every report goes to the admins; a
        # card of the site's decks is never hidden by reports. A player's own card is hidden until an admin
        # decides once this many reports are open from accounts at least TRUST_DAYS old that have finished
        # TRUST_GAMES games with at least two other people; an account reports at most PER_DAY cards a day.
        "FABULA_CARD_REPORTS_TO_HIDE": env.int("FABULA_CARD_REPORTS_TO_HIDE", default=2),
        "FABULA_CARD_REPORT_TRUST_DAYS": env.int("FABULA_CARD_REPORT_TRUST_DAYS", default=7),
        "FABULA_CARD_REPORT_TRUST_GAMES": env.int("FABULA_CARD_REPORT_TRUST_GAMES", default=3),
        "FABULA_CARD_REPORTS_PER_DAY": env.int("FABULA_CARD_REPORTS_PER_DAY", default=20),
        # A player's own decks (storyteller.decks.services.own_decks): at most this many cards, and bytes of pictures
        # as stored (re-encoded at card size), over all their decks; beyond either, an upload is 409 "quota".
        "FABULA_OWN_CARDS_MAX": env.int("FABULA_OWN_CARDS_MAX", default=300),
        "FABULA_OWN_CARDS_MAX_BYTES": env.int("FABULA_OWN_CARDS_MAX_BYTES", default=100 * MB),
        # Uploaded pictures are decoded in short-lived processes (storyteller.decks.services.picture_decoding): at most
        # this many at once per web process, their memory estimated from the header within this budget together
        # (a picture whose estimate alone is over it is refused, 400 "bad_media"); others wait this long for
        # room, then 503 "busy"; a decoding that takes longer than FABULA_PICTURE_DECODE_SECONDS is stopped.
        "FABULA_PICTURE_DECODE_BUDGET_MB": env.int("FABULA_PICTURE_DECODE_BUDGET_MB", default=512),
        "FABULA_PICTURE_DECODERS": env.int("FABULA_PICTURE_DECODERS", default=2),
        "FABULA_PICTURE_DECODE_WAIT_SECONDS": env.float("FABULA_PICTURE_DECODE_WAIT_SECONDS", default=30.0),
        "FABULA_PICTURE_DECODE_SECONDS": env.float("FABULA_PICTURE_DECODE_SECONDS", default=60.0),
        # The routes that take files, by URL name: their largest file and room for the form around it
        # (infrastructure.handlers; deploy/Caddyfile bounds them the same in production).
        "FABULA_BODY_LIMITS": {
            # A drawn or sung clue: a sound of at most 1 MB (storyteller.services.media).
            "storyteller:clue_media_create": MB + 64 * 1024,
            "api-v1:clue_media_create": MB + 64 * 1024,
            # A player's own card: a picture of at most 10 MB (storyteller.decks.services.own_decks), words, the form.
            "api-v1:deck_card_create": 10 * MB + 512 * 1024,
            "decks:card_upload": 10 * MB + 512 * 1024,
            # The admin's: a deck's zip of at most 50 MB, a card's picture of 10 MB (storyteller.decks.services.cards).
            "admin:storyteller_deck_import": 51 * MB,
            "admin:storyteller_card_add": 11 * MB,
            "admin:storyteller_card_change": 11 * MB,
        },
    }
