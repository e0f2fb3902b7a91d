"""Word vectors for the text signal: the shipped PPMI-SVD vectors, and training them reproducibly."""

from __future__ import annotations

import numpy as np
import pytest

from beyondfind.features import word_vectors

from .conftest import DATA


def _nearest(vectors: word_vectors.WordVectors, word: str, k: int = 8) -> list[str]:
    sims = vectors.vectors @ vectors.vectors[vectors.vocabulary.index[word]]
    return [vectors.words[i] for i in np.argsort(-sims)[1:k + 1]]


def test_shipped_vectors_put_description_words_together():
    """What the text signal relies on: a held-out book's "stalwart" lands near the "tall" the
    judged passages taught, ages near ages, kin near kin."""
    vectors = word_vectors.shipped()
    assert vectors is not None and len(vectors.words) == word_vectors.VOCABULARY
    np.testing.assert_allclose(np.linalg.norm(vectors.vectors, axis=1), 1, atol=1e-2)
    assert {"stout", "handsome", "stalwart"} <= set(_nearest(vectors, "tall"))
    assert {"fifteen", "eighteen"} <= set(_nearest(vectors, "sixteen"))
    assert {"sister", "wife", "son"} <= set(_nearest(vectors, "daughter"))
    assert "didn't" in _nearest(vectors, "don't")
    ids = vectors.vocabulary.ids(["tall", "NAME", "zzzzq"])
    assert ids[0] == vectors.vocabulary.index["tall"] and list(ids[1:]) == [-1, -1]   # a masked name has no vector


def test_vectors_train_reproducibly_from_raw_text(tmp_path):
    texts = [(DATA / "books" / f).read_text(encoding="utf-8")
             for f in ("76-huckleberry-finn.txt", "74-tom-sawyer.txt", "1342-pride-and-prejudice.txt")]
    a = word_vectors.train(texts, vocabulary=3000, dimensions=24)
    b = word_vectors.train(texts, vocabulary=3000, dimensions=24)
    assert a.words == b.words and a.vectors.shape == (len(a.words), 24) and 2000 < len(a.words) <= 3000
    np.testing.assert_array_equal(a.vectors, b.vectors)
    assert {"father", "sister"} <= set(_nearest(a, "mother"))
    a.save(tmp_path / "v.npz")   # a query reads the words alone; training reads the vectors too
    assert word_vectors.load_vocabulary(tmp_path / "v.npz").words == a.words
    back = word_vectors.load(tmp_path / "v.npz")
    assert back.words == a.words and np.abs(back.vectors - a.vectors).max() < 1e-3   # float16 on disk
    np.savez(tmp_path / "first.npz", words=np.array("\n".join(a.words)), vectors=a.vectors.astype(np.float16))
    assert word_vectors.load(tmp_path / "first.npz").words == a.words   # the first version's file still loads
    with pytest.raises(ValueError, match="give more text"):
        word_vectors.train(["a few words only"], min_count=1)


def test_a_text_signal_trained_with_other_vectors_says_what_to_run():
    from beyondfind.features import text_signal

    model = text_signal.TextModel(np.zeros(text_signal.BUCKETS), np.zeros((10, 2)))   # a 10-word vocabulary
    with pytest.raises(FileNotFoundError, match="beyondfind train vectors"):
        model.score("He was a tall man.")
    assert text_signal.TextModel(np.zeros(text_signal.BUCKETS)).score("He was a tall man.") == 0.0   # n-grams alone
