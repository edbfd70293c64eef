"""Think Alike's answer grouping: precision and recall per language on the labelled pairs.

The pairs are ``think_alike/tests/grouping/<lang>.tsv`` (``same`` or ``apart``, two
answers as players type them), on which the grouping was tuned, and the held-out
``think_alike/tests/grouping/holdout/<lang>.tsv``, written afterwards, and
``think_alike/tests/grouping/holdout2/<lang>.tsv``, written for issue 32 before the
grouping was tuned on lexicons (half of them near misses), and
``think_alike/tests/grouping/holdout3/<lang>.tsv``, written for issue 32 before any
measurement and measured once without tuning on it (its misses were then fixed by the
general rules of brief 32d, so it is no longer a clean measurement: docs/playing/grouping.md). Each pair is
grouped as the game groups a round of two answers; "together" is a claim that they
are the same answer:

- precision: of the pairs grouped together, the share labelled ``same``;
- recall: of the pairs labelled ``same``, the share grouped together.

Also the time to group a round of ten answers (the labelled words, ten at a time),
with warm caches as in a running server. Pure Python, no database. Run from the
repository root:

    .venv/bin/python bench/grouping.py            # the table
    .venv/bin/python bench/grouping.py --wrong    # and every pair it gets wrong
    .venv/bin/python bench/grouping.py --json     # one JSON object
    .venv/bin/python bench/grouping.py --lexicons # memory and start-up of the lexicons

``--lexicons`` starts one fresh Python per language and measures what the first
grouping in that language costs: the time and the resident memory (RSS) that loading
simplemma's dictionary and wordfreq's list add, after importing the grouping code.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from think_alike.engine.matching import SUPPORTED, group_answers  # noqa: E402
from think_alike.tests.grouping import labelled  # noqa: E402


def round_time(lang: str, repeat: int = 3) -> float:
    """Milliseconds to group one round of ten answers, the median of ``repeat`` passes."""
    words = [text for pair in labelled.pairs(lang) for text in (pair.a, pair.b)]
    rounds = [words[i : i + 10] for i in range(0, len(words), 10)]
    for answers in rounds:  # warm the caches, as a server's are
        group_answers([(seat, 0, text) for seat, text in enumerate(answers)], lang)
    passes = []
    for _ in range(repeat):
        start = time.perf_counter()
        for answers in rounds:
            group_answers([(seat, 0, text) for seat, text in enumerate(answers)], lang)
        passes.append((time.perf_counter() - start) * 1000 / len(rounds))
    return sorted(passes)[len(passes) // 2]


_FIRST_USE = """
import json, sys, time
def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
start_rss, start = rss(), time.perf_counter()
from think_alike.engine import languages, matching
imported_rss, imported = rss(), time.perf_counter()
lang = sys.argv[1]
languages.lemma("x", lang)
lemmas_rss, lemmas = rss(), time.perf_counter()
languages.frequent_words(lang)
words_rss, words = rss(), time.perf_counter()
matching.group_answers([(0, 0, "a"), (1, 0, "b")], lang)
print(json.dumps({
    "import_ms": round((imported - start) * 1000), "import_mib": round(imported_rss - start_rss, 1),
    "lemmas_ms": round((lemmas - imported) * 1000), "lemmas_mib": round(lemmas_rss - imported_rss, 1),
    "words_ms": round((words - lemmas) * 1000), "words_mib": round(words_rss - lemmas_rss, 1),
    "words": len(languages.frequent_words(lang)),
}))
"""


def lexicon_costs(lang: str) -> dict:
    """The first grouping's cost in ``lang``, measured in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_USE, lang], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="list the pairs grouped wrongly")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--lexicons", action="store_true", help="measure the lexicons' memory and start-up")
    args = parser.parse_args()

    if args.lexicons:
        print("First use per language, each in a fresh process (RSS added, wall time)")
        print(f"{'lang':<5}{'import':>16}{'simplemma':>18}{'wordfreq':>18}{'words':>8}")
        for lang in SUPPORTED:
            c = lexicon_costs(lang)
            print(
                f"{lang:<5}{c['import_mib']:>7.1f} MiB {c['import_ms']:>4} ms"
                f"{c['lemmas_mib']:>8.1f} MiB {c['lemmas_ms']:>5} ms"
                f"{c['words_mib']:>8.1f} MiB {c['words_ms']:>5} ms{c['words']:>8}"
            )
        return 0

    results = {"labelled": {}, "holdout": {}, "holdout2": {}, "holdout3": {}}
    for lang in SUPPORTED:
        for name, folder in (
            ("labelled", labelled.HERE),
            ("holdout", labelled.HOLDOUT),
            ("holdout2", labelled.HOLDOUT2),
            ("holdout3", labelled.HOLDOUT3),
        ):
            score = labelled.score(lang, folder)
            results[name][lang] = {
                "pairs": score.pairs,
                "same": score.true_same + score.missed_same,
                "apart": score.pairs - score.true_same - score.missed_same,
                "precision": round(score.precision, 3),
                "recall": round(score.recall, 3),
                "wrong": [{"label": "same" if p.same else "apart", "a": p.a, "b": p.b} for p in score.wrong],
            }
        results["labelled"][lang]["ms_per_round_of_10"] = round(round_time(lang), 3)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
        return 0
    for name, title in (
        ("labelled", "The labelled pairs (think_alike/tests/grouping/<lang>.tsv; the tests hold them to the bar)"),
        ("holdout", "The held-out pairs (.../grouping/holdout/<lang>.tsv; written after tuning)"),
        ("holdout2", "The second held-out set (.../grouping/holdout2/<lang>.tsv; written before the lexicons)"),
        ("holdout3", "The third held-out set (.../grouping/holdout3/<lang>.tsv; measured once, then fixed)"),
    ):
        print(title)
        print(f"{'lang':<5}{'pairs':>6}{'same':>6}{'apart':>6}{'precision':>11}{'recall':>8}{'ms/round':>10}")
        for lang, row in results[name].items():
            ms = row.get("ms_per_round_of_10")
            print(
                f"{lang:<5}{row['pairs']:>6}{row['same']:>6}{row['apart']:>6}"
                f"{row['precision']:>11.3f}{row['recall']:>8.3f}{'' if ms is None else f'{ms:.3f}':>10}"
            )
            if args.wrong:
                for pair in row["wrong"]:
                    print(f"      {pair['label']:<6} {pair['a']!r} / {pair['b']!r}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
