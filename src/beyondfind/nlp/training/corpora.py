"""Convert the openly licensed corpora in ``shared/data`` to spaCy's binary training format.

* LitBank entities (``litbank/entities/tsv``): the *outermost* spans over all nested layers become
  ``doc.ents`` (PER, LOC, GPE, FAC, ORG, VEH). Split: the 100 files sorted by name, file ``i`` goes
  to **test** if ``i % 10 == 0``, **dev** if ``i % 10 == 1``, else **train** (80/10/10).
* Syntax: GUM (``gum-ud/dep``) plus UD EWT *dev* for training; every 10th GUM file is the dev set;
  UD EWT *test* is held out for ``beyondfind nlp evaluate`` only.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

LITBANK_LABELS = ("PER", "LOC", "GPE", "FAC", "ORG", "VEH")


@dataclass(frozen=True)
class LitbankSentence:
    words: tuple[str, ...]
    spans: tuple[tuple[int, int, str], ...]  # token [start, end) and label, outermost only


def litbank_split(data_dir: Path) -> dict[str, list[Path]]:
    """The fixed 80/10/10 split of LitBank's 100 entity files (see module docstring)."""
    files = sorted((data_dir / "litbank" / "entities" / "tsv").glob("*.tsv"))
    if not files:
        raise FileNotFoundError(f"no LitBank entity files under {data_dir / 'litbank'}")
    split: dict[str, list[Path]] = {"train": [], "dev": [], "test": []}
    for i, path in enumerate(files):
        split["test" if i % 10 == 0 else "dev" if i % 10 == 1 else "train"].append(path)
    return split


def _layer_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    spans, start, label = [], None, None
    for i, tag in enumerate(tags + ["O"]):
        if tag.startswith("B-") or tag == "O" or (tag.startswith("I-") and tag[2:] != label):
            if start is not None:
                spans.append((start, i, label))
                start, label = None, None
            if tag.startswith(("B-", "I-")):
                start, label = i, tag[2:]
    return spans


def outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Spans not strictly contained in another span (ties: the first layer wins)."""
    keep = []
    for s in spans:
        if any(o != s and o[0] <= s[0] and s[1] <= o[1] and (o[1] - o[0]) > (s[1] - s[0]) for o in spans):
            continue
        if any(k[0] == s[0] and k[1] == s[1] for k in keep):
            continue
        keep.append(s)
    # overlapping but not nested spans (rare): keep the longer
    keep.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    result: list[tuple[int, int, str]] = []
    for s in keep:
        if result and s[0] < result[-1][1]:
            continue
        result.append(s)
    return result


def read_litbank_tsv(path: Path) -> list[LitbankSentence]:
    sentences, rows = [], []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if rows:
                words = [r[0] for r in rows]
                n_layers = max(len(r) for r in rows) - 1
                spans = []
                for layer in range(1, n_layers + 1):
                    tags = [r[layer] if layer < len(r) and r[layer] else "O" for r in rows]
                    spans += _layer_spans(tags)
                spans = [s for s in spans if s[2] in LITBANK_LABELS]
                sentences.append(LitbankSentence(tuple(words), tuple(outermost(spans))))
                rows = []
            continue
        rows.append(line.rstrip("\n").split("\t"))
    return sentences


def litbank_docs(paths: list[Path], vocab, sentences_per_doc: int = 10):
    """spaCy Docs (with gold ``ents`` and sentence starts) for the given LitBank files."""
    from spacy.tokens import Doc, Span

    for path in paths:
        sents = read_litbank_tsv(path)
        for i in range(0, len(sents), sentences_per_doc):
            chunk = sents[i : i + sentences_per_doc]
            words = [w for s in chunk for w in s.words]
            starts = []
            for s in chunk:
                starts += [True] + [False] * (len(s.words) - 1)
            doc = Doc(vocab, words=words, sent_starts=starts)
            ents, offset = [], 0
            for s in chunk:
                ents += [Span(doc, offset + a, offset + b, label=lab) for a, b, lab in s.spans]
                offset += len(s.words)
            doc.ents = ents
            yield doc


def syntax_split(data_dir: Path) -> dict[str, list[Path]]:
    gum = sorted((data_dir / "gum-ud" / "dep").glob("*.conllu"))
    ewt = data_dir / "ud-english-ewt"
    return {
        "train": [p for i, p in enumerate(gum) if i % 10 != 0] + [ewt / "en_ewt-ud-dev.conllu"],
        "dev": [p for i, p in enumerate(gum) if i % 10 == 0],
        "test": [ewt / "en_ewt-ud-test.conllu"],
    }


def conllu_docs(paths: list[Path], vocab, sentences_per_doc: int = 10):
    """spaCy Docs with tags, POS, morphology, lemmas, heads and deps from CoNLL-U files."""
    from spacy.tokens import Doc

    for path in paths:
        sents = []
        cur: list[list[str]] = []
        for line in path.read_text(encoding="utf-8").splitlines() + [""]:
            if not line.strip():
                if cur:
                    sents.append(cur)
                    cur = []
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue  # multi-word token ranges and empty nodes
            cur.append(cols)
        for i in range(0, len(sents), sentences_per_doc):
            chunk = sents[i : i + sentences_per_doc]
            words, spaces, tags, pos, lemmas, heads, deps, starts, morphs = [], [], [], [], [], [], [], [], []
            for sent in chunk:
                base = len(words)
                for j, c in enumerate(sent):
                    words.append(c[1])
                    spaces.append("SpaceAfter=No" not in c[9])
                    lemmas.append(c[2])
                    pos.append(c[3])
                    tags.append(c[4] if c[4] != "_" else c[3])
                    morphs.append("" if c[5] == "_" else c[5])
                    head = int(c[6])
                    heads.append(base + head - 1 if head > 0 else base + j)
                    deps.append("ROOT" if c[7] == "root" else c[7].split(":")[0])
                    starts.append(j == 0)
            yield Doc(vocab, words=words, spaces=spaces, tags=tags, pos=pos, lemmas=lemmas,
                      heads=heads, deps=deps, sent_starts=starts, morphs=morphs)


def write_docbin(docs, path: Path) -> int:
    from spacy.tokens import DocBin

    db = DocBin(store_user_data=False)
    n = 0
    for doc in docs:
        db.add(doc)
        n += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    db.to_disk(path)
    return n


def gendered_names(data_dir: Path) -> dict[str, list[str]]:
    """First names by gender from NLTK's ``names`` corpus (Kantrowitz & Ross)."""
    zpath = data_dir / "nltk_data" / "packages" / "corpora" / "names.zip"
    out: dict[str, list[str]] = {}
    with zipfile.ZipFile(zpath) as z:
        for gender, member in (("female", "names/female.txt"), ("male", "names/male.txt")):
            out[gender] = sorted({ln.strip() for ln in z.read(member).decode("utf-8").splitlines() if ln.strip()})
    return out
