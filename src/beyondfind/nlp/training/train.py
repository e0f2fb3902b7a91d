"""``beyondfind nlp train``: rebuild the shipped pipeline from ``shared/data``.

Steps (each reproducible, seeds fixed in the configs):

1. convert LitBank, UNER EWT dev and GUM entities (NER) and GUM + UD EWT dev (syntax) to
   ``.spacy`` files (:mod:`.corpora`);
2. train floret static vectors on the raw novels (:mod:`.vectors`, ~4 min);
3. train ``syntax.cfg`` and ``ner.cfg`` as two processes in parallel (one per core);
4. assemble: the syntax pipeline plus the NER component (and its vectors) sourced from the NER
   pipeline, written to the package's ``nlp/model`` directory (what
   :func:`beyondfind.nlp.load_pipeline` loads).

Rule components (dates/times, anaphora, narrator) are not stored in the model: ``load_pipeline``
adds them to any pipeline, shipped or user-supplied.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import corpora, vectors

CONFIG_DIR = Path(__file__).parent / "configs"
SHIPPED_MODEL_DIR = Path(__file__).parent.parent / "model"


@dataclass(frozen=True)
class TrainSettings:
    data_dir: Path
    build_dir: Path
    output_dir: Path = SHIPPED_MODEL_DIR
    max_steps: int = 5000   # the shipped pipeline was trained with this


def prepare_corpora(data_dir: Path, build_dir: Path) -> dict[str, int]:
    """Write train/dev/test ``.spacy`` files for both halves; returns the doc counts."""
    import spacy

    vocab = spacy.blank("en").vocab
    counts = {}
    for name, paths in corpora.litbank_split(data_dir).items():
        # the training corpus is a folder: spaCy reads every .spacy file in it
        target = build_dir / "ner-train" / "litbank.spacy" if name == "train" else build_dir / f"ner-{name}.spacy"
        counts[f"ner-{name}"] = corpora.write_docbin(corpora.litbank_docs(paths, vocab), target)
    counts["ner-train-uner"] = corpora.write_docbin(
        corpora.uner_docs(data_dir / "uner-english-ewt" / "en_ewt-ud-dev.iob2",
                          data_dir / "ud-english-ewt" / "en_ewt-ud-dev.conllu", vocab),
        build_dir / "ner-train" / "uner.spacy")
    counts["ner-train-gum"] = corpora.write_docbin(
        corpora.gum_ner_docs(sorted((data_dir / "gum-ud" / "dep").glob("*.conllu")), vocab),
        build_dir / "ner-train" / "gum.spacy")
    for name, paths in corpora.syntax_split(data_dir).items():
        counts[f"syntax-{name}"] = corpora.write_docbin(corpora.conllu_docs(paths, vocab), build_dir / f"syntax-{name}.spacy")
    return counts


def prepare_vectors(data_dir: Path, build_dir: Path) -> Path:
    """Train the floret vectors once; a later run reuses ``build/nlp/vectors``."""
    out = build_dir / "vectors"
    if (out / "vocab").exists():
        return out
    corpus = build_dir / "vectors-corpus.txt"
    n = vectors.write_token_corpus(vectors.vector_texts(data_dir), corpus)
    print(f"vectors: training on {n:,} tokens", flush=True)
    return vectors.train_vectors(corpus, out)


def _train_command(half: str, build_dir: Path, max_steps: int) -> list[str]:
    train = build_dir / "ner-train" if half == "ner" else build_dir / f"{half}-train.spacy"
    cmd = [
        sys.executable, "-m", "spacy", "train", str(CONFIG_DIR / f"{half}.cfg"),
        "--output", str(build_dir / half),
        "--paths.train", str(train),
        "--paths.dev", str(build_dir / f"{half}-dev.spacy"),
        "--training.max_steps", str(max_steps),
    ]
    if half == "ner":
        cmd += ["--paths.vectors", str(build_dir / "vectors")]
    return cmd


def train_halves(settings: TrainSettings) -> None:
    """Train the syntax and NER pipelines in two parallel processes; raise if either fails."""
    settings.build_dir.mkdir(parents=True, exist_ok=True)
    procs = {}
    for half in ("syntax", "ner"):
        log = open(settings.build_dir / f"{half}.log", "w")
        procs[half] = (subprocess.Popen(_train_command(half, settings.build_dir, settings.max_steps),
                                        stdout=log, stderr=subprocess.STDOUT), log)
        print(f"training {half}: log in {settings.build_dir / f'{half}.log'}", flush=True)
    failed = []
    for half, (proc, log) in procs.items():
        if proc.wait() != 0:
            failed.append(half)
        log.close()
    if failed:
        raise RuntimeError(f"training failed for {', '.join(failed)}; see the logs in {settings.build_dir}")


def assemble(build_dir: Path, output_dir: Path) -> Path:
    """Syntax pipeline + sourced NER, saved to ``output_dir`` (replaced atomically)."""
    import spacy

    nlp = spacy.load(build_dir / "syntax" / "model-best")
    ner_nlp = spacy.load(build_dir / "ner" / "model-best")
    nlp.vocab.vectors = ner_nlp.vocab.vectors  # the NER's static vectors travel with it
    nlp.add_pipe("ner", source=ner_nlp)
    nlp.meta["name"] = "beyondfind_fiction"
    nlp.meta["version"] = "0.2.0"
    nlp.meta["description"] = ("beyondfind fiction pipeline: morphologizer, parser, lemmatizer trained on GUM + "
                               "UD EWT dev; NER trained on LitBank (outermost entities, 80/10/10 split) plus "
                               "UNER EWT dev and GUM entities (partial annotation), with floret vectors "
                               "trained on the raw novels.")
    tmp = output_dir.with_name(output_dir.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    nlp.to_disk(tmp)
    if output_dir.exists():
        shutil.rmtree(output_dir)
    tmp.rename(output_dir)
    return output_dir


def train_pipeline(settings: TrainSettings) -> Path:
    counts = prepare_corpora(settings.data_dir, settings.build_dir)
    print("corpora:", ", ".join(f"{k}={v}" for k, v in counts.items()), flush=True)
    prepare_vectors(settings.data_dir, settings.build_dir)
    train_halves(settings)
    return assemble(settings.build_dir, settings.output_dir)
