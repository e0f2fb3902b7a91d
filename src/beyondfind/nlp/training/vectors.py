"""Static subword vectors trained on the raw novels (floret), for the NER's tok2vec.

LitBank has ~200k annotated tokens; the raw novels in ``shared/data`` have ~15M. Vectors learned on
them tell the NER that ``Bingley`` behaves like ``Darcy`` before it has seen either annotated.

floret (Explosion's fastText fork) stores words *and* character n-grams in one hashed table of
``bucket`` rows, so an unseen name still gets a vector from its n-grams and the table stays small
(``bucket × dim × 4`` bytes: 20000 × 96 ≈ 7.7 MB). Case is kept: capitalisation is the strongest
name cue in English.

Texts: ``books/*.txt`` and ``litbank/original/*.txt`` except the books whose LitBank excerpts are
in the NER **test** split (:func:`corpora.litbank_split`), so the evaluation stays unseen.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import corpora

_GUTENBERG_ID = re.compile(r"^(\d+)[-_]")


@dataclass(frozen=True)
class VectorSettings:
    dim: int = 96
    bucket: int = 20000
    epochs: int = 5
    min_count: int = 5
    minn: int = 4
    maxn: int = 5
    hash_count: int = 2
    threads: int = 2


def _book_id(path: Path) -> str | None:
    m = _GUTENBERG_ID.match(path.name)
    return m.group(1) if m else None


def vector_texts(data_dir: Path) -> list[Path]:
    """Raw texts for the vectors: every novel except those behind LitBank's NER test excerpts."""
    held_out = {_book_id(p) for p in corpora.litbank_split(data_dir)["test"]}
    paths = sorted((data_dir / "books").glob("*.txt")) + sorted((data_dir / "litbank" / "original").glob("*.txt"))
    return [p for p in paths if _book_id(p) is not None and _book_id(p) not in held_out and "LICENSE" not in p.name]


def write_token_corpus(paths: list[Path], out: Path) -> int:
    """One paragraph per line, tokens as spaCy's English tokenizer splits them; returns the token count."""
    import spacy

    tokenizer = spacy.blank("en").tokenizer
    n = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for path in paths:
            text = path.read_text(encoding="utf-8", errors="replace")
            paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
            for doc in tokenizer.pipe(p for p in paragraphs if p):
                words = [t.text for t in doc if not t.is_space]
                n += len(words)
                fh.write(" ".join(words) + "\n")
    return n


def train_vectors(corpus: Path, out_dir: Path, settings: VectorSettings = VectorSettings()) -> Path:
    """Train floret vectors on ``corpus`` and convert them to a spaCy vectors directory."""
    try:
        import floret
    except ImportError:
        raise RuntimeError("training vectors needs floret: pip install 'beyondfind[train]'") from None

    model = floret.train_unsupervised(
        str(corpus), model="cbow", mode="floret", hashCount=settings.hash_count, bucket=settings.bucket,
        minn=settings.minn, maxn=settings.maxn, minCount=settings.min_count, dim=settings.dim,
        epoch=settings.epochs, thread=settings.threads, verbose=0)
    table = corpus.with_suffix(".floret")
    model.save_floret_vectors(str(table))
    subprocess.run([sys.executable, "-m", "spacy", "init", "vectors", "en", str(table), str(out_dir),
                    "--mode", "floret"], check=True, stdout=subprocess.DEVNULL)
    return out_dir
