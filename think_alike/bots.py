"""Think Alike's bots: answer what people answered most to the same task card before.

Points come from giving the answers the others give, so a bot answers with the
answers people gave most often to this task card in earlier games in the same
language (counted as the game groups answers: case, accents, articles and numbers
aside; bots' own answers never count). Where people have not answered the card
often enough, it takes words of the language's common-word list: first one the task
or the board's hint names, then one drawn by the card itself, the same for every bot
(so bots at one table agree with each other, as people who think alike do).

The other decisions: a field placed in the draft, a direction, a swap or a move
toward an association field (its hint helps everyone think alike); a duel against
the player with the fewest points; the review confirmed as grouped.

Levels (the bot's seat's): a hard bot does all of the above; a normal one now and then
passes over its likeliest answer and decides at random; an easy one often does both.
Every answer is in the game's language: people's answers in games in it, and its word
list.

``bot_action`` is pure: the past answers come in as ``popular`` (``bench/bots.py``
plays it without a database).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence

from think_alike.engine import matching
from think_alike.engine import rules as engine
from think_alike.engine.languages import word_list

# Popular answers of a task in a language, most given first: (task id, lang, how many) -> answers.
Popular = Callable[[int, str, int], Sequence[str]]
PAST_ANSWERS_READ = 2000  # the newest answers to a card a bot reads
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
# How often a bot passes over the likeliest answer it has (then it says a random word of the language half
# of the time), by level: easy bots think less alike.
SLIP = {"easy": 0.6, "normal": 0.15, "hard": 0.0}
# How often a bot makes its other decisions (a field, a direction, a swap, a duel) at random, by level.
CARELESS = {"easy": 0.6, "normal": 0.1, "hard": 0.0}


def _no_past(task_id: int, lang: str, count: int) -> Sequence[str]:
    return ()


def fallback_words(state: engine.State, task: engine.Task, lang: str) -> list[str]:
    """Common words of the language, those the task or the hint names first, then an order drawn by the card."""
    known = sorted(word_list(lang)[0])
    if not known:
        return []
    named = []
    for text in (engine.hint(state) or "", task.text):
        for word in matching.normalize(text, lang).split():
            if word in word_list(lang)[0] and word not in named:
                named.append(word)
    # The same order for every bot at every table: drawn from the card's id, not the bot's rng.
    seed = int.from_bytes(hashlib.sha256(f"{task.id}:{lang}".encode()).digest()[:8], "big")
    start = seed % len(known)
    return named + [known[(start + step * 7919) % len(known)] for step in range(10)]


def answers_for(state: engine.State, *, popular: Popular, rng=None, level: str = DEFAULT_LEVEL) -> list[str]:
    """The answers a bot gives to the task in play: the likeliest first (hard); a normal bot now and then
    passes over one of them, an easy one often does, and says a word of the language at random instead."""
    task = engine.task(state, state.current.task)
    lang = state.options.lang
    chosen: list[str] = []
    keys: set[str] = set()
    ranked = [*popular(task.id, lang, task.answers), *fallback_words(state, task, lang)]
    slip = SLIP.get(level, 0.0)
    if rng is not None and slip:
        known = sorted(word_list(lang)[0])
        ranked = [
            answer if rng.random() >= slip else (rng.choice(known) if known and rng.random() < 0.5 else None)
            for answer in ranked
        ]
        ranked = [answer for answer in ranked if answer]
    for answer in ranked:
        answer = answer[: engine.MAX_ANSWER_LENGTH].strip()
        key = matching.normalize(answer, lang)
        if answer and key and key not in keys:
            chosen.append(answer)
            keys.add(key)
        if len(chosen) == task.answers:
            break
    return chosen + [""] * (task.answers - len(chosen))


def _kind_of(state: engine.State, field_id: int) -> str:
    return engine.field(state, field_id).kind


def bot_action(
    state: engine.State, *, seat: int, rng, popular: Popular = _no_past, level: str = DEFAULT_LEVEL
) -> dict | None:
    """A bot's action in ``seat`` at ``level`` (None: nothing is asked of it)."""
    if seat not in engine.to_act(state):
        return None
    level = level if level in LEVELS else DEFAULT_LEVEL
    phase = state.phase
    if phase == engine.Phase.ANSWER:
        return {"type": "answer", "answers": answers_for(state, popular=popular, rng=rng, level=level)}
    unused = engine.unused_fields(state)
    associations = engine.association_positions(state)
    if rng.random() < CARELESS[level]:  # a choice made without thinking: any legal one
        associations = []
        careless = True
    else:
        careless = False
    if phase == engine.Phase.DRAFT:
        wanted = [f for f in unused if _kind_of(state, f) == "association" and not careless] or list(unused)
        return {"type": "place_field", "field": rng.choice(wanted)} if wanted else None
    if phase == engine.Phase.ROLL:
        return {"type": "roll"}
    if phase == engine.Phase.MOVE:
        hinted = [d for d in engine.DIRECTIONS if engine.destination(state, d) in associations]
        return {"type": "move", "direction": rng.choice(hinted or list(engine.DIRECTIONS))}
    if phase == engine.Phase.SWAP and unused:
        removable = [f for f in state.board if not engine.field(state, f).start]
        actions = [f for f in removable if _kind_of(state, f) != "association" and not careless]
        added = [f for f in unused if _kind_of(state, f) == "association" and not careless] or list(unused)
        return {"type": "swap", "remove": rng.choice(actions or removable), "add": rng.choice(added)}
    if phase == engine.Phase.MOVE_TO:
        others = [p for p in associations if p != state.token] or [
            p for p in range(engine.BOARD_SIZE) if p != state.token
        ]
        return {"type": "move_to", "position": rng.choice(others)}
    if phase == engine.Phase.DUEL:
        opponents = [s for s in range(state.seats) if s != seat and s not in state.resigned]
        if not opponents:  # nobody left to duel: the deadline settles it
            return None
        weakest = min(state.scores[s] for s in opponents)
        chosen = rng.choice(opponents if careless else [s for s in opponents if state.scores[s] == weakest])
        everywhere = engine.association_positions(state)
        return {"type": "duel", "opponent": chosen, "position": rng.choice(everywhere or [None])}
    if phase == engine.Phase.REVIEW:
        return {"type": "confirm"}
    return None


def past_answers(task_id: int, lang: str, count: int) -> list[str]:
    """What people (not bots) answered most to this task card in games in ``lang``, most given first.

    Answers are counted by the key the game groups them by; each is given as its
    commonest spelling.
    """
    from think_alike.models import ThinkAlikeAnswer

    texts = (
        ThinkAlikeAnswer.objects.filter(round__task_id=task_id, round__game__options__lang=lang)
        .exclude(text="")
        .exclude(seat__user__is_bot=True)
        .order_by("-pk")
        .values_list("text", flat=True)[:PAST_ANSWERS_READ]
    )
    by_key: dict[str, Counter] = {}
    for text in texts:
        key = matching.normalize(text, lang)
        if key:
            by_key.setdefault(key, Counter())[text.strip()] += 1
    ranked = sorted(by_key.values(), key=lambda spellings: -sum(spellings.values()))
    # An answer one person gave once says little: it must have been given at least twice.
    return [spellings.most_common(1)[0][0] for spellings in ranked if sum(spellings.values()) >= 2][: count * 3]


def think_alike_bot_action(state, *, seat, rng, game=None) -> dict | None:
    """``GameKind.bot_action`` of Think Alike: at the level of the bot's seat."""
    level = DEFAULT_LEVEL
    if game is not None:
        from games.models import Seat

        level = Seat.objects.filter(game=game, position=seat).values_list("bot_level", flat=True).first() or level
    return bot_action(state, seat=seat, rng=rng, popular=past_answers, level=level)
