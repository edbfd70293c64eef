from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import BoardField, Deck, Game


def _phase_choices():
    hours = settings.FABULA_ASYNC_PHASE_CHOICES_HOURS
    labels = []
    for h in hours:
        if h % 24 == 0:
            days = h // 24
            labels.append((h, _("%(n)d day") % {"n": days} if days == 1 else _("%(n)d days") % {"n": days}))
        else:
            labels.append((h, _("%(n)d hour") % {"n": h} if h == 1 else _("%(n)d hours") % {"n": h}))
    return labels


COURSE_LENGTH = 15  # fields the creator chooses after the start field


def _time_limit_choices():
    minutes = [(15, _("15 minutes")), (30, _("30 minutes")), (60, _("1 hour")), (120, _("2 hours"))]
    days = [(1, _("1 day")), (3, _("3 days")), (7, _("1 week")), (14, _("2 weeks"))]
    return minutes + [(n * 24 * 60, label) for n, label in days]


class GameCreateForm(forms.Form):
    """Both games on one form; the fields of the game not chosen are ignored."""

    kind = forms.ChoiceField(
        label=_("Game"), choices=Game.Kind.choices, initial=Game.Kind.STORYTELLER, required=False,
        widget=forms.RadioSelect,
    )
    max_seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, initial=4, choices=[(n, str(n)) for n in range(3, 11)],
        help_text=_("Storyteller: 3 to 6. Think Alike: 3 to 10."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"), choices=Game.Pace.choices, initial=Game.Pace.ASYNC, widget=forms.RadioSelect
    )
    phase_hours = forms.TypedChoiceField(
        label=_("Time for each phase (asynchronous games)"), coerce=int, initial=24, choices=_phase_choices
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=[
            (Game.Visibility.PUBLIC, _("Anyone, from the lobby")),
            (Game.Visibility.PRIVATE, _("Only people with the invite link")),
        ],
        initial=Game.Visibility.PUBLIC,
        widget=forms.RadioSelect,
    )
    deck = forms.ModelChoiceField(
        label=_("Card deck"), queryset=Deck.objects.filter(is_active=True), required=False, empty_label=None
    )
    target_score = forms.IntegerField(
        label=_("House rule: also end when someone reaches this score"),
        min_value=5,
        max_value=100,
        required=False,
    )

    # Think Alike
    lang = forms.ChoiceField(
        label=_("Language of the task cards"), choices=[("en", _("English")), ("da", _("Danish"))], initial="en",
        widget=forms.RadioSelect, required=False,
    )
    stop = forms.ChoiceField(
        label=_("The game ends"),
        choices=[
            ("points", _("when someone reaches a score")),
            ("tasks", _("after a number of task cards")),
            ("time", _("after a time limit")),
        ],
        initial="points", widget=forms.RadioSelect, required=False,
    )
    target = forms.IntegerField(
        label=_("Score to reach"), min_value=1, max_value=999, required=False,
        help_text=_("Leave it empty for the usual: 6 points per player."),
    )
    count = forms.IntegerField(label=_("Task cards to play"), min_value=1, max_value=999, initial=10, required=False)
    minutes = forms.TypedChoiceField(
        label=_("Time limit, from the start"), coerce=int, choices=_time_limit_choices, initial=60, required=False,
        help_text=_("The round in play when the time is up is still finished."),
    )
    board = forms.ChoiceField(
        label=_("The board"),
        choices=[
            ("random", _("16 fields at random")),
            ("draft", _("The players choose the fields in turn")),
            ("course", _("I choose the course")),
        ],
        initial="random", widget=forms.RadioSelect, required=False,
    )

    def __init__(self, *args, lang: str = "en", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["lang"].initial = lang if lang in ("en", "da") else "en"
        choices = _course_choices(lang)
        for number in range(1, COURSE_LENGTH + 1):
            self.fields[f"course_{number}"] = forms.TypedChoiceField(
                label=_("Field %(n)d") % {"n": number}, coerce=int, choices=choices, required=False, empty_value=None
            )

    def course_fields(self):
        return [self[f"course_{number}"] for number in range(1, COURSE_LENGTH + 1)]

    def think_alike_fields(self):
        return [self[name] for name in ("lang", "stop", "target", "count", "minutes", "board")]

    def common_fields(self):
        return [self[name] for name in ("kind", "max_seats", "pace", "phase_hours", "visibility")]

    def storyteller_fields(self):
        return [self["deck"], self["target_score"]]

    def clean(self):
        data = super().clean()
        if data.get("kind") != Game.Kind.THINK_ALIKE:
            return data
        stop = data.get("stop") or "points"
        if stop == "tasks" and not data.get("count"):
            self.add_error("count", _("How many task cards?"))
        if stop == "time" and not data.get("minutes"):
            self.add_error("minutes", _("Choose a time limit."))
        if data.get("board") == "course":
            missing = [n for n in range(1, COURSE_LENGTH + 1) if not data.get(f"course_{n}")]
            if missing:  # said once, at the first place left empty
                self.add_error(f"course_{missing[0]}", _("Choose a field for every place of the course."))
        return data

    def think_alike_options(self) -> dict:
        """The options for ``game_create``, from a valid form."""
        data = self.cleaned_data
        stop = data.get("stop") or "points"
        options = {"stop": stop, "board": data.get("board") or "random", "lang": data.get("lang") or "en"}
        if stop == "points":
            options["target"] = data.get("target")
        elif stop == "tasks":
            options["count"] = data.get("count")
        else:
            options["minutes"] = data.get("minutes")
        if options["board"] == "course":
            start = BoardField.objects.in_play().filter(is_start=True).values_list("pk", flat=True).first()
            options["course"] = [start] + [data[f"course_{number}"] for number in range(1, COURSE_LENGTH + 1)]
        return options


def _course_choices(lang: str):
    """The fields a course may use, by kind; the start field is always first and not offered."""
    by_kind: dict[str, list] = {}
    for field in BoardField.objects.in_play().filter(is_start=False).order_by("kind", "pk"):
        label = field.text(lang)
        by_kind.setdefault(field.kind, []).append((field.pk, label))
    return [("", "—")] + [
        (BoardField.Kind(kind).label, items) for kind, items in sorted(by_kind.items(), key=lambda kv: kv[0] != "association")
    ]
