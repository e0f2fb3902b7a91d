"""`nlp evaluate --indexed`: LitBank's test excerpts scored on what `beyondfind index` stores for
the whole novel (real indexing of a real LitBank full text, real gold files)."""

from __future__ import annotations

import shutil

import pytest

from beyondfind import BeyondfindError
from beyondfind.evaluation.litbank import align_words, evaluate_indexed, format_indexed
from beyondfind.nlp.evaluate import coref_test_files, gold_chains, read_coref_conll
from beyondfind.nlp.training import corpora

from .conftest import DATA

INVISIBLE_MAN = "5230_the_invisible_man_a_grotesque_romance"


def test_the_excerpt_is_found_in_the_full_text_and_scored_as_nlp_evaluate_counts_it(tmp_path, nlp):
    from beyondfind.index import Library, index_document

    library = Library(tmp_path / "library.sqlite")

    def load_book(path):
        doc_id, _new = index_document(library, path, lambda: nlp)
        return library.load(doc_id)

    report = evaluate_indexed(DATA, load_book, stems=[INVISIBLE_MAN])
    assert report.books == 1
    # the gold side is LitBank's, whatever the product does: every outermost span and every judged
    # pronoun of the component evaluation is counted once
    tsv = next(p for p in corpora.litbank_split(DATA)["test"] if p.name.startswith(INVISIBLE_MAN))
    spans = sum(len(s.spans) for s in corpora.read_litbank_tsv(tsv))
    micro = report.ner["micro"]
    assert micro.tp + micro.fn == spans
    conll = next(p for p in coref_test_files(DATA) if p.stem.startswith(INVISIBLE_MAN))
    sentences, mentions = read_coref_conll(conll)
    words = [w for s in sentences for w in s]
    chains = gold_chains(words, mentions)
    assert report.pronouns["judged"] == sum(chains.judged(i) for i in range(len(words)))
    assert 0 < report.pronouns["correct"] <= report.pronouns["linked"] <= report.pronouns["judged"]
    # the names of the excerpt (Mrs. Hall, Teddy Henfrey, …) are all found in the indexed book
    assert report.proper_per.recall >= 0.9 and report.proper_per.precision >= 0.7
    assert "PER name" in format_indexed(report)


def test_an_excerpt_that_is_not_in_the_text_is_a_clear_error():
    book = (DATA / "books" / "11-alice-in-wonderland.txt").read_text(encoding="utf-8")
    text = book[book.index("Alice was beginning"):]
    assert align_words(["Alice", "was", "beginning", "to", "get", "very", "tired"], text)[-1] == (32, 37)
    assert align_words(["'", "and", "what", "is"], text[text.index("‘and what is"):])[0] == (0, 1)   # quotes straight or curly
    with pytest.raises(BeyondfindError, match="not in the text"):
        align_words(["Alice", "was", "beginning", "Quatermain"], text)


def test_missing_full_texts_name_the_file(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA / "litbank" / "entities", data / "litbank" / "entities")
    with pytest.raises(BeyondfindError, match="litbank/original"):
        evaluate_indexed(data, lambda path: pytest.fail("nothing to index"))
