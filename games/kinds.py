"""The game-kind seam: what a kind of game provides, and the one registry of kinds.

The core (services, selectors, views, API, live pages, deadlines) never asks which
game it is playing: it asks the game's kind. A kind is an app of its own that
subclasses ``GameKind`` and registers one instance in its
``AppConfig.ready()``; a system check reports a kind that misses a piece. As in
boardgame.io's ``Game`` or scalachess's ``Variant``: one object holds everything
about a kind, and nothing about a kind is looked up anywhere else.

A kind comes in two halves. ``GameKind`` is its rules: seats, options, actions, the
engine's calls, deadlines, what a change records (``<kind>/kind.py``). Its
``presentation``, a ``KindPresentation``, is how people see it: templates, each
viewer's view, texts, the replay, the API's view (``<kind>/presentation.py``). The
rules never call the presentation; pages, emails and the API reach it through the
kind (``kind.presentation``).

The engine a kind gives is pure (no Django, no clock, no global random): the core
passes it the random source, and ``now`` when the kind is ``timed``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

if TYPE_CHECKING:  # pragma: no cover
    from django import forms
    from django.http import QueryDict

    from games.models import Game, Seat


class Engine(Protocol):
    """A kind's pure rules, as the core calls them (module-level functions or an object)."""

    def from_dict(self, data: dict) -> Any: ...
    def to_dict(self, state: Any) -> dict: ...
    def to_act(self, state: Any) -> frozenset[int]: ...
    def winners(self, state: Any) -> Iterable[int]: ...
    def present_seats(self, state: Any) -> Iterable[int]: ...
    def is_paused(self, state: Any) -> bool: ...


@dataclass(frozen=True)
class KindTemplates:
    """The partials a kind renders inside the shared game page (template names).

    ``play``: the table while the game is on; ``phase``: the round and phase
    in the status line; ``waiting``: who or what the game waits for; ``reveal``:
    the last finished round; ``new_game``: the kind's options in the new-game form
    (``form``); ``player_role``, ``player_done``: a player's badge and "done" mark
    in the list of players (``p``); ``rules``: the
    rules page; ``notification``: the in-site text of a notification (``note``);
    ``asked``: the sentence an email uses for what is asked (``asked``, ``game``);
    ``replay``: a finished round in the replay; ``missed``: what a missed deadline
    does, in a reminder email (``asked``); ``head``: extra tags in the page's
    head (a style sheet); ``options``: a line on the board about the game's options;
    ``lobby``: the game's house rules in its row of the lobby (``game``: from its
    options alone, no view is built there).

    The board's partials (``play``, ``phase``, ``waiting``, ``reveal``, ``options``) see the
    board's context (games.pages.board_html): ``game``, ``view`` (the viewer's), ``user``,
    ``request``, ``urls`` (``urls.act``: where a form posts an action; ``urls.board``),
    ``fragment`` (the key of what every viewer of this version sees alike, in this
    language and time zone, for ``{% cache %}``) and a CSRF token for ``{% csrf_token %}``;
    no context processor runs for a board.
    """

    play: str
    phase: str
    waiting: str
    reveal: str
    rules: str
    notification: str
    asked: str
    new_game: str
    player_role: str
    player_done: str
    replay: str = ""
    head: str = ""
    options: str = ""
    missed: str = ""
    lobby: str = ""


class KindPresentation:
    """How people see a kind of game: its pages, texts and API view; a kind's ``presentation``.

    Subclass it beside the kind (``<kind>/presentation.py``) and override what the kind
    shows its own way. Its hooks read the game, a state or a view, and change nothing.
    """

    templates: ClassVar[KindTemplates]
    # What a successful action says, by action type (lazy translations).
    success_messages: ClassVar[Mapping[str, Any]] = {}
    # What a missed deadline did for a player, by ``timeout_outcomes`` slug: lazy translations
    # naming the player as %(name)s (a slug missing here reads "%(name)s ran out of time.").
    timeout_texts: ClassVar[Mapping[str, Any]] = {}

    # --- the new-game form ------------------------------------------------------------

    def options_form(self, data=None, *, lang: str, initial: Mapping | None = None) -> forms.Form:
        """The part of the new-game form that holds this kind's options."""
        raise NotImplementedError

    def options_form_for(self, data=None, *, lang: str, user, initial: Mapping | None = None) -> forms.Form:
        """``options_form`` for ``user``, who creates the game (a kind whose choices are the player's own,
        such as their own content, overrides it)."""
        return self.options_form(data, lang=lang, initial=initial)

    def options_from_form(self, form: forms.Form) -> dict:
        """``game_create``'s options from a valid ``options_form`` (its ``options()`` where it has one)."""
        if hasattr(form, "options"):
            return form.options()
        return {key: value for key, value in form.cleaned_data.items() if value not in (None, "")}

    # --- the game ---------------------------------------------------------------------

    def view(self, *, game: Game, seats: list[Seat], viewer) -> dict:
        """The whole game as this viewer may see it; pages and the API render it."""
        raise NotImplementedError

    def asked(self, state: Any) -> str:
        """What a seat the state waits for is asked for (a slug the kind's texts know)."""
        return str(state.phase)

    def score_track(self, view: dict) -> int | None:
        """The length of the table's score track (0 to it) for this ``view``, or None: no track."""
        return None

    def revealed_rounds(self, before: Any, after: Any) -> list[int]:
        """The rounds this change finished and showed (their cards, votes or answers): by default the rounds
        ``after.history`` holds beyond ``before``'s (None: the start), numbered by ``round_number``."""
        history = getattr(after, "history", None)
        if history is None:
            return []
        done = len(before.history) if before is not None else 0
        return [number for number in map(self.round_number, history[done:]) if number is not None]

    def round_number(self, result: Any) -> int | None:
        """The number of a round in a state's ``history`` (``revealed_rounds``), or None: nothing was shown."""
        return result.round

    def replay(self, *, game: Game, seats: list[Seat]) -> dict | None:
        """A finished game round by round, for its replay page (None: no replay)."""
        return None

    def chat_closed(self, state: Any) -> Any:
        """Why the table may not talk in ``state`` (words for a person, a lazy translation), or None: it may."""
        return None

    # --- beside the games -------------------------------------------------------------

    def rules_context(self, *, lang: str) -> dict:
        """What the rules page (``templates.rules``) shows beside its text, in the page's language ``lang``:
        the kind's own cards, a worked example. The kind caches it: the page must cost no query per card."""
        return {}

    def showcase(self, *, lang: str) -> dict:
        """The kind at a glance, for the home page and the lobby, in the page's language ``lang``:
        ``pitch`` (one line, a lazy translation), and the kind's own art: ``pictures`` (a few card
        faces: ``image``, ``alt``) and/or ``card`` (a card of words: ``title``, ``text``, ``lang``).
        The kind caches it: the pages cost no query per card, and none most of the time."""
        return {}

    # --- the API ----------------------------------------------------------------------

    # The view's response model: a ``games.api.schemas.GameViewBase`` whose ``kind`` is
    # ``Literal[slug]`` and that declares every key ``view`` gives (an undeclared key is
    # left out of the API's answer; a test over the registry checks there is none). The
    # create options: a model of optional fields, merged into the flat create body.
    # The actions the API takes are the kind's ``action_models``.
    api_view: ClassVar[Any] = None
    api_create_options: ClassVar[Any] = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class GameKind:
    """A kind of game's rules; subclass it and override what the kind needs.

    Class attributes name the kind and its limits; methods are its hooks. The core
    calls only these and its ``presentation``'s.
    """

    slug: ClassVar[str]
    label: ClassVar[Any]  # a lazy translation: the name people see
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 6
    timed: ClassVar[bool] = False  # the engine's apply, expire and resign take ``now``
    engine: ClassVar[Any]  # the pure rules (see ``Engine``)
    presentation: ClassVar[KindPresentation]  # how people see it
    # The engine's own refusal codes in words for a person, and those that mean the input
    # itself is wrong (400) rather than not allowed now (409) (lazy translations).
    rule_messages: ClassVar[Mapping[str, Any]] = {}
    invalid_input_codes: ClassVar[frozenset[str]] = frozenset()

    # --- a new game ---------------------------------------------------------------

    def clean_options(self, options: dict, *, max_seats: int) -> dict:
        """The options of a new game, checked; raises ``GameError`` ("bad_options")."""
        return {}

    def rematch_options(self, options: dict, *, old: Game) -> dict:
        """A rematch's options, from ``old``'s (given to ``clean_options_for`` with the rematch's creator,
        one of ``old``'s players)."""
        return options

    def clean_options_for(self, options: dict, *, max_seats: int, creator, visibility: str = "public") -> dict:
        """``clean_options`` for a game ``creator`` creates, public or private (``visibility``: a kind whose
        options may name what is theirs alone, or not for everyone to see, overrides it)."""
        return self.clean_options(options, max_seats=max_seats)

    def visibility_for(self, options: dict, *, visibility: str, creator_id: int | None) -> str:
        """The visibility a game of ``options`` keeps when its creator is ``creator_id`` without having asked
        for it (a rematch's presser, whoever the part is handed to): ``visibility``, unless the kind's options may
        not be played in public by that creator (a kind whose options can be someone's private content
        overrides it, and returns "private")."""
        return visibility

    def new_state(self, *, game: Game, seats: int, rng: random.Random, now: datetime) -> Any:
        """The engine's first state of a game that starts with ``seats`` players."""
        raise NotImplementedError

    # --- playing --------------------------------------------------------------------

    # The kind's actions (its ``actions`` module): one pydantic model per ``type``
    # (``games.actions.Action`` subclasses, the core's ``Resign`` among them) and a
    # ``TypeAdapter`` of their union, discriminated by ``type``. The pages' forms and
    # the API's JSON are validated by the same adapter; ``action_to_engine`` turns a
    # valid action into the engine's ``action``.
    action_models: ClassVar[tuple] = ()
    action_adapter: ClassVar[Any] = None

    def action_parse(self, data: Any, *, strict: bool = True) -> Any:
        """An action from a client's JSON object (``strict``) or a form's strings; raises ``GameError`` "bad_action"."""
        from games.actions import action_parse

        return action_parse(self.action_adapter, data, models=self.action_models, strict=strict)

    def action_from_post(self, post: QueryDict) -> Any:
        """An action from a page's form: the fields its model names, validated as the API's JSON is (lax)."""
        from games.actions import form_data

        return self.action_parse(form_data(self.action_models, post), strict=False)

    def action_to_engine(self, action: Any) -> dict:
        """The engine's ``action`` (``type`` and fields) for a valid action model."""
        raise NotImplementedError

    def apply(self, state: Any, *, seat: int, action: dict, rng: random.Random, now: datetime) -> Any:
        clock = {"now": now} if self.timed else {}
        if action.get("type") == "resign":
            return self.engine.resign(state, seat=seat, rng=rng, **clock)
        return self.engine.apply(state, seat=seat, action=action, rng=rng, **clock)

    def expire(self, state: Any, *, rng: random.Random, now: datetime) -> Any:
        return self.engine.expire(state, rng=rng, **({"now": now} if self.timed else {}))

    def sample_action(self, state: Any, *, seat: int, rng: random.Random) -> dict | None:
        """A legal action of ``seat`` in ``state``, drawn with ``rng`` (pure): random play in the
        conformance test (``games/tests/test_conformance.py``), bots. None: nothing to offer, a deadline decides."""
        return None

    def bot_action(self, state: Any, *, seat: int, rng: random.Random, game: Game | None = None) -> dict | None:
        """The action a bot in ``seat`` takes in ``state`` (the bots app plays it through ``game_act``).

        A kind plays its bots better than at random by overriding this; ``game`` lets it read
        what it knows beside the state (cards' texts, past answers). None: the deadline decides."""
        return self.sample_action(state, seat=seat, rng=rng)

    def rule_message(self, error: Any, *, state: Any, seats: list[Seat]) -> Any:
        """A refusal of the engine (a ``RuleError``) in words that name who did what, or None:
        ``rule_messages`` words it. ``state``: the state the action was refused in."""
        return None

    def timeout_outcomes(self, state: Any) -> dict[int, str]:
        """What the deadline of the phase in ``state`` does for each seat it waits for: a slug
        ``timeout_texts`` words (a ``Move`` with ``by_timeout`` records it)."""
        return dict.fromkeys(self.engine.to_act(state), "timed_out")

    def phase_key(self, state: Any) -> tuple:
        """What tells this phase apart from every other of the game: a new key, a new deadline."""
        return (state.round, str(state.phase))

    def record(self, *, game: Game, before: Any, after: Any, now: datetime, seats: list | None = None) -> None:
        """Write the rows of what the change from ``before`` (None: the start) to ``after`` settled. ``seats``: the
        game's seats as the service read them under the game's lock, when it did (else None: read them if needed)."""

    def round_scored(self, state: Any) -> bool:
        """Whether a round of the game in ``state`` has been scored. A game that ends before its first
        scored round (resignations, a deleted account, deadlines nobody met) is abandoned: nobody won it,
        and it counts for no rating and no statistics. A kind without scored rounds: every game was played."""
        return True

    # --- the API ------------------------------------------------------------------------

    def api_routers(self) -> list:
        """The kind's own endpoints beside the games': module-level ninja ``Router``s, which the API mounts at its
        root after the games' router, in this order (``games.api.api``)."""
        return []

    # --- its pages ------------------------------------------------------------------------

    def url_patterns(self) -> list:
        """The kind's own pages beside the games' (Django URL patterns, from the site's root: a kind mounts
        its pages under ``games/`` and anything else it serves where it wants, in a namespace of its own).
        The site's URLs (config/urls.py) take every kind's through ``url_patterns()`` and name none."""
        return []

    # --- beside the games ---------------------------------------------------------------

    stats: ClassVar[Any] = None  # a ``stats.kinds.KindStats``, or None: no statistics

    def load_content(self) -> Iterable[str]:
        """Load the content shipped with the kind (decks, task cards); yield a line for each part."""
        return ()

    def __repr__(self) -> str:
        return f"<GameKind {self.slug}>"


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Add a kind to the registry; an app calls it from its ``AppConfig.ready()``."""
    existing = _KINDS.get(kind.slug)
    if existing is not None and type(existing) is not type(kind):
        raise ValueError(f"two kinds of game are named {kind.slug!r}: {existing!r} and {kind!r}")
    _KINDS[kind.slug] = kind
    return kind


def unregister(slug: str) -> None:
    """Take a kind out again (tests that register one of their own)."""
    _KINDS.pop(slug, None)


def get(slug: str) -> GameKind | None:
    return _KINDS.get(slug)


def every() -> list[GameKind]:
    """The registered kinds, in the order their apps were installed."""
    return list(_KINDS.values())


def default_slug() -> str:
    """The kind a new game is when none is chosen: ``FABULA_DEFAULT_KIND``, else the first registered."""
    from django.conf import settings

    return settings.FABULA_DEFAULT_KIND or next(iter(_KINDS))


def url_patterns() -> list:
    """Every kind's own URL patterns (``GameKind.url_patterns``), for the site's URLs."""
    return [pattern for kind in _KINDS.values() for pattern in kind.url_patterns()]


def choices() -> list[tuple[str, Any]]:
    """(slug, label) of every kind: the choices of ``Game.kind``."""
    return [(kind.slug, kind.label) for kind in _KINDS.values()]


@checks.register()
def check_kinds(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Every registered kind has what the core asks of it, in its rules and in its presentation."""
    errors: list[checks.CheckMessage] = []
    if not _KINDS:
        errors.append(checks.Error("No kind of game is registered.", id="games.E001"))
    for kind in _KINDS.values():
        errors.extend(_check_rules(kind))
        presentation = getattr(kind, "presentation", None)
        if isinstance(presentation, KindPresentation):
            errors.extend(_check_presentation(kind, presentation))
        else:
            errors.append(checks.Error(f"{kind!r} has no presentation (a KindPresentation).", id="games.E002"))
    return errors


def _unsaid(half: object, base: type, hooks: tuple[str, ...]) -> list[str]:
    """The ``hooks`` ``half`` leaves as ``base`` has them (which only raise)."""
    return [name for name in hooks if getattr(getattr(half, name), "__func__", None) is getattr(base, name)]


def _check_rules(kind: GameKind) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = [
        checks.Error(f"{kind!r} has no {attribute}.", id="games.E002")
        for attribute in ("slug", "label", "engine")
        if not hasattr(kind, attribute)
    ]
    if not kind.min_seats <= kind.max_seats:
        errors.append(checks.Error(f"{kind!r}: min_seats is above max_seats.", id="games.E003"))
    if kind.action_adapter is None or not kind.action_models:
        errors.append(checks.Error(f"{kind!r} does not say its actions.", id="games.E006"))
    for name in _unsaid(kind, GameKind, ("new_state", "action_to_engine")):
        errors.append(checks.Error(f"{kind!r} does not say its {name}.", id="games.E004"))
    return errors


def _check_presentation(kind: GameKind, presentation: KindPresentation) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    if not hasattr(presentation, "templates"):
        errors.append(checks.Error(f"{kind!r}: its presentation has no templates.", id="games.E002"))
    if presentation.api_view is None:
        errors.append(checks.Error(f"{kind!r}: its presentation does not say its api_view.", id="games.E006"))
    for name in _unsaid(presentation, KindPresentation, ("view", "options_form")):
        errors.append(checks.Error(f"{kind!r}: its presentation does not say its {name}.", id="games.E004"))
    templates = getattr(presentation, "templates", None)
    for field, name in vars(templates).items() if templates is not None else ():
        if not name:
            continue
        try:
            get_template(name)
        except TemplateDoesNotExist:
            errors.append(checks.Error(f"{kind!r}: its {field} template {name} is missing.", id="games.E005"))
    return errors
