"""What answer matching knows about each language it groups answers in.

Pure Python: the Snowball stemmers (``snowballstemmer``), the kept lexicons (below) and
the hand-kept lists of the words they miss in ``words/<lang>.kept.txt`` (one word a line;
``=word`` is a known word that is never stemmed; ``#`` starts a comment).
``words/<lang>.txt`` are common words of each language, the bots' vocabulary
(``word_list``), which the grouping does not read. ``Language`` holds, per language:

- ``own_letters``: letters with a mark that are letters of their own in the alphabet
  and are never folded (Nordic å, æ, ø, ä, ö; German ü);
  ``read_as``: foreign spellings of them typed on another keyboard (ä for æ in Danish);
- ``keep_accents``: French keeps its accents in the key (``côte`` is not ``côté``);
  the other languages fold accents that only mark stress or a loan word (é, è, ï ...);
- ``ascii``: how the own letters are written without them ("ae" for æ), so that
  "jordbaer" is read as "jordbær";
- ``articles``, ``elided`` (French l', d'), ``and_word``, ``numbers`` (words to digits);
- ``suffixes``: endings the hand-made rules try taking off before stemming (the
  Snowball stemmer alone does not see that "tigre" is "tiger", "knives" "knife");
- ``irregular``: plural and inflected forms no rule finds ("mice", "børn");
- ``typo_from``: the shortest word in which a typo is forgiven;
- ``kept_words``: the hand-kept list, ``word_list``: the bots' common words.

The kept lexicons (issue 32), each loaded on its first use per language and then kept:

- ``lemma(word, lang)``: simplemma's lemma ("kädet" -> "käsi", "böckerna" -> "bok",
  "chevaux" -> "cheval"); simplemma's memory-frugal backend (``low_memory=True``): the
  full one takes seven times the memory in Finnish (340 MiB) for the same lemmas;
- ``frequent_words(lang)``: wordfreq's most frequent words of the language (its top
  50,000; Danish has 29,399 in wordfreq), the words a typo never joins;
- ``in_lexicon(word, lang)``: whether either lexicon knows the word as a word of the
  language (or as an inflection of one, by simplemma's affix rules);
- ``is_headword(word, lang)``: a word simplemma knows as its own lemma ("dame",
  "clothes"): the hand rules do not take an ending off it.

docs/playing/grouping.md gives their memory and start-up cost per language.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import simplemma
import snowballstemmer
import wordfreq

_WORDS_DIR = Path(__file__).parent / "words"

SNOWBALL = {
    "en": "english",
    "da": "danish",
    "sv": "swedish",
    "nb": "norwegian",
    "fi": "finnish",
    "fr": "french",
}


def _numbers(words: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    table = {word: str(n) for n, word in enumerate(words.split())}
    return table | (extra or {})


@dataclass(frozen=True)
class Language:
    code: str
    own_letters: frozenset[str]
    read_as: dict[str, str]
    keep_accents: bool
    ascii: dict[str, str]
    articles: frozenset[str]
    elided: frozenset[str]
    and_word: str
    numbers: dict[str, str]
    suffixes: tuple[str, ...]
    irregular: dict[str, str]
    # The shortest word a typo is forgiven in. Finnish: 6, as the length of a sound
    # tells words apart there (tuli, tuuli; palo, pallo) and short words are many.
    typo_from: int = 5


_NORDIC_SUFFIXES = {
    "da": ("erne", "rne", "ene", "ne", "er", "en", "et", "e", "r", "n", "t"),
    "nb": ("ene", "ne", "er", "en", "et", "a", "e", "r", "n", "t"),
    "sv": ("orna", "arna", "erna", "rna", "na", "or", "ar", "er", "en", "et", "a", "n", "t"),
}

LANGUAGES: dict[str, Language] = {
    "en": Language(
        code="en",
        own_letters=frozenset("åäöü"),
        read_as={},
        keep_accents=False,
        ascii={},
        articles=frozenset({"a", "an", "the"}),
        elided=frozenset(),
        and_word="and",
        numbers=_numbers(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen"
            " fourteen fifteen sixteen seventeen eighteen nineteen twenty"
        ),
        suffixes=(),
        irregular={
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
            # spellings of one word
            "yoghurt": "yogurt",
            "theater": "theatre",
            "licorice": "liquorice",
            "donut": "doughnut",
            "chilli": "chili",
            "lasagna": "lasagne",
            "color": "colour",
            "grey": "gray",
            # British and American spellings that no rule of ``_english`` finds: the
            # lexicons know both as words, so no typo joins them (issue 32).
            "aluminium": "aluminum",
            "jewellery": "jewelry",
            "pyjamas": "pajamas",
            "moustache": "mustache",
            "aeroplane": "airplane",
            "mum": "mom",
            "cosy": "cozy",
            "catalogue": "catalog",
            "plough": "plow",
            "mould": "mold",
            "cheque": "check",
            "programme": "program",
            "sulphur": "sulfur",
            "kerb": "curb",
            "omelette": "omelet",
        },
    ),
    "da": Language(
        code="da",
        own_letters=frozenset("æøåü"),
        read_as={"ä": "æ", "ö": "ø"},
        keep_accents=False,
        ascii={"ae": "æ", "oe": "ø", "aa": "å"},
        articles=frozenset({"en", "et", "den", "det", "de"}),
        elided=frozenset(),
        and_word="og",
        numbers=_numbers(
            "nul en to tre fire fem seks syv otte ni ti elleve tolv tretten fjorten"
            " femten seksten sytten atten nitten tyve",
            {"et": "1"},
        ),
        suffixes=_NORDIC_SUFFIXES["da"],
        irregular={
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
    ),
    "nb": Language(
        code="nb",
        own_letters=frozenset("æøåü"),
        read_as={"ä": "æ", "ö": "ø"},
        keep_accents=False,
        ascii={"ae": "æ", "oe": "ø", "aa": "å"},
        articles=frozenset({"en", "ei", "et", "den", "det", "de"}),
        elided=frozenset(),
        and_word="og",
        numbers=_numbers(
            "null en to tre fire fem seks sju åtte ni ti elleve tolv tretten fjorten"
            " femten seksten sytten atten nitten tjue",
            {"ett": "1", "ei": "1", "syv": "7", "tyve": "20"},
        ),
        suffixes=_NORDIC_SUFFIXES["nb"],
        irregular={
            "menn": "mann",
            "mennene": "mann",
            "bøker": "bok",
            "bøkene": "bok",
            "føtter": "fot",
            "føttene": "fot",
            "tenner": "tann",
            "tennene": "tann",
            "gjess": "gås",
            "kyr": "ku",
            "kuer": "ku",
            "netter": "natt",
            "hender": "hånd",
            "hendene": "hånd",
            "brødre": "bror",
            "døtre": "datter",
            "mødre": "mor",
            "fedre": "far",
            "øyne": "øye",
            "øynene": "øye",
            "tær": "tå",
            "bønder": "bonde",
            "røtter": "rot",
            "poteter": "potet",
        },
    ),
    "sv": Language(
        code="sv",
        own_letters=frozenset("åäöü"),
        read_as={"æ": "ä", "ø": "ö"},
        keep_accents=False,
        ascii={"ae": "ä", "oe": "ö", "aa": "å"},
        articles=frozenset({"en", "ett", "den", "det", "de"}),
        elided=frozenset(),
        and_word="och",
        numbers=_numbers(
            "noll en två tre fyra fem sex sju åtta nio tio elva tolv tretton fjorton"
            " femton sexton sjutton arton nitton tjugo",
            {"ett": "1", "aderton": "18"},
        ),
        suffixes=_NORDIC_SUFFIXES["sv"],
        irregular={
            "män": "man",
            "männen": "man",
            "böcker": "bok",
            "böckerna": "bok",
            "fötter": "fot",
            "fötterna": "fot",
            "tänder": "tand",
            "tänderna": "tand",
            "möss": "mus",
            "mössen": "mus",
            "gäss": "gås",
            "kor": "ko",
            "korna": "ko",
            "nätter": "natt",
            "händer": "hand",
            "händerna": "hand",
            "bröder": "bror",
            "döttrar": "dotter",
            "mödrar": "mor",
            "fäder": "far",
            "ögon": "öga",
            "ögonen": "öga",
            "tår": "tå",
            "bönder": "bonde",
            "rötter": "rot",
            "äpplen": "äpple",
        },
    ),
    "fi": Language(
        code="fi",
        own_letters=frozenset("åäöü"),
        read_as={"æ": "ä", "ø": "ö"},
        keep_accents=False,
        ascii={},
        articles=frozenset(),
        elided=frozenset(),
        and_word="ja",
        numbers=_numbers(
            "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän kymmenen"
            " yksitoista kaksitoista kolmetoista neljätoista viisitoista kuusitoista"
            " seitsemäntoista kahdeksantoista yhdeksäntoista kaksikymmentä"
        ),
        suffixes=("t", "n"),
        irregular={},
        typo_from=6,
    ),
    "fr": Language(
        code="fr",
        own_letters=frozenset(),
        read_as={"œ": "oe", "æ": "ae"},
        keep_accents=True,
        ascii={},
        articles=frozenset({"le", "la", "les", "l", "un", "une", "des", "du", "de", "d"}),
        elided=frozenset({"l", "d", "j", "qu", "n", "s", "m", "t", "c"}),
        and_word="et",
        numbers=_numbers(
            "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze"
            " quinze seize dix-sept dix-huit dix-neuf vingt",
            {"une": "1", "dix sept": "17", "dix huit": "18", "dix neuf": "19"},
        ),
        suffixes=("s", "x"),
        irregular={
            "yeux": "oeil",
            "œil": "oeil",
            "cieux": "ciel",
            "travaux": "travail",
        },
    ),
}

LANGS = tuple(LANGUAGES)

_STEMMERS_LOCK = threading.Lock()


@cache
def _stemmer(lang: str):
    return snowballstemmer.stemmer(SNOWBALL[lang])


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of one word (a stemmer object is not safe to share across threads)."""
    with _STEMMERS_LOCK:
        return _stemmer(lang).stemWord(word)


@cache
def word_list(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(common words, words marked never stemmed) of ``lang``: the bots' vocabulary.

    The grouping reads ``kept_words`` instead: the lexicons serve the rest of this list.
    """
    return _read_words(_WORDS_DIR / f"{lang}.txt")


@cache
def kept_words(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(known words, words never stemmed) of the grouping's hand-kept list of ``lang``.

    Only what the lexicons miss (``words/<lang>.kept.txt``, whose comments say why).
    """
    return _read_words(_WORDS_DIR / f"{lang}.kept.txt")


def _read_words(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    words: set[str] = set()
    keep: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        for token in line.split("#", 1)[0].split():
            if token.startswith("="):
                keep.add(token[1:])
            else:
                words.add(token)
    return frozenset(words | keep), frozenset(keep)


@cache
def known_stems(lang: str) -> dict[str, frozenset[str]]:
    """Stem -> the kept words that have it (more than one: the stem is ambiguous)."""
    words, keep = kept_words(lang)
    found: dict[str, set[str]] = {}
    for word in words:
        found.setdefault(word if word in keep else stem(word, lang), set()).add(word)
    return {key: frozenset(value) for key, value in found.items()}


# --- the kept lexicons (simplemma, wordfreq), loaded on first use per language ---------

# wordfreq's code per language (its Norwegian list is Bokmål, "nb").
WORDFREQ = {"en": "en", "da": "da", "sv": "sv", "nb": "nb", "fi": "fi", "fr": "fr"}
# How many of the most frequent words a typo never joins (wordfreq's "best" list; the
# Danish one has 29,399 words in all).
FREQUENT_TOP = 50_000
# The longest ending simplemma's affix rules may have taken off a word it does not
# know for the word to count as known ("tappaan" -> "tappaa"); a longer cut is a
# guess at a compound or a typo ("sateenkari" -> "sade").
_GUESSED_ENDING = 1

_LEXICON_LOCK = threading.Lock()
# simplemma loads a language's dictionary on its first lookup in that language: one load,
# even when two threads look up at once (the lookups after it are cached here).
_SIMPLEMMA_LOCK = threading.Lock()


@cache
def frequency_ranks(lang: str) -> dict[str, int]:
    """Word -> its rank among wordfreq's top ``FREQUENT_TOP`` words of ``lang`` (0: the most frequent),
    lower-cased as wordfreq gives them; built on first use."""
    with _LEXICON_LOCK:  # one list loads at a time (each holds its peak memory while it loads)
        ranks = {word: rank for rank, word in enumerate(wordfreq.top_n_list(WORDFREQ[lang], FREQUENT_TOP))}
        # wordfreq keeps the whole list it read (every word it knows, with its frequency) in a cache of
        # its own: the top words are all we read, so let it go (Finnish: 64 MiB -> 20 MiB).
        wordfreq.get_frequency_list.cache_clear()
        return ranks


@cache
def frequent_words(lang: str) -> frozenset[str]:
    """wordfreq's top ``FREQUENT_TOP`` words of ``lang``: the words a typo never joins."""
    return frozenset(frequency_ranks(lang))


@lru_cache(maxsize=65536)
def lemma(word: str, lang: str) -> str:
    """simplemma's lemma of one word (the word itself where simplemma knows none)."""
    with _SIMPLEMMA_LOCK:
        return simplemma.lemmatize(word, lang, low_memory=True).casefold()


@lru_cache(maxsize=65536)
def in_dictionary(word: str, lang: str) -> bool:
    """Whether simplemma knows ``word`` as it is written (a form in its dictionary)."""
    with _SIMPLEMMA_LOCK:
        return simplemma.is_known(word, lang, low_memory=True)


@lru_cache(maxsize=65536)
def is_headword(word: str, lang: str) -> bool:
    return in_dictionary(word, lang) and lemma(word, lang) == word


@lru_cache(maxsize=65536)
def in_lexicon(word: str, lang: str) -> bool:
    """Whether a lexicon knows ``word`` as a word of ``lang`` or an inflection of one."""
    if word in frequent_words(lang) or in_dictionary(word, lang):
        return True
    guessed = lemma(word, lang)
    return (
        guessed != word
        and word.startswith(guessed[:-1])
        and 0 <= len(word) - len(guessed) <= _GUESSED_ENDING
        and in_dictionary(guessed, lang)
    )
