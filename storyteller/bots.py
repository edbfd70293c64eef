"""Storyteller's bots: they read the cards' alt texts in the game's language, each in its own way.

Every card has an alt text (what the picture shows), translated into the site's
languages. A bot reads a deck in the game's language (``DeckReading``): each card's
content words (the language's stop words aside), by their Snowball stems and by
their character 4-grams (so a Finnish or Swedish compound, "fullmåne", is near
"måne"), weighed by TF-IDF over the deck. A clue is read the same way; its
similarity to a card is a mix of the cosines of both.

Each bot is its own reader (``Reader``), drawn from a seed (the bot's user id): its
own mix of whole words and word parts, and its own attention to each word (some
words strike it more than others). And it is not sure: it picks by chance weighted by
similarity (a softmax), at a temperature its level sets (easy: loose, hard: sharp).
So two bots do not always read a clue alike, as two people do not.

- As storyteller it considers, for each card of its hand, clues drawn from the card's
  alt text in the game's language (a content word, or a short fragment of two or
  three words of it) and estimates, as it reads them, the chance that a voter finds
  the card among decoys that the others would hand in (the likeliest of a hand of
  the deck's other cards). It aims at a clue some find and others do not: the
  chance that some but not all of the voters find it is what it maximises (hard),
  weighs by (normal) or barely minds (easy). Never a string of tags: a clue is the
  language's own words, as they stand in the card's alt text.
- As another player it hands in the card of its hand it reads nearest the clue (a
  decoy), by chance at its temperature.
- In the vote it votes for a card on the table it reads near the clue, never its own.

A clue without words (a drawing, a sound) gives it nothing to read: it plays at
random then. Where the game's clue modes leave out words, it draws its clue (a
picture made from the card, ``storyteller.bot_media``) or, where only sound is
allowed, records a short one, through the same upload service as a person.

The strategy is pure (``bot_action`` over a ``DeckReading``): the benchmark plays it
without a database (``bench/bots.py``); the site builds the reading from the deck's
cards (``reading_for_game``).
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import snowballstemmer

from storyteller.engine import rules as engine

LANGS = ("en", "da", "sv", "nb", "fi", "fr")
DEFAULT_LANG = "en"
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"

# How sure a reader is, by level: the softmax temperature over similarities (cosines, 0 to 1).
TEMPERATURE = {"easy": 0.5, "normal": 0.12, "hard": 0.05}
# How much of the time an easy bot's choice is a plain guess, by level (a distracted player).
DISTRACTED = {"easy": 0.3, "normal": 0.0, "hard": 0.0}
# What the storyteller assumes of its voters when it weighs a clue: sharp readers (sharper than a hard bot),
# for whom an obvious clue is obvious; it errs toward the ambiguous, as the aims want.
VOTER_TEMPERATURE = 0.035

_STEMMERS = {"en": "english", "da": "danish", "sv": "swedish", "nb": "norwegian", "fi": "finnish", "fr": "french"}

# Words that say nothing about a picture, per language: articles, pronouns, prepositions,
# auxiliaries, numbers and sizes (every picture has something small or huge in it).
_STOP_TEXT = {
    "en": """a an and are as at be been by for from has have he her his in into is it its of off on onto or out
        over she so than that the their them there they this through to under up was were while with within
        without one two three small little big large huge tiny giant very just like if each all own both other
        not no which who whose where what when how above below behind beside between toward towards across along
        around against among upon instead something someone itself""",
    "da": """en et og i på af til med som der den det de er var har have over under mod fra ud op ned ind om for
        at sig sin sit sine hans hendes dens dets deres man men eller så hvor hvis når lille små stor store
        kæmpestor kæmpestore meget helt kun også bag foran mellem ved langs rundt gennem uden ikke nogle hver
        alle to tre hen hinanden selv hvis hvilken noget nogen""",
    "sv": """en ett och i på av till med som där den det de är var har över under mot från ut upp ner in om för
        att sig sin sitt sina hans hennes dess deras man men eller så hur när liten lilla litet små stor stort
        stora enorm enorma mycket helt bara också bakom framför mellan vid längs runt genom utan inte några varje
        alla två tre ur ovanför vore varandra själv något någon""",
    "nb": """en et ei og i på av til med som der den det de er var har over under mot fra ut opp ned inn om for
        å at seg sin sitt sine hans hennes dens dets deres man men eller så hvor hvis når liten lite lille små
        stor stort store enorm enorme svært veldig helt bare også bak foran mellom ved langs rundt gjennom uten
        ikke noen hver alle to tre hverandre selv noe""",
    "fi": """ja tai on ovat oli olivat se ne sen niiden sitä niitä joka jotka jonka joiden jota joita kuin kun
        niin myös vain hyvin aivan pieni pienen pientä pienet pieniä suuri suuren suurta suuret valtava valtavan
        valtavaa iso ison isoa yksi kaksi kolme sekä mutta ei eikä jo nyt hänen heidän yllä alla päällä kohti
        ympärillä keskellä läpi vieressä takana edessä välissä kanssa ilman itse oma omat jossa joissa jolla
        joilla sisällä ulos alas ylös""",
    "fr": """un une des le la les l de du d au aux et ou en dans sur sous par pour avec sans vers entre derrière
        devant chez est sont était étaient ont a qui que qu dont où se sa son ses leur leurs il elle ils elles on
        ce cet cette ces comme si très tout toute tous toutes petit petite petits petites grand grande grands
        grandes immense immenses énorme énormes plus moins ne pas y deux trois dessus dessous côté autour travers
        n s c j m t lui elle même""",
}
STOP_WORDS = {lang: frozenset(words.split()) for lang, words in _STOP_TEXT.items()}

WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
PUNCTUATION = re.compile(r"[,;:.!?()«»“”\"]")
MIN_WORD = 3
GRAM = 4  # character n-grams of a word, with its edges marked: "moon" -> "_moo", "moon", "oon_"
MAX_FRAGMENT = 3  # words in a clue at most


@cache
def _stemmer(lang: str):
    return snowballstemmer.stemmer(_STEMMERS.get(lang, "english"))


def lang_of(lang: str | None) -> str:
    return lang if lang in LANGS else DEFAULT_LANG


def level_of(level: str | None) -> str:
    return level if level in LEVELS else DEFAULT_LEVEL


def is_content(word: str, lang: str) -> bool:
    return len(word) >= MIN_WORD and word not in STOP_WORDS[lang]


def stem(word: str, lang: str) -> str:
    return _stemmer(lang).stemWord(word)


def tokens(text: str, lang: str) -> list[str]:
    """The text's words, lower case, in order (stop words too: fragments keep them)."""
    return WORD.findall(text.lower())


def content_stems(text: str, lang: str) -> list[str]:
    return [stem(word, lang) for word in tokens(text, lang) if is_content(word, lang)]


def grams(text: str, lang: str) -> list[str]:
    found = []
    for word in tokens(text, lang):
        if is_content(word, lang):
            marked = f"_{word}_"
            found.extend(marked[n : n + GRAM] for n in range(len(marked) - GRAM + 1))
    return found


def _unit(vector: Mapping[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(value * value for value in vector.values()))
    return {key: value / norm for key, value in vector.items()} if norm else {}


def _seeded(*parts) -> random.Random:
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def candidate_clues(text: str, lang: str) -> list[str]:
    """Clues a storyteller may draw from a card's alt text: each content word, and each short fragment of it
    (two or three words in a row within a clause, beginning and ending on a content word), as written."""
    found: list[str] = []
    seen: set[str] = set()
    for clause in PUNCTUATION.split(text.lower()):
        words = tokens(clause, lang)
        for start, first in enumerate(words):
            if not is_content(first, lang):
                continue
            for size in range(1, MAX_FRAGMENT + 1):
                piece = words[start : start + size]
                if len(piece) < size or not is_content(piece[-1], lang):
                    continue
                clue = " ".join(piece)
                if clue not in seen and len(piece) < len(words):
                    seen.add(clue)
                    found.append(clue)
    return found


def is_tag_string(clue: str, tags: frozenset[str]) -> bool:
    """Whether a clue of two or more words is nothing but tags side by side (what the bots once said)."""
    words = clue.split()
    if len(words) < 2 or not tags:
        return False

    def split(rest: list[str], parts: int) -> bool:
        if not rest:
            return parts >= 2
        return any(" ".join(rest[:n]) in tags and split(rest[n:], parts + 1) for n in range(1, len(rest) + 1))

    return split(words, 0)


class DeckReading:
    """One deck's cards read in one language: each card's TF-IDF weights of stems and of 4-grams."""

    def __init__(self, texts: Mapping[int, str], lang: str = DEFAULT_LANG, tags: Iterable[str] = ()):
        """``texts``: card id -> the card's alt text in ``lang``; ``tags``: the deck's tags (a clue of two or
        more words is never just tags side by side, even where the alt text says them so)."""
        self.lang = lang_of(lang)
        self.tags = frozenset(tag.strip().lower() for tag in tags if tag.strip())
        self.texts = dict(texts)
        self.cards = sorted(self.texts)
        self.stems = {card: Counter(content_stems(text, self.lang)) for card, text in self.texts.items()}
        gram_bags = {card: Counter(grams(text, self.lang)) for card, text in self.texts.items()}
        self.stem_df = Counter(key for bag in self.stems.values() for key in bag)
        self.gram_df = Counter(key for bag in gram_bags.values() for key in bag)
        self.gram_vectors = {card: _unit(self._weighed(bag, self.gram_df)) for card, bag in gram_bags.items()}
        self.gram_postings = _postings(self.gram_vectors)
        self._candidates: dict[int, list[str]] = {}
        self._readers: dict[int, Reader] = {}

    def idf(self, key: str, df: Counter) -> float:
        return math.log((1 + len(self.cards)) / (1 + df.get(key, 0))) + 1

    def _weighed(self, bag: Mapping[str, float], df: Counter) -> dict[str, float]:
        return {key: count * self.idf(key, df) for key, count in bag.items()}

    def candidates(self, card: int) -> list[str]:
        if card not in self._candidates:
            self._candidates[card] = [
                clue
                for clue in candidate_clues(self.texts.get(card, ""), self.lang)
                if not is_tag_string(clue, self.tags)
            ]
        return self._candidates[card]

    def reader(self, seed: int) -> Reader:
        """The reader a seed (a bot's user id) makes: the same every time for the same seed."""
        if seed not in self._readers:
            self._readers[seed] = Reader(self, seed)
        return self._readers[seed]


def _postings(vectors: Mapping[int, Mapping[str, float]]) -> dict[str, list[tuple[int, float]]]:
    postings: dict[str, list[tuple[int, float]]] = {}
    for card, vector in vectors.items():
        for key, weight in vector.items():
            postings.setdefault(key, []).append((card, weight))
    return postings


class Reader:
    """How one bot reads: its mix of whole words and word parts, and its attention to each word."""

    def __init__(self, deck: DeckReading, seed: int):
        self.deck = deck
        self.seed = seed
        rng = _seeded("reader", seed)
        self.word_share = rng.uniform(0.35, 0.85)  # the rest is word parts (4-grams)
        self.spread = rng.uniform(0.4, 0.9)  # how unevenly its attention falls on words
        self.vectors = {
            card: _unit({key: weight * self.attention(key) for key, weight in deck._weighed(bag, deck.stem_df).items()})
            for card, bag in deck.stems.items()
        }
        self.postings = _postings(self.vectors)

    def attention(self, key: str) -> float:
        """How much a word strikes this reader (log-normal around 1, the same every time for the same word)."""
        return math.exp(self.spread * _seeded("attention", self.seed, key).gauss(0, 1))

    def similarities(self, clue: str) -> dict[int, float]:
        """The clue's similarity to every card of the deck, as this reader reads it (0: nothing in common)."""
        deck = self.deck
        lang = deck.lang
        word_query = _unit(
            {
                key: count * deck.idf(key, deck.stem_df) * self.attention(key)
                for key, count in Counter(content_stems(clue, lang)).items()
                if key in deck.stem_df
            }
        )
        gram_query = _unit(
            {
                key: count * deck.idf(key, deck.gram_df)
                for key, count in Counter(grams(clue, lang)).items()
                if key in deck.gram_df
            }
        )
        found: dict[int, float] = dict.fromkeys(deck.cards, 0.0)
        for query, postings, share in (
            (word_query, self.postings, self.word_share),
            (gram_query, deck.gram_postings, 1 - self.word_share),
        ):
            for key, weight in query.items():
                for card, card_weight in postings.get(key, ()):
                    found[card] += share * weight * card_weight
        return found

    def choose(self, clue: str, cards: Sequence[int], rng, *, level: str, k: int = 1) -> list[int]:
        """``k`` of ``cards`` this reader takes for the clue: drawn one by one, weighted by a softmax of the
        similarities at the level's temperature (an easy reader is sometimes plain distracted)."""
        sims = self.similarities(clue)
        left = list(cards)
        chosen: list[int] = []
        temperature = TEMPERATURE[level]
        for _ in range(min(k, len(left))):
            if rng.random() < DISTRACTED[level]:
                card = rng.choice(left)
            else:
                top = max(sims.get(card, 0.0) for card in left)
                weights = [math.exp((sims.get(card, 0.0) - top) / temperature) for card in left]
                card = rng.choices(left, weights)[0]
            chosen.append(card)
            left.remove(card)
        return chosen


# --- the storyteller's estimate: how many voters would find the card --------------------------------


def find_chance(
    sims: Mapping[int, float], card: int, *, pool: Sequence[int], decoys: int, hand: int, temperature: float
) -> float:
    """The chance that a voter finds ``card`` for a clue of these similarities, on a table of ``decoys``
    other cards, each the one nearest the clue of a hand of ``hand`` cards drawn from ``pool`` (the deck's
    cards the storyteller does not hold). A softmax at a voter's ``temperature``, each decoy at the similarity
    a hand's nearest has on average (a hand's best is the r-th lowest of the pool with chance
    C(r-1, h-1) / C(n, h))."""
    values = sorted(sims[other] for other in pool)
    n, h = len(values), max(1, min(hand, len(values)))
    if not n:
        return 1.0
    total = math.comb(n, h)
    decoy = sum(math.comb(rank - 1, h - 1) / total * value for rank, value in enumerate(values, 1) if rank >= h)
    return 1 / (1 + decoys * math.exp((decoy - sims[card]) / temperature))


def some_not_all(chance: float, voters: int) -> float:
    """The chance that some but not all of ``voters`` independent voters find the card."""
    return 1 - chance**voters - (1 - chance) ** voters


@dataclass(frozen=True)
class ClueOption:
    card: int
    text: str
    chance: float  # of one voter finding the card, as the storyteller reckons
    value: float  # of some but not all finding it


def clue_options(deck: DeckReading, reader: Reader, hand: Iterable[int], *, voters: int, decoys: int, hand_size: int):
    """Every clue the storyteller weighs for the cards of its hand, with its reckoning of each."""
    hand = list(hand)
    held = set(hand)
    pool = [card for card in deck.cards if card not in held]
    options = []
    for card in hand:
        if card not in deck.texts:
            continue
        for text in deck.candidates(card):
            sims = reader.similarities(text)
            chance = find_chance(sims, card, pool=pool, decoys=decoys, hand=hand_size, temperature=VOTER_TEMPERATURE)
            options.append(ClueOption(card, text, chance, some_not_all(chance, voters)))
    return options


VALUE_TEMPERATURE = 0.04  # a normal storyteller's softmax over the options' values


def clue_for(deck: DeckReading, reader: Reader, hand, rng, *, level: str, voters: int, decoys: int, hand_size: int):
    """A card of ``hand`` and a clue for it: the clue some voters find and others not, as the level aims."""
    options = clue_options(deck, reader, hand, voters=voters, decoys=decoys, hand_size=hand_size)
    if not options:  # cards without content words: a card at random, and the first words of what it shows
        card = rng.choice(list(hand))
        return card, " ".join(tokens(deck.texts.get(card, ""), deck.lang)[:MAX_FRAGMENT]) or "?"
    if level == "hard":
        best = max(option.value for option in options)
        chosen = rng.choice([option for option in options if option.value >= best - 0.01])
    elif level == "normal":
        best = max(option.value for option in options)
        weights = [math.exp((option.value - best) / VALUE_TEMPERATURE) for option in options]
        chosen = rng.choices(options, weights)[0]
    else:  # easy: the first thing that comes to mind about a card
        chosen = rng.choice(options)
    return chosen.card, chosen.text


def clue_text(state: engine.State) -> str:
    """The words of this round's clue ('' for a clue without words)."""
    clue = state.clue
    if isinstance(clue, Mapping):
        clue = clue.get("text")
    return clue if isinstance(clue, str) else ""


def bot_action(
    state: engine.State, *, seat: int, rng, deck: DeckReading, seed: int, level: str = DEFAULT_LEVEL
) -> dict | None:
    """The action of a bot in ``seat`` (its reader drawn from ``seed``, its level ``level``): the clue, the
    decoy, or the vote (None: nothing asked of it). A clue is always words here (the site's side draws it)."""
    if seat not in engine.to_act(state):
        return None
    level = level_of(level)
    reader = deck.reader(seed)
    hand = list(state.hands[seat])
    if not hand and state.phase in (engine.Phase.CLUE, engine.Phase.SUBMIT):
        return None  # a hand emptied by withdrawn cards: the engine settles what it cannot do
    if state.phase == engine.Phase.CLUE:
        voters = max(1, len(engine.present_seats(state)) - 1)
        per_player = 2 if state.seats == 3 else 1
        card, text = clue_for(
            deck, reader, hand, rng, level=level, voters=voters, decoys=voters * per_player, hand_size=len(hand)
        )
        return {"type": "clue", "card": card, "text": text[: engine.CLUE_MAX_LENGTH]}
    clue = clue_text(state)
    if state.phase == engine.Phase.SUBMIT:
        wanted = engine.cards_to_submit(state, seat)
        cards = reader.choose(clue, hand, rng, level=level, k=wanted) if clue else rng.sample(hand, wanted)
        return {"type": "submit", "cards": cards}
    own = set(state.submissions.get(seat, ()))
    positions = {card: position for position, card in enumerate(state.table, 1) if card not in own}
    if not positions:
        return None
    if not clue:
        return {"type": "vote", "position": rng.choice(list(positions.values()))}
    return {"type": "vote", "position": positions[reader.choose(clue, list(positions), rng, level=level)[0]]}


# --- the site's side -------------------------------------------------------------------------


def game_lang(game) -> str:
    """A game's language: the one it was created in (its options' ``lang``), else English."""
    return lang_of((game.options or {}).get("lang"))


_READINGS: dict[tuple, DeckReading] = {}
READINGS_KEPT = 16  # decks read in one process, each in one language (a reading is about 1 MB)


def reading_for_game(game) -> DeckReading:
    """The deck a game is dealt from, read in the game's language (a card without a translation: its English).
    Kept in the process while its cards' words stay as they are (an edited alt text makes a new reading)."""
    from storyteller.models import Card

    lang = game_lang(game)
    rows = list(
        Card.objects.filter(deck_id=(game.options or {}).get("deck"))
        .order_by("pk")
        .values_list("id", "alt_text", "alt_texts", "tags")
    )
    texts, tags = {}, set()
    for card, alt, alt_texts, card_tags in rows:
        texts[card] = ((alt_texts or {}).get(lang) if lang != "en" else None) or alt
        tags.update((card_tags or "").split(","))
    key = (lang, hashlib.sha256(repr(sorted(texts.items()) + sorted(tags)).encode()).hexdigest())
    reading = _READINGS.get(key)
    if reading is None:
        reading = DeckReading(texts, lang, tags)
        if len(_READINGS) >= READINGS_KEPT:
            _READINGS.pop(next(iter(_READINGS)))
        _READINGS[key] = reading
    return reading


def storyteller_bot_action(state, *, seat, rng, game=None) -> dict | None:
    """``GameKind.bot_action`` of Storyteller: the bot's seat's level, its user id its reader's seed; where the
    game's clue modes leave out words, its clue is a drawing (or a sound) uploaded as a person's is."""
    from games.models import Seat

    seat_row = Seat.objects.filter(game=game, position=seat).select_related("user").first()
    if seat_row is None:
        return None
    level = level_of(seat_row.bot_level or DEFAULT_LEVEL)
    action = bot_action(state, seat=seat, rng=rng, deck=reading_for_game(game), seed=seat_row.user_id, level=level)
    if action is not None and action["type"] == "clue":
        from storyteller.services.media import clue_modes_of

        modes = clue_modes_of(game)
        if "words" not in modes:
            from storyteller.bot_media import bot_clue_media

            media = bot_clue_media(game=game, seat=seat_row, card=action["card"], clue=action["text"], modes=modes)
            action = {"type": "clue", "card": action["card"], "text": "", "media": media.pk}
    return action
