"""``beyondfind nlp evaluate``: measure the pipeline on held-out data.

* NER: LitBank test files (split in :mod:`.training.corpora`), outermost entities, exact span
  match; per-type and micro precision/recall/F1; and **proper-name PER**: the PER spans (gold and
  predicted) that are names (:func:`is_proper_name`: capitalised words, no leading determiner or
  possessive), the part of NER that builds character lists.
* Names in news and web text: UNER English EWT **test**, PER/ORG/LOC exact match; predicted
  GPE/FAC count as LOC, and only predicted spans that are proper names count (UNER does not mark
  "the man"); a person's leading titles are dropped (:data:`UNER_TITLES`).
* Syntax: UPOS accuracy, UAS and LAS on UD EWT test (never used in training).
* Characters: the named mentions of the LitBank coreference test files clustered into characters,
  pairwise P/R/F1 against the gold chains (:func:`evaluate_name_clustering`).
* Anaphora: LitBank coreference files of the test split. A third-person pronoun counts when its
  gold cluster has a *named* mention (a capitalised, non-pronoun token) before it; it is correct
  when the predicted antecedent's last token lies inside a mention of that cluster.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from .names import THIRD_PERSON_PRONOUNS
from .training import corpora


@dataclass(frozen=True)
class PRF:
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def _run_on_words(nlp, docs):
    """Run the pipeline on the gold tokenisation of ``docs``."""
    from spacy.tokens import Doc

    for gold in docs:
        pred = Doc(nlp.vocab, words=[t.text for t in gold], spaces=[bool(t.whitespace_) for t in gold])
        for _name, proc in nlp.pipeline:
            pred = proc(pred)
        yield gold, pred


def evaluate_ner(nlp, files: list[Path]) -> dict[str, PRF]:
    counts: dict[str, Counter] = defaultdict(Counter)
    for gold, pred in _run_on_words(nlp, corpora.litbank_docs(files, nlp.vocab)):
        g = {(e.start, e.end, e.label_) for e in gold.ents}
        p = {(e.start, e.end, e.label_) for e in pred.ents if e.label_ in corpora.LITBANK_LABELS}
        for s in g | p:
            key = "tp" if s in g and s in p else "fn" if s in g else "fp"
            counts[s[2]][key] += 1
            counts["micro"][key] += 1
    return {k: PRF(c["tp"], c["fp"], c["fn"]) for k, c in counts.items()}


_NOT_NAME_START = frozenset({"the", "a", "an", "my", "his", "her", "our", "their", "your", "its", "this", "that",
                             "these", "those", "every", "each", "some", "any", "no"})
# lower-case words inside names; "al", "bin": Arabic article and "son of" ("al-Qaeda", "bin Laden")
_NAME_PARTICLES = frozenset({"of", "de", "la", "le", "van", "von", "der", "du", "del", "da", "di", "and", "the",
                             "al", "el", "bin", "ibn", "'s", "’s", "-", "."})


def is_proper_name(words: list[str]) -> bool:
    """``Mr. Bingley``, ``Duke of York`` → True; ``the old man``, ``His Majesty``, ``Sir`` alone → True
    only when every content word is capitalised and the first is not a determiner or possessive."""
    if not words or words[0].lower() in _NOT_NAME_START:
        return False
    content = [w for w in words if w.lower() not in _NAME_PARTICLES]
    return bool(content) and all(w[:1].isupper() for w in content if w[:1].isalpha())


def evaluate_proper_per(nlp, files: list[Path]) -> PRF:
    tp = fp = fn = 0
    for gold, pred in _run_on_words(nlp, corpora.litbank_docs(files, nlp.vocab)):
        g = {(e.start, e.end) for e in gold.ents if e.label_ == "PER" and is_proper_name([t.text for t in e])}
        p = {(e.start, e.end) for e in pred.ents if e.label_ == "PER" and is_proper_name([t.text for t in e])}
        tp += len(g & p)
        fp += len(p - g)
        fn += len(g - p)
    return PRF(tp, fp, fn)


PRONOUNS = frozenset({"i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself", "we", "us", "our",
                      "ours", "he", "him", "his", "she", "her", "hers", "it", "its", "they", "them", "their",
                      "thou", "thee", "thy", "ye", "one", "who", "whom", "himself", "herself", "itself",
                      "themselves", "ourselves", "yourselves"})
_UNER_TYPE = {"PER": "PER", "ORG": "ORG", "LOC": "LOC", "GPE": "LOC", "FAC": "LOC"}
# UNER leaves titles outside person names ("President [Bush]", "Dr. [White]": every one of the 17
# titled names of the test split), LitBank and beyondfind keep them inside ("Mr. Darcy" is the
# name a reader looks up); for UNER a predicted span's leading titles are dropped, as its leading
# determiner is. First names that double as titles (Don, Sister) are not in this list.
UNER_TITLES = frozenset({
    "mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor", "sir", "lady", "lord", "president",
    "senator", "sen", "governor", "gov", "general", "gen", "secretary", "minister", "judge", "rev",
    "reverend", "captain", "capt", "colonel", "col", "chairman", "mayor", "prince", "king", "queen",
})


def uner_span_start(words: list[str], label: str) -> int:
    """How many leading words of a predicted span UNER would leave outside the entity: one
    determiner, then for persons titles (``the President``, ``Mr.``), never the whole span
    (``General Motors`` keeps its first word)."""
    i = 1 if len(words) > 1 and words[0].lower() in ("the", "a", "an") else 0
    while label == "PER" and i < len(words) - 1 and words[i].lower().rstrip(".") in UNER_TITLES:
        i += 1
    return i


def evaluate_uner(nlp, data_dir: Path) -> dict[str, PRF]:
    from spacy.tokens import Doc

    counts: dict[str, Counter] = defaultdict(Counter)
    sentences = corpora.uner_test_sentences(data_dir)
    docs = (Doc(nlp.vocab, words=words) for words, _ in sentences)
    for (words, gold_spans), pred in zip(sentences, nlp.pipe(docs, batch_size=64)):
        g = set(gold_spans)
        p = set()
        for e in pred.ents:
            label = _UNER_TYPE.get(e.label_)
            start = e.start + uner_span_start([t.text for t in e], label)
            span_words = [t.text for t in pred[start:e.end]]
            if label and is_proper_name(span_words):
                p.add((start, e.end, label))
        for s in g | p:
            key = "tp" if s in g and s in p else "fn" if s in g else "fp"
            counts[s[2]][key] += 1
            counts["micro"][key] += 1
    return {k: PRF(c["tp"], c["fp"], c["fn"]) for k, c in counts.items()}


def evaluate_syntax(nlp, files: list[Path]) -> dict[str, float]:
    total = pos_ok = uas = las = 0
    for gold, pred in _run_on_words(nlp, corpora.conllu_docs(files, nlp.vocab)):
        for g, p in zip(gold, pred):
            if g.is_punct:
                continue
            total += 1
            pos_ok += g.pos_ == p.pos_
            if g.head.i == p.head.i:
                uas += 1
                las += g.dep_.lower() == p.dep_.lower()
    return {"pos_acc": pos_ok / total, "uas": uas / total, "las": las / total, "tokens": total}


def read_coref_conll(path: Path) -> tuple[list[list[str]], list[tuple[int, int, int]]]:
    """Sentences (token lists) and mentions (start, end, cluster) with document-level token indices."""
    sents, cur, mentions, open_ = [], [], [], defaultdict(list)
    n = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 4:
            if cur:
                sents.append(cur)
                cur = []
            continue
        cur.append(cols[3])
        tag = cols[-1].strip() if len(cols) > 4 else "_"
        if tag not in ("_", "-", ""):
            for part in tag.split("|"):
                m = re.match(r"^\(?(\d+)\)?$", part)
                if not m:
                    continue
                cid = int(m.group(1))
                if part.startswith("(") and part.endswith(")"):
                    mentions.append((n, n + 1, cid))
                elif part.startswith("("):
                    open_[cid].append(n)
                elif part.endswith(")") and open_[cid]:
                    mentions.append((open_[cid].pop(), n + 1, cid))
        n += 1
    if cur:
        sents.append(cur)
    return sents, mentions


@dataclass(frozen=True)
class GoldChains:
    """A coreference file's gold chains as the pronoun evaluations need them."""

    pronoun_chain: dict[int, int]                 # token of a third-person pronoun → its chain
    members: dict[int, list[tuple[int, int]]]     # chain → mention spans
    named_starts: dict[int, list[int]]            # chain → starts of its named (capitalised) mentions

    def judged(self, token: int) -> bool:
        """The pronoun's chain has a named mention before it."""
        c = self.pronoun_chain.get(token)
        return c is not None and any(s < token for s in self.named_starts.get(c, ()))

    def in_chain(self, token: int, last_token: int) -> bool:
        """``last_token`` lies inside a mention of the pronoun's chain."""
        return any(s <= last_token < e for s, e in self.members.get(self.pronoun_chain.get(token), ()))


def gold_chains(words: list[str], mentions: list[tuple[int, int, int]]) -> GoldChains:
    pronoun_chain = {s: c for s, e, c in mentions if e - s == 1 and words[s].lower() in THIRD_PERSON_PRONOUNS}
    members, named = defaultdict(list), defaultdict(list)
    for s, e, c in mentions:
        members[c].append((s, e))
        if any(w[:1].isupper() and w.lower() not in THIRD_PERSON_PRONOUNS and w.lower() not in ("the", "a", "i")
               for w in words[s:e]):
            named[c].append(s)
    return GoldChains(pronoun_chain, dict(members), dict(named))


def annotate_coref_file(nlp, path: Path):
    """The pipeline run on a coreference file's own tokens and sentences: (Doc, words, gold chains)."""
    from spacy.tokens import Doc

    sents, mentions = read_coref_conll(path)
    words = [w for s in sents for w in s]
    doc = Doc(nlp.vocab, words=words, sent_starts=[j == 0 for s in sents for j in range(len(s))])
    for _name, proc in nlp.pipeline:
        doc = proc(doc)
    return doc, words, gold_chains(words, mentions)


def evaluate_anaphora(nlp, files: list[Path]) -> dict[str, float]:
    judged = correct = predicted = 0
    for path in files:
        doc, _words, gold = annotate_coref_file(nlp, path)
        for tok in doc:
            if not gold.judged(tok.i):
                continue
            judged += 1
            ante = tok._.antecedent
            if ante is None:
                continue
            predicted += 1
            correct += gold.in_chain(tok.i, ante.end - 1)
    return {"accuracy": correct / judged if judged else 0.0, "judged": judged, "predicted": predicted,
            "precision": correct / predicted if predicted else 0.0}


NICKNAME_WINDOW_TOKENS = 300   # the book's 1,500 characters (beyondfind.index.book.NICKNAME_WINDOW) in tokens


def evaluate_name_clustering(files: list[Path]) -> PRF:
    """Pairwise precision/recall of clustering the *named* mentions of the gold coreference chains
    (gold spans that are proper names) with :func:`~beyondfind.index.characters.cluster_names`.

    Forms get their mention counts and positions (tokens); a form that stays ambiguous (a family
    surname) takes the character of the nearest preceding mention that names one of its
    candidates, else the most mentioned candidate — what retrieval does with local and global coreference. Pairs are counted
    within each file and summed (micro)."""
    from itertools import combinations

    from ..index.characters import FormStats, cluster_names
    from .names import parse_name

    tp = fp = fn = 0
    for path in files:
        sents, mentions = read_coref_conll(path)
        words = [w for s in sents for w in s]
        named = []
        positions = defaultdict(list)
        for start, end, cluster in sorted(mentions):
            span = words[start:end]
            name = parse_name(" ".join(span))
            if name.words and is_proper_name(span) and not (len(span) == 1 and span[0].lower() in PRONOUNS):
                named.append(((name.honorific, name.key), cluster))
                positions[(name.honorific, name.key)].append(start)
        index = cluster_names({form: FormStats.from_positions(at) for form, at in positions.items()},
                              window=NICKNAME_WINDOW_TOKENS)
        assigned = []
        for form, _cluster in named:
            readings = index.possible(form) or (index.character_of.get(form),)
            if len(readings) == 1:
                assigned.append(readings[0])
                continue
            previous = next((c for c in reversed(assigned) if c in readings), None)
            assigned.append(previous if previous is not None
                            else max(readings, key=lambda c: index.characters[c].mentions))
        for (a, b) in combinations(range(len(named)), 2):
            gold = named[a][1] == named[b][1]
            pred = assigned[a] == assigned[b]
            tp += gold and pred
            fp += pred and not gold
            fn += gold and not pred
    return PRF(tp, fp, fn)


def coref_test_files(data_dir: Path) -> list[Path]:
    test_names = {p.name.replace(".tsv", "") for p in corpora.litbank_split(data_dir)["test"]}
    return sorted(p for p in (data_dir / "litbank" / "coref" / "conll").glob("*.conll") if p.stem in test_names)


def evaluate_all(nlp, data_dir: Path) -> dict:
    return {
        "ner": evaluate_ner(nlp, corpora.litbank_split(data_dir)["test"]),
        "proper_per": evaluate_proper_per(nlp, corpora.litbank_split(data_dir)["test"]),
        "uner": evaluate_uner(nlp, data_dir),
        "syntax": evaluate_syntax(nlp, corpora.syntax_split(data_dir)["test"]),
        "anaphora": evaluate_anaphora(nlp, coref_test_files(data_dir)),
        "clustering": evaluate_name_clustering(coref_test_files(data_dir)),
    }


def format_report(report: dict) -> str:
    lines = ["NER (LitBank test, outermost entities, exact match)", f"{'type':8} {'P':>6} {'R':>6} {'F1':>6} {'gold':>6}"]
    for k in sorted(report["ner"], key=lambda k: (k == "micro", k)):
        v = report["ner"][k]
        lines.append(f"{k:8} {v.precision:6.3f} {v.recall:6.3f} {v.f1:6.3f} {v.tp + v.fn:6d}")
    v = report["proper_per"]
    lines.append(f"{'PER name':8} {v.precision:6.3f} {v.recall:6.3f} {v.f1:6.3f} {v.tp + v.fn:6d}"
                 "   (proper-name PER spans only)")
    lines += ["", "Names in web/news text (UNER English EWT test, exact match)",
              f"{'type':8} {'P':>6} {'R':>6} {'F1':>6} {'gold':>6}"]
    for k in sorted(report["uner"], key=lambda k: (k == "micro", k)):
        v = report["uner"][k]
        lines.append(f"{k:8} {v.precision:6.3f} {v.recall:6.3f} {v.f1:6.3f} {v.tp + v.fn:6d}")
    s = report["syntax"]
    lines += ["", f"Syntax (UD EWT test, {s['tokens']} non-punctuation tokens): POS {s['pos_acc']:.3f}  "
              f"UAS {s['uas']:.3f}  LAS {s['las']:.3f}"]
    c = report["clustering"]
    lines += ["", f"Named-mention clustering (LitBank coref test, gold name spans, pairwise): P {c.precision:.3f}  "
              f"R {c.recall:.3f}  F1 {c.f1:.3f}"]
    a = report["anaphora"]
    lines += ["", f"Pronoun → named antecedent (LitBank coref test): accuracy {a['accuracy']:.3f} over "
              f"{a['judged']} pronouns (precision {a['precision']:.3f} of {a['predicted']} linked)"]
    return "\n".join(lines)
