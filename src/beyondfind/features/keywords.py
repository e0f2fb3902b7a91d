"""Informative keywords: words typical of passages that *introduce or describe* a character.

Mining (``beyondfind train keywords``; the result ships as ``features/data/keywords.json``):
sentences of the LitBank full texts that look like character descriptions — "<Name> was a/an/the …",
apposition "<Name>, a/an/the …", "<his/her> <kinship word>" — are compared with all sentences of the
same texts by Dunning's log-likelihood ratio (G²); the top words over-represented in description
sentences (lower-case, not stop words, not names) form the list. LitBank texts of any book in
``shared/data/books`` (which includes all six judged books) are excluded, so no evaluation book
contributes.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

KEYWORDS_FILE = Path(__file__).parent / "data" / "keywords.json"
# contractions written without an apostrophe in some LitBank texts ("didnt"), not content words
CONTRACTIONS = frozenset({"didnt", "wouldnt", "couldnt", "shouldnt", "dont", "cant", "wont", "isnt", "wasnt",
                          "hasnt", "havent", "hadnt", "arent", "werent", "doesnt", "hes", "hed", "shes", "thats",
                          "theres", "theyre", "youre", "ive", "youve", "weve", "theyve", "whats", "lets", "aint"})
_SENT = re.compile(r"[^.!?]+[.!?]")
_WORD = re.compile(r"[A-Za-z]+")
_NAME = r"(?:(?:Mr|Mrs|Miss|Dr|Sir|Lady|Lord|Captain|Colonel)\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+)?"
_DESCRIPTION = re.compile(
    rf"\b{_NAME}(?:,? (?:was|is|had been|had|became) (?:a|an|the|of|very|not|then)\b|, (?:a|an|the|who|whose) )"
    r"|\b(?:his|her) (?:father|mother|son|daughter|wife|husband|brother|sister|uncle|aunt|family|friend)\b")


def _g2(a: int, b: int, c: int, d: int) -> float:
    """Dunning's G² for a word seen a times in n1=c words (target) and b times in n2=d (reference)."""
    e1 = c * (a + b) / (c + d)
    e2 = d * (a + b) / (c + d)
    return 2 * ((a * math.log(a / e1) if a else 0) + (b * math.log(b / e2) if b else 0))


def mine_keywords(texts: list[str], stopwords: set[str], n: int = 50, min_count: int = 20) -> list[tuple[str, float]]:
    target, background = Counter(), Counter()
    capitalised = Counter()
    for text in texts:
        for m in _SENT.finditer(text.replace("\n", " ")):
            sent = m.group()
            words = _WORD.findall(sent)
            for w in words:
                if w[0].isupper():
                    capitalised[w.lower()] += 1
            low = [w.lower() for w in words]
            background.update(low)
            if _DESCRIPTION.search(sent):
                target.update(low)
    t_total, b_total = sum(target.values()), sum(background.values())
    scored = []
    for w, a in target.items():
        b = background[w] - a
        if a < min_count or w in stopwords or w in CONTRACTIONS or len(w) < 3 or capitalised[w] > 0.5 * background[w]:
            continue
        if a / t_total <= b / max(1, b_total - t_total):
            continue
        scored.append((w, _g2(a, b, t_total, b_total - t_total)))
    scored.sort(key=lambda x: -x[1])
    return scored[:n]


def litbank_texts_excluding(litbank_original: Path, books_dir: Path) -> list[Path]:
    excluded = {p.name.split("-")[0] for p in books_dir.glob("*.txt")} | {"2489"}  # Moby Dick's other PG id
    return sorted(p for p in litbank_original.glob("*.txt") if p.name.split("_")[0] not in excluded)


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    if not KEYWORDS_FILE.exists():
        return frozenset()
    return frozenset(json.loads(KEYWORDS_FILE.read_text())["keywords"])


def write_keywords(data_dir: Path, path: Path = KEYWORDS_FILE) -> list[tuple[str, float]]:
    stop = set(json.loads((Path(__file__).parent.parent / "nlp" / "data" / "stopwords.json").read_text()))
    files = litbank_texts_excluding(data_dir / "litbank" / "original", data_dir / "books")
    mined = mine_keywords([f.read_text(encoding="utf-8", errors="replace") for f in files], stop)
    path.write_text(json.dumps({"method": "G2 of description-like sentences vs all sentences, LitBank full texts "
                                          "minus books in shared/data/books", "n_texts": len(files),
                                "keywords": [w for w, _ in mined], "g2": [round(s, 1) for _, s in mined]}, indent=1))
    return mined
