"""Indexing spools a document's records to a scratch SQLite file instead of holding them in memory:
batches are appended with their ids shifted, added mentions are numbered in reading order, the
book-level pronoun pass streams, and the scratch file never outlives indexing."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from beyondfind.index import Library, index_document
from beyondfind.index.records import Mention, Pronoun, Sentence, Verb
from beyondfind.index.spool import Batch, Candidate, RecordSpool, remove_abandoned
from beyondfind.nlp import anaphora


def _batch(passage: int, start: int) -> Batch:
    """Two sentences, a name in the second, a pronoun in the first (ids from 0, as a worker sends them)."""
    return Batch(
        [Sentence(0, passage, start, start + 10), Sentence(1, passage, start + 11, start + 20)],
        [Mention(0, passage, 1, start + 12, start + 16, "Jane", "PER", True, "jane", None, True, False)],
        [Pronoun(0, passage, 0, start + 2, start + 5, "she", 3, "female", False)],
        [Verb(passage, 1, "smile")],
        [Candidate(passage, 0, start, start + 1, "A", True, False, False)],
        [])


def test_batches_are_appended_with_ids_shifted(tmp_path):
    with RecordSpool(tmp_path) as spool:
        spool.add(_batch(0, 0))
        spool.add(_batch(1, 100))
        ann = spool.annotations(None, "test", ()).materialise()
    assert [s.index for s in ann.sentences] == [0, 1, 2, 3]
    assert [(m.id, m.sentence, m.start) for m in ann.mentions] == [(0, 1, 12), (1, 3, 112)]
    assert [(p.id, p.sentence) for p in ann.pronouns] == [(0, 0), (1, 2)]
    assert [v.sentence for v in ann.verbs] == [1, 3]


def test_added_mentions_are_numbered_in_reading_order(tmp_path):
    with RecordSpool(tmp_path) as spool:
        spool.add(_batch(0, 0))
        spool.add(_batch(1, 100))
        late = Mention(99, 0, 0, 3, 7, "Tom", "PER", True, "tom", None, False, False, "propagated")
        spool.insert_mentions([late])
        ann = spool.annotations(None, "test", ()).materialise()
    assert [(m.id, m.text, m.source) for m in ann.mentions] == [
        (0, "Tom", "propagated"), (1, "Jane", "ner"), (2, "Jane", "ner")]


def test_a_name_that_takes_in_the_next_leaves_the_mentions_numbered_in_reading_order(tmp_path):
    with RecordSpool(tmp_path) as spool:
        spool.add(_batch(0, 0))
        spool.add(_batch(1, 100))
        dean = Mention(99, 0, 1, 17, 21, "Dean", "PER", True, "dean", None, False, False)
        spool.insert_mentions([dean])
        assert [row[0] for row in spool.name_spans()] == [0, 1, 2]
        spool.join_names([(21, "Jane Dean", "jane dean", None, True, 0, 1)])
        ann = spool.annotations(None, "test", ()).materialise()
    assert [(m.id, m.start, m.end, m.text, m.key, m.is_subject) for m in ann.mentions] == [
        (0, 12, 21, "Jane Dean", "jane dean", True), (1, 112, 116, "Jane", "jane", True)]


def test_names_one_space_apart_join_unless_the_second_is_a_first_name_of_its_own(tmp_path):
    """"Nelly" + "Dean" is one name ("Mrs. Dean" makes Dean a surname), and so "Amy" + "Lawrence"
    (a first name, but written as one name with Amy elsewhere); in "Tell Beth Frank asked for her"
    Frank is a first name the book never titles: two people."""
    from beyondfind.documents import Document, Passage
    from beyondfind.index.annotate import _join_split_names
    from beyondfind.nlp.name_evidence import NameEvidence

    text = "Tell Beth Frank asked for her. Nelly Dean came. Mrs. Dean smiled. Amy Lawrence, Amy Lawrence, Amy Lawrence."
    doc = Document("t.txt", "txt", text, (Passage(0, 0, len(text), text),), "0" * 64)

    def name(i, written, start, honorific=None):
        key = written.split(" ", 1)[-1].lower() if honorific else written.lower()
        return Mention(i, 0, 0, start, start + len(written), written, "PER", True, key, honorific, False, False)

    mentions = [name(0, "Beth", 5), name(1, "Frank", 10), name(2, "Nelly", 31), name(3, "Dean", 37),
                name(4, "Mrs. Dean", 48, "mrs"), name(5, "Amy Lawrence", 66), name(6, "Amy Lawrence", 80),
                name(7, "Amy", 94), name(8, "Lawrence", 98)]
    assert all(text[m.start:m.end] == m.text for m in mentions)
    with RecordSpool(tmp_path) as spool:
        spool.add(Batch([Sentence(0, 0, 0, len(text))], mentions, [], [], [], []))
        _join_split_names(doc, spool, NameEvidence(text))
        ann = spool.annotations(None, "test", ()).materialise()
    assert [(m.id, m.text, m.key) for m in ann.mentions] == [
        (0, "Beth", "beth"), (1, "Frank", "frank"), (2, "Nelly Dean", "nelly dean"), (3, "Mrs. Dean", "dean"),
        (4, "Amy Lawrence", "amy lawrence"), (5, "Amy Lawrence", "amy lawrence"), (6, "Amy Lawrence", "amy lawrence")]


def test_an_honorific_opens_the_run_of_the_name_after_it_and_is_never_a_name_alone():
    """The capitalised words where propagation looks for missed names: "Mrs." and "Miss" open the
    run of the next word, "Sir" before a comma and a lone "Mr." are nothing; words one space apart
    run on where the parser put a sentence break between them ("Mrs. | Reed", "Colonel |
    Fitzwilliam"), words of two sentences do not ("Fitzwilliam. Jo")."""
    from beyondfind.index.annotate import _runs

    text = "Mrs. Reed came. Sir, Tom is here. Miss Bates and Jarvis Lorry saw Mr. it. Colonel Fitzwilliam. Jo. Miss"
    words = [(0, "Mrs."), (1, "Reed"), (1, "Sir"), (1, "Tom"), (2, "Miss"), (2, "Bates"), (2, "Jarvis"),
             (2, "Lorry"), (2, "Mr."), (3, "Colonel"), (4, "Fitzwilliam"), (5, "Jo"), (6, "Miss")]
    candidates, at = [], 0
    for sentence, word in words:
        at = text.index(word, at)
        candidates.append(Candidate(0, sentence, at, at + len(word), word, False, False, False))
        at += len(word)
    assert [" ".join(c.text for c in run) for run in _runs(candidates, text)] == [
        "Mrs. Reed", "Tom", "Miss Bates", "Jarvis Lorry", "Colonel Fitzwilliam", "Jo"]


def test_a_run_across_a_sentence_break_that_is_no_name_leaves_the_names_it_holds():
    from beyondfind.index.annotate import _accepted_parts

    def run(*words):   # (sentence, word) pairs, one space apart
        out, at = [], 0
        for sentence, word in words:
            out.append(Candidate(0, sentence, at, at + len(word), word, False, False, False))
            at += len(word) + 1
        return out

    known = {"oliver twist", "colonel forster", "forster"}

    def accepted(r):
        return " ".join(c.text for c in r).lower() in known

    def texts(parts):
        return [" ".join(c.text for c in p) for p in parts]

    assert texts(_accepted_parts(run((0, "Colonel"), (1, "Forster")), accepted)) == ["Colonel Forster"]
    assert texts(_accepted_parts(run((0, "Little"), (1, "Oliver"), (1, "Twist")), accepted)) == ["Oliver Twist"]
    assert texts(_accepted_parts(run((0, "Little"), (0, "Oliver"), (0, "Twist")), accepted)) == []


def test_scratch_file_is_removed_when_indexing_fails(tmp_path, nlp, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    book = tmp_path / "b.txt"
    book.write_text("Mary Jane smiled.\n\nShe was happy.\n")

    class Boom:
        meta = nlp.meta

        def pipe(self, *a, **k):
            raise RuntimeError("pipeline failed")
            yield

    with Library(tmp_path / "lib.sqlite") as lib:
        with pytest.raises(RuntimeError):
            index_document(lib, book, lambda: Boom())
        assert list(scratch.iterdir()) == []
        doc_id, new = index_document(lib, book, lambda: nlp)
        assert new and list(scratch.iterdir()) == []
        _doc, ann = lib.load(doc_id)
    she = next(p for p in ann.pronouns if p.text == "She")
    assert ann.mentions[she.antecedent].text == "Mary Jane"


def test_pronoun_links_stream_through_the_names():
    """The book-level pass reads names only as far as the pronouns need (a window, not the book)."""
    read = []

    def names():
        for k in range(1000):
            read.append(k)
            yield anaphora.NameItem(order=10 * k, sentence=k, gender="female", is_subject=True, in_quote=False)

    pronouns = (anaphora.PronounItem(order=10 * k + 5, sentence=k, gender="female", word="she", in_quote=False)
                for k in range(1000))
    links = anaphora.iter_links(names(), pronouns)
    assert next(links) == 0 and len(read) <= 2
    rest = list(links)
    assert rest == list(range(1, 1000))


def _age(path, seconds=3600):
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_a_killed_indexer_s_spool_is_removed_by_the_next_one_a_live_one_is_not(tmp_path):
    """A process killed outright cannot delete its scratch file: the next
    spool created in the same directory removes it, but never one whose owner is still running."""
    code = ("import sys, time; from beyondfind.index.spool import RecordSpool; "
            f"s = RecordSpool({str(tmp_path)!r}); print(s._dir, flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    abandoned = Path(child.stdout.readline().strip())
    with RecordSpool(tmp_path) as alive:
        live_dir = Path(alive._dir)
        _age(abandoned)
        _age(live_dir)
        assert remove_abandoned(tmp_path) == []          # the child still holds its lock
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert abandoned.is_dir()                           # killed: nothing cleaned up
        with RecordSpool(tmp_path) as nxt:
            assert not abandoned.exists()
            assert live_dir.is_dir() and Path(nxt._dir).is_dir()
    assert list(tmp_path.iterdir()) == []


def test_a_new_spool_directory_is_left_alone_until_its_owner_had_time_to_lock_it(tmp_path):
    young = tmp_path / "beyondfind-spool-young"
    young.mkdir()
    (young / "owner.lock").touch()
    assert remove_abandoned(tmp_path) == []
    _age(young)
    assert remove_abandoned(tmp_path) == [young]


def test_a_name_cut_after_its_first_word_takes_it_back_with_the_whole_names_label(tmp_path):
    """"York" after "New", which the book has whole twice, is "New York" with the whole's label
    (GPE, not the cut one's PER); an adjective before a person stays outside ("Young Jerry" names what "Jerry" names),
    before a place it does not ("Old Bailey"); a word the book never has with the name stays out."""
    from beyondfind.documents import Document, Passage
    from beyondfind.index.annotate import _widen_cut_names
    from beyondfind.nlp.name_evidence import NameEvidence

    text = ("New York, New York. Young Jerry, Young Jerry. Old Bailey, Old Bailey. "
            "In New York Young Jerry saw Old Bailey and Poor Jerry.")
    doc = Document("t.txt", "txt", text, (Passage(0, 0, len(text), text),), "0" * 64)
    at = 0

    def name(written, label):
        nonlocal at
        at = text.index(written, at)
        m = Mention(0, 0, 0, at, at + len(written), written, label, True, written.lower(), None, False, False)
        at += len(written)
        return m

    mentions = [name("New York", "GPE"), name("New York", "GPE"), name("Young Jerry", "PER"),
                name("Young Jerry", "PER"), name("Old Bailey", "ORG"), name("Old Bailey", "ORG"),
                name("York", "PER"), name("Jerry", "PER"), name("Bailey", "PER"), name("Jerry", "PER")]
    mentions = [m._replace(id=i) for i, m in enumerate(mentions)]
    with RecordSpool(tmp_path) as spool:
        spool.add(Batch([Sentence(0, 0, 0, len(text))], mentions, [], [], [], []))
        _widen_cut_names(doc, spool, NameEvidence(text))
        ann = spool.annotations(None, "test", ()).materialise()
    assert [(m.text, m.label) for m in ann.mentions][6:] == [
        ("New York", "GPE"), ("Jerry", "PER"), ("Old Bailey", "ORG"), ("Jerry", "PER")]
    assert all(text[m.start:m.end] == m.text for m in ann.mentions)
