"""Think Alike's part of the new-game form."""

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .models import LANG_NAMES, LANGS, BoardField, content_lang

COURSE_LENGTH = 15  # fields the creator chooses after the start field


def _time_limit_choices():
    minutes = [(15, _("15 minutes")), (30, _("30 minutes")), (60, _("1 hour")), (120, _("2 hours"))]
    days = [(1, _("1 day")), (3, _("3 days")), (7, _("1 week")), (14, _("2 weeks"))]
    return minutes + [(n * 24 * 60, label) for n, label in days]


class ThinkAlikeOptionsForm(forms.Form):
    lang = forms.ChoiceField(
        label=_("Language of the task cards"),
        choices=[(lang, LANG_NAMES[lang]) for lang in LANGS],
        initial="en",
        widget=forms.RadioSelect,
        required=False,
        help_text=_("The cards and fields are written for each language; answers are matched in it."),
    )
    stop = forms.ChoiceField(
        label=_("The game ends"),
        choices=[
            ("points", _("when someone reaches a score")),
            ("tasks", _("after a number of task cards")),
            ("time", _("after a time limit")),
        ],
        initial="points",
        widget=forms.RadioSelect,
        required=False,
    )
    target = forms.IntegerField(
        label=_("Score to reach"),
        min_value=1,
        max_value=999,
        required=False,
        help_text=_("Leave it empty for the usual: 6 points per player."),
    )
    count = forms.IntegerField(label=_("Task cards to play"), min_value=1, max_value=999, initial=10, required=False)
    minutes = forms.TypedChoiceField(
        label=_("Time limit, from the start"),
        coerce=int,
        choices=_time_limit_choices,
        initial=60,
        required=False,
        help_text=_("The round in play when the time is up is still finished."),
    )
    board = forms.ChoiceField(
        label=_("The board"),
        choices=[
            ("random", _("16 fields at random")),
            ("draft", _("The players choose the fields in turn")),
            ("course", _("I choose the course")),
        ],
        initial="random",
        widget=forms.RadioSelect,
        required=False,
    )

    chat = forms.BooleanField(label=_("Table talk (chat)"), initial=True, required=False)

    def __init__(self, *args, lang: str = "en", **kwargs):
        """The cards' language is the creator's unless they choose another: the active language (the
        request's) where it is a content language, else ``lang``."""
        super().__init__(*args, **kwargs)
        active = translation.get_language()
        lang = content_lang(active) if content_lang(active) != "en" else content_lang(lang)
        self.fields["lang"].initial = lang
        # The course's fields are named in the page's language, whatever language the cards are played in.
        self.course_palette = _course_palette(content_lang(active))
        choices = _course_choices(self.course_palette)
        for number in range(1, COURSE_LENGTH + 1):
            self.fields[f"course_{number}"] = forms.TypedChoiceField(
                label=_("Field %(n)d") % {"n": number}, coerce=int, choices=choices, required=False, empty_value=None
            )

    def course_fields(self):
        return [self[f"course_{number}"] for number in range(1, COURSE_LENGTH + 1)]

    def course_builder(self) -> dict:
        """What the course drawn as a circle shows: the start field, each place with the field chosen for
        it (from the form's data), and the palette of fields by kind."""
        texts = {item["id"]: item for group in self.course_palette for item in group["fields"]}
        places = []
        for number in range(1, COURSE_LENGTH + 1):
            try:
                chosen = texts.get(int(self[f"course_{number}"].value() or 0))
            except (TypeError, ValueError):
                chosen = None
            places.append({"number": number, "field": chosen})
        start = BoardField.objects.in_play().filter(is_start=True).first()
        label_lang = content_lang(translation.get_language())
        return {"start": start.text(label_lang) if start else "", "places": places, "palette": self.course_palette}

    def think_alike_fields(self):
        return [self[name] for name in ("lang", "stop", "target", "count", "minutes", "board", "chat")]

    def clean(self):
        data = super().clean()
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

    def options(self) -> dict:
        """The options for ``game_create``, from a valid form."""
        data = self.cleaned_data
        stop = data.get("stop") or "points"
        lang = data.get("lang") or self.fields["lang"].initial
        options = {"stop": stop, "board": data.get("board") or "random", "lang": lang, "chat": bool(data.get("chat"))}
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


def _course_palette(lang: str) -> list[dict]:
    """The fields a course may use, by kind (associations first), named in ``lang``; the start field is
    always first and not offered."""
    by_kind: dict[str, list] = {}
    for field in BoardField.objects.in_play().filter(is_start=False).order_by("kind", "pk"):
        by_kind.setdefault(field.kind, []).append({"id": field.pk, "text": field.text(lang), "kind": field.kind})
    return [
        {"kind": kind, "label": BoardField.Kind(kind).label, "fields": items}
        for kind, items in sorted(by_kind.items(), key=lambda kv: kv[0] != "association")
    ]


def _course_choices(palette: list[dict]):
    """The choices of each place of the course: the palette's fields, grouped by kind."""
    return [("", "—")] + [
        (group["label"], [(item["id"], item["text"]) for item in group["fields"]]) for group in palette
    ]
