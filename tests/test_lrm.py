"""LRM on hand-built books reproducing the seed paper's "Mary Jane" cases."""

import math

import pytest

from beyondfind.documents import Document, Passage
from beyondfind.index import IndexedBook
from beyondfind.index.records import Annotations, Mention, Pronoun
from beyondfind.nlp.names import parse_name
from beyondfind.retrieval import lrm

FILLER = "and then they walked along the river for a while talking"


def build_book(spec):
    """spec: list of passages, each a list of (name, label) mentions or ("she", antecedent_index_in_passage)."""
    text, passages, mentions, pronouns = "", [], [], []
    for i, items in enumerate(spec):
        start = len(text)
        parts, local_ids = [], []
        for item in items:
            offset = start + sum(len(p) + 1 for p in parts)
            if item[0] in ("she", "her"):
                ante = local_ids[item[1]]
                pronouns.append(Pronoun(len(pronouns), i, i, offset, offset + len(item[0]), item[0], 3, "female",
                                        False, ante))
            else:
                name = parse_name(item[0])
                mentions.append(Mention(len(mentions), i, i, offset, offset + len(item[0]), item[0], item[1], True,
                                        name.key, name.honorific, False, False))
                local_ids.append(mentions[-1].id)
            parts.append(item[0])
        parts.append(FILLER)
        body = " ".join(parts)
        text += body
        passages.append((i, start, start + len(body)))
        text += "\n\n"
    doc = Document("t.txt", "txt", text, tuple(Passage(*p, text) for p in passages), "0" * 64)
    return IndexedBook(1, doc, Annotations((), tuple(mentions), tuple(pronouns), (), None, "test"))


@pytest.fixture(scope="module")
def mary_book():
    spec = [[("Mary Ann", "PER")] * 49 + [("Mary Williams", "PER")] * 39 + [("Mary Jane", "PER")] * 9]
    spec += [[] for _ in range(11)]                                    # 1..11: no names
    spec += [[("Mary", "PER")]]                                         # 12: no full name in window
    spec += [[("Mary Williams", "PER")], [("Mary", "PER")]]             # 13, 14: local coref → Williams
    spec += [[("Highland Mary", "LOC")]]                                # 15: a place
    spec += [[("Mary Ann", "PER")]]                                     # 16: another full name
    spec += [[("Mary Jane", "PER"), ("she", 0), ("her", 0)]]            # 17: exact + pronouns
    return build_book(spec)


def E(book, passage, query="Mary Jane"):
    ev = lrm.evidence(book, passage, parse_name(query), "PER", lrm.LRMSettings(), {})
    return ev.names


def test_place_with_shared_word_scores_zero(mary_book):
    assert E(mary_book, 15) == 0.0


def test_other_full_name_scores_zero(mary_book):
    assert E(mary_book, 16) == 0.0


def test_local_coref_to_another_full_name_is_zero(mary_book):
    assert E(mary_book, 14) == 0.0


def test_global_coref_uses_book_counts(mary_book):
    assert mary_book.name_counts["mary ann"] == 50 and mary_book.name_counts["mary jane"] == 10
    assert E(mary_book, 12) == pytest.approx(10 / (50 + 40 + 10))


def test_exact_name_with_pronouns_scores_highest(mary_book):
    ranking = [s for s in lrm.rank(mary_book, parse_name("Mary Jane"), lrm.LRMSettings(pivot=1)) if s.passage >= 12]
    assert ranking[0].passage == 17 and ranking[0].score > ranking[1].score > 0
    ev = lrm.evidence(mary_book, 17, parse_name("Mary Jane"), "PER", lrm.LRMSettings(), {})
    assert ev.cr == 2 and ev.ef == pytest.approx(1 + 0.5 * 2)
    assert {s.passage for s in ranking}.isdisjoint({14, 15, 16})


def test_honorific_normalisation_and_conflict():
    book = build_book([[("Darcy", "PER")], [("Mrs. Bennet", "PER")], [("Mr. Bennet", "PER")]])
    assert E(book, 0, "Mr. Darcy") == 1.0
    assert E(book, 1, "Mr. Bennet") == 0.0 and E(book, 2, "Mr. Bennet") == 1.0


def test_one_word_query_inside_longer_name():
    book = build_book([[("Huck Finn", "PER")], [("Huck", "PER")]])
    assert E(book, 0, "Huck") == 1.0


def test_length_reward_and_saturation_formulas():
    assert lrm.length_reward(8, 8, 100) == 0.0
    assert lrm.length_reward(100, 8, 100) == pytest.approx(1.0)
    assert lrm.length_reward(20, 8, 100) == pytest.approx(math.log(20 / 8) / math.log(100 / 8))
    assert lrm.saturate(1.0, 1.5) == pytest.approx(2.5 / 2.5)
    assert lrm.saturate(0.0, 1.5) == 0.0
    assert lrm.saturate(1000, 1.5) < 2.5


def test_short_passage_scores_zero_under_default_pivot():
    mention = Mention(0, 0, 0, 0, 9, "Mary Jane", "PER", True, "mary jane", None, False, False)
    doc = Document("t", "txt", "Mary Jane came.", (Passage(0, 0, 15, "Mary Jane came."),), "0" * 64)
    book = IndexedBook(1, doc, Annotations((), (mention,), (), (), None, "t"))
    [only] = lrm.rank(book, parse_name("Mary Jane"))
    assert only.passage == 0 and only.score == 0.0


def test_bm25_b0_from_term_counts_equals_bm25_over_the_whole_book(huck):
    """LDM's extra.bm25_b0 on a cold start reads a few words' counts by regex instead of tokenizing the
    book; it must give BM25 (b=0)'s scores exactly, apostrophes and case included."""
    from beyondfind.retrieval import baselines

    for query in ("Tom Sawyer", "Miss Watson", "the king", "Tom's", "don't", "Huck"):
        full = {s.passage: s.score for s in baselines.bm25(huck, query, b=0.0)}
        fast = baselines.bm25_b0(huck, query, range(len(huck.passages)))
        assert full and all(abs(full.get(i, 0.0) - fast[i]) < 1e-9 for i in fast), query


def test_occurs_stops_at_the_first_occurrence_find_would_return(huck):
    """`entity_occurs` asks :func:`baselines.occurs` instead of scanning the book with Find: the same
    answer, also for a string that only occurs across a passage boundary."""
    from beyondfind.retrieval import baselines

    first, second = huck.passages[0], huck.passages[1]
    across = huck.document.text[first.end - 6:second.start + 6]
    for query in ("Mary Jane", "Huck", "Colonel Sherburn", "Zanzibar Q", "", across, second.text[:12]):
        assert baselines.occurs(huck, query) == bool(baselines.find(huck, query)), query
    assert not baselines.occurs(huck, across) and baselines.occurs(huck, "Mary Jane")


def test_term_counts_equal_the_tokenizer_counts(huck):
    """The literal scan behind term_counts counts exactly what tokenizing each passage counts, on a
    real book (underscored italics, apostrophes, case) and on a text whose lower-casing changes its
    length (a dotted capital I: the case-insensitive regex is used there)."""
    from collections import Counter

    from beyondfind.retrieval.terms import term_counts, tokenize

    for term in ("jim", "huck", "i", "the", "don't", "tom's", "sawyer"):
        expected = {i: c for i, p in enumerate(huck.passages) if (c := Counter(tokenize(p.text))[term])}
        assert expected and term_counts(huck, term) == expected, term
    text = "İstanbul. Jim's raft; _Jim_ said JIM, not Jimmy or ajim."
    doc = Document("t", "txt", text, (Passage(0, 0, len(text), text),), "0" * 64)
    odd = IndexedBook(1, doc, Annotations((), (), (), (), None, "t"))
    assert len(text.lower()) != len(text)
    assert term_counts(odd, "jim") == {0: 2} and term_counts(odd, "jim's") == {0: 1}   # _Jim_, JIM


def test_bm25_equals_the_bm25s_library(huck):
    """Our numpy BM25 (no bm25s import at query time) against bm25s itself, both length settings."""
    import bm25s
    import numpy as np

    from beyondfind.retrieval import baselines
    from beyondfind.retrieval.terms import book_terms

    terms = book_terms(huck)
    for b in (0.75, 0.0):
        reference = bm25s.BM25(k1=1.5, b=b, method="robertson")
        reference.index(terms.tokens, show_progress=False)
        for query in ("Mary Jane", "Tom Sawyer", "the duke", "Jim"):
            ours = {s.passage: s.score for s in baselines.bm25(huck, query, b=b)}
            q = [t for t in query.lower().split() if t in terms.collection]
            theirs = reference.get_scores(q)
            assert ours and set(ours) == {int(i) for i in np.flatnonzero(theirs > 0)}
            assert all(abs(ours[i] - theirs[i]) <= 1e-4 * max(1.0, theirs[i]) for i in ours)


def test_a_person_the_book_never_tags_is_found_where_the_name_is_written(huck):
    """Huck's father is "pap" (in lower case 50 times, "Pap" 12): the pipeline never tags it, so
    LRM had no candidate and `rank --method lrm --entity Pap` printed nothing. Its written
    occurrences now count as names; a tagged person's evidence is unchanged."""
    pap = parse_name("Pap")
    assert huck.characters.lookup(pap) is None
    ranked = lrm.rank(huck, pap, explain=True)
    assert len(ranked) >= 20
    for scored in ranked[:5]:
        text = huck.passages[scored.passage].text
        assert "pap" in text.lower() and scored.explain["names"]
    jim = [n for s in lrm.rank(huck, parse_name("Jim"), explain=True)[:10] for n in s.explain["names"]]
    assert jim and all(text.startswith("Jim") for _a, _b, text, _e in jim)   # tagged: the pipeline's mentions


def test_a_name_written_in_italics_is_written_out():
    """Project Gutenberg writes italics with underscores, which regular expressions count as
    letters: Monte Cristo's ship "the _Pharaon_" (×67 so written) was never found where LRM counts
    a place written out but untagged, nor was an untagged person written "_Pap_"."""
    from .conftest import DATA

    text = (DATA / "books" / "1184-count-of-monte-cristo.txt").read_text(encoding="utf-8")
    italic = text.count("_Pharaon_")
    assert italic >= 60
    written = lrm._written_out(parse_name("the Pharaon")).findall(text)
    assert len(written) >= text.count("Pharaon") - 2 and "_Pharaon_" not in written
    assert not lrm._written_out(parse_name("the Pharaon")).findall("the Pharaonic age, Pharaon2")
    assert lrm._any_case(parse_name("Pap")).findall("said _Pap_, not papa") == ["Pap"]


def test_a_passage_set_as_a_title_is_no_candidate(huck):
    """Huckleberry Finn's contents ("CHAPTER I. Civilizing Huck.--Miss Watson.--Tom Sawyer Waits.")
    and its illustrations' captions ("Miss Watson's Lecture") name Miss Watson and describe nothing;
    LRM and LDM ranked them among her passages (of 127 judged title passages one is Good). Ctrl-F
    still finds them."""
    from beyondfind.books import rank_passages

    titles = {i for i, p in enumerate(huck.passages) if "Miss Watson" in p.text and huck.is_title_passage(i)}
    assert len(titles) >= 3
    assert titles <= {s.passage for s in rank_passages(huck, "Miss Watson", method="find", top=None)}
    prose = {i for i, p in enumerate(huck.passages) if "Miss Watson" in p.text} - titles
    for method in ("lrm", "ldm"):
        ranked = {s.passage for s in rank_passages(huck, "Miss Watson", method=method, top=None)}
        assert prose <= ranked and not ranked & titles
