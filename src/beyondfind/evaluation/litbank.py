"""LitBank's test files scored on what ``beyondfind index`` stores (``nlp evaluate --indexed``).

``nlp evaluate`` runs the spaCy pipeline on each annotated excerpt alone (about 2,000 words, gold
tokens): it measures the components. A reader gets more than that: the whole novel is indexed, and
the book-level passes (names propagated to the tagger's misses, name evidence, epithets, pronoun
chains across passages, the chapter rule) change the mentions and pronoun links. Here each test
novel's full text (``litbank/original/``) is indexed as a user indexes it, the gold tokens of the
excerpt are found in the text (character offsets), and the stored records inside the excerpt are
scored with the same rules as ``nlp evaluate``:

* NER: every stored mention of a LitBank type against the gold outermost spans, exact character
  span and type; the product stores a person's *name* ("Linwood") where LitBank's outermost span is
  the whole phrase ("young Linwood"), so precision is lower than the components' by design;
  proper-name PER as :func:`~beyondfind.nlp.evaluate.is_proper_name` decides on the words.
* Pronouns: a third-person pronoun whose gold chain has a named mention before it
  (:class:`~beyondfind.nlp.evaluate.GoldChains`) is right when its stored antecedent's last
  character lies in a mention of that chain.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import BeyondfindError
from ..nlp.evaluate import PRF, coref_test_files, gold_chains, is_proper_name, read_coref_conll
from ..nlp.training import corpora

# a gold quote token and how the text may write it
_QUOTE_FORMS = {'"': ('"', "“", "”"), "“": ("“", '"'), "”": ("”", '"'), "'": ("'", "’", "‘"), "’": ("’", "'"),
                "‘": ("‘", "'"), "``": ('"', "“"), "''": ('"', "”")}
_SEARCH_CHARS = 200   # how far past the previous word a gold token may lie (line breaks, italics marks)
_WORDS = re.compile(r"\w+|[^\w\s]")


def align_words(words: list[str], text: str) -> list[tuple[int, int]]:
    """Character offsets of each gold token in ``text``, found in order; quotes may be written
    straight or curly either way. A token not found within :data:`_SEARCH_CHARS` characters is an
    error: the excerpt is not this text."""
    out, pos = [], 0
    for i, word in enumerate(words):
        forms = _QUOTE_FORMS.get(word, (word,))
        found = [(k, len(f)) for f in forms if (k := text.find(f, pos, pos + _SEARCH_CHARS + len(f))) >= 0]
        if not found:
            raise BeyondfindError(f"token {i} ({word!r}) of the LitBank excerpt is not in the text near "
                                  f"offset {pos}: is it the book's full text?")
        start, length = min(found)
        out.append((start, start + length))
        pos = start + length
    return out


def _proper(text: str, start: int, end: int) -> bool:
    return is_proper_name(_WORDS.findall(text[start:end]))


def score_mentions(text: str, mentions, tsv: Path) -> tuple[dict[str, Counter], Counter]:
    """tp/fp/fn per LitBank type (and ``micro``) and for proper-name PER, of the stored ``mentions``
    inside the excerpt of ``tsv`` against its gold outermost spans."""
    sentences = corpora.read_litbank_tsv(tsv)
    spans = []
    for s, offset in zip(sentences, _offsets(sentences)):
        spans += [(offset + a, offset + b, label) for a, b, label in s.spans]
    at = align_words([w for s in sentences for w in s.words], text)
    first, last = at[0][0], at[-1][1]
    gold = {(at[a][0], at[b - 1][1], label) for a, b, label in spans}
    predicted = {(m.start, m.end, m.label) for m in mentions
                 if first <= m.start and m.end <= last and m.label in corpora.LITBANK_LABELS}
    counts: dict[str, Counter] = defaultdict(Counter)
    for span in gold | predicted:
        kind = "tp" if span in gold and span in predicted else "fn" if span in gold else "fp"
        counts[span[2]][kind] += 1
        counts["micro"][kind] += 1
    proper_gold = {s for s in gold if s[2] == "PER" and _proper(text, s[0], s[1])}
    proper_predicted = {s for s in predicted if s[2] == "PER" and _proper(text, s[0], s[1])}
    proper = Counter(tp=len(proper_gold & proper_predicted), fp=len(proper_predicted - proper_gold),
                     fn=len(proper_gold - proper_predicted))
    return counts, proper


def _offsets(sentences) -> list[int]:
    out, n = [], 0
    for s in sentences:
        out.append(n)
        n += len(s.words)
    return out


def score_pronouns(text: str, annotations, conll: Path) -> Counter:
    """Judged, linked and correct third-person pronouns of the coreference file ``conll`` among the
    stored pronoun links."""
    sentences, gold_mentions = read_coref_conll(conll)
    words = [w for s in sentences for w in s]
    gold = gold_chains(words, gold_mentions)
    at = align_words(words, text)
    ends = [end for _start, end in at]
    pronoun_at = {p.start: p for p in annotations.pronouns}
    mention = {m.id: m for m in annotations.mentions}
    out = Counter()
    for i, (start, _end) in enumerate(at):
        if not gold.judged(i):
            continue
        out["judged"] += 1
        p = pronoun_at.get(start)
        if p is None or p.antecedent is None or p.antecedent not in mention:
            continue
        out["linked"] += 1
        last = bisect.bisect_left(ends, mention[p.antecedent].end)   # the token holding its last character
        out["correct"] += int(last < len(at) and at[last][0] < mention[p.antecedent].end and gold.in_chain(i, last))
    return out


@dataclass(frozen=True)
class IndexedReport:
    ner: dict[str, PRF]
    proper_per: PRF
    pronouns: Counter
    books: int

    @property
    def pronoun_accuracy(self) -> float:
        return self.pronouns["correct"] / self.pronouns["judged"] if self.pronouns["judged"] else 0.0


def evaluate_indexed(data_dir: Path, load_book: Callable[[Path], tuple[object, object]],
                     stems: list[str] | None = None) -> IndexedReport:
    """Score the test novels (or those of ``stems``) as ``load_book(full text path)`` indexes them;
    ``load_book`` returns the stored (document, annotations)."""
    files = corpora.litbank_split(data_dir)["test"]
    conll = {p.stem: p for p in coref_test_files(data_dir)}
    ner: dict[str, Counter] = defaultdict(Counter)
    proper, pronouns, books = Counter(), Counter(), 0
    for tsv in files:
        stem = tsv.name.removesuffix("_brat.tsv")
        if stems is not None and stem not in stems:
            continue
        original = data_dir / "litbank" / "original" / f"{stem}.txt"
        if not original.is_file():
            raise BeyondfindError(f"{original} is missing: --indexed needs LitBank's full texts (litbank/original)")
        document, annotations = load_book(original)
        counts, p = score_mentions(document.text, annotations.mentions, tsv)
        for label, c in counts.items():
            ner[label].update(c)
        proper.update(p)
        if f"{stem}_brat" in conll:
            pronouns.update(score_pronouns(document.text, annotations, conll[f"{stem}_brat"]))
        books += 1
    return IndexedReport({k: PRF(c["tp"], c["fp"], c["fn"]) for k, c in ner.items()},
                         PRF(proper["tp"], proper["fp"], proper["fn"]), pronouns, books)


def format_indexed(report: IndexedReport) -> str:
    lines = [f"LitBank test as indexed ({report.books} novels' full texts; stored mentions in the annotated excerpts)",
             f"{'type':8} {'P':>6} {'R':>6} {'F1':>6} {'gold':>6}"]
    for k in sorted(report.ner, key=lambda k: (k == "micro", k)):
        v = report.ner[k]
        lines.append(f"{k:8} {v.precision:6.3f} {v.recall:6.3f} {v.f1:6.3f} {v.tp + v.fn:6d}")
    v = report.proper_per
    lines.append(f"{'PER name':8} {v.precision:6.3f} {v.recall:6.3f} {v.f1:6.3f} {v.tp + v.fn:6d}"
                 "   (proper-name PER spans only)")
    p = report.pronouns
    lines.append(f"Pronoun → named antecedent as stored: accuracy {report.pronoun_accuracy:.3f} over {p['judged']} "
                 f"pronouns ({p['linked']} linked)")
    return "\n".join(lines)
