"""The NLP pipeline: tokenizer, sentences, POS + lemmas, dependency parse, NER (LitBank types plus
DATE/TIME rules), names, pronoun anaphora and narrator linking.

:func:`load_pipeline` is the only entry point; nothing is loaded at import time.
"""

from __future__ import annotations

from pathlib import Path

from .. import BeyondfindError

SHIPPED_MODEL = Path(__file__).parent / "model"
BLANK = "blank"
OWN_COMPONENTS = ("beyondfind_rule_ner", "beyondfind_places", "beyondfind_organisations", "beyondfind_temporal",
                  "beyondfind_names",
                  "beyondfind_anaphora", "beyondfind_narrator")  # pseudo-name: spaCy's blank English + rules, no trained model


def shipped_model_available() -> bool:
    return (SHIPPED_MODEL / "meta.json").exists()


def load_pipeline(name: str | Path | None = None, *, anaphora_window: int = 3):
    """A spaCy ``Language`` with beyondfind's components.

    ``name``: None → the shipped pipeline (or the blank fallback if it is missing); ``"blank"`` →
    blank English + rules; otherwise an installed spaCy pipeline name or a path to one.
    """
    import spacy

    from . import components  # noqa: F401  (registers the factories)

    if name is None:
        name = SHIPPED_MODEL if shipped_model_available() else BLANK
    if str(name) == BLANK:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
    else:
        try:
            with _numpy_matrix_products():
                nlp = spacy.load(name, exclude=list(OWN_COMPONENTS))
        except OSError as exc:
            raise BeyondfindError(
                f"cannot load spaCy pipeline {str(name)!r}: give an installed pipeline name, a path to one, "
                f"or 'blank' ({exc})") from None
    _split_dashes(nlp)
    _abbreviated_titles(nlp)
    if not nlp.has_pipe("parser") and not nlp.has_pipe("senter") and not nlp.has_pipe("sentencizer"):
        nlp.add_pipe("sentencizer", first=True)
    if not nlp.has_pipe("ner"):
        nlp.add_pipe("beyondfind_rule_ner")
    nlp.add_pipe("beyondfind_places")
    nlp.add_pipe("beyondfind_organisations")
    nlp.add_pipe("beyondfind_temporal")
    nlp.add_pipe("beyondfind_names")
    nlp.add_pipe("beyondfind_anaphora", config={"window": anaphora_window})
    nlp.add_pipe("beyondfind_narrator")
    nlp.max_length = 2_000_000
    return nlp


def _numpy_matrix_products():
    """Build the trained models with thinc's NumPy ops multiplying matrices through NumPy's BLAS
    (OpenBLAS) instead of BLIS: on this project's machines (AMD EPYC, AVX2) BLIS's sgemm ran at
    ~10 GFLOP/s against OpenBLAS's ~40 on one thread, and matrix products are most of tok2vec's,
    the tagger's and the NER's time — the pipeline runs ~1.6× faster on one thread (2.2× when
    OpenBLAS may use both cores) with identical annotations (`benchmarks/nlp_speed.py` prints
    both). The ops are chosen only while the models are built (thinc's context manager restores
    the previous ones), so nothing global changes."""
    from thinc.api import use_ops

    return use_ops("numpy", use_blis=False)


def one_blas_thread() -> None:
    """Let this process's BLAS use one thread: for worker processes, one per core, whose matrix
    products would otherwise each start a thread per core and fight over the cores."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


# A dash after punctuation: spaCy's English infixes split "said--and" but not "Knightley!--I" or
# "Watson.--Tom", which became one token and glued names to the next word ("Mr. Knightley!--I",
# key "knightley i"; 47 of Emma's name mentions, and vocatives lost: "Jim!--Jim"). Project
# Gutenberg's italics end with "_" before the dash too: Dracula's 176 diary entries open
# "_Evening._--Jonathan Harker has …", which glued "Evening._--Jonathan" into one token. A closing
# single quote before the dash counts as punctuation (Monte Cristo's "Marseilles?’—‘Yes,’ says he":
# the name was "Marseilles?’"; David Copperfield's "Peggotty’--"), and the italics' "_" before
# punctuation before the dash is a token of its own (Moby Dick's "(_Huzza Porpoise_).—This": the
# name was "Porpoise_").
DASH_AFTER_PUNCTUATION = (r"[.!?,;:”\")’]+(?=_?(?:--|—))"                  # "Knightley!--I": the "!" ...
                          r"|_(?=[.!?,;:”\")’]*(?:--|—))"                 # ... the italics' "_" ...
                          r"|(?<=[.!?,;:’'\"”)_])(?:--|—)"             # ... and the dash are tokens,
                          r"|(?:(?<=--)|(?<=—))[“\"‘]")                 # as is a quote opening after it


def _abbreviated_titles(nlp) -> None:
    """Titles written short keep their period in one token, as spaCy's English exceptions do for
    "Mr." and "Dr.": "Mons.", "Mme.", "Capt.", "Col." were split ("Mons", "."), so the period
    stood between the title and the name, and "Mons. Quesnel" (The Mysteries of Udolpho, ×64)
    was a "Quesnel" without his title and a person "Mons"."""
    from spacy.symbols import ORTH

    from .names import ABBREVIATED_HONORIFICS

    for short in ABBREVIATED_HONORIFICS:
        for written in (short.capitalize(), short.upper()):
            if len(nlp.tokenizer(f"{written}. X")) != 2:
                nlp.tokenizer.add_special_case(f"{written}.", [{ORTH: f"{written}."}])


def _split_dashes(nlp) -> None:
    from spacy.util import compile_infix_regex

    nlp.tokenizer.infix_finditer = compile_infix_regex([*nlp.Defaults.infixes, DASH_AFTER_PUNCTUATION]).finditer
