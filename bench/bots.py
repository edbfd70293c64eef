"""Bots against random players: 200 simulated games of each kind, in-process, on the pure engines.

Each game seats 4: 2 "good" bots (``--good`` 1 to 3) (the kinds' own strategies, ``storyteller.bots`` and
``think_alike.bots``, as the site plays them) and 2 random players (the kinds'
``sample_action``, a legal action drawn at random: what the conformance test plays),
their seats shuffled every game. Whoever the game waits for acts (in the first
Storyteller round, one of those awaited at random gives the first clue). It reports,
per kind and per player type: average final score, average points per round, and
win rate (the share of the games won by a player of that type: ties share the win;
with 2 and 2, an even game would give each type 50%).

- Storyteller: the built-in illustrated deck (84 cards, their alt texts and tags).
- Think Alike: the built-in fields and task cards in English, a random board, the
  seed's stop (players x 6 points). Its "random" players play every decision at
  random but answer as people might (``Crowd``): each card has 8 likely answers, the
  first the likeliest, and they draw one. The good bots read what the site would
  have on record, 30 earlier people's answers to each card, as ``past_answers`` gives
  them, and answer the commonest. ``--no-crowd``: random players answer one of
  ``sample_action``'s four words and the good bots have no past answers (so they
  answer from their word-list fallback, agreeing with each other).

No database and no network: the engines and the strategies are pure. Run from the
repository root:

    .venv/bin/python bench/bots.py            # 200 games of each kind
    .venv/bin/python bench/bots.py --games 50 --seed 7
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("FABULA_VAR_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "fabula-bench-bots"))

import django  # noqa: E402

django.setup()  # the kinds (their random players) are registered by their apps; no database is touched

from games import kinds  # noqa: E402
from storyteller import bots as storyteller_bots  # noqa: E402
from storyteller.engine import rules as storyteller_engine  # noqa: E402
from think_alike import bots as think_alike_bots  # noqa: E402
from think_alike.engine import rules as think_alike_engine  # noqa: E402

SEATS = 4
GOOD, RANDOM = "good bot", "random"


def _storyteller_game(rng, matcher, deck, types):
    kind = kinds.get("storyteller")
    state = storyteller_engine.new_game(seats=SEATS, deck=deck, rng=rng)
    while state.phase != storyteller_engine.Phase.FINISHED:
        seat = rng.choice(sorted(storyteller_engine.to_act(state)))
        if types[seat] == GOOD:
            action = storyteller_bots.bot_action(state, seat=seat, rng=rng, matcher=matcher)
        else:
            action = kind.sample_action(state, seat=seat, rng=rng)
        state = storyteller_engine.apply(state, seat=seat, action=action, rng=rng)
    return state


def _think_alike_game(rng, fields, tasks, types, crowd):
    kind = kinds.get("think_alike")
    state = think_alike_engine.new_game(seats=SEATS, rng=rng, options={}, fields=fields, tasks=tasks)
    while state.phase != think_alike_engine.Phase.FINISHED:
        seat = rng.choice(sorted(think_alike_engine.to_act(state)))
        if types[seat] == GOOD:
            popular = crowd.popular if crowd else (lambda task_id, lang, count: ())
            action = think_alike_bots.bot_action(state, seat=seat, rng=rng, popular=popular)
        elif crowd and state.phase == think_alike_engine.Phase.ANSWER:
            task = think_alike_engine.task(state, state.current.task)
            action = {"type": "answer", "answers": crowd.answers(task.id, task.answers, rng)}
        else:
            action = kind.sample_action(state, seat=seat, rng=rng)
        state = think_alike_engine.apply(state, seat=seat, action=action, rng=rng)
    return state


class Crowd:
    """People as the simulation imagines them: each task card has 8 likely answers, the first most
    likely (weights 1, 1/2, ... 1/8); a person draws from them. ``popular`` is what the site would
    have on record for a card: 30 earlier people's answers, counted (a noisy view of the real taste)."""

    def __init__(self, tasks, rng):
        words = sorted(think_alike_bots.word_list("en")[0])
        self.taste = {task["id"]: rng.sample(words, 8) for task in tasks}
        self.weights = [1 / (rank + 1) for rank in range(8)]
        self.past = {}
        for task in tasks:
            drawn = rng.choices(self.taste[task["id"]], self.weights, k=30)
            self.past[task["id"]] = [word for word, _ in Counter(drawn).most_common()]

    def answers(self, task_id, count, rng):
        return rng.sample(self.taste[task_id], count) if count > 1 else rng.choices(self.taste[task_id], self.weights)

    def popular(self, task_id, lang, count):
        return self.past[task_id]


def _rounds(state) -> int:
    return len(state.history)


def run(kind: str, games: int, seed: int, good: int = 2, crowd: bool = True) -> dict:
    rng = random.Random(seed)
    if kind == "storyteller":
        manifest = json.loads((ROOT / "storyteller" / "decks" / "dream.json").read_text(encoding="utf-8"))
        texts = {n: (card["alt"], ", ".join(card.get("tags", []))) for n, card in enumerate(manifest["cards"])}
        matcher = storyteller_bots.CardWords(texts)
        deck = list(texts)

        def play(types):
            return _storyteller_game(rng, matcher, deck, types)
    else:
        content = ROOT / "think_alike" / "content"
        fields = [
            {"id": n, "kind": f["kind"], "text": f["text"]["en"], "bonus": f.get("bonus"), "start": f.get("start")}
            for n, f in enumerate(json.loads((content / "fields.json").read_text(encoding="utf-8")), start=1)
        ]
        tasks = [
            {"id": n, "text": t["text"]["en"], "answers": t["answers"]}
            for n, t in enumerate(json.loads((content / "tasks.json").read_text(encoding="utf-8")), start=1)
        ]

        people = Crowd(tasks, rng) if crowd else None

        def play(types):
            return _think_alike_game(rng, fields, tasks, types, people)

    scores, per_round, wins, seats_of = defaultdict(list), defaultdict(list), defaultdict(float), defaultdict(int)
    started = time.perf_counter()
    for _ in range(games):
        types = [GOOD] * good + [RANDOM] * (SEATS - good)
        rng.shuffle(types)
        state = play(types)
        winners = list(kinds.get(kind).engine.winners(state))
        rounds = max(1, _rounds(state))
        for seat, kind_of_player in enumerate(types):
            scores[kind_of_player].append(state.scores[seat])
            per_round[kind_of_player].append(state.scores[seat] / rounds)
            seats_of[kind_of_player] += 1
            if seat in winners:
                wins[kind_of_player] += 1 / len(winners)
    seconds = time.perf_counter() - started
    return {
        "kind": kind,
        "games": games,
        "seconds": seconds,
        "types": {
            kind_of_player: {
                "score": statistics.mean(scores[kind_of_player]),
                "per_round": statistics.mean(per_round[kind_of_player]),
                "win_rate": wins[kind_of_player] / games,
            }
            for kind_of_player in (GOOD, RANDOM)
        },
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--good", type=int, default=2, choices=[1, 2, 3], help="good bots of the 4 seats")
    parser.add_argument("--kind", choices=["storyteller", "think_alike"], action="append")
    parser.add_argument("--no-crowd", action="store_true", help="Think Alike: random answers, no past answers")
    args = parser.parse_args(argv)
    for kind in args.kind or ["storyteller", "think_alike"]:
        result = run(kind, args.games, args.seed, args.good, crowd=not args.no_crowd)
        print(
            f"{kind}: {result['games']} games of {args.good} good bot(s) + {SEATS - args.good} random player(s)"
            f" ({result['seconds']:.1f} s)"
        )
        print(f"  {'player':<10} {'avg score':>10} {'pts/round':>10} {'wins':>7}")
        for name, figures in result["types"].items():
            print(f"  {name:<10} {figures['score']:>10.1f} {figures['per_round']:>10.2f} {figures['win_rate']:>7.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
