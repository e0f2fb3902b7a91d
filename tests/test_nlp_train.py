"""`beyondfind nlp train` rebuilds a working pipeline from ../shared alone (a short run: the point
is that every step — corpora, floret vectors, both halves, assembly — runs and the result loads
and tags, not its accuracy, which `beyondfind nlp evaluate` reports for the shipped build)."""

import pytest

from beyondfind.cli.main import main

from .conftest import DATA


@pytest.mark.slow
def test_nlp_train_rebuilds_a_pipeline_that_loads_and_tags(tmp_path, capsys):
    from beyondfind.nlp import load_pipeline

    out = tmp_path / "model"
    assert main(["nlp", "train", "--data", str(DATA), "--build", str(tmp_path / "build"),
                 "--output", str(out), "--max-steps", "30"]) == 0
    assert f"pipeline written to {out}" in capsys.readouterr().out
    nlp = load_pipeline(out)
    assert {"tok2vec", "morphologizer", "parser", "trainable_lemmatizer", "ner"} <= set(nlp.pipe_names)
    assert nlp.vocab.vectors.shape[0] > 0  # the NER's floret vectors travel with it
    doc = nlp("Mr. Darcy walked to Longbourn with Elizabeth Bennet.")
    assert list(doc.sents) and all(t.pos_ for t in doc) and all(t.lemma_ for t in doc)  # 30 steps: tags, not good ones
    # a second run reuses the vectors already built in the same working directory
    assert (tmp_path / "build" / "vectors" / "vocab").exists()
