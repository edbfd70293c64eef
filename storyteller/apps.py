from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StorytellerConfig(AppConfig):
    name = "storyteller"
    verbose_name = _("Storyteller")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kinds

        from . import personal_data  # noqa: F401  (a person's uploads in their data export; gone with the account)
        from .decks.services.withdraw import cards_withdrawn_receiver
        from .kind import KIND
        from .signals import cards_withdrawn

        kinds.register(KIND)
        # Removed cards leave the games in progress (the decks' services send it, inside their transaction).
        cards_withdrawn.connect(cards_withdrawn_receiver, dispatch_uid="storyteller.cards_withdrawn")
