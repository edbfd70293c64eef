from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from ninja.errors import Throttled

from accounts.text import text_storable
from games import health, kinds, signals

from .api.limits import rate_hit
from .forms import GameCreateForm
from .models import Game
from .pages import board_html, not_modified, tagged, view_etag
from .selectors.games import (
    game_create_defaults,
    game_get_for_viewer,
    game_visible_to,
    games_for_user,
    games_held_for,
    games_open_public,
    kind_of,
)
from .services.errors import GameError
from .services.games import (
    game_act,
    game_create,
    game_decline,
    game_holds_open,
    game_join,
    game_leave,
    game_rematch,
    game_start,
)
from .services.weeks import nudge_send


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def home(request):
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(request, "home.html")


@require_GET
def rules_index(request):
    """The rules of every game played here, one link each."""
    return render(request, "games/rules.html", {"kinds": kinds.every()})


@require_GET
def rules(request, kind: str):
    game_kind = kinds.get(kind)
    if game_kind is None:
        raise Http404
    presentation = game_kind.presentation
    context = presentation.rules_context(lang=translation.get_language() or "en")
    return render(request, presentation.templates.rules, context)


LOBBY_PAGE_SIZE = 30
MINE_PAGE_SIZE = 20


def _page_context(request, games, size: int) -> dict:
    """One page of ``games`` (``?page=``), and what the pager and the live refresh need."""
    page = Paginator(games, size).get_page(request.GET.get("page"))
    return {"games": page.object_list, "page": page.number, "pages": page.paginator.num_pages, "query": ""}


def _lobby_page(request) -> dict:
    return _page_context(request, games_open_public(exclude_user=request.user), LOBBY_PAGE_SIZE)


def _mine_page(request) -> dict:
    context = _page_context(request, games_for_user(user=request.user), MINE_PAGE_SIZE)
    for game in context["games"]:
        game.seated = len(game.seats.all())  # prefetched
    # The rematches that hold a seat for this player: on the first page, above their games.
    context["held"] = list(games_held_for(user=request.user)) if context["page"] == 1 else []
    return context


def lobby(request):
    return render(request, "games/lobby.html", _lobby_page(request))


@require_GET
def lobby_fragment(request):
    return render(request, "games/partials/lobby_list.html", _lobby_page(request))


@login_required
def mine(request):
    return render(request, "games/mine.html", _mine_page(request))


@login_required
@require_GET
def mine_fragment(request):
    return render(request, "games/partials/mine_list.html", _mine_page(request))


@login_required
def create(request):
    lang = "da" if (request.LANGUAGE_CODE or "").startswith("da") else "en"
    # Starting values that fit who creates it: a newcomer's game starts soon; a regular's is like their last.
    initial, last_options = game_create_defaults(user=request.user)
    chosen = request.GET.get("kind")
    if kinds.get(chosen or ""):
        initial["kind"] = chosen
    if request.GET.get("visibility") in Game.Visibility.values:  # the lobby's "Invite friends": private
        initial["visibility"] = request.GET["visibility"]
        if initial["visibility"] == Game.Visibility.PRIVATE:  # seats for the friends, who may come later
            initial |= {"with_bots": False, "pace": Game.Pace.ASYNC}
    form = GameCreateForm(request.POST or None, initial=initial)
    option_forms = [
        (
            kind,
            kind.presentation.options_form_for(
                request.POST or None,
                lang=lang,
                user=request.user,
                initial=last_options if initial.get("kind") == kind.slug else None,
            ),
        )
        for kind in kinds.every()
    ]
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        kind = form.chosen_kind()
        options_form = next(f for k, f in option_forms if k is kind)
        if options_form.is_valid():
            try:
                game = game_create(
                    creator=request.user,
                    kind=kind.slug,
                    max_seats=data["max_seats"],
                    pace=data["pace"],
                    phase_seconds=data["phase_hours"] * 3600,
                    visibility=data["visibility"],
                    options=kind.presentation.options_from_form(options_form),
                    time_bank_hours=data["time_bank_hours"],
                    min_reliability=None if data["min_reliability"] is None else data["min_reliability"] / 100,
                    with_bots=data["with_bots"],
                )
            except GameError as error:
                form.add_error(None, error.message)
            else:
                return redirect(game)
    return render(request, "games/create.html", {"form": form, "option_forms": option_forms})


def detail(request, game_id: int):
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    if request.user.is_authenticated:
        signals.game_viewed.send(sender=Game, game=game, user=request.user, now=timezone.now())
    return render(request, "games/detail.html", {"game": game, "board": board_html(request, game=game, seats=seats)})


@require_GET
def board_fragment(request, game_id: int):
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    etag = view_etag("board", request, game=game)
    unchanged = not_modified(request, etag)
    if unchanged is not None:  # the browser has this version's board already
        return unchanged
    return tagged(HttpResponse(board_html(request, game=game, seats=seats)), etag)


def invite(request, code: str):
    if not text_storable(code):  # no such code, and PostgreSQL takes no NUL to look for one
        raise Http404
    game = get_object_or_404(Game.objects.select_related("creator"), invite_code=code)
    if request.user.is_authenticated and game.seats.filter(user=request.user).exists():
        return redirect(game)
    return render(
        request,
        "games/invite.html",
        {"game": game, "seated": game.seats.count(), "code": code},
    )


def _after_action(request, game_id, error: GameError | None = None, success: str | None = None):
    """Answer a form post: the fresh board for htmx, a redirect otherwise (post/redirect/get)."""
    if _is_htmx(request):
        game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
        return HttpResponse(board_html(request, game=game, seats=seats, error=error.message if error else None))
    if error:
        messages.error(request, error.message)
    elif success:
        messages.success(request, success)
    return redirect("games:detail", game_id=game_id)


def _hide_unseen(request, game_id, error: GameError, *, invite_code: str | None = None) -> None:
    """404 for a game that does not exist and for a private game this user may not see, whatever the
    refusal (not a player, not open, a bad action): one answer for both, so a private game's id says nothing."""
    if error.kind == "not_found":
        raise Http404
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game_visible_to(game=game, user=request.user, invite_code=invite_code):
        raise Http404


@login_required
@require_POST
def join(request, game_id: int):
    code = request.POST.get("invite_code") or None
    try:
        # An invite code is ASCII (and the service's constant-time comparison takes no other string).
        game_join(game_id=game_id, user=request.user, invite_code=code if code and code.isascii() else None)
    except GameError as error:
        _hide_unseen(request, game_id, error, invite_code=code)
        messages.error(request, error.message)
        if error.code == "invite_required":
            return redirect("games:lobby")
        return redirect("games:detail", game_id=game_id) if error.code != "game_full" else redirect("games:lobby")
    messages.success(request, _("You have joined the game."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def leave(request, game_id: int):
    try:
        game_leave(game_id=game_id, user=request.user)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("You have left the game."))
    return redirect("games:lobby")


@login_required
@require_POST
def start(request, game_id: int):
    try:
        game_start(game_id=game_id, user=request.user)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        return _after_action(request, game_id, error)
    return _after_action(request, game_id)


@login_required
@require_POST
def rematch(request, game_id: int):
    """Play a finished game again with the same people: to the new game (the same one, pressed twice)."""
    try:
        game = game_rematch(game_id=game_id, user=request.user)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("A new game with the same people: a seat is held for each of them, and they are told."))
    return redirect(game)


@login_required
@require_POST
def decline(request, game_id: int):
    """Decline the seat a rematch holds for this player: back to "My games"."""
    try:
        game_decline(game_id=game_id, user=request.user)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        messages.error(request, error.message)
        return redirect("games:mine")
    messages.success(request, _("You declined the rematch: your seat is open to others now."))
    return redirect("games:mine")


@login_required
@require_POST
def open_seats(request, game_id: int):
    """The rematch's creator opens the seats still held for the old table."""
    try:
        game_holds_open(game_id=game_id, user=request.user)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        return _after_action(request, game_id, error)
    return _after_action(request, game_id, success=_("The held seats are open now."))


# Lazy: looked up in the language of the request that shows it, not at import.
RESIGNED = gettext_lazy("You have resigned.")
TOO_FAST = gettext_lazy("Too many requests: wait a little and try again.")


@login_required
@require_POST
def act(request, game_id: int):
    kind = kind_of(game_id=game_id)
    if kind is None:
        raise Http404
    try:
        rate_hit("actions", request)  # the account's actions, counted with those it sends through the API
    except Throttled:  # said as any refusal is (htmx swaps only a 2xx board in)
        return _after_action(request, game_id, GameError("rate_limited", TOO_FAST, "conflict"))
    try:
        # The form's fields go through the kind's action models, as the API's JSON does.
        action = kind.action_from_post(request.POST)
        game_act(game_id=game_id, user=request.user, action=kind.action_to_engine(action), expected_round=action.round)
    except GameError as error:
        _hide_unseen(request, game_id, error)
        return _after_action(request, game_id, error)
    success = RESIGNED if action.type == "resign" else kind.presentation.success_messages.get(action.type)
    return _after_action(request, game_id, success=success)


@login_required
@require_POST
def nudge(request, game_id: int):
    """The game page's "Nudge" button (issue 38): remind a player the game waits for."""
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        nudge_send(game_id=game_id, user=request.user, seat=seat, now=timezone.now())
    except GameError as error:
        _hide_unseen(request, game_id, error)
        return _after_action(request, game_id, error)
    return _after_action(request, game_id, success=_("Nudged: they are told you are waiting."))


@require_GET
def healthz(request):
    """What a load balancer or compose health check asks: can this process reach what it needs?

    200 with each part "ok" when the database answers; 503 when it does not. The cache and
    the channel layer are reported too: without them pages still load (fewer live updates).
    """
    report = health.check()
    status = 200 if report["database"] == "ok" else 503
    return JsonResponse(report, status=status, headers={"Cache-Control": "no-store"})
