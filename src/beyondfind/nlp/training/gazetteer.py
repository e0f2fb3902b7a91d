"""A gazetteer of place names from WordNet 3.0, for telling places the NER calls persons.

WordNet files every noun sense under a lexicographer file: ``noun.location`` (15: countries,
cities, regions — Spain, Nantucket, Cincinnati), ``noun.object`` (17: rivers, mountains, islands —
the Seine, the Andes) and ``noun.person`` (18). A capitalised lemma with a sense in 15 or 17 and
none in 18 names a place and never a person (``Paris``, ``Washington`` and ``Lincoln`` have person
senses and are left out). The list is shipped as ``nlp/data/places.json``
(``beyondfind nlp gazetteer`` rebuilds it) with WordNet's licence beside it; first names are
excluded where it is used (:mod:`beyondfind.nlp.name_evidence`), since Florence and Georgia are
people in novels.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

PLACE_FILES = frozenset({15, 17})   # noun.location, noun.object
PERSON_FILE = 18                    # noun.person
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "places.json"
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


def build_gazetteer(data: Path, output: Path = SHIPPED) -> int:
    """Write the gazetteer from ``data`` (the shared data folder) to ``output`` with WordNet's licence
    beside it; returns the number of names."""
    wordnet = data / WORDNET
    names = place_names(lemma_files(wordnet / "data.noun"))
    output.write_text(json.dumps({"source": "WordNet 3.0 (Princeton University), noun.location and noun.object "
                                            "lemmas without a noun.person sense; see wordnet-LICENSE.txt",
                                  "places": names}, indent=0) + "\n", encoding="utf-8")
    shutil.copyfile(wordnet / "LICENSE", output.parent / "wordnet-LICENSE.txt")
    return len(names)
