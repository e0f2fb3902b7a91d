"""A gazetteer of place names from WordNet 3.0, for telling places the NER calls persons.

WordNet files every noun sense under a lexicographer file: ``noun.location`` (15: countries,
cities, regions — Spain, Nantucket, Cincinnati), ``noun.object`` (17: rivers, mountains, islands —
the Seine, the Andes) and ``noun.person`` (18). A capitalised lemma with a sense in 15 or 17 and
none in 18 names a place and never a person (``Paris``, ``Washington`` and ``Lincoln`` have person
senses and are left out). The list is shipped as ``nlp/data/places.json``
(``beyondfind nlp gazetteer`` rebuilds it) with WordNet's licence beside it; first names are
excluded where it is used (:mod:`beyondfind.nlp.name_evidence`), since Florence and Georgia are
people in novels.

``nlp/data/organisations.json`` lists the capitalised lemmas with a sense in ``noun.group`` (14)
and none in 15, 17 or 18, as WordNet writes them: institutions, agencies, parties, armed groups
("United Nations", "CIA", "Securities and Exchange Commission", "Hezbollah"), which the
fiction-trained NER misses or calls persons in news. A one-word name that is a function word
("WHO") or, unless an acronym ("SEC"), a lower-case noun lemma ("Bench", "Eight") is left out.

Beside it, ``nlp/data/beings.json`` lists the one-word nouns with a sense in ``noun.person`` or
``noun.animal`` (5): words that can name someone when a book writes them "the X" ("the Jew", "the
President", "the Dormouse"). A capitalised word a book mostly writes after "the" and that is no such
noun is a place, an institution or a thing ("the Republic", "the Bastille", "the Parsonage").
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

GROUP_FILE = 14                     # noun.group
PLACE_FILES = frozenset({15, 17})   # noun.location, noun.object
PERSON_FILE = 18                    # noun.person
BEING_FILES = frozenset({PERSON_FILE, 5})   # noun.person, noun.animal
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "places.json"
SHIPPED_BEINGS = SHIPPED.parent / "beings.json"
SHIPPED_ORGANISATIONS = SHIPPED.parent / "organisations.json"
STOPWORDS = SHIPPED.parent / "stopwords.json"
WORDNET = Path("nltk_data") / "extra" / "corpora" / "wordnet"


def lemma_files(data_file: Path, instances: bool = True) -> dict[str, set[int]]:
    """Each lemma of a WordNet data file (``data.noun``, ``data.verb``…) → the lexicographer files
    of its senses; ``instances=False`` leaves out the senses that are instances (an "@i" pointer:
    one person or place, as "Ritz", the hotelier, is one of ``noun.person``)."""
    out: dict[str, set[int]] = defaultdict(set)
    with data_file.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):   # the licence header
                continue
            fields = line.split()
            lexfile, count = int(fields[1]), int(fields[3], 16)
            if not instances:
                pointers = 4 + 2 * count
                if "@i" in fields[pointers + 1:pointers + 1 + 4 * int(fields[pointers]):4]:
                    continue
            for k in range(count):
                out[fields[4 + 2 * k]].add(lexfile)
    return out


def place_names(files: dict[str, set[int]]) -> list[str]:
    """Lower-cased place names: capitalised lemmas of three letters or more with a location or
    object sense and no person sense, letters only (``New_York`` → ``new york``)."""
    out = set()
    for lemma, lexfiles in files.items():
        words = lemma.split("_")
        if (lemma[:1].isupper() and lexfiles & PLACE_FILES and PERSON_FILE not in lexfiles and len(lemma) > 2
                and all(w.replace("'", "").replace("-", "").replace(".", "").isalpha() for w in words)):
            out.add(" ".join(words).lower())
    return sorted(out)


def organisation_names(files: dict[str, set[int]], function_words: frozenset[str] = frozenset()) -> list[str]:
    """Organisation names as WordNet writes them (``United_Nations`` → ``United Nations``, ``CIA``):
    capitalised lemmas of two letters or more with a group sense and no place or person sense,
    letters, dots, hyphens and apostrophes only. A one-word name that is one of ``function_words``
    (``WHO``, ``LET``: ``function_words`` holds the verbs and adverbs too, since novels set them in
    capitals for emphasis) or, unless an acronym (``SEC``), a lower-case noun lemma (``Bench``) is
    left out."""
    nouns = {lemma for lemma in files if lemma[:1].islower()}
    out = set()
    for lemma, lexfiles in files.items():
        words = lemma.split("_")
        common = lemma.lower() in function_words or (lemma.lower() in nouns and not lemma.isupper())
        letters = all(w.replace("'", "").replace("-", "").replace(".", "").isalpha() for w in words)
        if (lemma[:1].isupper() and GROUP_FILE in lexfiles and not lexfiles & (PLACE_FILES | {PERSON_FILE})
                and len(lemma) > 1 and letters and not (len(words) == 1 and common)):
            out.add(" ".join(words))
    return sorted(out)


def being_words(files: dict[str, set[int]]) -> list[str]:
    """Lower-cased one-word nouns, letters only, with a person or animal sense (``farmer``, ``jew``,
    ``dormouse``, ``god``); ``files`` without instances (:func:`lemma_files`), so that one person's
    name is none ("the Ritz" is a hotel, not the hotelier César Ritz)."""
    return sorted({lemma.lower() for lemma, lexfiles in files.items()
                   if lexfiles & BEING_FILES and "_" not in lemma and lemma.replace("-", "").isalpha()})


def build_gazetteer(data: Path, output: Path = SHIPPED) -> int:
    """Write the gazetteer from ``data`` (the shared data folder) to ``output``, the being nouns and
    organisations beside it (``beings.json``, ``organisations.json``) with WordNet's licence;
    returns the number of place names."""
    wordnet = data / WORDNET
    files = lemma_files(wordnet / "data.noun")
    names = place_names(files)
    _write_words(output.parent / SHIPPED_BEINGS.name, "beings",
                 being_words(lemma_files(wordnet / "data.noun", instances=False)),
                 "one-word noun lemmas with a noun.person or noun.animal sense that is no instance")
    _write_words(output, "places", names, "noun.location and noun.object lemmas without a noun.person sense")
    function_words = frozenset(json.loads(STOPWORDS.read_text(encoding="utf-8"))).union(
        *(lemma_files(wordnet / f"data.{pos}") for pos in ("verb", "adv")))
    _write_words(output.parent / SHIPPED_ORGANISATIONS.name, "organisations", organisation_names(files, function_words),
                 "capitalised noun.group lemmas without a noun.location, noun.object or noun.person sense")
    shutil.copyfile(wordnet / "LICENSE", output.parent / "wordnet-LICENSE.txt")
    return len(names)


def _write_words(path: Path, field: str, words: list[str], what: str) -> None:
    path.write_text(json.dumps({"source": f"WordNet 3.0 (Princeton University), {what}; see wordnet-LICENSE.txt",
                                field: words}, indent=0) + "\n", encoding="utf-8")
