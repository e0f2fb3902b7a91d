"""Single-document salience on GUM: the reader of GUM's salience annotation and the measures."""

import pytest

from beyondfind.datasets.gum import gum_documents, read_gum_document
from beyondfind.evaluation import salience

from .conftest import DATA


def test_gum_salience_is_read_from_the_entity_annotation():
    doc = read_gum_document(DATA / "gum-ud" / "dep" / "GUM_bio_byron.conllu")
    items = salience.document_items(doc)
    byron = max(items, key=lambda i: i.features["F_d"])
    assert byron.grade == 5 and byron.features["type.person"] == 1   # the subject of a biography
    assert sum(i.grade == 0 for i in items) > len(items) / 2
    assert all(0 <= i.grade <= 5 for i in items)


def test_spearman_matches_scipy():
    from scipy.stats import spearmanr

    x = [3, 1, 2, 2, 5, 0, 0, 4]
    y = [1, 0, 2, 1, 3, 0, 1, 2]
    assert salience.spearman(x, y) == pytest.approx(spearmanr(x, y).statistic)


def test_frequency_beats_first_position_on_gum():
    docs = [d for d in gum_documents(DATA) if d.genre in ("bio", "voyage")]
    rows = salience.salience_report(docs, learned=True)
    f, pos, learned = (rows[k]["nDCG@5"] for k in ("F(e,d)", "FirstSenPos(e,d)", salience.LEARNED))
    assert 0 < pos < f < learned < 1   # the learned model, never trained on the document, beats frequency
    assert rows["F(e,d)"]["documents"] == len(docs)


def test_layout_marks_the_title_and_paragraphs():
    doc = read_gum_document(DATA / "gum-ud" / "dep" / "GUM_academic_art.conllu")
    assert doc.title == frozenset({0, 1})   # "Aesthetic Appreciation and Spanish Art:" / "Insights from Eye-Tracking"
    assert len(doc.paragraphs) == len(doc.headings) == len(doc.sentences)
    assert list(doc.paragraphs) == sorted(doc.paragraphs) and doc.paragraphs[-1] > 3
    items = salience.document_items(doc)
    in_title = [i for i in items if i.features["in_title"]]
    assert in_title and all(i.features["FirstSenPos"] <= 1 for i in in_title)
    assert max(items, key=lambda i: i.grade).features["head_lemma_count"] >= 2
