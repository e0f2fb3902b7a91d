"""Train the pronoun resolver (:mod:`beyondfind.nlp.pronouns`) on LitBank coreference.

Examples: every third-person pronoun of the LitBank coreference files in the NER **train** split
(:func:`corpora.litbank_split`) whose gold chain has an earlier named mention; its candidates are the
pipeline's own person names (what the resolver sees at run time), labelled 1 when the candidate lies
inside a mention of the pronoun's gold chain. Model: LightGBM binary, small trees; saved in LightGBM's
text format, evaluated in numpy at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import pronouns as resolver
from ..anaphora import NameItem, PronounItem
from ..names import THIRD_PERSON_PRONOUNS, name_gender, parse_name, pronoun_gender
from . import corpora

PARAMS = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 15, "min_data_in_leaf": 20,
          "feature_fraction": 0.9, "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1, "seed": 7,
          "deterministic": True, "num_threads": 2}
ROUNDS = 200


@dataclass(frozen=True)
class FileRecords:
    names: list[NameItem]
    keys: list[str]
    pronouns: list[PronounItem]
    judged: list[bool]        # per pronoun: its gold chain has an earlier named mention
    gold_ok: list[set[int]]   # per pronoun: indices of the pipeline's names inside its gold chain


def coref_files(data_dir: Path, split: str) -> list[Path]:
    names = {p.name.replace("_brat.tsv", "").replace(".tsv", "") for p in corpora.litbank_split(data_dir)[split]}
    return sorted(p for p in (data_dir / "litbank" / "coref" / "conll").glob("*.conll")
                  if p.stem.replace("_brat", "") in names)


def file_records(nlp, path: Path) -> FileRecords:
    """The pipeline's names and pronouns for one LitBank coreference file, with gold labels."""
    from ..syntax import sentence_index
    from ..evaluate import annotate_coref_file
    from ..syntax import is_subject
    from ..text import quote_mask

    doc, words, chains = annotate_coref_file(nlp, path)
    sent = sentence_index(doc)
    qmask = doc._.quote_mask or quote_mask(words)
    spans = [s for s in (doc._.names or []) if s.label_ == "PER"]
    names = [NameItem(s.start, sent[s.start], name_gender(s._.name), is_subject(s), qmask[s.start]) for s in spans]
    keys = [parse_name(s.text).key for s in spans]
    prons = [t for t in doc if t.lower_ in THIRD_PERSON_PRONOUNS]
    items = [PronounItem(t.i, sent[t.i], pronoun_gender(t.text), t.text, qmask[t.i]) for t in prons]
    judged = [chains.judged(t.i) for t in prons]
    gold = [{k for k, span in enumerate(spans) if chains.in_chain(t.i, span.end - 1)} if j else set()
            for t, j in zip(prons, judged)]
    return FileRecords(names, keys, items, judged, gold)


def examples(records: list[FileRecords]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for r in records:
        for k, cands, X in resolver.iter_pronoun_candidates(r.names, r.keys, r.pronouns):
            if not cands or not r.gold_ok[k]:
                continue
            xs.append(X)
            ys.extend(1.0 if c in r.gold_ok[k] else 0.0 for c in cands)
    return np.vstack(xs), np.array(ys)


def accuracy(records: list[FileRecords], resolve) -> float:
    """Share of judged pronouns whose predicted antecedent is in their gold chain."""
    judged = correct = 0
    for r in records:
        links = resolve(r)
        for k, ok in enumerate(r.gold_ok):
            if r.judged[k]:
                judged += 1
                correct += links[k] is not None and links[k] in ok
    return correct / judged if judged else 0.0


def train_model(records: list[FileRecords], out: Path) -> Path:
    import lightgbm as lgb

    X, y = examples(records)
    booster = lgb.train(PARAMS, lgb.Dataset(X, label=y, feature_name=list(resolver.FEATURES)), num_boost_round=ROUNDS)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(booster.model_to_string())
    resolver.load_model.cache_clear()
    return out


def compare_resolvers(nlp, data_dir: Path, model_path: Path | None = None) -> dict[str, dict[str, float]]:
    """Train the learned resolver on the LitBank train files and report rules vs learned accuracy
    on the dev and test files (``beyondfind nlp pronouns``)."""
    import tempfile

    from ..anaphora import resolve_pronouns

    recs = {split: [file_records(nlp, f) for f in coref_files(data_dir, split)] for split in ("train", "dev", "test")}
    with tempfile.TemporaryDirectory() as tmp:
        path = train_model(recs["train"], model_path or Path(tmp) / "pronouns.txt")
        model = resolver.load_model(path)
        out = {}
        for split in ("dev", "test"):
            out[split] = {
                "rules": accuracy(recs[split], lambda r: resolve_pronouns(r.names, r.pronouns)),
                "learned": accuracy(recs[split], lambda r: resolver.resolve_pronouns_learned(r.names, r.keys, r.pronouns,
                                                                                             model)),
                "pronouns": sum(sum(r.judged) for r in recs[split]),
            }
    return out
