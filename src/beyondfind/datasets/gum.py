"""GUM (Georgetown University Multilayer corpus) in CoNLL-U: sentences, entity mentions and the
summary-based salience of each entity (GUM-SAGE, Lin & Zeldes 2025).

The MISC field ``Entity=`` carries ``GRP-etype-infstat-salience-centering-minspan-link-identity``:
``(6-person-new-sssns-…`` opens a mention of entity 6 (a person) whose salience string says in which
of five human summaries it is mentioned (``s``) or not (``n``); ``6)`` closes it;
``(7-abstract-…)`` is a one-token mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ENTITY = re.compile(r"\((\d+)-([a-z]+)-([^-()]*)-([sn]*)[^()]*(\)?)|(\d+)\)")


@dataclass(frozen=True)
class GumMention:
    sentence: int
    start: int          # token index in the sentence
    end: int
    entity: str         # entity id within the document
    etype: str          # person, place, organization, abstract, …
    salience: int       # summaries (of 5) that mention the entity


@dataclass(frozen=True)
class GumDocument:
    name: str
    genre: str
    sentences: tuple[tuple[tuple[str, ...], ...], ...]   # per sentence, the CoNLL-U columns of each token
    mentions: tuple[GumMention, ...]
    paragraphs: tuple[int, ...] = ()   # per sentence, the paragraph it belongs to (``# newpar``)
    headings: tuple[bool, ...] = ()    # per sentence, whether it is a heading (``newpar_block = head``)

    @property
    def title(self) -> frozenset[int]:
        """The title's sentences: the headings that open the document (else the first sentence)."""
        out = set()
        for k, heading in enumerate(self.headings):
            if not heading:
                break
            out.add(k)
        return frozenset(out or {0})


def read_conllu_sentences(path: Path) -> list[tuple[str | None, list[list[str]]]]:
    """(sent_id, token rows) per sentence; multi-word ranges and empty nodes dropped."""
    out, cur, sid = [], [], None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if cur:
                out.append((sid, cur))
            cur, sid = [], None
            continue
        if line.startswith("# sent_id"):
            sid = line.split("=", 1)[1].strip()
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if "-" in cols[0] or "." in cols[0]:
            continue
        cur.append(cols)
    return out


def sentence_mentions(rows: list[list[str]], sentence: int = 0) -> list[GumMention]:
    """The mentions of one sentence, from its tokens' ``Entity=`` fields."""
    out, open_ = [], {}
    for i, cols in enumerate(rows):
        m = re.search(r"Entity=([^|]*)", cols[9])
        if not m:
            continue
        for eid, etype, _infstat, salience, closes_now, closed in _ENTITY.findall(m.group(1)):
            if eid and closes_now:
                out.append(GumMention(sentence, i, i + 1, eid, etype, salience.count("s")))
            elif eid:
                open_.setdefault(eid, []).append((i, etype, salience.count("s")))
            elif open_.get(closed):
                start, etype_c, sal = open_[closed].pop()
                out.append(GumMention(sentence, start, i + 1, closed, etype_c, sal))
    return out


def read_layout(path: Path) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Per sentence, its paragraph number and whether it is a heading, from the ``# newpar`` and
    ``# newpar_block = head …`` comments (a block's first element names it: ``head``, ``p``, ``sp``…)."""
    paragraphs, headings = [], []
    paragraph, heading = -1, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() == "# newpar":
            paragraph, heading = paragraph + 1, False
        elif line.startswith("# newpar_block"):
            heading = line.split("=", 1)[1].split("|")[0].split()[:1] == ["head"]
        elif line.startswith("# sent_id"):
            paragraphs.append(max(paragraph, 0))
            headings.append(heading)
    return tuple(paragraphs), tuple(headings)


def read_gum_document(path: Path) -> GumDocument:
    sents = read_conllu_sentences(path)
    mentions = [m for k, (_sid, rows) in enumerate(sents) for m in sentence_mentions(rows, k)]
    genre = path.stem.split("_")[1] if path.stem.count("_") >= 2 else ""
    paragraphs, headings = read_layout(path)
    if len(paragraphs) != len(sents):   # sentences without a sent_id: no layout
        paragraphs, headings = (0,) * len(sents), (False,) * len(sents)
    return GumDocument(path.stem, genre, tuple(tuple(tuple(r) for r in rows) for _sid, rows in sents), tuple(mentions),
                       paragraphs, headings)


def gum_documents(data_dir: Path) -> list[GumDocument]:
    paths = sorted((data_dir / "gum-ud" / "dep").glob("*.conllu"))
    if not paths:
        raise FileNotFoundError(f"no GUM CoNLL-U files under {data_dir / 'gum-ud' / 'dep'}")
    return [read_gum_document(p) for p in paths]
