"""Storyteller's bots: clues and cards related through the words that describe the cards.

Every card has an alt text (what the picture shows) and tags. A bot weighs those
words by TF-IDF over the deck (a word on few cards says more than one on many) and
compares a clue with a card by the cosine of their weights. So it plays as the
rules ask:

- as storyteller, it picks a card and says one or two of its most telling words that
  a few other cards share too: a clue that every player finds scores nothing, so
  not the card's one unique word, and never the whole description;
- as another player, it hands in the card of its hand nearest the clue (a decoy);
- in the vote, it votes for the card on the table nearest the clue, never its own.

A clue without words (a drawing, a sound) gives it nothing to go on: it plays at
random then. The matcher is pure (``CardWords``): the benchmark plays it without a
database (``bench/bots.py``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

from storyteller.engine import rules as engine

# Words that say nothing about a picture.
STOP_WORDS = frozenset(
    """a an and are as at be by for from has have he her his in into is it its of off on onto or out over
    she so than that the their them there they this through to under up was were while with within without
    one two three small little big large huge tiny giant very just like if each all its own both other its""".split()
)
WORD = re.compile(r"[^\W\d_]+")
TAG_WEIGHT = 2  # a tag is what the card is about: it counts as two words of the description


def words(text: str) -> list[str]:
    """The text's meaningful words, lower case, a plural's s taken off (stairs, stair; glass stays)."""
    found = []
    for word in WORD.findall(text.lower()):
        if word in STOP_WORDS or len(word) < 3:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        found.append(word)
    return found


class CardWords:
    """TF-IDF weights of each card's words, over one deck's texts."""

    def __init__(self, texts: Mapping[int, tuple[str, str]]):
        """``texts``: card id -> (alt text, comma-separated tags)."""
        counts: dict[int, Counter] = {}
        for card, (alt, tags) in texts.items():
            bag = Counter(words(alt or ""))
            for tag in (tags or "").split(","):
                for word in words(tag):
                    bag[word] += TAG_WEIGHT
            counts[card] = bag
        self.cards = len(counts)
        self.df: Counter = Counter(word for bag in counts.values() for word in bag)
        self.vectors = {card: self._normalised(bag) for card, bag in counts.items()}

    def idf(self, word: str) -> float:
        return math.log((1 + self.cards) / (1 + self.df.get(word, 0))) + 1

    def _normalised(self, bag: Mapping[str, float]) -> dict[str, float]:
        vector = {word: count * self.idf(word) for word, count in bag.items()}
        norm = math.sqrt(sum(value * value for value in vector.values()))
        return {word: value / norm for word, value in vector.items()} if norm else {}

    def similarity(self, clue: str, card: int) -> float:
        query = self._normalised(Counter(word for word in words(clue) if word in self.df))
        vector = self.vectors.get(card, {})
        return sum(weight * vector.get(word, 0.0) for word, weight in query.items())

    def clue_for(self, hand, rng) -> tuple[int, str]:
        """A card of ``hand`` and a clue for it: telling words of the card that a few other cards share."""
        options = []
        for card in hand:
            vector = self.vectors.get(card, {})
            # Shared with 1 to about a tenth of the other cards: decoys can match it, so not everyone finds it.
            most = max(3, self.cards // 8)
            shared = [(weight, word) for word, weight in vector.items() if 2 <= self.df[word] <= most]
            ranked = sorted(shared or [(weight, word) for word, weight in vector.items()], reverse=True)
            if ranked:
                options.append((ranked[0][0] + rng.random() * 0.2, card, [word for _, word in ranked[:3]]))
        if not options:
            card = rng.choice(list(hand))
            return card, rng.choice(["dream", "journey", "secret", "home", "far away"])
        _, card, best = max(options)
        count = 1 if len(best) == 1 or rng.random() < 0.6 else 2
        return card, " ".join(rng.sample(best[: count + 1], count))

    def nearest(self, clue: str, cards, rng, k: int = 1) -> list[int]:
        """The ``k`` cards nearest the clue, the closest first; ties broken at random."""
        ranked = sorted(cards, key=lambda card: (self.similarity(clue, card), rng.random()), reverse=True)
        return ranked[:k]


def clue_text(state: engine.State) -> str:
    """The words of this round's clue ('' for a clue without words)."""
    clue = state.clue
    if isinstance(clue, Mapping):
        clue = clue.get("text")
    return clue if isinstance(clue, str) else ""


def bot_action(state: engine.State, *, seat: int, rng, matcher: CardWords) -> dict | None:
    """The action of a bot in ``seat``: the clue, the decoy, or the vote (None: nothing asked of it)."""
    if seat not in engine.to_act(state):
        return None
    hand = list(state.hands[seat])
    if state.phase == engine.Phase.CLUE:
        card, text = matcher.clue_for(hand, rng)
        return {"type": "clue", "card": card, "text": text[: engine.CLUE_MAX_LENGTH]}
    clue = clue_text(state)
    if state.phase == engine.Phase.SUBMIT:
        wanted = engine.cards_to_submit(state)
        cards = matcher.nearest(clue, hand, rng, wanted) if clue else rng.sample(hand, wanted)
        return {"type": "submit", "cards": cards}
    own = set(state.submissions.get(seat, ()))
    positions = {card: position for position, card in enumerate(state.table, 1) if card not in own}
    if not positions:
        return None
    if not clue:
        return {"type": "vote", "position": rng.choice(list(positions.values()))}
    return {"type": "vote", "position": positions[matcher.nearest(clue, list(positions), rng)[0]]}


def card_words_for_game(game) -> CardWords:
    """The matcher over the texts of the deck a game is dealt from."""
    from storyteller.models import Card

    rows = Card.objects.filter(deck_id=game.options.get("deck")).values_list("id", "alt_text", "tags")
    return CardWords({card: (alt, tags) for card, alt, tags in rows})


def storyteller_bot_action(state, *, seat, rng, game) -> dict | None:
    """``GameKind.bot_action`` of Storyteller."""
    return bot_action(state, seat=seat, rng=rng, matcher=card_words_for_game(game))
