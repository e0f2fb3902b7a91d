"""A gazetteer of place names from WordNet 3.0, for telling places the NER calls persons.

WordNet files every noun sense under a lexicographer file: ``noun.location`` (15: countries,
cities, regions — Spain, Nantucket, Cincinnati), ``noun.object`` (17: rivers, mountains, islands —
the Seine, the Andes) and ``noun.person`` (18). A capitalised lemma with a sense in 15 or 17 and
none in 18 names a place and never a person (``Paris``, ``Washington`` and ``Lincoln`` have person
senses and are left out). The list is shipped as ``nlp/data/places.json``
(``beyondfind nlp gazetteer`` rebuilds it) with WordNet's licence beside it; first names are
excluded where it is used (:mod:`beyondfind.nlp.name_evidence`), since Florence and Georgia are
people in novels.

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

PLACE_FILES = frozenset({15, 17})   # noun.location, noun.object
PERSON_FILE = 18                    # noun.person
BEING_FILES = frozenset({PERSON_FILE, 5})   # noun.person, noun.animal
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "places.json"
SHIPPED_BEINGS = SHIPPED.parent / "beings.json"
WORDNET = Path("nltk_data") / "extra" / "corpora" / "wordnet"


def lemma_files(data_noun: Path) -> dict[str, set[int]]:
    """Each noun lemma of WordNet's ``data.noun`` → the lexicographer files of its senses."""
    out: dict[str, set[int]] = defaultdict(set)
    with data_noun.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):   # the licence header
                continue
            fields = line.split()
            lexfile, count = int(fields[1]), int(fields[3], 16)
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


def being_words(files: dict[str, set[int]]) -> list[str]:
    """Lower-cased one-word nouns, letters only, with a person or animal sense (``farmer``, ``jew``,
    ``dormouse``, ``god``)."""
    return sorted({lemma.lower() for lemma, lexfiles in files.items()
                   if lexfiles & BEING_FILES and "_" not in lemma and lemma.replace("-", "").isalpha()})


def build_gazetteer(data: Path, output: Path = SHIPPED) -> int:
    """Write the gazetteer from ``data`` (the shared data folder) to ``output``, the being nouns
    beside it (``beings.json``) with WordNet's licence; returns the number of place names."""
    wordnet = data / WORDNET
    files = lemma_files(wordnet / "data.noun")
    names = place_names(files)
    _write_words(output.parent / SHIPPED_BEINGS.name, "beings", being_words(files),
                 "one-word noun lemmas with a noun.person or noun.animal sense")
    _write_words(output, "places", names, "noun.location and noun.object lemmas without a noun.person sense")
    shutil.copyfile(wordnet / "LICENSE", output.parent / "wordnet-LICENSE.txt")
    return len(names)


def _write_words(path: Path, field: str, words: list[str], what: str) -> None:
    path.write_text(json.dumps({"source": f"WordNet 3.0 (Princeton University), {what}; see wordnet-LICENSE.txt",
                                field: words}, indent=0) + "\n", encoding="utf-8")
