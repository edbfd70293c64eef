"""Think Alike: when do two written answers count as the same answer?

Pure Python (no Django): the Snowball stemmers and RapidFuzz, with what
``languages.py`` knows of each language (en, da, sv, nb, fi, fr). The public API:

- ``normalize(text, lang) -> str``: the key of one answer. Folds what can be decided
  from the answer alone: Unicode compatibility forms (NFKC), case (casefold), accents
  that do not make another letter (not in French, see below), punctuation, spacing,
  apostrophes (French elisions "l'arbre" -> "arbre"), a leading article ("the dog",
  "en hund", "ett hus", "la pomme" -> the noun), "&" and number words ("Seven" -> "7",
  "syv" -> "7", "neljä" -> "4"). An empty key means a blank answer.
- ``same_answer(a, b, lang) -> bool``: whether two keys match, word by word. Two words
  match when they are the same word in another form: simplemma's lemmas agree
  ("kädet" ~ "käsi", "böcker" ~ "bok"), or the language's rules take one for a form of
  the other (plural and definite endings, Finnish gradation, Nordic vowel changes,
  "tigre" -> "tiger", "knives" -> "knife", irregular "mice" -> "mouse", British
  spellings); written with or without spaces ("ice cream" ~ "icecream"); Nordic
  letters written the international way ("jordbaer" ~ "jordbær"). Where one of the two
  is no word the lexicons know, also a shared Snowball stem or an obvious misspelling
  (RapidFuzz's distance with swaps: one typo in a word of 5+ letters, two in 9+, first
  letter right, no Nordic letter changed). Never a typo or a stem alone between two
  words of wordfreq's frequency list or simplemma's dictionary ("house" is not
  "horse", "mato" not "matto"), nor between two different words of the hand-kept list
  of what the lexicons miss (``words/<lang>.kept.txt``): "tache" is not "tâche".
- ``group_answers(answers, lang, equivalences) -> tuple[Group, ...]``: the grouping of
  one round's answers, ``(seat, index, text)`` triples. No chaining: an answer joins
  a group only when it matches every answer of it (complete linkage), so "cote"
  matching both "côte" and "côté" does not put those two in one group.
- ``Equivalences``: the rulings of one game's turn holders ("these mean the same",
  "these are different"), kept for the rest of the game on every form of the words
  involved (a merge of "sofa" and "couch" joins "sofas" and "couches" later; a split
  of "sofas" from "couches" undoes that merge for every form).

Letters: never folded where the language has them as letters of their own: Nordic
å, æ, ø, ä, ö (and ü). "bær" (berry) is not "bar", "får" (sheep) not "far" (father),
Swedish "hål" not "hal", Finnish "tämä" not "tama". Foreign keyboards' spellings of
them are read as them (Danish ä -> æ, Swedish ø -> ö). Nor does a lemma fold them:
Swedish "bär" (berry) and "bar" stay apart though simplemma's lemma of both is "bära".
Finnish and Swedish ä and ö typed without dots are read as the known word when the
bare spelling is no word of its own ("jaatelo" ~ "jäätelö"; "tama" is a word).
French feminine nouns of people and animals are forms of the masculine ("chienne" ~
"chien", "actrice" ~ "acteur"), and the doubled-consonant rule never takes a frequent
word for a form of another frequent word of another lemma (Norwegian "matte" is no
form of "mat"). Accents that only mark stress
or a loan word (é, è, ï, ç ...) are folded in en, da, sv, nb and fi ("idé" ~ "ide",
"café" ~ "cafe"). French keeps its accents in the key and folds them for matching
only where the words are not otherwise distinct: "cafe" ~ "café", "elephant" ~
"éléphant", but "côte" (coast) and "côté" (side), "mur" and "mûr", which are both
words, stay apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA

from games.engine import serial
from think_alike.engine.languages import (
    LANGUAGES,
    Language,
    frequency_ranks,
    in_dictionary,
    in_lexicon,
    is_headword,
    kept_words,
    known_stems,
    lemma,
    stem,
)

# Every language answers are grouped in, and so a game may be played in.
SUPPORTED = tuple(LANGUAGES)
LANGS = SUPPORTED

_APOSTROPHES = frozenset("'’‘ʼ`´′")


def _lang(lang: str) -> Language:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {SUPPORTED}")
    return LANGUAGES[lang]


# --- one answer --------------------------------------------------------------------


@lru_cache(maxsize=16384)
def normalize(text: str, lang: str) -> str:
    """The key of an answer: case, Unicode, accents, punctuation, spacing, article."""
    language = _lang(lang)
    if language.elided:
        # French: "l'arbre" is "l arbre" (then the article goes), "aujourd'hui" two parts.
        text = "".join(" " if ch in _APOSTROPHES else ch for ch in text)
    else:
        # Apostrophes first: NFKC would turn a spacing acute (´) into a space and a mark.
        text = "".join(ch for ch in text if ch not in _APOSTROPHES)
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFKC", text).casefold())
    out: list[str] = []
    for ch in text:
        ch = language.read_as.get(ch, ch)
        if ch == "&":
            out.append(f" {language.and_word} ")
        elif ch in language.own_letters or (language.keep_accents and len(ch) == 1 and ch.isalpha()):
            out.append(ch)
        else:
            for part in unicodedata.normalize("NFD", ch):
                category = unicodedata.category(part)
                if category[0] in "LN" or category == "So":  # letters, digits, emoji
                    out.append(part)
                elif category[0] != "M":  # marks go; punctuation and the rest part words
                    out.append(" ")
    words = "".join(out).split()
    if language.elided:
        while len(words) > 1 and words[0] in language.articles:  # "de la", "de l'"
            words = words[1:]
    elif len(words) > 1 and words[0] in language.articles:
        words = words[1:]
    numbers = language.numbers
    phrase = " ".join(words)
    if phrase in numbers:
        return numbers[phrase]
    return " ".join(numbers.get(word, word) for word in words)


# --- one word ----------------------------------------------------------------------


_VOWELS = frozenset("aeiouyæøåäöüéèêàâîïôûù")


def _fold(word: str) -> str:
    """``word`` without its accents (for French, whose keys keep them)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if unicodedata.category(ch) != "Mn")


def _accents(word: str) -> str:
    return "".join(ch for ch in word if ch.isalpha() and not ch.isascii())


def _restore_ascii(word: str, language: Language) -> str:
    """ "jordbaer" -> "jordbær": the language's letters written the international way."""
    if not language.ascii or any(ch in language.own_letters for ch in word):
        return word
    for pair, letter in language.ascii.items():
        word = word.replace(pair, letter)
    return word


@lru_cache(maxsize=65536)
def _candidates(word: str, lang: str) -> frozenset[str]:
    """Forms the word may be an inflection of (itself included): a generous guess."""
    language = LANGUAGES[lang]
    found = {word}
    restored = _restore_ascii(word, language)
    if restored != word:
        found.add(restored)
    for form in list(found):
        irregular = language.irregular.get(form)
        if irregular:
            found.add(irregular)
            continue  # "bøger" is "bog", not "bøg" (beech) with an ending
        if lang == "en":
            found |= _english(form)
        elif lang == "fi":
            found |= _finnish(form)
        elif lang == "fr":
            if len(form) >= 4 and form[-1] in "sx":
                found.add(form[:-1])  # côtes -> côte, bijoux -> bijou
        else:
            found |= _nordic(form, language)
    return frozenset(found)


def _english(word: str) -> set[str]:
    forms = set()
    if word.endswith("s") and not word.endswith("ss") and len(word) >= 4:
        forms.add(word[:-1])
    if word.endswith("es") and len(word) >= 5:
        forms.add(word[:-2])
    if word.endswith("ies") and len(word) >= 5:
        forms.add(word[:-3] + "y")
    if word.endswith("ves") and len(word) >= 5:
        forms.update((word[:-3] + "f", word[:-3] + "fe"))
    return forms


def _spellings(word: str, lang: str) -> set[str]:
    """Other spellings of one word: British ones as American ("neighbour" -> "neighbor")."""
    if lang != "en":
        return set()
    forms = set()
    if word.endswith("our") and len(word) >= 6:
        forms.add(word[:-3] + "or")
    if word.endswith("re") and len(word) >= 6 and word[-3] not in _VOWELS:
        forms.add(word[:-2] + "er")  # centre -> center, theatre -> theater
    return forms


# Finnish consonant gradation: the weak grade of an inflected form -> the strong grade.
_FI_STRONG = (("ng", "nk"), ("nn", "nt"), ("ll", "lt"), ("mm", "mp"), ("rr", "rt"), ("d", "t"), ("v", "p"))


def _finnish(word: str) -> set[str]:
    """Finnish plural, genitive and partitive endings, -nen and -in stems, gradation."""
    forms = set()
    if len(word) >= 5 and word[-1] in "tn" and word[-2] in _VOWELS:
        forms.add(word[:-1])  # koirat, koiran -> koira
    if len(word) >= 5 and word[-1] in "aä" and word[-2] in _VOWELS:
        forms.add(word[:-1])  # kahvia -> kahvi, leipää -> leipä
    if len(word) >= 6 and word[-2:] in ("ta", "tä") and word[-3] in _VOWELS:
        forms.add(word[:-2])  # suklaata -> suklaa
    for ending in ("set", "sen", "sia", "siä"):
        if len(word) >= 6 and word.endswith(ending):
            forms.add(word[: -len(ending)] + "nen")  # hevoset -> hevonen
    for ending in ("imet", "imen", "imia", "imiä"):
        if len(word) >= 7 and word.endswith(ending):
            forms.add(word[: -len(ending)] + "in")  # puhelimet -> puhelin
    for form in list(forms):
        if len(form) >= 4 and form[-2] in "kpt" and form[-3] in _VOWELS and form[-1] in _VOWELS:
            forms.add(form[:-1] + form[-2] + form[-1])  # sukat -> suka -> sukka
        for weak, strong in _FI_STRONG:
            cut = len(form) - 1 - len(weak)
            if cut >= 2 and form[-1] in _VOWELS and form[cut:-1] == weak and form[cut - 1] in _VOWELS | {"l", "n", "r"}:
                forms.add(form[:cut] + strong + form[-1])  # kengät -> kengä -> kenkä
    return forms


# The plural -er of some Nordic nouns changes their last vowel: Swedish "land" ->
# "länder", Norwegian "strand" -> "strender", Danish "and" -> "ænder", "bonde" ->
# "bønder". Taken back only where the stem is no word of its own ("hester" is "hest"'s).
_UMLAUT_BACK = {
    "sv": {"ä": "a", "ö": "o"},
    "nb": {"e": "a", "ø": "o"},
    "da": {"æ": "a", "ø": "o"},
}


def _umlaut_back(stem_: str, lang: str) -> set[str]:
    back = _UMLAUT_BACK.get(lang, {})
    for i in range(len(stem_) - 1, -1, -1):
        if stem_[i] in _VOWELS:
            if stem_[i] in back:
                return {stem_[:i] + back[stem_[i]] + stem_[i + 1 :]}
            return set()
    return set()


def _nordic(word: str, language: Language) -> set[str]:
    """Plural and definite endings of Danish, Norwegian and Swedish nouns."""
    keep = kept_words(language.code)[1]
    forms = set()
    for suffix in language.suffixes:
        if not word.endswith(suffix) or len(word) - len(suffix) < 2:
            continue
        swedish_r = language.code == "sv" and suffix == "r" and word[-2] in _VOWELS  # sko-r
        if len(suffix) == 1 and suffix not in "ea" and word[-2] != "e" and not swedish_r:
            continue  # a lone -r, -n, -t only after e: kage-r, kage-n, æble-t
        if suffix in ("er", "r") and word in keep:
            continue  # "fisker" is a fisherman, not fishes
        stem_ = word[: -len(suffix)]
        forms.add(stem_)
        if suffix.startswith("er") and not is_headword(stem_, language.code):
            forms |= _umlaut_back(stem_, language.code)  # stränder -> strand, ender -> and
        if len(stem_) >= 3 and stem_[-1] == stem_[-2] and stem_[-1] not in _VOWELS:
            forms.add(stem_[:-1])  # katte -> kat, busser -> bus
        if len(stem_) >= 3 and stem_[-1] in "lnr" and stem_[-2] not in _VOWELS:
            forms.add(stem_[:-1] + "e" + stem_[-1])  # cykler -> cykel, tigre -> tiger
            forms.add(stem_[:-1] + stem_[-2] + "e" + stem_[-1])  # sykler -> sykkel
    return forms


@lru_cache(maxsize=65536)
def _known_words(word: str, lang: str) -> frozenset[str]:
    """The words of the common-word list that ``word`` is a form of."""
    words = kept_words(lang)[0]
    if word in words:
        return frozenset((word,))  # a word of the list is itself: "bille" is not "bil" + e
    return frozenset(form for form in _candidates(word, lang) if form in words)


def _known_form(word: str, lang: str) -> str:
    keep = kept_words(lang)[1]
    stemmed = stem(word, lang)
    if word in keep or len(known_stems(lang).get(stemmed, ())) > 1:
        return "=" + word  # its stem is another known word's too: "côte", "côté"
    return stemmed


@lru_cache(maxsize=65536)
def _forms(word: str, lang: str) -> frozenset[str]:
    """The stems ``word`` may have: those of the known words it is a form of, if any."""
    known = _known_words(word, lang)
    if known:
        return frozenset(_known_form(form, lang) for form in known)
    return frozenset(stem(form, lang) for form in _candidates(word, lang))


def _is_known(word: str, lang: str) -> bool:
    if _known_words(word, lang):
        return True
    stems = known_stems(lang)
    return any(stem(form, lang) in stems for form in _candidates(word, lang))


def _misspelt(a: str, b: str, lang: str) -> bool:
    language = LANGUAGES[lang]
    shorter = min(len(a), len(b))
    if shorter < language.typo_from or a[0] != b[0] or not (a.isalpha() and b.isalpha()):
        return False
    limit = 2 if shorter >= 9 else 1
    if abs(len(a) - len(b)) > limit:
        return False
    own = language.own_letters
    if [ch for ch in a if ch in own] != [ch for ch in b if ch in own]:
        return False  # a typo never turns "skole" into "skåle"
    if _is_known(a, lang) and _is_known(b, lang):
        return False
    return OSA.distance(a, b, score_cutoff=limit) <= limit


@lru_cache(maxsize=65536)
def _lemma_forms(word: str, lang: str) -> frozenset[str]:
    """The word, its lemma, and the forms the hand rules take it for.

    A headword ("dame", "clothes") keeps no ending the rules would take off: "dame"
    (lady) is not "dam" (pond) + e. Its irregular forms and the listed words the rules
    take it for still count.
    """
    found = {word, _lemma(word, lang)} | _spellings(word, lang)
    if is_headword(word, lang):
        # Only its irregular forms and the listed words the rules take it for: Danish
        # "fingre" is a verb for simplemma, and the plural of the listed "finger".
        irregular = LANGUAGES[lang].irregular.get(word)
        candidates: frozenset[str] = frozenset({irregular} if irregular else ()) | _known_words(word, lang)
    else:
        candidates = _candidates(word, lang)
    # The rules' forms themselves, not simplemma's lemmas of them: a rule's guess ("kass"
    # from "kassa") may be a form of another word in simplemma ("kasse").
    found.update(candidates)
    return frozenset(found)


def _lemma(word: str, lang: str) -> str:
    """simplemma's lemma of ``word``; a word of the hand-kept list is its own lemma.

    The list keeps base words that simplemma's dictionary takes for forms of others:
    Danish "sukker" (sugar) is not a form of "sukke" (to sigh), Swedish "kasse" (a bag)
    not one of "kassa" (a till).
    """
    if word in kept_words(lang)[0]:
        return word
    return lemma(word, lang)


def _typed_bare(a: str, b: str, lang: str) -> bool:
    """Whether the word without accents may be the other typed without them.

    Not where both are words of simplemma's dictionary and the bare one is the more
    frequent ("mur" is a wall, not "mûr" typed bare; "sur" is not "sûr"); yes where
    the bare one is no word ("cafe") or the rarer of the two ("cote" ~ "côte",
    "foret" ~ "forêt": mostly the accented word typed without accents). Pairs that the
    frequencies get wrong ("tache", "tâche") are in the hand-kept list.
    """
    if not (in_dictionary(a, lang) and in_dictionary(b, lang)):
        return True
    bare, accented = (b, a) if _accents(a) else (a, b)
    ranks = frequency_ranks(lang)
    return ranks.get(bare, len(ranks)) > ranks.get(accented, len(ranks))


# The plain vowel each of the Nordic and Finnish own letters is typed as without its
# mark ("ä" and "ö" typed without dots, "å" without its ring, "æ", "ø").
_PLAIN = {"ä": "a", "ö": "o", "å": "a", "æ": "a", "ø": "o"}
# Where a word typed without the dots is read as the dotted word (rule 3 of brief 32d):
# Finnish and Swedish, whose ä and ö are the letters a keyboard without them drops.
_DOTLESS = {"fi": {"ä": "a", "ö": "o"}, "sv": {"ä": "a", "ö": "o"}}


def _own_letter_apart(a: str, b: str, language: Language) -> bool:
    """Whether ``a`` and ``b`` differ only where one has an own letter and the other
    the plain vowel ("bär", "bar"; "tämä", "tama")."""
    if len(a) != len(b) or a == b:
        return False
    own = language.own_letters
    for x, y in zip(a, b):
        if x == y:
            continue
        if not ((x in own and _PLAIN.get(x) == y) or (y in own and _PLAIN.get(y) == x)):
            return False
    return True


def _dotless(word: str, lang: str) -> str:
    table = _DOTLESS[lang]
    return "".join(table.get(ch, ch) for ch in word)


def _typed_without_dots(bare: str, dotted: str, lang: str) -> bool:
    """Whether ``bare`` is ``dotted`` (or a form of it) typed without its dots.

    Only where the bare spelling is no word of its own: "jaatelo" is "jäätelö", but
    "tama" (a word) is not "tämä".
    """
    if lang not in _DOTLESS or any(ch in _DOTLESS[lang] for ch in bare):
        return False
    if not any(ch in _DOTLESS[lang] for ch in dotted) or in_lexicon(bare, lang) or not in_lexicon(dotted, lang):
        return False
    readings = {_dotless(form, lang) for form in _lemma_forms(dotted, lang) | {dotted}}
    return not readings.isdisjoint(_candidates(bare, lang))


# French feminine nouns of people and animals -> their masculine (rule 4 of brief 32d):
# "chanteuse" -> "chanteur", "actrice" -> "acteur", "chienne" -> "chien".
_FR_FEMININE = (
    ("trice", "teur"),
    ("euse", "eur"),
    ("ière", "ier"),
    ("ienne", "ien"),
    ("onne", "on"),
    ("elle", "el"),
    ("ère", "er"),
    ("ve", "f"),
    ("se", "x"),
)


def _masculine(word: str, lang: str) -> set[str]:
    """The masculine nouns ``word`` may be the feminine of (French only).

    The masculine is a word of simplemma's dictionary of 4+ letters; outside the endings
    of doers and trades (-eur, -ier, -ien) the feminine is also the rarer of the two (the
    marked form: "colonne", a column, is no she-"colon").
    """
    if lang != "fr":
        return set()
    ranks = frequency_ranks(lang)
    found = set()
    for feminine, masculine in _FR_FEMININE:
        if word.endswith(feminine):
            form = word[: -len(feminine)] + masculine
            agent = masculine.endswith(("eur", "ier", "ien"))  # names of a doer or a trade
            if (
                len(form) >= 4
                and in_dictionary(form, lang)
                and (agent or ranks.get(word, len(ranks)) > ranks.get(form, len(ranks)))
            ):
                found.add(form)
    return found


def _gender_pair(a: str, b: str, lang: str) -> bool:
    if lang != "fr":
        return False
    forms_a = {a, _lemma(a, lang)} | _candidates(a, lang)
    forms_b = {b, _lemma(b, lang)} | _candidates(b, lang)
    for x, y in ((forms_a, forms_b), (forms_b, forms_a)):
        if any(not _masculine(form, lang).isdisjoint(y) for form in x):
            return True
    return False


def _undoubled(word: str, lang: str) -> frozenset[str]:
    """The forms the doubled-consonant rule alone takes ``word`` for ("matte" -> "mat")."""
    language = LANGUAGES[lang]
    if lang not in _UMLAUT_BACK:
        return frozenset()
    found = set()
    for suffix in language.suffixes:
        stem_ = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem_) >= 3 and stem_[-1] == stem_[-2] and stem_[-1] not in _VOWELS:
            found.add(stem_[:-1])
    return frozenset(found)


def _rule_forms(a: str, b: str, lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The lemma forms of ``a`` and ``b`` to compare.

    A form rule that doubles a consonant before an ending never takes one word of the
    frequency list for a form of another unless their lemmas agree: Norwegian "matte"
    (mathematics) is no form of "mat" (food), as "katte" is of "kat".
    """
    forms_a, forms_b = _lemma_forms(a, lang), _lemma_forms(b, lang)
    frequent = frequency_ranks(lang)
    if a in frequent and b in frequent and _lemma(a, lang) != _lemma(b, lang):
        forms_a = forms_a - (_undoubled(a, lang) - {_lemma(a, lang)})
        forms_b = forms_b - (_undoubled(b, lang) - {_lemma(b, lang)})
    return forms_a, forms_b


@lru_cache(maxsize=65536)
def _same_word(a: str, b: str, lang: str) -> bool:
    if a == b:
        return True
    language = LANGUAGES[lang]
    irregular = language.irregular
    if (
        _own_letter_apart(a, b, language)
        and irregular.get(a) != b
        and irregular.get(b) != a
        and in_lexicon(a, lang)
        and in_lexicon(b, lang)
    ):
        return False  # "bär" (berry) and "bar" are two words, whatever their lemmas ("mænd" is listed)
    if _typed_without_dots(a, b, lang) or _typed_without_dots(b, a, lang):
        return True  # "jaatelo" is "jäätelö" typed without dots
    if _gender_pair(a, b, lang):
        return True  # "chienne" is the feminine of "chien"
    known_a, known_b = _known_words(a, lang), _known_words(b, lang)
    if known_a and known_b and known_a.isdisjoint(known_b):
        return False  # two different words of the list: "house", "horses"
    forms_a, forms_b = _rule_forms(a, b, lang)
    if not forms_a.isdisjoint(forms_b):
        return True  # one lemma, or an inflection the rules know: "kädet" ~ "käsi"
    # Two words the lexicons know, with no lemma or inflection in common, are two
    # words: a shared stem ("mato", "matto": the Finnish stemmer drops a double
    # letter) or a letter apart ("dinner", "diner") does not join them.
    words = in_lexicon(a, lang) and in_lexicon(b, lang)
    if not words and not _forms(a, lang).isdisjoint(_forms(b, lang)):
        return True
    if LANGUAGES[lang].keep_accents and bool(_accents(a)) != bool(_accents(b)) and _typed_bare(a, b, lang):
        # French written without accents matches the accented word: "cafe", "café".
        folded_a = {stem(_fold(form), lang) for form in _candidates(a, lang)}
        folded_b = {stem(_fold(form), lang) for form in _candidates(b, lang)}
        if not folded_a.isdisjoint(folded_b):
            return True
    return not words and _misspelt(a, b, lang)


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
    return not _forms(compact_a, lang).isdisjoint(_forms(compact_b, lang))


def _base_word(word: str, lang: str) -> str:
    """The base word a form key names for ``word`` ("" for a word no lexicon knows).

    A word of the hand-kept list is its own; a word the lexicons know has its lemma, or
    where simplemma knows it only as itself, the listed word or headword a rule takes
    it for ("tigre" -> "tiger"); another word is a form of a listed word, or of none.
    """
    if word in kept_words(lang)[0]:
        return word
    lexicon = in_lexicon(word, lang)
    base = _lemma(word, lang)
    if base[: len(word)] != word and _own_letter_apart(word, base[: len(word)], LANGUAGES[lang]):
        base = word  # Swedish "bar" is no form of "bära" for the key: "bär" is that
    if lexicon and base != word:
        return base
    known = sorted(_known_words(word, lang))
    if known:
        return known[0]  # "fingre" -> "finger", a listed word
    if not lexicon:
        return ""
    if is_headword(word, lang):
        return word  # "dame" is no form of "dam"
    headwords = sorted(form for form in _candidates(word, lang) if form != word and is_headword(form, lang))
    return headwords[0] if headwords else word


@lru_cache(maxsize=16384)
def form_key(key: str, lang: str) -> str:
    """What every form of a normalised answer has in common: its words' lemmas or stems.

    "sofas" and "sofa" have one form key, "couches" and "couch" another; the rulings
    of a game hold for every key of a form key. A word the lexicons or the hand-kept
    list know has its base word ("=sofa", see ``_base_word``), another word its stem;
    French stems keep a mark of the accents (French stems drop them).
    """
    language = _lang(lang)
    parts = []
    for word in key.split():
        word = language.irregular.get(word, word)
        base = _base_word(word, lang)
        if base:
            part = "=" + base
        else:
            part = stem(word, lang)
            if language.keep_accents and _accents(word):
                part = f"{part}~{_accents(word)}"
        parts.append(part)
    return " ".join(parts)


# --- a game's rulings --------------------------------------------------------------


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Equivalences:
    """The turn holders' rulings so far in one game, on normalised keys.

    ``same``: ``(key, key it was ruled equal to)`` links; following them from a key
    ends at its canonical key. ``apart``: pairs of keys ruled different. Both are
    sorted tuples, so equal rulings compare equal and serialise as lists (the layout
    has not changed since the first stored games: old states load as they are).

    The rulings hold for every form of the keys (``form_key``): keys linked by
    ``same`` join their forms' classes; a pair in ``apart`` keeps those classes
    apart while they differ. Two keys of one form (a split of "apple" from
    "apples") are kept apart by key, not by form. See ``RulingView``.
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

    def split(self, part: Iterable[str], rest: Iterable[str], lang: str) -> Equivalences:
        """Rule the keys of ``part`` different from those of ``rest``, on every form.

        Where the two sides' words have different forms, every key of a ``part``
        form leaves the class it was merged into (whatever form of it was merged),
        and the other keys of that class stay with ``rest``. Where the sides share a
        form ("apple", "apples"), the keys themselves are kept apart. Nothing when a
        key is on both sides: identical answers told apart in one round (the same
        word meant two ways) cannot be told apart by key in later rounds.
        """
        part, rest = {k for k in part if k}, {k for k in rest if k}
        if not part or not rest or part & rest:
            return self
        links = dict(self.same)
        forms_part = {form_key(key, lang) for key in part}
        forms_rest = {form_key(key, lang) for key in rest}
        sides: list[set[str]] = []
        if forms_part & forms_rest:
            sides = [part, rest]
        else:
            view = ruling_view(self, lang)
            involved = {view.find(form) for form in forms_part} & {view.find(form) for form in forms_rest}
            if involved:  # merged earlier, on these forms or others: undo it for every form
                keys = {key for key in view.keys if view.find(form_key(key, lang)) in involved}
                moved = part | {key for key in keys if form_key(key, lang) in forms_part}
                stay = (rest | keys) - moved
                for key in moved | stay:
                    links.pop(key, None)
                sides = [moved, stay]
        for side in sides:
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


@dataclass(frozen=True)
class RulingView:
    """A game's rulings read in one language: classes of forms, and what is apart.

    ``node(key)`` names the class an answer's key belongs to: its form's class, or
    the key's own canonical key where a ruling parted it from another key of the
    same form. ``ruled(node)``: the keys ruled into a class (so that an answer
    matching any of them joins it). ``apart(a, b)``: whether two classes were ruled
    different.
    """

    lang: str
    parent: dict[str, str]
    keys: frozenset[str]
    by_key: dict[str, str]  # key -> canonical key, for keys parted from their form
    ruled_keys: dict[str, frozenset[str]]
    apart_nodes: frozenset[frozenset[str]]

    def find(self, form: str) -> str:
        while self.parent.get(form, form) != form:
            form = self.parent[form]
        return form

    def node(self, key: str) -> str:
        if key in self.by_key:
            return "key:" + self.by_key[key]
        return self.find(form_key(key, self.lang))

    def ruled(self, node: str) -> frozenset[str]:
        return self.ruled_keys.get(node, frozenset())

    def apart(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.apart_nodes


@lru_cache(maxsize=256)
def ruling_view(rulings: Equivalences, lang: str) -> RulingView:
    parent: dict[str, str] = {}

    def find(form: str) -> str:
        while parent.get(form, form) != form:
            form = parent[form]
        return form

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    keys = {key for pair in (*rulings.same, *rulings.apart) for key in pair}
    for key, target in rulings.same:
        union(form_key(key, lang), form_key(target, lang))
    parent = {form: find(form) for form in {form_key(key, lang) for key in keys} | set(parent)}

    # Key-level rulings: two keys of one form ruled apart (and not merged again since).
    by_key: dict[str, str] = {}
    key_apart = []
    form_apart = []
    for a, b in rulings.apart:
        fa, fb = form_key(a, lang), form_key(b, lang)
        if fa == fb:
            ca, cb = rulings.canonical(a), rulings.canonical(b)
            if ca != cb:
                key_apart.append((ca, cb))
        elif find(fa) != find(fb):
            form_apart.append((find(fa), find(fb)))
    parted = {key for pair in key_apart for key in pair}
    for key in keys:
        canon = rulings.canonical(key)
        if canon in parted:
            by_key[key] = canon
    for key in parted:
        by_key[key] = key

    def node(key: str) -> str:
        return "key:" + by_key[key] if key in by_key else find(form_key(key, lang))

    ruled: dict[str, set[str]] = {}
    for key in keys:
        ruled.setdefault(node(key), set()).add(key)
    apart_nodes = {frozenset(pair) for pair in form_apart}
    apart_nodes |= {frozenset(("key:" + a, "key:" + b)) for a, b in key_apart}
    return RulingView(
        lang=lang,
        parent=parent,
        keys=frozenset(keys),
        by_key=by_key,
        ruled_keys={node_: frozenset(found) for node_, found in ruled.items()},
        apart_nodes=frozenset(apart_nodes),
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

    Answers whose keys the rulings put in one class (by form, see ``Equivalences``)
    are one node. Nodes are taken from the most answered down; a node joins the
    largest group whose every node it matches and none of which it was ruled apart
    from; else it starts a group. Two nodes match when every answer of one matches
    every answer of the other by ``same_answer``, or when an answer matches a key
    ruled into the other's class (the turn holder's word binds: "sofas" joins a
    class where "sofa" and "couch" were merged). No chaining: "a" ~ "b" and "b" ~ "c" do not put "a" and
    "c" in one group unless "a" ~ "c". The result does not depend on the order of
    ``answers``.
    """
    _lang(lang)
    view = ruling_view(equivalences or Equivalences(), lang)
    nodes: dict[str, list[tuple[Item, str]]] = {}
    for seat, index, text in answers:
        key = normalize(text, lang)
        if key:
            nodes.setdefault(view.node(key), []).append(((seat, index), key))
    keys = {node: {key for _, key in given} | view.ruled(node) for node, given in nodes.items()}

    def weight(node: str) -> tuple:
        given = nodes[node]
        return (-len({seat for (seat, _), _ in given}), -len(given), min(key for _, key in given), node)

    def matches(a: str, b: str) -> bool:
        """Every answer of one matches every answer of the other, or a ruled key matches."""
        if view.apart(a, b):
            return False
        given_a, given_b = {key for _, key in nodes[a]}, {key for _, key in nodes[b]}
        if all(same_answer(x, y, lang) for x in given_a for y in given_b):
            return True
        ruled_a, ruled_b = view.ruled(a), view.ruled(b)
        return any(
            same_answer(x, y, lang) for x in sorted(keys[a]) for y in sorted(keys[b]) if x in ruled_a or y in ruled_b
        )

    clusters: list[list[str]] = []
    for node in sorted(nodes, key=weight):
        fitting = [cluster for cluster in clusters if all(matches(node, other) for other in cluster)]
        if fitting:
            fitting[0].append(node)  # the first: the one with the most answered head
        else:
            clusters.append([node])

    groups = []
    for cluster in clusters:
        given = [pair for node in cluster for pair in nodes[node]]
        counts: dict[str, set[int]] = {}
        for (seat, _), key in given:
            counts.setdefault(key, set()).add(seat)
        name = min(counts, key=lambda key: (-len(counts[key]), key))
        groups.append((name, tuple(sorted(item for item, _ in given))))
    ranked = sorted(groups, key=lambda pair: (-len({seat for seat, _ in pair[1]}), -len(pair[1]), pair[0]))
    return tuple(Group(id=n, key=key, items=items) for n, (key, items) in enumerate(ranked, start=1))
