import json
import sqlite3
import subprocess
import sys

import pytest

from beyondfind.books import rank_passages
from beyondfind.cli.main import COMMAND_MODULES, build_parser, main
from beyondfind.index import Library, index_document

from .conftest import DATA, HUCK


def _counts(path):
    con = sqlite3.connect(path)
    try:
        return [con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("documents", "passages", "records")]
    finally:
        con.close()


def test_an_indexed_file_is_found_by_its_bytes_without_parsing_it(huck_search, monkeypatch):
    """`rank FILE` on an indexed file (the demo's path) looks the file up by the (sha256, format)
    its reader would give, and parses it only when it must be indexed."""
    import beyondfind.index as index_module
    from beyondfind.documents import READERS, load_document
    from beyondfind.documents.readers import FORMATS, content_key

    assert set(FORMATS) == set(READERS)
    document = load_document(HUCK)
    assert content_key(HUCK.read_bytes(), HUCK.name) == (document.sha256, document.format)

    def no_parsing(*_args):
        raise AssertionError("parsed an indexed file")

    from beyondfind.documents import readers

    monkeypatch.setattr(readers, "parse_document", no_parsing)
    monkeypatch.setattr(index_module, "parse_document", no_parsing)
    doc_id, new = index_document(huck_search.library, HUCK, lambda: None)
    assert not new and doc_id == huck_search.library.documents()[0].id


def test_index_stores_everything_and_reindex_is_a_no_op(huck_search):
    lib = huck_search.library
    info = lib.documents()[0]
    assert info.n_passages > 2000 and info.narrator in ("Huck", "Huck Finn", "Huckleberry Finn")
    calls = []
    doc_id, new = index_document(lib, HUCK, lambda: calls.append(1))
    assert not new and doc_id == info.id and calls == []  # no model loaded for an unchanged file
    document, ann = lib.load(doc_id)
    assert any(m.key == "mary jane" for m in ann.mentions)
    assert sum(1 for p in ann.pronouns if p.antecedent is not None) > 1000


def test_two_processes_annotate_exactly_as_one(huck_search, nlp, tmp_path):
    """`beyondfind index` forks annotation processes for a long document; the result must be the
    same annotations the single-process fixture stored."""
    from beyondfind.books import BookSearch

    search = BookSearch(Library(tmp_path / "lib.sqlite"), processes=2)
    search._nlp = nlp
    doc_id, new = search.index(HUCK)
    assert new
    _doc, two = search.library.load(doc_id)
    _doc, one = huck_search.library.load(huck_search.library.documents()[0].id)
    assert two == one and len(two.mentions) > 4000


def test_interrupted_index_leaves_library_valid(tmp_path, nlp):
    path = tmp_path / "lib.sqlite"
    book = tmp_path / "b.txt"
    book.write_text("Mary Jane smiled.\n\nShe was happy.\n")

    class Boom:
        meta = nlp.meta

        def pipe(self, *a, **k):  # Ctrl-C while the pipeline runs
            raise KeyboardInterrupt
            yield

    with Library(path) as lib:
        with pytest.raises(KeyboardInterrupt):
            index_document(lib, book, lambda: Boom())
    assert _counts(path) == [0, 0, 0]
    with Library(path) as lib:
        doc_id, new = index_document(lib, book, lambda: nlp)
        assert new and lib.get(doc_id).n_passages == 2


def test_rank_cli_outputs_contract(huck_search, capsys):
    lib = str(huck_search.library.path)
    assert main(["rank", str(HUCK), "--entity", "Mary Jane", "--top", "5", "--library", lib, "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    text = HUCK.read_text(encoding="utf-8")
    for r in rows:
        assert {"rank", "score", "start", "end", "text"} <= set(r)
        assert text[r["start"]:r["end"]] == r["text"]
    assert any("Mary Jane" in r["text"] for r in rows)


def test_a_command_line_builds_only_its_command():
    """`beyondfind rank …` imports and builds only the rank module's parsers (a cold query's start-up);
    the table of command → module must name every command of the full parser."""
    full = build_parser()
    commands = next(a for a in full._actions if a.dest == "command").choices
    assert set(commands) == set(COMMAND_MODULES)
    for command, module in COMMAND_MODULES.items():
        only = next(a for a in build_parser(command)._actions if a.dest == "command").choices
        assert command in only and {COMMAND_MODULES[c] for c in only} == {module}
    code = ("import sys; from beyondfind.cli.main import build_parser; build_parser('rank'); "
            "print(sorted(m for m in sys.modules if m.startswith('beyondfind.cli.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "beyondfind.cli.rank" in loaded and "beyondfind.cli.eval" not in loaded and "beyondfind.cli.serve" not in loaded


def test_every_method_and_options(huck):
    from beyondfind.books import METHODS

    for method in METHODS:
        res = rank_passages(huck, "Mary Jane", method, top=5)
        assert res, method
        assert all(a.score >= b.score for a, b in zip(res, res[1:])) or method in ("find", "entity-find")
    before = 330_000
    res = rank_passages(huck, "Mary Jane", "lrm", top=20, before=before)
    assert res and all(r.end <= before for r in res)
    top = rank_passages(huck, "Mary Jane", "lrm", top=1, explain=True)[0]
    explained = top.explain
    # the evidence LRM counted: her name, or pronouns resolved to her (Huck's "she had more sand in
    # her than any girl I ever see" passage names her nowhere), all inside the passage
    assert {"EF", "CR", "g", "names", "pronouns"} <= set(explained)
    evidence = explained["names"] + explained["pronouns"]
    assert evidence and all(top.start <= e[0] < e[1] <= top.end for e in evidence)
    assert explained["CR"] == len(explained["pronouns"])
    ldm = rank_passages(huck, "Mary Jane", "ldm", top=1, explain=True)[0].explain
    assert ldm["reasons"] and all(r["description"] for r in ldm["reasons"])


def test_find_is_exact_string_in_book_order(huck):
    res = rank_passages(huck, "Mary Jane", "find", top=None)
    assert [r.start for r in res] == sorted(r.start for r in res)
    assert all("Mary Jane" in r.text for r in res)


@pytest.mark.parametrize("args,message", [
    (["--entity", "Mr. (Smith)"], "does not occur"),
    (["--entity", "*"], "has no letters"),
    (["--entity", "Zebulon Quackenbush"], "closest names"),
    (["--entity", "x" * 10_000], "at most"),
    (["--entity", ""], "empty entity name"),
    (["--entity", "Jim", "--top", "0"], "--top"),
])
def test_bad_queries_fail_cleanly(huck_search, capsys, args, message):
    lib = str(huck_search.library.path)
    before = _counts(lib)
    assert main(["rank", str(HUCK), "--library", lib, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert _counts(lib) == before


def test_bad_files_fail_cleanly(tmp_path, capsys):
    lib = str(tmp_path / "lib.sqlite")
    bad = tmp_path / "bad.epub"
    bad.write_bytes(b"garbage")
    for target in (str(tmp_path), str(tmp_path / "missing.txt"), str(bad)):
        assert main(["rank", target, "--entity", "Jim", "--library", lib]) == 2
        err = capsys.readouterr().err
        assert err.startswith("beyondfind: error:") and "Traceback" not in err
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"not sqlite at all" * 100)
    assert main(["documents", "--library", str(corrupt)]) == 2
    assert "not a usable SQLite file" in capsys.readouterr().err


def test_documents_are_listed_as_a_table_or_as_the_apis_json_rows(huck_search, capsys):
    from beyondfind.server.app import create_app
    from starlette.testclient import TestClient

    library = str(huck_search.library.path)
    assert main(["documents", "--library", library, "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    huck = next(r for r in rows if r["name"] == HUCK.name)
    assert huck["title"].startswith("Adventures of Huckleberry Finn") and huck["passages"] > 2000
    assert huck["narrator"] == "Huckleberry Finn"
    with TestClient(create_app(library, index_jobs=False), base_url="http://127.0.0.1") as client:
        assert client.get("/api/documents").json()["documents"] == rows
    assert main(["documents", "--library", library, "--format", "table"]) == 0
    table = capsys.readouterr().out
    assert f"{huck['passages']} passages  {huck['title']}  ({HUCK.name})" in table and "{" not in table


def test_entities_cluster_aliases(huck_search, capsys):
    assert main(["entities", str(HUCK), "--library", str(huck_search.library.path), "--format", "jsonl"]) == 0
    ents = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_name = {e["name"]: e for e in ents}
    huck = next(e for e in ents if "Huck" in e["name"])
    assert any("Finn" in a for a in [huck["name"], *huck["aliases"]])
    tom = next(e for e in ents if e["name"] in ("Tom Sawyer", "Tom"))
    assert {"Tom", "Tom Sawyer"} <= {tom["name"], *tom["aliases"]}
    assert "Jim" in by_name and by_name["Jim"]["type"] == "PER"
    for e in ents:   # no alias repeats the name or another alias in capitals or as a possessive
        plain = [s.casefold().removesuffix("’s").removesuffix("'s") for s in [e["name"], *e["aliases"]]]
        assert len(plain) == len(set(plain)), e


def test_entities_table_says_when_several_narrators_tell_the_book(tmp_path, capsys):
    """A book of narratives "Contributed by" two characters (as The Moonstone is) has no narrator;
    the entity table says who tells it instead of marking one row."""
    parts = ["THE STORY", "", "The events related by GABRIEL BETTEREDGE, house-steward", ""]
    parts += [f"I went down to the shore that morning, and I saw Rachel walking with Mr. Franklin. I told "
              f"myself that my mistress would hear of it before night. Day {i} of my story." for i in range(6)]
    parts += ["", "FIRST NARRATIVE", "", "Contributed by MISS CLACK; niece of the late Sir John Verinder", ""]
    parts += [f"I am indebted to my dear parents for habits of order. I found Rachel in the drawing-room, and I "
              f"gave her my little tract. Morning {i} of my narrative." for i in range(6)]
    path = tmp_path / "narratives.txt"
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    library = str(tmp_path / "lib.sqlite")
    assert main(["index", str(path), "--library", library]) == 0
    capsys.readouterr()
    assert main(["entities", str(path), "--library", library, "--format", "table"]) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].startswith("told by several narrators: Gabriel Betteredge / Miss Clack")
    assert "counts for its writer" in table.splitlines()[0]
    assert "[narrator]" not in table


def test_aliases_drop_case_and_possessive_copies():
    from beyondfind.index.entities import distinct_aliases

    got = distinct_aliases("Starbuck", ["Mr. Starbuck", "Starbuck’s", "STARBUCK", "WILKINS MICAWBER",
                                        "Wilkins Micawber", "Master Copperfield--", "Master Copperfield", "Stubb"])
    assert got == ("Mr. Starbuck", "Wilkins Micawber", "Master Copperfield", "Stubb")
    # a form the book writes only in capitals (a heading, a letter's signature) is shown as a name
    assert distinct_aliases("Beth", ["Betsey", "Mrs. BETH", "COLONEL TEDDY", "King Henry VIII", "GM"]) \
        == ("Betsey", "Mrs. Beth", "Colonel Teddy", "King Henry VIII", "GM")
    # a word broken at a line's end ("Miss Ever-" / "dene") is no alias beside the whole word; a
    # name broken off in speech that nothing completes stays
    assert distinct_aliases("Bathsheba", ["Miss Everdene", "Miss Ever-", "Mary-", "Miss Ev--"]) \
        == ("Miss Everdene", "Mary-")
    assert distinct_aliases("Maryann", ["Mary-", "Maryann Money"]) == ("Maryann Money",)


def test_a_row_is_named_by_its_spelling_in_lower_case_letters(nlp):
    """This Side of Paradise sets a play's speakers in capitals ("ROSALIND: …", 128 times against 58
    "Rosalind"): the row was "ROSALIND". The most frequent spelling names a row unless it is in
    capitals and the book writes the name otherwise too; a name written only in capitals is shown
    as a name ("McBRIDE", a letter's signature, → "McBride")."""
    from beyondfind.documents import load_document, parse_document
    from beyondfind.index import annotate_document
    from beyondfind.index.book import IndexedBook
    from beyondfind.index.entities import list_entities, tidy_case

    passages = [p.text for p in load_document(DATA / "litbank" / "original" / "805_this_side_of_paradise.txt").passages
                if "ROSALIND" in p.text or "Rosalind" in p.text]
    text = "\n\n".join(passages[:80]) + "\n"
    assert text.count("ROSALIND") > text.count("Rosalind") > 5
    document = parse_document(text.encode(), "paradise.txt")
    book = IndexedBook(1, document, annotate_document(document, nlp))
    rows = {e.name.casefold(): e.name for e in list_entities(book)}
    assert rows["rosalind"] == "Rosalind", rows
    assert tidy_case("McBRIDE") == "McBride" and tidy_case("MacDONALD") == "MacDonald"


def test_console_script_demo_runs(tmp_path):
    exe = [sys.executable, "-m", "beyondfind.cli.main"]
    out = subprocess.run(exe + ["rank", str(HUCK), "--entity", "Nobody Atall", "--library", str(tmp_path / "l.sqlite"),
                                "--nlp", "blank"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "does not occur" in out.stderr and "Traceback" not in out.stderr


def test_eval_books_reports_characters_and_places_separately(huck_search, tmp_path, capsys):
    """`eval books --judgments A --judgments B`: one table per folder, results written per folder."""
    import shutil

    from .conftest import DATA

    folders = []
    for kind in ("books", "places"):
        folder = tmp_path / kind
        folder.mkdir()
        shutil.copy(DATA / "judgments" / kind / "76-huckleberry-finn.jsonl", folder)
        folders += ["--judgments", str(folder)]
    out = tmp_path / "reports"
    assert main(["eval", "books", *folders, "--books", str(DATA / "books"), "--methods", "find,lrm",
                 "--library", str(huck_search.library.path), "--output", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.index("# books") < text.index("# places") and text.count("## paired t-tests") == 2
    places = json.loads((out / "places" / "books-results.json").read_text())
    assert {r["entity"] for r in places} == {"St. Petersburg"} and {r["method"] for r in places} == {"find", "lrm"}
    characters = json.loads((out / "books" / "books-results.json").read_text())
    assert len({r["entity"] for r in characters}) > 3
    lrm_place = next(r for r in places if r["method"] == "lrm")
    assert lrm_place["nDCG@5/c"] > 0   # the place is found although NER calls "Petersburg" a GPE or ORG

    # the rankings as a TREC run: scored against the judgments' qrels.txt by ir_measures, they give
    # the reported nDCG@5 of every query
    import ir_measures
    from ir_measures import Qrel, ScoredDoc, nDCG

    qrels = [Qrel(q, d, int(g)) for q, _z, d, g in (line.split("\t") for line in
             (DATA / "judgments" / "books" / "qrels.txt").read_text().splitlines())
             if q.startswith("76-huckleberry-finn.txt::")]
    run = [ScoredDoc(q, d, -int(rank)) for q, _q0, d, rank, _score, method in
           (line.split("\t") for line in (out / "books" / "books-run.tsv").read_text().splitlines()) if method == "lrm"]
    reference = {m.query_id: m.value for m in ir_measures.iter_calc([nDCG @ 5], qrels, run)}
    ours = {f"{r['book']}::{r['entity']}": r["nDCG@5"] for r in characters if r["method"] == "lrm"}
    assert set(ours) <= set(reference) and len(ours) > 3
    assert all(ours[q] == pytest.approx(reference[q], abs=1e-6) for q in ours)
