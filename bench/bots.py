"""Bots measured on their aims: how often a bot storyteller's card is found, per language and level, and
whether hard bots beat easy ones, in both kinds. In-process, on the pure engines.

The bots here play the site's own strategy functions, with the same inputs the
site's services give them: ``storyteller.bots.bot_action`` over a ``DeckReading`` of
the built-in deck's alt texts in the game's language (what ``reading_for_game`` reads
from the cards' rows), each bot's reader seeded from its (here invented) user id and
its level, as ``storyteller_bot_action`` passes them; ``think_alike.bots.bot_action``
with the level likewise. Where the game allows no words, the bot's clue is its
drawing (``storyteller.bot_media.drawing``, checked by the same ``media_sniff`` the
upload service runs), or its sound. No database and no network.

1. Aims (Storyteller): for each language (en, da, sv, nb, fi, fr) and level, games of
   4 bots of that level until at least ``--rounds`` rounds are told (by a bot, all of
   them): how often a voter finds the storyteller's card, and the share of rounds
   found by some but not all voters (the storyteller scores only then). The aims:
   35-65% found, and at least half of the rounds some-but-not-all.
2. Levels: ``--games`` games of 2 hard and 2 easy bots (seats shuffled) of each kind:
   win rates by level (ties share the win; an even match is 50%).
3. Lost turns: every time a bot was asked to act and had nothing legal to offer (or its
   action was refused) counts as a turn lost to the deadline; also in games whose clue
   modes leave out words (drawing only, sound only).

Run from the repository root:

    .venv/bin/python bench/bots.py                  # everything
    .venv/bin/python bench/bots.py --rounds 50 --games 40 --seed 7
    .venv/bin/python bench/bots.py --only aims --lang fi
"""

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("FABULA_VAR_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "fabula-bench-bots"))

import django  # noqa: E402

django.setup()  # the kinds are registered by their apps; no database is touched

from games import kinds  # noqa: E402
from storyteller import bot_media  # noqa: E402
from storyteller import bots as storyteller_bots  # noqa: E402
from storyteller.engine import rules as st  # noqa: E402
from storyteller.services.media import media_sniff  # noqa: E402
from think_alike import bots as think_alike_bots  # noqa: E402
from think_alike.engine import rules as ta  # noqa: E402

SEATS = 4
LANGS = storyteller_bots.LANGS
LEVELS = storyteller_bots.LEVELS
DECK = json.loads((ROOT / "storyteller" / "decks" / "builtin" / "dream.json").read_text(encoding="utf-8"))


TAGS = {tag for card in DECK["cards"] for tag in card.get("tags", [])}


def deck_texts(lang: str) -> dict[int, str]:
    """The built-in deck's alt texts in ``lang``, as ``reading_for_game`` reads them from the cards' rows."""
    return {
        n: ((card.get("alt_texts") or {}).get(lang) if lang != "en" else None) or card["alt"]
        for n, card in enumerate(DECK["cards"])
    }


class Lost:
    """Bot turns lost to the deadline: asked, and nothing legal given."""

    def __init__(self):
        self.asked = 0
        self.lost = 0


def _storyteller_game(rng, deck, levels, seeds, *, modes=("words",), lost=None, rounds=None):
    """One game of bots to the end; ``rounds`` (a list) gets (voters, found) for each round told."""
    state = st.new_game(seats=SEATS, deck=list(deck.texts), rng=rng)
    media_id = 0
    while state.phase != st.Phase.FINISHED:
        seat = rng.choice(sorted(st.to_act(state)))
        action = storyteller_bots.bot_action(state, seat=seat, rng=rng, deck=deck, seed=seeds[seat], level=levels[seat])
        if lost is not None:
            lost.asked += 1
        if action is not None and action["type"] == "clue" and "words" not in modes:
            data = bot_media.drawing(action["card"], deck.texts[action["card"]]) if "drawing" in modes else None
            data = data or bot_media.sound(action["card"], deck.texts[action["card"]])
            media_sniff(data)  # the upload service's check: raises for what it would refuse
            media_id += 1
            action = {"type": "clue", "card": action["card"], "text": "", "media": media_id}
        try:
            if action is None:
                raise st.RuleError("nothing", "no action")
            before = state
            state = st.apply(state, seat=seat, action=action, rng=rng)
        except st.RuleError:
            if lost is not None:
                lost.lost += 1
            state = st.apply(
                state, seat=seat, action=kinds.get("storyteller").sample_action(state, seat=seat, rng=rng), rng=rng
            )
            continue
        if rounds is not None and len(state.history) > len(before.history):
            result = state.history[-1]
            if not result.skipped:
                teller_card = result.storyteller_card
                voters = list(result.votes)
                found = sum(1 for position in result.votes.values() if result.table[position - 1] == teller_card)
                rounds.append((len(voters), found, levels[result.storyteller]))
    return state


def aims(lang: str, level: str, wanted: int, rng, *, modes=("words",)) -> dict:
    deck = storyteller_bots.DeckReading(deck_texts(lang), lang, TAGS)
    rounds: list = []
    lost = Lost()
    games = 0
    while len(rounds) < wanted:
        seeds = [rng.randrange(1, 10**6) for _ in range(SEATS)]
        _storyteller_game(rng, deck, [level] * SEATS, seeds, modes=modes, lost=lost, rounds=rounds)
        games += 1
    votes = sum(voters for voters, _, _ in rounds)
    found = sum(found for _, found, _ in rounds)
    some = sum(1 for voters, found, _ in rounds if 0 < found < voters)
    return {
        "rounds": len(rounds),
        "games": games,
        "found": found / votes if votes else 0.0,
        "some_not_all": some / len(rounds) if rounds else 0.0,
        "nobody": sum(1 for _, found, _ in rounds if found == 0) / len(rounds),
        "everybody": sum(1 for voters, found, _ in rounds if found == voters) / len(rounds),
        "asked": lost.asked,
        "lost": lost.lost,
    }


def _think_alike_game(rng, fields, tasks, levels, lang, lost):
    state = ta.new_game(seats=SEATS, rng=rng, options={"lang": lang}, fields=fields, tasks=tasks)
    while state.phase != ta.Phase.FINISHED:
        seat = rng.choice(sorted(ta.to_act(state)))
        action = think_alike_bots.bot_action(state, seat=seat, rng=rng, level=levels[seat])
        lost.asked += 1
        try:
            if action is None:
                raise ta.RuleError("nothing", "no action")
            state = ta.apply(state, seat=seat, action=action, rng=rng)
        except ta.RuleError:
            lost.lost += 1
            state = ta.apply(
                state, seat=seat, action=kinds.get("think_alike").sample_action(state, seat=seat, rng=rng), rng=rng
            )
    return state


def think_alike_content(lang: str):
    content = ROOT / "think_alike" / "content"
    fields = [
        {"id": n, "kind": f["kind"], "text": f["text"][lang], "bonus": f.get("bonus"), "start": f.get("start")}
        for n, f in enumerate(json.loads((content / "fields.json").read_text(encoding="utf-8")), start=1)
    ]
    tasks = [
        {"id": n, "text": t["text"][lang], "answers": t["answers"]}
        for n, t in enumerate(json.loads((content / "tasks.json").read_text(encoding="utf-8")), start=1)
    ]
    return fields, tasks


def levels_match(kind: str, games: int, rng, lang: str = "en") -> dict:
    """``games`` games of 2 hard and 2 easy bots, seats shuffled: each level's win rate and average score."""
    wins: dict = defaultdict(float)
    scores: dict = defaultdict(list)
    lost = Lost()
    if kind == "storyteller":
        deck = storyteller_bots.DeckReading(deck_texts(lang), lang, TAGS)
    else:
        fields, tasks = think_alike_content(lang)
    for _ in range(games):
        levels = ["hard", "hard", "easy", "easy"]
        rng.shuffle(levels)
        if kind == "storyteller":
            seeds = [rng.randrange(1, 10**6) for _ in range(SEATS)]
            state = _storyteller_game(rng, deck, levels, seeds, lost=lost)
        else:
            state = _think_alike_game(rng, fields, tasks, levels, lang, lost)
        winners = list(kinds.get(kind).engine.winners(state))
        for seat, level in enumerate(levels):
            scores[level].append(state.scores[seat])
            if seat in winners:
                wins[level] += 1 / len(winners)
    return {
        "games": games,
        "lost": lost.lost,
        "asked": lost.asked,
        "levels": {
            level: {"win_rate": wins[level] / games, "score": sum(scores[level]) / len(scores[level])}
            for level in ("hard", "easy")
        },
    }


# --- through the site's services, in a throw-away database ---------------------------------------


class _Refusals:
    """Counts the bots app's warnings: a strategy's action refused (a random legal one is tried then)."""

    def __init__(self):
        import logging

        self.count = 0
        outer = self

        class Handler(logging.Handler):
            def emit(self, record):
                outer.count += 1

        self.handler = Handler(logging.WARNING)
        logging.getLogger("bots").addHandler(self.handler)


def site(langs, levels, rounds_wanted: int, modes_list, rng) -> None:
    """Whole games of 4 bots through the site: ``game_create``, ``game_bot_add`` (the level stored on the seat),
    and every move by ``bots.services.bot_turn_play`` (its task, run at once as the test settings run it), the
    strategy reading the cards' rows through ``reading_for_game``, drawings and sounds uploaded through
    ``clue_media_upload``; a throw-away test database (PostgreSQL if DATABASE_URL says so, else SQLite)."""
    import logging
    import tempfile

    from django.conf import settings
    from django.db import connection

    from bots.services import bot_create, game_bot_add
    from games.models import Game, Move, Seat
    from games.services.games import game_create
    from storyteller.models import Card, Deck

    logging.getLogger("celery").setLevel(logging.WARNING)  # not a line per task
    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="fabula-bench-bots-media-")
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    refusals = _Refusals()
    try:
        deck = Deck.objects.create(slug="bench-dream", name="Dreams (bench)")
        Card.objects.bulk_create(
            Card(
                deck=deck,
                image=f"cards/bench/{n:03}.webp",
                alt_text=card["alt"],
                alt_texts=card.get("alt_texts") or {},
                tags=",".join(card.get("tags", [])),
            )
            for n, card in enumerate(DECK["cards"])
        )
        print(f"\nThrough the site's services ({connection.vendor}): 4 bots a game, >= {rounds_wanted} rounds per row")
        print(
            f"  {'lang':<5}{'level':<8}{'modes':<15}{'rounds':>7}{'found':>8}{'some/not all':>14}"
            f"{'unfinished':>11}{'lost turns':>11}{'refused':>8}{'s':>7}"
        )
        for lang in langs:
            for level in levels:
                for modes in modes_list:
                    started = time.perf_counter()
                    rounds, unfinished, lost, refused_before = [], 0, 0, refusals.count
                    while len(rounds) < rounds_wanted:
                        creator = bot_create()
                        game = game_create(
                            creator=creator,
                            max_seats=SEATS,
                            options={"deck": deck.pk, "lang": lang, "clue_modes": list(modes)},
                        )
                        Seat.objects.filter(game=game, user=creator).update(bot_level=level)
                        for _ in range(SEATS - 1):
                            game_bot_add(game_id=game.pk, user=creator, level=level)
                        game.refresh_from_db()
                        unfinished += game.status != Game.Status.FINISHED
                        lost += Move.objects.filter(game=game, by_timeout=True).count()
                        if game.status != Game.Status.FINISHED and game.state:
                            lost += len(st.to_act(st.from_dict(game.state)))  # stalled: they wait for a deadline
                        state = st.from_dict(game.state)
                        for result in state.history:
                            if not result.skipped:
                                found = sum(
                                    1
                                    for pos in result.votes.values()
                                    if result.table[pos - 1] == result.storyteller_card
                                )
                                rounds.append((len(result.votes), found))
                    votes = sum(voters for voters, _ in rounds)
                    found = sum(found for _, found in rounds)
                    some = sum(1 for voters, found in rounds if 0 < found < voters)
                    print(
                        f"  {lang:<5}{level:<8}{'+'.join(modes):<15}{len(rounds):>7}"
                        f"{(found / votes if votes else 0):>8.0%}{some / len(rounds):>14.0%}{unfinished:>11}{lost:>11}"
                        f"{refusals.count - refused_before:>8}{time.perf_counter() - started:>7.1f}"
                    )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def one_among_normal(kind: str, level: str, games: int, rng, lang: str = "en") -> dict:
    """``games`` games of one bot of ``level`` among 3 normal bots (its seat drawn): its win rate (even: 25%)."""
    wins, scores, lost = 0.0, [], Lost()
    if kind == "storyteller":
        deck = storyteller_bots.DeckReading(deck_texts(lang), lang, TAGS)
    else:
        fields, tasks = think_alike_content(lang)
    for _ in range(games):
        levels = ["normal"] * SEATS
        seat = rng.randrange(SEATS)
        levels[seat] = level
        if kind == "storyteller":
            seeds = [rng.randrange(1, 10**6) for _ in range(SEATS)]
            state = _storyteller_game(rng, deck, levels, seeds, lost=lost)
        else:
            state = _think_alike_game(rng, fields, tasks, levels, lang, lost)
        winners = list(kinds.get(kind).engine.winners(state))
        scores.append(state.scores[seat])
        if seat in winners:
            wins += 1 / len(winners)
    return {"win_rate": wins / games, "score": sum(scores) / len(scores), "lost": lost.lost, "asked": lost.asked}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="bot-told rounds per language and level")
    parser.add_argument("--games", type=int, default=100, help="games of hard against easy bots, per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", choices=LANGS, action="append")
    parser.add_argument("--level", choices=LEVELS, action="append")
    parser.add_argument("--only", choices=["aims", "levels", "modes", "site"], action="append")
    parser.add_argument("--site-rounds", type=int, default=40, help="--only site: rounds per row through the site")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    parts = args.only or ["aims", "levels", "modes"]  # "site" only when asked: it is slower
    langs = args.lang or list(LANGS)
    if "aims" in parts:
        print(
            f"Storyteller, 4 bots of one level, >= {args.rounds} bot-told rounds per row (aims: 35-65% found;"
            " some-but-not-all >= 50%)"
        )
        print(
            f"  {'lang':<5}{'level':<8}{'rounds':>7}{'found':>8}{'some/not all':>14}{'nobody':>8}{'all':>6}"
            f"{'lost turns':>12}{'s':>6}"
        )
        for lang in langs:
            for level in args.level or LEVELS:
                started = time.perf_counter()
                r = aims(lang, level, args.rounds, rng)
                print(
                    f"  {lang:<5}{level:<8}{r['rounds']:>7}{r['found']:>8.0%}{r['some_not_all']:>14.0%}"
                    f"{r['nobody']:>8.0%}{r['everybody']:>6.0%}{r['lost']:>5}/{r['asked']:<6}"
                    f"{time.perf_counter() - started:>6.1f}"
                )
    if "levels" in parts:
        print(f"\nHard against easy: {args.games} games of 2 hard + 2 easy bots per row (an even match: 50%)")
        print(
            f"  {'kind':<13}{'lang':<5}{'hard wins':>10}{'easy wins':>10}{'hard pts':>9}{'easy pts':>9}"
            f"{'lost turns':>12}"
        )
        for kind in ("storyteller", "think_alike"):
            for lang in langs if kind == "storyteller" else langs[:1] + [lang for lang in langs[1:] if lang == "fi"]:
                r = levels_match(kind, args.games, rng, lang)
                hard, easy = r["levels"]["hard"], r["levels"]["easy"]
                print(
                    f"  {kind:<13}{lang:<5}{hard['win_rate']:>10.0%}{easy['win_rate']:>10.0%}"
                    f"{hard['score']:>9.1f}{easy['score']:>9.1f}{r['lost']:>6}/{r['asked']:<6}"
                )
        print(f"\nOne bot of each level among 3 normal bots, {args.games} games a row (an even match: 25%)")
        print(f"  {'kind':<13}{'lang':<5}{'level':<8}{'wins':>6}{'points':>8}{'lost turns':>12}")
        for kind in ("storyteller", "think_alike"):
            for level in LEVELS:
                r = one_among_normal(kind, level, args.games, rng, langs[0])
                print(
                    f"  {kind:<13}{langs[0]:<5}{level:<8}{r['win_rate']:>6.0%}{r['score']:>8.1f}"
                    f"{r['lost']:>6}/{r['asked']:<6}"
                )
    if "modes" in parts:
        print("\nStoryteller games whose clue modes leave out words (4 normal bots; the clue a drawing or a sound)")
        for modes in (("drawing",), ("sound",), ("drawing", "sound")):
            lost = Lost()
            for _ in range(5):
                deck = storyteller_bots.DeckReading(deck_texts("en"), "en", TAGS)
                seeds = [rng.randrange(1, 10**6) for _ in range(SEATS)]
                _storyteller_game(rng, deck, ["normal"] * SEATS, seeds, modes=modes, lost=lost)
            print(f"  {'+'.join(modes):<16} 5 games: {lost.lost} bot turns lost of {lost.asked}")
    if "site" in parts:
        modes_list = [("words",)] if args.only != ["site"] or args.lang else [("words",), ("drawing",), ("sound",)]
        site(langs, args.level or ["normal"], args.site_rounds, modes_list, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
