"""Think Alike: when do two written answers count as the same answer?

Pure Python, standard library only. The public API:

- ``normalize(text, lang) -> str``: the key of one answer. Folds what can be decided
  from the answer alone: Unicode compatibility forms (NFKC), case (casefold),
  accents that do not make another letter, punctuation, spacing, apostrophes, a
  leading article ("the dog" -> "dog", "en hund" -> "hund"), "&" and number words
  ("Seven" -> "7", "syv" -> "7"). An empty key means a blank answer.
- ``same_answer(a, b, lang) -> bool``: whether two keys match. Adds what needs both
  answers: plural and inflected forms ("horses" ~ "horse", "hundene" ~ "hund",
  "tigre" ~ "tiger"), writing with or without spaces ("ice cream" ~ "icecream"),
  Danish letters written the international way ("jordbaer" ~ "jordbær"), and
  obvious misspellings (one typo in a word of 5+ letters, two in 9+, first letter
  right, and never between two different words that are both in the short list of
  common words below, so "house" and "horse" stay apart).
- ``group_answers(answers, lang, equivalences) -> tuple[Group, ...]``: the automatic
  grouping of one round's answers; ``answers`` are ``(seat, index, text)`` triples
  (index = which of the seat's answers). Blank answers are left out: they match
  nothing.
- ``Equivalences``: the rulings of one game's turn holders ("these mean the same",
  "these are different"), applied to every later round's grouping. A merge is
  binding; a split keeps the parted answers from being joined again by the
  automatic similarity (a later merge can join them again).

Never folded: letters that are letters of their own in the Nordic and German
alphabets (æ, ø, å, ä, ö, ü). "bær" (berry) is not "bar", "mør" (tender) is not
"mor" (mother), "får" (sheep) is not "far" (father). In Danish, ä and ö are read as
æ and ø (Swedish and German keyboards write them so).

Accents that only mark stress or a loan word's spelling (é, è, ê, á, ï, ç ...) are
folded: Danish writes "idé" or "ide", "allé" or "alle", English "café" or "cafe",
"naïve" or "naive", and players on a phone type whichever their keyboard offers.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from games.engine import serial

LANGS = ("en", "da")

# Letters with a mark that is part of the letter: kept as they are.
_OWN_LETTERS = frozenset("åäöü")
# Letters that count double in the misspelling distance: a typo never turns a into å.
_NORDIC = frozenset("æøåäöü")
_DA_FOREIGN_LETTERS = {"ä": "æ", "ö": "ø"}
_DA_ASCII = str.maketrans({"æ": "ae", "ø": "oe", "å": "aa"})
_APOSTROPHES = frozenset("'’‘ʼ`´′")
_AND = {"en": "and", "da": "og"}
_ARTICLES = {
    "en": frozenset({"a", "an", "the"}),
    "da": frozenset({"en", "et", "den", "det", "de"}),
}
_NUMBERS = {
    "en": {
        word: str(n)
        for n, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen"
            " fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
        )
    },
    "da": {
        word: str(n)
        for n, word in enumerate(
            "nul en to tre fire fem seks syv otte ni ti elleve tolv tretten fjorten"
            " femten seksten sytten atten nitten tyve".split()
        )
    }
    | {"et": "1"},
}

_IRREGULAR = {
    "en": {
        "children": "child",
        "men": "man",
        "women": "woman",
        "people": "person",
        "mice": "mouse",
        "geese": "goose",
        "feet": "foot",
        "teeth": "tooth",
        "oxen": "ox",
        "lice": "louse",
        "cacti": "cactus",
        "fungi": "fungus",
        "dice": "die",
    },
    "da": {
        "mænd": "mand",
        "mændene": "mand",
        "børn": "barn",
        "børnene": "barn",
        "fødder": "fod",
        "fødderne": "fod",
        "tænder": "tand",
        "tænderne": "tand",
        "gæs": "gås",
        "gæssene": "gås",
        "køer": "ko",
        "køerne": "ko",
        "nætter": "nat",
        "nætterne": "nat",
        "hænder": "hånd",
        "hænderne": "hånd",
        "bøger": "bog",
        "bøgerne": "bog",
        "brødre": "bror",
        "brødrene": "bror",
        "døtre": "datter",
        "døtrene": "datter",
        "mødre": "mor",
        "mødrene": "mor",
        "fædre": "far",
        "fædrene": "far",
        "øjne": "øje",
        "øjnene": "øje",
        "tæer": "tå",
        "tæerne": "tå",
        "bønder": "bonde",
        "rødder": "rod",
        "øer": "ø",
        "øerne": "ø",
        "kartofler": "kartoffel",
        "kartoflerne": "kartoffel",
        "stænger": "stang",
        "tænger": "tang",
        "render": "rand",
    },
}

# Danish words in -er that are not plurals (mostly people who do something): their
# -er is not taken off, so "fisker" (fisherman) does not match "fisk" (fish).
_DA_KEEP_ER = frozenset(
    """bager fisker maler lærer løber vinder slagter sanger danser tegner snedker
    tømrer murer spiller taber politiker kører sommer vinter hammer computer peber
    sukker sokker ager anker kammer sover jæger ejer skuespiller fodboldspiller
    præster søster broder moder fader datter finger tiger lever blomster""".split()
)

_VOWELS = frozenset("aeiouyæøåäöü")

# Common words, in the form a lemma takes: two different words of this list are
# never taken for misspellings of each other ("house"/"horse", "sokker"/"sukker").
_KNOWN = {
    "en": frozenset(
        """apple banana orange lemon melon mango peach grape cherry berry strawberry
        raspberry blueberry pineapple coconut apricot tomato potato carrot onion garlic
        pepper cucumber lettuce cabbage broccoli spinach pumpkin bread break butter
        cheese cream dream water wafer juice coffee cocoa candy sugar honey money pasta
        paste pizza salad salsa sauce steak stake snack snake shake skate cookie toast
        coast roast beach bench peach poach pouch couch torch porch watch match patch
        house horse mouse moose goose sheep sheet sleep sweet sweat sweater shirt skirt
        short shoe boot boat booth sock glove scarf scare jacket dress press tiger timer
        zebra camel eagle eager whale while whole shark share sharp panda koala rabbit
        parrot puppy poppy kitten mitten monkey donkey turkey hippo rhino spider beetle
        insect snail giraffe elephant penguin dolphin octopus lobster oyster salmon trout
        chicken kitchen pigeon raven robin heart heard hearth plane plant place plate
        planet table cable chair stair floor flour flower power tower clock cloak cloud
        clown crown crowd frown stone store stove story storm train trail brain drain
        grain grass glass class brush crush paper pager piper pencil ruler eraser rubber
        scissors stapler laptop mobile screen scream stream bridge fridge ridge knife
        spoon sport spool light night right might fight sight tight flight candle handle
        pillow willow blanket basket bucket rocket pocket locket socket ticket racket
        castle cattle bottle battle kettle bubble puzzle teddy truck bicycle tractor
        trailer wagon scooter helmet hammer ladder letter bitter better mirror doctor
        nurse teacher farmer police pilot baker banker barber singer dancer winter
        summer spring autumn sunny rainy snowy cloudy queen green greed music magic
        movie party smile smell spell shell shelf thunder lightning rainbow saturn venus
        earth jupiter comet meteor ocean river island forest desert jungle mountain
        valley volcano garden school church museum prison palace cinema theatre theater
        hotel office market street wallet purse tissue lipstick bride ghost guest witch
        wheel wheat swing slide spade space spice price prince princess dragon knight
        giant pirate treasure sword world would mould could round sound pound hound
        mount count mouth north south tooth truth youth thorn birch beech maple ample
        tulip daisy lilac cactus lotus orchid violet violin guitar piano drum flute
        trumpet cello organ chess poker bingo lotto monopoly scrabble football tennis
        hockey rugby cricket boxing cycling skiing skating swimming running sailing
        rowing dancing reading knitting baking cooking gaming fishing hiking camping
        paint point print stamp stump mummy mommy daddy granny grandma grandpa uncle
        cousin sister brother mother father child student friend fairy angel devil
        santa elf reindeer snowman snowball sledge sleigh present gift tree crayon marker
        brick block blocks ninja robot alien planet rocket circus clown juggler acrobat
        lion tamer magician wizard fairy goblin troll unicorn mermaid cheetah leopard
        panther jaguar horse pony donkey mule goat llama alpaca bison buffalo moose
        deer fox badger hedgehog squirrel beaver otter seal walrus shrimp prawn squid
        jellyfish starfish seahorse coral turtle tortoise lizard frog toad crocodile
        alligator snake cobra python viper sloth koala kangaroo wombat ostrich emu
        flamingo peacock parrot pelican swan duck owl crow magpie sparrow finch swallow
        stork heron hawk falcon vulture butterfly moth bee wasp hornet ant fly mosquito
        ladybird ladybug spider scorpion worm slug snail bread toast bagel muffin donut
        doughnut waffle pancake crepe croissant sandwich burger hotdog sausage bacon
        ham egg omelette cereal porridge yoghurt yogurt milk tea lemonade cola beer wine
        champagne cider whisky vodka rum gin soda smoothie chocolate vanilla caramel
        toffee liquorice licorice marshmallow popcorn crisps chips fries ketchup mustard
        mayonnaise vinegar salt cinnamon ginger nutmeg paprika curry chilli chili basil
        oregano parsley thyme rosemary mint dill sage soup stew curry noodle rice sushi
        taco burrito kebab lasagne lasagna spaghetti risotto""".split()
    ),
    "da": frozenset(
        """æble banan appelsin citron melon pære blomme kirsebær jordbær hindbær blåbær
        ananas kokosnød abrikos tomat kartoffel gulerod løg hvidløg peber agurk salat kål
        broccoli spinat græskar brød smør ost fløde mælk vand juice kaffe kakao slik
        sukker honning pasta pizza sovs bøf kage småkage pandekage bolle bold hest hus
        mus elg gås får kat hund ko gris ged kanin hamster marsvin papegøje hvalp killing
        kylling tiger løve zebra kamel ørn hval haj panda koala abe æsel kalkun flodhest
        næsehorn edderkop bille insekt snegl slange giraf elefant pingvin delfin
        blæksprutte hummer østers laks ørred krabbe due krage krave ravn svane ugle
        hjerte hjerne fly plante plads tallerken bord stol trappe gulv mel blomst tårn
        ur kappe sky klovn krone sten butik komfur historie storm tog sti korn græs glas
        klasse børste papir blyant lineal viskelæder saks hæftemaskine telefon computer
        skærm bro køleskab kniv ske gaffel lys nat lampe stearinlys håndtag sofa pude
        dyne kurv spand raket lomme billet jakke slot flaske kedel puslespil dukke bamse
        lastbil cykel traktor vogn løbehjul hjelm hammer stige brev spejl læge
        sygeplejerske lærer landmand politi pilot bager frisør sanger danser vinter
        vinder sommer forår efterår penge dronning konge prins prinsesse grøn musik
        magi film fest smil lugt skal hylde sne torden lyn regnbue planet stjerne måne
        måned jord komet hav flod sø strand skov ørken jungle bjerg dal vulkan have
        skole kirke museum fængsel palads biograf teater hotel kontor marked gade vej
        park pung nøgle lommetørklæde læbestift kam tryllestav kort brud spøgelse gæst
        heks hjul hvede gynge rutsjebane skovl krydderi pris drage ridder kæmpe pirat
        skat sværd verden mund nord syd tand næse horn torn fakkel birk bøg ahorn
        tulipan tusindfryd rose kaktus orkidé violin guitar klaver tromme fløjte trompet
        cello harpe orgel skak poker bingo lotto terning ludo fodbold tennis hockey
        håndbold golf boksning cykling skiløb svømning løb sejlads roning dans læsning
        strikning bagning madlavning fiskeri telt sovepose maling tegning lim tape
        frimærke mormor farmor morfar farfar onkel tante fætter kusine søster bror baby
        barn elev ven sokker skåle kanel kanal kane lykke lukke bolde kasse kaste taske
        bukser nisse juletræ gave pølse frikadelle æbleskive risalamande flæskesteg
        rødkål sild rugbrød leverpostej remoulade ketchup sennep hotdog sodavand vin øl
        saftevand kakaomælk nøddeknækker tryllekunstner troldmand trold enhjørning
        havfrue drage gepard leopard panter jaguar pony muldyr lama bison bøffel hjort
        ræv grævling pindsvin egern bæver odder sæl hvalros reje søstjerne søhest
        skildpadde firben frø tudse krokodille kobra sovsekande dovendyr kænguru struds
        flamingo påfugl pelikan and krage skade spurv svale stork hejre høg falk grib
        sommerfugl bi hveps myre flue myg mariehøne skorpion orm snegl bagel muffin
        vaffel croissant sandwich burger pølse bacon skinke æg omelet morgenmad
        havregrød yoghurt sodavand limonade champagne cider whisky vodka rom gin
        chokolade vanilje karamel lakrids popcorn chips pommes mayonnaise eddike salt
        ingefær muskat paprika karry chili basilikum oregano persille timian rosmarin
        mynte dild salvie suppe gryderet nudler ris sushi taco burrito kebab lasagne
        spaghetti risotto""".split()
    ),
}


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use one of {LANGS}")
    return lang


# --- one answer --------------------------------------------------------------------


@lru_cache(maxsize=16384)
def normalize(text: str, lang: str) -> str:
    """The key of an answer: case, Unicode, accents, punctuation, spacing, article."""
    _lang(lang)
    # Apostrophes first: NFKC would turn a spacing acute (´) into a space and a mark.
    text = "".join(ch for ch in text if ch not in _APOSTROPHES)
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFKC", text).casefold())
    out: list[str] = []
    for ch in text:
        if lang == "da":
            ch = _DA_FOREIGN_LETTERS.get(ch, ch)
        if ch == "&":
            out.append(f" {_AND[lang]} ")
        elif ch in _OWN_LETTERS:
            out.append(ch)
        else:
            for part in unicodedata.normalize("NFD", ch):
                category = unicodedata.category(part)
                if category[0] in "LN" or category == "So":  # letters, digits, emoji
                    out.append(part)
                elif category[0] != "M":  # marks go; punctuation and the rest part words
                    out.append(" ")
    words = "".join(out).split()
    if len(words) > 1 and words[0] in _ARTICLES[lang]:
        words = words[1:]
    numbers = _NUMBERS[lang]
    return " ".join(numbers.get(word, word) for word in words)


# --- two answers -------------------------------------------------------------------


@lru_cache(maxsize=16384)
def _lemmas(word: str, lang: str) -> frozenset[str]:
    """Forms the word may be an inflection of (itself included): a generous guess."""
    forms = {word}
    irregular = _IRREGULAR[lang].get(word)
    if irregular:
        forms.add(irregular)
    if lang == "en":
        if word.endswith("s") and not word.endswith("ss") and len(word) >= 4:
            forms.add(word[:-1])
        if word.endswith("es") and len(word) >= 5:
            forms.add(word[:-2])
        if word.endswith("ies") and len(word) >= 5:
            forms.add(word[:-3] + "y")
        if word.endswith("ves") and len(word) >= 5:
            forms.update((word[:-3] + "f", word[:-3] + "fe"))
    else:
        for suffix in ("erne", "rne", "ene", "ne", "er", "en", "et", "e", "r", "n", "t"):
            if not word.endswith(suffix) or len(word) - len(suffix) < 2:
                continue
            if len(suffix) == 1 and suffix != "e" and word[-2] != "e":
                continue  # a lone -r, -n, -t only after e: kage-r, kage-n, æble-t
            if suffix in ("er", "r") and word in _DA_KEEP_ER:
                continue
            stem = word[: -len(suffix)]
            forms.add(stem)
            if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
                forms.add(stem[:-1])  # katte -> kat, busser -> bus
            if len(stem) >= 3 and stem[-1] in "lnr" and stem[-2] not in _VOWELS:
                forms.add(stem[:-1] + "e" + stem[-1])  # cykler -> cykel, tigre -> tiger
    return frozenset(forms)


@lru_cache(maxsize=16384)
def _lemma_keys(word: str, lang: str) -> frozenset[str]:
    if lang == "da":
        return frozenset(form.translate(_DA_ASCII) for form in _lemmas(word, lang))
    return _lemmas(word, lang)


def _known(word: str, lang: str) -> bool:
    return not _lemmas(word, lang).isdisjoint(_KNOWN[lang])


def _distance(a: str, b: str) -> int:
    """Edit distance with swaps of neighbours (optimal string alignment).

    An edit touching a Nordic letter costs 2, so "skole" is two typos from "skåle".
    """

    def cost(ch: str) -> int:
        return 2 if ch in _NORDIC else 1

    previous2: list[int] = []
    previous = [0]
    for ch in b:
        previous.append(previous[-1] + cost(ch))
    for i, ca in enumerate(a, 1):
        row = [previous[0] + cost(ca)]
        for j, cb in enumerate(b, 1):
            substitute = 0 if ca == cb else max(cost(ca), cost(cb))
            best = min(previous[j] + cost(ca), row[j - 1] + cost(cb), previous[j - 1] + substitute)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, previous2[j - 2] + 1)
            row.append(best)
        previous2, previous = previous, row
    return previous[-1]


def _misspelt(a: str, b: str, lang: str) -> bool:
    shorter = min(len(a), len(b))
    if shorter < 5 or a[0] != b[0] or not (a.isalpha() and b.isalpha()):
        return False
    limit = 2 if shorter >= 9 else 1
    if abs(len(a) - len(b)) > limit:
        return False
    if _known(a, lang) and _known(b, lang):
        return False
    return _distance(a, b) <= limit


@lru_cache(maxsize=65536)
def _same_word(a: str, b: str, lang: str) -> bool:
    if a == b:
        return True
    if not _lemma_keys(a, lang).isdisjoint(_lemma_keys(b, lang)):
        return True
    return _misspelt(a, b, lang)


def same_answer(a: str, b: str, lang: str) -> bool:
    """Whether two normalised answers match (see the module docstring)."""
    _lang(lang)
    if a == b:
        return bool(a)
    if not a or not b:
        return False
    compact_a, compact_b = a.replace(" ", ""), b.replace(" ", "")
    if compact_a == compact_b:
        return True
    words_a, words_b = a.split(), b.split()
    if len(words_a) == len(words_b):
        return all(_same_word(x, y, lang) for x, y in zip(words_a, words_b))
    # "icecreams" and "ice cream": only inflection, no typo, across spacing.
    return not _lemma_keys(compact_a, lang).isdisjoint(_lemma_keys(compact_b, lang))


# --- a game's rulings --------------------------------------------------------------


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Equivalences:
    """The turn holders' rulings so far in one game, on normalised keys.

    ``same``: ``(key, key it was ruled equal to)`` links; following them from a key
    ends at its canonical key. ``apart``: pairs of keys ruled different; the
    automatic similarity never joins their groups while their canonical keys differ.
    Both are sorted tuples, so equal rulings compare equal and serialise as lists.
    """

    same: tuple[tuple[str, str], ...] = ()
    apart: tuple[tuple[str, str], ...] = ()

    def canonical(self, key: str) -> str:
        links = dict(self.same)
        for _ in range(len(links) + 1):
            if key not in links:
                return key
            key = links[key]
        raise AssertionError("a cycle in the equivalence links")  # merge/split never make one

    def members(self) -> dict[str, frozenset[str]]:
        """Canonical key -> every key ruled equal to it (itself included)."""
        found: dict[str, set[str]] = {}
        for key, target in self.same:
            found.setdefault(self.canonical(target), set()).add(key)
        return {canon: frozenset(keys | {canon}) for canon, keys in found.items()}

    def apart_pairs(self) -> frozenset[frozenset[str]]:
        """The ``apart`` rulings on canonical keys (voided by a later merge)."""
        pairs = set()
        for a, b in self.apart:
            ca, cb = self.canonical(a), self.canonical(b)
            if ca != cb:
                pairs.add(frozenset((ca, cb)))
        return frozenset(pairs)

    def merge(self, keys: Iterable[str]) -> Equivalences:
        """Rule every key in ``keys`` (and whatever each was ruled equal to) equal."""
        keys = {key for key in keys if key}
        group = keys | {self.canonical(key) for key in keys}
        if len(group) < 2:
            return self
        head = min(group)
        links = dict(self.same)
        links.pop(head, None)
        for key in group - {head}:
            links[key] = head
        return _rulings(self, same=links)

    def split(self, part: Iterable[str], rest: Iterable[str]) -> Equivalences:
        """Rule the keys of ``part`` different from those of ``rest``.

        Only when no key is on both sides: identical answers told apart in one round
        (the same word meant two ways) cannot be told apart by key in later rounds.
        """
        part, rest = {k for k in part if k}, {k for k in rest if k}
        if not part or not rest or part & rest:
            return self
        links = dict(self.same)
        for side in (part, rest):
            head = min(side)
            links.pop(head, None)
            for key in side - {head}:
                links[key] = head
        apart = set(self.apart) | {_pair(min(part), min(rest))}
        return _rulings(self, same=links, apart=apart)

    def to_dict(self) -> dict:
        return serial.dump(self)

    @classmethod
    def from_dict(cls, data: dict) -> Equivalences:
        return serial.load(cls, data)


def _rulings(
    equivalences: Equivalences,
    *,
    same: dict[str, str] | None = None,
    apart: Iterable[tuple[str, str]] | None = None,
) -> Equivalences:
    return Equivalences(
        same=tuple(sorted((same if same is not None else dict(equivalences.same)).items())),
        apart=tuple(sorted(set(apart if apart is not None else equivalences.apart))),
    )


# --- grouping one round ------------------------------------------------------------


Item = tuple[int, int]  # (seat, index of the answer within the seat's answers)


@dataclass(frozen=True)
class Group:
    """Answers that count as the same. ``key``: a normalised key naming the group."""

    id: int
    key: str
    items: tuple[Item, ...]  # sorted

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(seat for seat, _ in self.items)

    def to_dict(self) -> dict:
        return serial.dump(self)

    @classmethod
    def from_dict(cls, data: dict) -> Group:
        return serial.load(cls, data)


def group_answers(
    answers: Iterable[tuple[int, int, str]],
    lang: str,
    equivalences: Equivalences | None = None,
) -> tuple[Group, ...]:
    """Group one round's answers; ids 1.. from the group most seats share down.

    Keys ruled equal are one node; two nodes join when any of their keys (those
    given now and those ruled equal earlier) match by ``same_answer``, unless a
    ruling keeps them apart. Groups without answers are not returned. Nodes are
    visited in sorted order, so the result does not depend on the order of
    ``answers``.
    """
    _lang(lang)
    rulings = equivalences or Equivalences()
    keyed: list[tuple[Item, str]] = []
    for seat, index, text in answers:
        key = normalize(text, lang)
        if key:
            keyed.append(((seat, index), key))
    canonical = {key: rulings.canonical(key) for _, key in keyed}
    ruled = rulings.members()
    # Every ruled class is a node, answered now or not, so an answer matching any
    # of its keys ("sofas", after "sofa" was merged with "couch") joins the class.
    nodes = sorted(set(canonical.values()) | set(ruled))
    forms = {node: set(ruled.get(node, ())) | {node} for node in nodes}
    for key, node in canonical.items():
        forms[node].add(key)
    apart = rulings.apart_pairs()

    head = {node: node for node in nodes}
    members = {node: {node} for node in nodes}

    def find(node: str) -> str:
        while head[node] != node:
            node = head[node]
        return node

    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            root_a, root_b = find(a), find(b)
            if root_a == root_b:
                continue
            if not any(same_answer(x, y, lang) for x in forms[a] for y in forms[b]):
                continue
            if any(frozenset((x, y)) in apart for x in members[root_a] for y in members[root_b]):
                continue
            head[root_b] = root_a
            members[root_a] |= members.pop(root_b)

    clusters: dict[str, list[Item]] = {}
    for item, key in keyed:
        clusters.setdefault(find(canonical[key]), []).append(item)
    ranked = sorted(
        clusters.items(),
        key=lambda pair: (-len({seat for seat, _ in pair[1]}), -len(pair[1]), pair[0]),
    )
    return tuple(Group(id=n, key=root, items=tuple(sorted(items))) for n, (root, items) in enumerate(ranked, start=1))
