"""A learned pronoun resolver: third-person pronoun → named antecedent, ranked by a small LightGBM
model over (pronoun, candidate name) features, trained on the LitBank coreference train files
(:mod:`beyondfind.nlp.training.pronouns`).

It works on the same plain records as the rules (:mod:`.anaphora`): names and pronouns in reading
order with their sentence, gender, subject and quotation flags, plus each name's normalised key.
Candidates are the gender-compatible names of the last ``WINDOW`` sentences (reflexives: their own
sentence); the best-scoring one is the antecedent. A pronoun with no candidate continues the chain
of the last linked pronoun of its gender, as in the rules. Prediction evaluates the trees in numpy
(:mod:`beyondfind.ranking.trees`); no LightGBM import.

Status: measured, not adopted. ``beyondfind nlp pronouns`` trains it on the train files and compares
it with the rules (version-9 rules, pipeline names): dev 0.576 vs 0.668, test 0.765 vs 0.745. Across
the train files (5-fold by file) it scores 0.695 against the rules' 0.715. The candidate window is one
limit: on dev only 64 % of judged pronouns have a correct candidate in it, fewer than the rules get
right through their pronoun chain; adding the rules' own choice as a candidate lifts that to 73 % and
the learned resolver to dev 0.63–0.66 (binary or lambdarank), still not above the rules. The
training files' names also come from an NER trained on those very files, which makes them cleaner
than at run time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from .anaphora import REFLEXIVES, AnaphoraSettings, NameItem, PronounItem, resolve_pronouns

WINDOW = 15   # sentences back; each name (key) is a candidate once, by its most recent mention
POSSESSIVE = frozenset({"his", "hers"})
NOMINATIVE = frozenset({"he", "she"})

FEATURES: tuple[str, ...] = (
    "sent_dist", "recency_rank", "n_candidates", "gender_known", "cand_subject", "same_quote", "pron_in_quote",
    "cand_in_quote", "key_window_count", "key_count_so_far", "key_rank_in_window", "nearest_same_gender",
    "nearest_subject", "same_sentence", "pron_reflexive", "pron_possessive", "pron_nominative",
    "subject_rank", "pron_sentence_initial", "rules_choice", "rules_previous_same_gender")


def candidates(names: Sequence[NameItem], keys: Sequence[str], p: PronounItem, lo: int, hi: int) -> list[int]:
    """The names a pronoun may refer to, nearest first: the most recent mention of each name (key)
    of compatible gender within the window (reflexives: their own sentence)."""
    window = 0 if p.word.lower() in REFLEXIVES else WINDOW
    out, seen = [], set()
    for i in range(hi - 1, lo - 1, -1):
        n = names[i]
        if n.sentence < p.sentence - window:
            break
        if (n.gender is not None and n.gender != p.gender) or keys[i] in seen:
            continue
        seen.add(keys[i])
        out.append(i)
    return out


def pair_features(names: Sequence[NameItem], keys: Sequence[str], p: PronounItem, cands: list[int],
                  seen: Counter, first_in_sentence: bool, rules_key: str | None, previous_key: str | None) -> np.ndarray:
    """One row per candidate (see :data:`FEATURES`)."""
    window_counts = Counter(keys[i] for i in range(min(cands), max(cands) + 1) if keys[i] in {keys[c] for c in cands})
    by_count = {k: r for r, (k, _n) in enumerate(window_counts.most_common())}
    nearest_gender = next((i for i in cands if names[i].gender == p.gender), None)
    subjects = [i for i in cands if names[i].is_subject]
    word = p.word.lower()
    rows = []
    for rank, i in enumerate(cands):
        n = names[i]
        rows.append((
            p.sentence - n.sentence, rank, len(cands), float(n.gender is not None), float(n.is_subject),
            float(n.in_quote == p.in_quote), float(p.in_quote), float(n.in_quote), window_counts[keys[i]],
            math.log1p(seen[keys[i]]), by_count[keys[i]], float(i == nearest_gender),
            float(bool(subjects) and i == subjects[0]), float(n.sentence == p.sentence),
            float(word in REFLEXIVES), float(word in POSSESSIVE), float(word in NOMINATIVE),
            subjects.index(i) if i in subjects else len(subjects), float(first_in_sentence),
            float(keys[i] == rules_key), float(keys[i] == previous_key)))
    return np.array(rows, dtype=float)


def iter_pronoun_candidates(names: Sequence[NameItem], keys: Sequence[str], pronouns: Sequence[PronounItem]):
    """(pronoun index, candidate indices, feature rows) for every pronoun, in reading order.

    The rules' choice (:func:`.anaphora.resolve_pronouns`) for the pronoun and for the previous
    pronoun of its gender are features, so the model re-ranks what the rules propose."""
    rules = resolve_pronouns(names, pronouns)
    previous: dict[str, str | None] = {}
    seen: Counter = Counter()
    hi = 0
    last_sentence = -1
    for k, p in enumerate(pronouns):
        while hi < len(names) and names[hi].order < p.order:
            seen[keys[hi]] += 1
            hi += 1
        lo = hi
        while lo > 0 and names[lo - 1].sentence >= p.sentence - WINDOW:
            lo -= 1
        cands = candidates(names, keys, p, lo, hi)
        first = p.sentence != last_sentence and (hi == 0 or names[hi - 1].sentence != p.sentence)
        last_sentence = p.sentence
        rules_key = keys[rules[k]] if rules[k] is not None else None
        X = (pair_features(names, keys, p, cands, seen, first, rules_key, previous.get(p.gender)) if cands
             else np.zeros((0, len(FEATURES))))
        previous[p.gender] = rules_key
        yield k, cands, X


@lru_cache(maxsize=2)
def load_model(path: Path):
    from ..ranking.trees import TreeEnsemble

    return TreeEnsemble.from_lightgbm_text(path.read_text())


def resolve_pronouns_learned(names: Sequence[NameItem], keys: Sequence[str], pronouns: Sequence[PronounItem],
                             model, settings: AnaphoraSettings = AnaphoraSettings()) -> list[int | None]:
    """Like :func:`.anaphora.resolve_pronouns`, scored by a trained model (:func:`load_model`)."""
    result: list[int | None] = [None] * len(pronouns)
    last_link: dict[str, tuple[int, int]] = {}
    for k, cands, X in iter_pronoun_candidates(names, keys, pronouns):
        p = pronouns[k]
        best = None
        if cands:
            best = cands[int(np.argmax(model.predict(X)))]
        elif p.gender in last_link and p.sentence - last_link[p.gender][0] <= settings.chain_window:
            best = last_link[p.gender][1]
        if best is not None:
            last_link[p.gender] = (p.sentence, best)
        result[k] = best
    return result
