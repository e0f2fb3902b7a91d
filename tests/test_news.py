import json
import sqlite3

import pytest

from beyondfind import BeyondfindError
from beyondfind.cli.main import main
from beyondfind.news import add_article, rank_thread, show_article
from beyondfind.news.combine import Combination, saturate, tune
from beyondfind.news.identity import compact, normalize, same_entity
from beyondfind.news.io import read_thread
from beyondfind.news.model import Article
from beyondfind.news.annotate import annotate_article
from beyondfind.news.store import ThreadStore

from .conftest import DATA

GM = DATA / "news" / "meantime" / "gm.jsonl"


def test_identity_rules():
    assert normalize("Apple Computer's") == "apple" == normalize("Apple Inc.")
    assert same_entity("GM", "General Motors") and same_entity("General Motors Corp.", "GM")
    assert same_entity("Jobs", "Steve Jobs", b_is_person=True)
    assert not same_entity("Jobs", "Steve Jobs", b_is_person=False)
    assert not same_entity("Ford", "Ford Taurus")
    assert compact(normalize("DaimlerChrysler")) == compact(normalize("Daimler-Chrysler")) \
        == compact(normalize("Daimler Chrysler AG"))
    assert compact(normalize("U.S.")) is None   # too short to compare written together


def test_spelling_variants_are_one_entity_in_an_article_and_across_the_thread(store, nlp):
    arts = [_art(1, "2020-01-01", "DaimlerChrysler cut jobs. Daimler-Chrysler said sales fell."),
            _art(2, "2020-01-02", "Daimler Chrysler closed a plant in Detroit.")]
    for a in arts:
        store.add("t", annotate_article(a, nlp))
    first = annotate_article(arts[0], nlp)
    assert [(s.surface, s.count) for s in first.entities if "Daimler" in s.surface] == [("DaimlerChrysler", 2)]
    names = [r[0] for r in store.conn.execute("SELECT name FROM news_entities")]
    assert sum("Daimler" in n for n in names) == 1, names


def _art(i, date, text):
    return Article(f"a{i}", date, f"t{i}", text)


@pytest.fixture
def store():
    return ThreadStore(sqlite3.connect(":memory:", isolation_level=None))


def test_incremental_history_matches_recomputation_and_orders_by_date(store, nlp):
    arts = [_art(1, "2020-01-01", "General Motors cut jobs. GM said sales fell. Steve Jobs spoke."),
            _art(2, "2020-01-03", "GM closed a plant. Jobs was not there. Toyota grew."),
            _art(3, "2020-01-02", "General Motors and Toyota met in Detroit.")]  # arrives late
    for a in arts:
        add_article(store, "t", a, nlp)
    rows = store.articles(store.thread_id("t"))
    assert [r.id for r in rows] == ["a1", "a3", "a2"]
    stored = {r.entity: r.features for r in show_article(store, "t", "a2")}
    fresh = {r.article_id + "/" + r.entity: r.features for r in rank_thread(arts, nlp, Combination.all_ties())}
    a2 = {k.split("/", 1)[1]: v for k, v in fresh.items() if k.startswith("a2/")}
    gm = next(k for k in stored if normalize(k) in ("gm", "general motors"))
    assert stored[gm]["DF_H"] == 2 and stored[gm]["F_H"] >= 3  # GM ~ General Motors in a1 and a3
    assert stored[gm] == a2[next(k for k in a2 if normalize(k) in ("gm", "general motors"))]
    first = {r.entity: r.features for r in show_article(store, "t", "a1")}
    assert all(f["F_H"] == 0 and f["DF_H"] == 0 for f in first.values())


def test_duplicates_rejected_or_replaced_never_double_counted(store, nlp):
    a = _art(1, "2020-01-01", "GM cut jobs.")
    add_article(store, "t", a, nlp)
    with pytest.raises(BeyondfindError, match="replace"):
        add_article(store, "t", a, nlp)
    add_article(store, "t", _art(1, "2020-01-01", "GM cut jobs. GM again."), nlp, replace=True)
    add_article(store, "t", _art(2, "2020-01-02", "GM grew."), nlp)
    [gm] = [r for r in show_article(store, "t", "a2") if normalize(r.entity) == "gm"]
    assert gm.features["DF_H"] == 1 and gm.features["F_H"] == 2


def test_malformed_jsonl_names_line_and_stores_nothing(tmp_path, capsys):
    good = json.dumps({"id": "x1", "date": "2020-01-01", "title": "t", "text": "GM cut jobs."})
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n{not json\n")
    store_path = tmp_path / "s.sqlite"
    assert main(["news", "add", "--thread", "t", str(bad), "--store", str(store_path), "--nlp", "blank"]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
    con = sqlite3.connect(store_path)
    assert con.execute("SELECT COUNT(*) FROM news_articles").fetchone()[0] == 0


def test_missing_dates_warn_and_keep_file_order(tmp_path, capsys):
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join(json.dumps({"id": f"x{i}", "date": d, "title": "", "text": "GM cut jobs. Ford too."})
                           for i, d in enumerate(["2020-01-01", "not a date", ""])) + "\n")
    arts = read_thread(f, warn=lambda m: print(m))
    assert [a.date for a in arts] == ["2020-01-01", None, None]
    assert capsys.readouterr().out.count("no usable date") == 2
    assert main(["news", "rank", str(f), "--nlp", "blank"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert [r["article_id"] for r in rows if r["rank"] == 1] == ["x0", "x1", "x2"]


def test_news_rank_cli_on_real_thread(capsys):
    assert main(["news", "rank", str(GM), "--gold-entities", "--format", "jsonl"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {"article_id", "entity", "score", "rank"} <= set(rows[0])
    assert len({r["article_id"] for r in rows}) == 30
    first_ids = [json.loads(line)["id"] for line in GM.read_text().splitlines()]
    assert rows[0]["article_id"] == first_ids[0]


def test_learned_and_paper_models_rank_a_thread(capsys):
    """``--model learned`` (LambdaMART, numpy trees) and ``--model paper`` (the saturating combination)
    rank the same candidates; ``best`` is the learned one."""
    from beyondfind.news import combination_for
    from beyondfind.news.learned import LearnedModel

    runs = {}
    for model in ("learned", "paper", "best"):
        assert main(["news", "rank", str(GM), "--gold-entities", "--format", "jsonl", "--model", model]) == 0
        runs[model] = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    key = lambda rows: sorted((r["article_id"], r["entity"]) for r in rows)  # noqa: E731
    assert key(runs["learned"]) == key(runs["paper"])
    assert [r["score"] for r in runs["learned"]] != [r["score"] for r in runs["paper"]]
    assert runs["best"] == runs["learned"] and isinstance(combination_for("best"), LearnedModel)
    with pytest.raises(BeyondfindError, match="learned, paper"):
        combination_for("nope")


def test_empty_article_ranks_nothing(store, nlp):
    assert add_article(store, "t", _art(9, "2020-01-01", ""), nlp) == []


def test_combination_and_tuning():
    assert saturate(1, 1) == 0.5 and saturate(0, 3) == 0.0
    q = [[({"F_d": 3, "FirstSenPos": 0}, True), ({"F_d": 3, "FirstSenPos": 5}, False), ({"F_d": 1, "FirstSenPos": 0}, False)]]
    tuned = tune(q, ("F_d", "FirstSenPos"))
    from beyondfind.news.combine import mean_ap
    assert mean_ap(tuned, q) == 1.0 > mean_ap(Combination.single("F_d"), q)


def test_news_entities_are_names_a_journalist_would_list(nlp):
    from beyondfind.news.entities import name_runs

    doc = nlp("Apple CEO Steve Jobs unveiled the iPod nano on May 5, 2006. Wal-Mart sells the Boeing 787 "
              "Dreamliner. General Motors said on Tuesday that GM would cut 30,000 jobs. Jobs said the "
              "iPhone 4 runs iOS 4 with a 16 GB drive.")
    found = [m.text for m in name_runs(doc)]
    for name in ("Apple", "Steve Jobs", "iPod", "Wal-Mart", "Boeing 787 Dreamliner", "General Motors", "GM",
                 "iPhone 4", "iOS 4"):
        assert name in found, (name, found)
    assert not {"May", "Tuesday", "CEO", "Apple CEO", "GB", "30,000"} & set(found), found
    ford = nlp("William Clay Ford Jr. leads Ford Motor Company. Ford cut jobs, Canadian and US$4.8 billion.")
    ann = annotate_article(Article("f", None, "t", ford.text), nlp)
    assert {s.surface for s in ann.entities} >= {"Ford Motor Company", "William Clay Ford Jr."}
    assert not {"Canadian", "US$4.8"} & {s.surface for s in ann.entities}
    assert next(s.count for s in ann.entities if s.surface == "Ford Motor Company") == 2   # Ford: the company
    ann = annotate_article(Article("a", None, "t", doc.text), nlp)
    counts = {s.surface: s.count for s in ann.entities}
    assert counts["General Motors"] == 2 and "GM" not in counts        # GM counted for General Motors
    assert counts["Steve Jobs"] == 2 and "Jobs" not in counts          # so is the surname alone
    forms = {s.surface: s.forms for s in ann.entities}
    assert forms["General Motors"] == {"General Motors", "GM"}         # the forms counted, for `aliases`


def test_a_title_running_into_a_name_is_split_from_the_person(nlp):
    """Titles no role list knows run into the name: "… Secretary of the Air Force James Roche"."""
    from beyondfind.news.entities import name_runs

    doc = nlp("The emails went to Air Force James Roche and to Acquisition Darleen Druyun. "
              "The Air Force declined to comment. Sen. McCain criticised the deal.")
    found = [m.text for m in name_runs(doc)]
    assert "James Roche" in found and "Darleen Druyun" in found and "Air Force James Roche" not in found, found
    assert "Air Force" in found and "Acquisition" not in found, found   # a lone word kept only if used again
    assert normalize("Sen. McCain") == "mccain" == normalize("McCain")


def test_model_numbers_and_codes_belong_to_the_name_counts_do_not(nlp):
    from beyondfind.news.entities import name_runs

    doc = nlp("Boeing unveiled its 777-200LR on Tuesday. The new 787 Dreamliner flies in 2008. "
              "The Ford Five Hundred was renamed. Ford hired 100 Ford workers for the 2009 Ford Taurus.")
    found = [m.text for m in name_runs(doc)]
    for name in ("777-200LR", "787 Dreamliner", "Ford Five Hundred", "Ford Taurus"):
        assert name in found, (name, found)
    assert not {"100 Ford", "2009 Ford Taurus", "2008"} & set(found), found
    found = [m.text for m in name_runs(nlp("Apple launched the 3G iPhone and the 80GB iPod."))]
    assert "3G iPhone" in found and "iPod" in found and "G iPhone" not in found, found   # "3G" is split as "3 G"


def test_a_headline_and_dateline_do_not_make_names_of_the_first_words(nlp):
    """The Boeing thread's "… US$7.2 bn⏎⏎January 29, 2005 Officials from the People's Republic of
    China": the parser runs headline, date and first sentence into one, so "Officials" was a name
    mid-sentence and "People" and "Republic" two more; institutions go on over "of"."""
    from beyondfind.news.entities import name_runs

    doc = nlp("Chinese airlines agree purchase of Boeing 787 Dreamliners worth US$7.2 bn\n\n"
              "January 29, 2005 Officials from the People's Republic of China have agreed to buy 60 planes. "
              "Bank of America lent the money, the Secretary of Defense said.")
    found = [m.text for m in name_runs(doc)]
    assert "People's Republic of China" in found and "Bank of America" in found, found
    assert not {"Officials", "People", "Republic", "Secretary of Defense"} & set(found), found


def test_dotted_initials_are_the_acronym_and_times_are_not_entities(nlp):
    """The gm and stock threads listed "U.S.", "US" and "United States" as three entities of one
    article, and "UTC Monday", "June 1st", "Billion" as entities."""
    text = ("The United States Treasury lent the money on June 1st at 14:00 UTC Monday. U.S. officials said "
            "the US economy needs US$1 Billion more. The United States will decide.")
    ann = annotate_article(Article("us", None, "t", text), nlp)
    counts = {s.surface: s.count for s in ann.entities}
    assert counts.get("United States") == 3 and not {"U.S.", "US"} & set(counts), counts   # not the Treasury's
    assert not {"UTC Monday", "UTC", "June 1st", "Billion"} & set(counts), counts
    ann = annotate_article(Article("ipod", None, "t", "Today Apple sold the 80 GB iPod in Asia Monday."), nlp)
    assert {"Apple", "iPod", "Asia"} <= {s.surface for s in ann.entities}, ann.entities   # not "Today Apple"


def test_add_and_show_agree_when_articles_arrive_in_date_order(tmp_path, nlp):
    """``news add`` prints each article's ranking against the history before it; ``news show`` later
    recomputes it from the store: the same entities, scores, order and aliases (the Python API's Thread)."""
    from beyondfind.news import Thread

    thread = Thread("gm", library=tmp_path / "news.sqlite")
    thread.__dict__["nlp"] = nlp   # the session's pipeline instead of loading another
    added = {}
    for line in GM.read_text().splitlines()[:8]:
        a = json.loads(line)
        added[a["id"]] = [(r.entity, round(r.score, 9), r.aliases)
                          for r in thread.add({k: a[k] for k in ("id", "date", "title", "text")})]
    assert [a.id for a in thread.articles()] == list(added)
    assert any(aliases for ranking in added.values() for _e, _s, aliases in ranking)   # e.g. GM for General Motors
    for aid, ranking in added.items():
        assert [(r.entity, round(r.score, 9), r.aliases) for r in thread.rank(aid)] == ranking, aid
