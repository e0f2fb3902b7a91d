"""Convert the openly licensed corpora in ``shared/data`` to spaCy's binary training format.

* LitBank entities (``litbank/entities/tsv``): the *outermost* spans over all nested layers become
  ``doc.ents`` (PER, LOC, GPE, FAC, ORG, VEH). Split: the 100 files sorted by name, file ``i`` goes
  to **test** if ``i % 10 == 0``, **dev** if ``i % 10 == 1``, else **train** (80/10/10).
* Extra NER data, *partially* annotated so that it never contradicts LitBank's scheme (LitBank marks
  nominal mentions such as "the old man" as PER; news corpora do not):

  - UNER English EWT **dev** (:func:`uner_docs`): PER and ORG spans as such; LOC spans are left
    *missing* (LitBank splits places into LOC/GPE/FAC); tokens outside entities that could belong to a
    nominal mention (nouns, determiners, adjectives, numerals, possessive pronouns; UPOS from UD EWT
    dev, joined by ``sent_id``) are *missing*, all other tokens O. UNER **test** is held out.
  - GUM entities (:func:`gum_ner_docs`): outermost person → PER and organization → ORG mentions;
    place, object and animal mentions missing; pronoun mentions O (LitBank does not mark them).

* Syntax: GUM (``gum-ud/dep``) plus UD EWT *dev* for training; every 10th GUM file is the dev set;
  UD EWT *test* is held out for ``beyondfind nlp evaluate`` only.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from ...datasets.gum import read_conllu_sentences, sentence_mentions

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


_MAYBE_NOMINAL = frozenset({"NOUN", "DET", "ADJ", "NUM"})


def _partial_doc(vocab, words: list[str], sent_starts: list[bool], iob: list[str]):
    """A Doc whose entity annotation is ``iob`` (``B-X``/``I-X``/``O``/``-`` for missing)."""
    from spacy.tokens import Doc

    return Doc(vocab, words=words, sent_starts=sent_starts, ents=[None if t == "-" else t for t in iob])


def _missing_if_nominal(upos: str, feats: str) -> bool:
    return upos in _MAYBE_NOMINAL or (upos == "PRON" and "Poss=Yes" in feats)


def uner_docs(iob2: Path, conllu: Path, vocab, sentences_per_doc: int = 10):
    """UNER EWT sentences as partially annotated Docs (see the module docstring)."""
    upos = {sid: rows for sid, rows in read_conllu_sentences(conllu)}
    sentences = []
    for sid, rows in read_conllu_sentences(iob2):
        ud = upos.get(sid)
        if ud is None or len(ud) != len(rows):
            continue
        words, tags = [], []
        for r, u in zip(rows, ud):
            words.append(r[1])
            tag = r[2]
            label = tag[2:] if tag != "O" else None
            if label in ("PER", "ORG"):
                tags.append(tag)
            elif label is not None:
                tags.append("-")
            else:
                tags.append("-" if _missing_if_nominal(u[3], u[5]) else "O")
        sentences.append((words, tags))
    yield from _chunked_partial_docs(sentences, vocab, sentences_per_doc)


def _chunked_partial_docs(sentences, vocab, sentences_per_doc):
    for i in range(0, len(sentences), sentences_per_doc):
        chunk = sentences[i : i + sentences_per_doc]
        words = [w for ws, _ in chunk for w in ws]
        tags = [t for _, ts in chunk for t in ts]
        starts = [j == 0 for ws, _ in chunk for j in range(len(ws))]
        yield _partial_doc(vocab, words, starts, _repair_iob(tags))


def _repair_iob(tags: list[str]) -> list[str]:
    """An ``I-X`` that does not continue an entity of type X becomes ``B-X``."""
    out, prev = [], "O"
    for t in tags:
        if t.startswith("I-") and not (prev.startswith(("B-", "I-")) and prev[2:] == t[2:]):
            t = "B-" + t[2:]
        out.append(t)
        prev = t
    return out


_GUM_LABELS = {"person": "PER", "organization": "ORG", "place": None, "object": None, "animal": None}


def gum_entity_spans(rows: list[list[str]]) -> list[tuple[int, int, str]]:
    """(start, end, GUM type) for every mention of a sentence (:func:`~beyondfind.datasets.gum.sentence_mentions`)."""
    return [(m.start, m.end, m.etype) for m in sentence_mentions(rows)]


def _without_possessive(span: tuple[int, int, str], rows: list[list[str]]) -> tuple[int, int, str]:
    """LitBank ends ``the registrar 's`` before the ``'s``; GUM includes it."""
    start, end, etype = span
    while end - start > 1 and rows[end - 1][1] in ("'s", "’s", "'", "’"):
        end -= 1
    return start, end, etype


def gum_ner_docs(paths: list[Path], vocab, sentences_per_doc: int = 10):
    """GUM sentences as partially annotated Docs (see the module docstring)."""
    sentences = []
    for path in paths:
        for _sid, rows in read_conllu_sentences(path):
            spans = [s for s in gum_entity_spans(rows) if s[2] in _GUM_LABELS]
            # pronoun-only person mentions are not LitBank entities
            spans = [s for s in spans if not (s[1] - s[0] == 1 and rows[s[0]][3] == "PRON")]
            spans = [_without_possessive(s, rows) for s in spans]
            tags = ["O"] * len(rows)
            for start, end, etype in outermost(spans):
                label = _GUM_LABELS[etype]
                for j in range(start, end):
                    tags[j] = "-" if label is None else ("B-" if j == start else "I-") + label
            sentences.append(([r[1] for r in rows], tags))
    yield from _chunked_partial_docs(sentences, vocab, sentences_per_doc)


def uner_test_sentences(data_dir: Path) -> list[tuple[list[str], list[tuple[int, int, str]]]]:
    """UNER EWT **test**: (words, gold PER/ORG/LOC spans) per sentence, for evaluation only."""
    out = []
    for _sid, rows in read_conllu_sentences(data_dir / "uner-english-ewt" / "en_ewt-ud-test.iob2"):
        tags = [r[2] if r[2][2:] in ("PER", "ORG", "LOC") else "O" for r in rows]
        out.append(([r[1] for r in rows], _layer_spans(_repair_iob(tags))))
    return out


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
