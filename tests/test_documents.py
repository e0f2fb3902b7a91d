import json

import pytest

from beyondfind import BeyondfindError
from beyondfind.documents import load_document, parse_document
from beyondfind.documents.readers import content_key

from .conftest import DATA, HUCK


def test_gutenberg_passages_reproduce_every_judged_offset():
    for f in sorted((DATA / "judgments" / "books").glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        doc = load_document(DATA / "books" / rows[0]["book"])
        spans = {(p.start, p.end) for p in doc.passages}
        missing = [(r["start"], r["end"]) for r in rows if (r["start"], r["end"]) not in spans]
        assert not missing, f"{f.name}: {missing[:3]}"
        for p in doc.passages[:50]:
            assert doc.text[p.start:p.end] == p.text


def test_gutenberg_header_and_footer_are_stripped():
    doc = load_document(HUCK)
    body = "".join(p.text for p in doc.passages)
    assert "Project Gutenberg" not in doc.passages[5].text
    assert "*** END OF" not in body and "*** START OF" not in body
    assert doc.title.startswith("Adventures of Huckleberry Finn")
    assert any(p.chapter and p.chapter.startswith("CHAPTER") for p in doc.passages)


def test_a_plain_text_without_a_gutenberg_header_takes_its_opening_title(tmp_path):
    """The Count of Monte Cristo of ``books/`` (from GITenberg) has no "Title:" line: `documents`
    listed it without a title. A text that opens with a chapter heading or with prose has none."""
    assert load_document(DATA / "books" / "1184-count-of-monte-cristo.txt").title == "The Count of Monte Cristo"
    for name, text in (("a.txt", "CHAPTER I\n\nIt was a dark night."), ("b.txt", "It was a dark night.\n\nThe end."),
                       ("c.txt", "Dear John,\n\nI write to you.")):
        (tmp_path / name).write_text(text)
        assert load_document(tmp_path / name).title is None
    (tmp_path / "d.txt").write_text("A Night on the Moors\n\nIt was a dark night.")
    assert load_document(tmp_path / "d.txt").title == "A Night on the Moors"


def test_a_first_line_that_opens_a_chapter_or_a_section_is_not_the_title():
    """`documents` listed eleven LitBank novels as "I", "Prologue", "The Sisters" or "Phase the
    First: The Maiden": the first line named the first chapter or section, not the book."""
    lit = DATA / "litbank" / "original"
    for stem in ("351_of_human_bondage", "219_heart_of_darkness", "77_the_house_of_the_seven_gables",
                 "2814_dubliners", "1155_the_secret_adversary", "155_the_moonstone",
                 "110_tess_of_the_durbervilles_a_pure_woman"):
        doc = load_document(lit / f"{stem}.txt")
        assert doc.title is None, (stem, doc.title)
    assert load_document(lit / "209_the_turn_of_the_screw.txt").title == "The Turn of the Screw"
    assert load_document(lit / "33_the_scarlet_letter.txt").title == "The Scarlet Letter"


def test_chapters_are_named_within_their_book_and_contents_are_not_chapters():
    from beyondfind.documents.positions import chapters

    wp = chapters(load_document(DATA / "books" / "2600-war-and-peace.txt"))
    assert wp[11].title == "BOOK ONE: 1805 · CHAPTER XII" and wp[0].title == "BOOK ONE: 1805 · CHAPTER I"
    assert sum(c.title.endswith("· CHAPTER XII") for c in wp) > 10   # one per BOOK, each named apart
    huck = chapters(load_document(DATA / "books" / "76-huckleberry-finn.txt"))
    assert [c.title for c in huck[:2]] == ["CHAPTER I.", "CHAPTER II."] and len(huck) == 43
    two_cities = chapters(load_document(DATA / "books" / "98-tale-of-two-cities.txt"))
    assert two_cities[0].title == "I. The Period" and len(two_cities) > 40


def test_chapters_numbered_alone_or_in_lower_case_or_italics_are_chapters():
    """Of Human Bondage numbers its 122 chapters "I", "II", ... alone, The Age of Innocence "I." under
    "Book I", Tom Jones "Chapter i." under "BOOK I.", Miss Marjoribanks "_Chapter I_": all were one
    chapter or none (so no passage opened a chapter for the ``intro.chapter_opening`` feature).
    Main Street's "I", "II" under each "CHAPTER" number its sections and stay inside the chapter;
    Ulysses' one "I." is a word of Bloom's, no heading."""
    from beyondfind.documents.positions import chapters

    lit = DATA / "litbank" / "original"
    bondage = chapters(load_document(lit / "351_of_human_bondage.txt"))
    assert [c.title for c in bondage[:2]] == ["I", "II"] and len(bondage) == 122 and bondage[-1].title == "CXXII"
    innocence = chapters(load_document(lit / "541_the_age_of_innocence.txt"))
    assert innocence[0].title == "Book I · I." and innocence[-1].title == "Book II · XXXIV." and len(innocence) == 34
    jones = chapters(load_document(lit / "6593_history_of_tom_jones_a_foundling.txt"))
    assert jones[1].title == "BOOK I. · Chapter ii." and len(jones) > 200
    assert chapters(load_document(lit / "41286_miss_marjoribanks.txt"))[0].title == "Chapter I"
    assert len(chapters(load_document(lit / "16357_mary_a_fiction.txt"))) == 31   # "CHAP. I."
    gables = chapters(load_document(lit / "77_the_house_of_the_seven_gables.txt"))
    assert [c.title for c in gables[:2]] == ["I The Old Pyncheon Family", "II The Little Shop-Window"]
    assert len(gables) == 21
    # "CHAPTER I" then its title "I TAKE A COUNTRY HOUSE": the pronoun, no numeral
    assert chapters(load_document(lit / "434_the_circular_staircase.txt"))[0].title == "CHAPTER I"
    main_street = chapters(load_document(lit / "543_main_street.txt"))
    assert main_street[0].title == "CHAPTER I" and all(c.title.startswith("CHAPTER") for c in main_street)
    assert not any(c.title == "I." for c in chapters(load_document(lit / "4300_ulysses.txt")))


def test_titles_in_capitals_head_the_stories_of_a_collection_without_other_headings():
    """Dubliners (LitBank's text) sets each story's title alone in capitals and nothing else:
    it had no chapter. A letter's place and date in capitals with a comma (Dear Enemy's "STONE GATE,
    WORCESTER,") is no title, and a novel with CHAPTER headings keeps its own."""
    from beyondfind.documents.positions import chapters
    from beyondfind.documents.segment import is_capitals_title

    lit = DATA / "litbank" / "original"
    stories = chapters(load_document(lit / "2814_dubliners.txt"))
    assert len(stories) == 15 and stories[0].title == "THE SISTERS" and stories[-1].title == "THE DEAD"
    assert not chapters(load_document(lit / "238_dear_enemy.txt"))
    assert not is_capitals_title("STONE GATE, WORCESTER,") and not is_capitals_title("LATER.")
    assert is_capitals_title("A LITTLE CLOUD") and not is_capitals_title("It was A LITTLE CLOUD")
    sons = chapters(load_document(lit / "217_sons_and_lovers.txt"))
    assert sons[0].title == "PART ONE · CHAPTER I"


def test_a_part_listed_in_the_table_of_contents_names_no_chapter():
    """Little Women's contents list "PART 1", its chapters, "PART 2", its chapters: the last part
    of the contents used to name every chapter of part 1 ("PART 2 · CHAPTER ONE")."""
    from beyondfind.documents.segment import is_contents

    doc = load_document(DATA / "books" / "514-little-women.txt")
    opening = next(p for p in doc.passages if "Christmas won't be Christmas" in p.text)
    assert opening.chapter == "CHAPTER ONE"
    assert not any(p.chapter and "PART" in p.chapter for p in doc.passages if p.start > opening.start)
    assert is_contents("ONE  PLAYING PILGRIMS\nTWO  A MERRY CHRISTMAS\nTHREE  THE LAURENCE BOY\nFOUR  BURDENS\n"
                       "TEN  THE P.C. AND P.O.")   # one title in five may end like a sentence
    assert not is_contents("CHAPTER ONE")
    assert not is_contents("It was a cold night.\nThe girls sat by the fire.\nJo spoke first.")


def test_epub_chapters_in_spine_order(tmp_path):
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("x1")
    book.set_title("Tiny Book")
    book.set_language("en")
    c1 = epub.EpubHtml(title="One", file_name="one.xhtml", content="<h1>One</h1><p>Mary Jane was red-headed.</p>")
    c2 = epub.EpubHtml(title="Two", file_name="chapter_1.xhtml", uid="chapter_1",
                       content="<h1>CHAPTER II</h1><p>Huck ran away.</p><p>Jim too.</p>"
                               "<h2>CHAPTER III</h2><p>Tom stayed.</p>")
    for c in (c1, c2):
        book.add_item(c)
    book.toc = [epub.Link("chapter_1.xhtml", "Chapter II. The Raft", "c2")]
    book.spine = [c2, c1]  # spine order, not file order
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    path = tmp_path / "tiny.epub"
    epub.write_epub(str(path), book)
    doc = load_document(path)
    assert content_key(path.read_bytes(), path.name) == (doc.sha256, doc.format)
    texts = [p.text for p in doc.passages]
    assert texts.index("Huck ran away.") < texts.index("Mary Jane was red-headed.")
    for p in doc.passages:
        assert doc.text[p.start:p.end] == p.text
    # chapters are named by the table of contents or the headings, never by the spine id
    assert {p.chapter for p in doc.passages if p.text == "Jim too."} == {"Chapter II. The Raft"}
    assert {p.chapter for p in doc.passages if p.text == "Tom stayed."} == {"CHAPTER III"}
    assert {p.chapter for p in doc.passages if p.text.startswith("Mary Jane")} == {"One"}
    assert doc.title == "Tiny Book"


def test_html_markdown_and_tables(tmp_path):
    html = tmp_path / "a.html"
    html.write_text("<html><head><title>T</title><script>alert(1)</script></head><body><h2>Part</h2>"
                    "<p>First <b>para</b>.</p><p>Second.</p></body></html>")
    doc = load_document(html)
    assert [p.text for p in doc.passages] == ["Part", "First para.", "Second."]
    for name in ("a.html", "a.htm", "a.xhtml"):
        path = tmp_path / name
        path.write_bytes(html.read_bytes())
        doc = load_document(path)
        assert content_key(path.read_bytes(), path.name) == (doc.sha256, doc.format) == (doc.sha256, "html")
    assert "alert" not in doc.text and doc.passages[-1].chapter == "Part"
    md = tmp_path / "a.md"
    md.write_text("# Title\n\nOne line\nsame para\n\n## Next\n\nTwo\n\n## Book Two\n\n### Chapter 3\n\nThree\n")
    doc = load_document(md)
    assert content_key(md.read_bytes(), md.name) == (doc.sha256, doc.format)
    assert [p.text for p in doc.passages][1] == "One line\nsame para"
    assert doc.passages[3].chapter == "Next"
    assert doc.passages[-1].chapter == "Book Two · Chapter 3"   # nested headings name the chapter
    sentences = load_document(SHARED_CSV := DATA.parent / "papers" / "entity-summarization-of-news.sentences.csv")
    assert len(sentences.passages) > 50 and SHARED_CSV.exists()
    jl = tmp_path / "t.jsonl"
    jl.write_text('{"text": "Alpha beta."}\n{"text": "Gamma."}\n')
    assert [p.text for p in load_document(jl).passages] == ["Alpha beta.", "Gamma."]
    for path in (SHARED_CSV, jl):
        doc = load_document(path)
        assert content_key(path.read_bytes(), path.name) == (doc.sha256, doc.format)


def test_passages_refer_to_the_document_text_without_copies(tmp_path):
    """Every reader's passages slice the one document text (a long text is held once while it is
    indexed), and a stored document comes back the same way."""
    from beyondfind.index import Library

    html = tmp_path / "a.html"
    html.write_text("<html><body><h2>Part</h2><p>First <b>para</b>.</p><p>Second.</p></body></html>")
    for doc in (load_document(HUCK), load_document(html)):
        assert all(p.source is doc.text and p.text == doc.text[p.start:p.end] for p in doc.passages)
        assert not hasattr(doc.passages[0], "__dict__")   # slots: ~190k passages in 50 MB of text
    with Library(tmp_path / "lib.sqlite") as lib:
        from beyondfind.index.records import Annotations

        doc_id = lib.store(doc, Annotations((), (), (), (), None, "test"))
        stored, _ = lib.load(doc_id)
    assert stored.passages == doc.passages and all(p.source is stored.text for p in stored.passages)
    assert [p.text for p in stored.passages] == ["Part", "First para.", "Second."]


@pytest.mark.parametrize("name,data,message", [
    ("x.pdf", b"%PDF", "unsupported file type"),
    ("x.epub", b"not a zip", "not a valid EPUB"),
    ("x.csv", b"a,b\n1,2\n", "no 'text' or 'sentence' column"),
    ("x.jsonl", b'{"text": "ok"}\n{bad\n', "x.jsonl:2"),
])
def test_bad_files_raise_clear_errors(name, data, message):
    with pytest.raises(BeyondfindError, match=message):
        parse_document(data, name)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(BeyondfindError, match="is a directory"):
        load_document(tmp_path)
    with pytest.raises(BeyondfindError, match="no such file"):
        load_document(tmp_path / "nope.txt")


def test_the_stories_of_a_collection_are_its_chapters():
    """The Adventures of Sherlock Holmes (LitBank's full text) heads its first six stories
    "ADVENTURE I. A SCANDAL IN BOHEMIA" and the others "VII. THE ADVENTURE OF …": every passage of
    the first six had no chapter, and the first heading was taken for the book's title."""
    from beyondfind.documents.positions import chapters

    doc = load_document(DATA / "litbank" / "original" / "1661_the_adventures_of_sherlock_holmes.txt")
    titles = [c.title for c in chapters(doc)]
    assert titles[:2] == ["ADVENTURE I. A SCANDAL IN BOHEMIA", "ADVENTURE II. THE RED-HEADED LEAGUE"]
    assert "VII. THE ADVENTURE OF THE BLUE CARBUNCLE" in titles and len(titles) == 12
    assert doc.title != "Adventure I. a Scandal in Bohemia"


def test_a_one_line_html_document_reads_without_a_warning():
    """bs4 warns that "chapter-one.html" looks like a file name when it is the whole document: a
    user's short HTML file (and the fuzz test) printed a warning about its own code."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = parse_document(b"chapter-one.html", "short.html")
    assert doc.text.strip() == "chapter-one.html"
    assert not [w for w in caught if "looks more like" in str(w.message)]


def test_paragraphs_written_without_blank_lines_are_passages():
    """LitBank's Far from the Madding Crowd sets no blank line between paragraphs: each chapter was
    one passage of up to 6,437 words. Its paragraphs end on a short line that ends a sentence."""
    doc = load_document(DATA / "litbank" / "original" / "27_far_from_the_madding_crowd.txt")
    sizes = [len(p.text.split()) for p in doc.passages]
    assert len(doc.passages) > 2000 and max(sizes) < 1000
    second = doc.passages[2].text   # after the chapter's heading and subtitle
    assert second.startswith("When Farmer Oak smiled") and second.endswith("the rising sun.")
    assert doc.passages[3].text.startswith("His Christian name was Gabriel")
    assert any(p.chapter and "CHAPTER I" in p.chapter for p in doc.passages[2:4])


def test_a_spaced_text_keeps_its_blocks_whatever_its_line_lengths():
    """The split is for unspaced texts only: a spaced text's short lines (verse, a letter's closing)
    stay inside their block, as every judged passage's offsets require."""
    text = ("A letter.\n\nDear Sir,\nI write in haste and remain yours.\nJ. Smith.\nPostscript follows here.\n\n"
            + "Another paragraph that runs on.\n" * 3)
    spaced = parse_document(text.encode(), "letter.txt")
    assert [p.text.split("\n")[0] for p in spaced.passages] == ["A letter.", "Dear Sir,",
                                                                 "Another paragraph that runs on."]
    unspaced = ("The first paragraph runs on across a line that is as long as all the others are\n"
                "and it ends here on a short line.\n"
                "The second paragraph also runs on across a line as long as all of the others\n"
                "are, and it ends on its short line.\n") * 60
    doc = parse_document(unspaced.encode(), "unspaced.txt")
    assert len(doc.passages) == 120 and doc.passages[1].text.startswith("The second paragraph")
    # a paragraph a line, unwrapped, however long or short the line: each line is a passage
    lines = [" ".join(["word"] * (20 + 37 * k % 280)) + f" ends paragraph {k}." for k in range(50)]
    doc = parse_document("\r\n".join(lines).encode(), "unwrapped.txt")
    assert [p.text for p in doc.passages] == lines
