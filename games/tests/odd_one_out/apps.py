from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OddOneOutConfig(AppConfig):
    """A test-only kind of game, installed by ``config.settings.test`` alone."""

    name = "games.tests.odd_one_out"
    label = "odd_one_out"
    verbose_name = _("Odd one out")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kinds

        from .kind import KIND

        kinds.register(KIND)
