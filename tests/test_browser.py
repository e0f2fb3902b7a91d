"""End to end in Debian's Chromium driven by Playwright: the reader page as a reader uses it."""

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make setup installs it)")]
SHOTS = Path(__file__).resolve().parent.parent / "screenshots"

XSS_DOC = ("The Tale of Eve\n\n"
           "Eve Harper wrote <script>window.__xss = 1</script> on the board, and Eve Harper laughed at it.\n\n"
           "Then Eve Harper drew <img src=x onerror=\"window.__xss = 2\"> and smiled at her old friend.\n\n"
           "Eve Harper was a young teacher, the daughter of a farmer, and everybody said she was kind.\n")


@pytest.fixture(scope="module")
def server(huck_search, nlp):
    from beyondfind.server.app import create_app, running

    app = create_app(huck_search.library.path)
    app.state.beyondfind.search._nlp = nlp
    with running(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                    "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield b
        b.close()


def _open_huck(page, server):
    page.goto(server + "/")
    page.get_by_role("link", name="Adventures of Huckleberry Finn").first.click()
    page.wait_for_selector("#reader p")


def _read_up_to_mary_janes_arrival(page):
    """Scroll the reader so the passage of Mary Jane's arrival (chapter 25) is at the top."""
    here = page.locator("#reader p", has_text="Mary Jane _was_ red-headed").first
    here.evaluate("p => p.scrollIntoView({block: 'start'})")
    return here


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_click_mary_jane_shows_descriptive_passages(server, browser, size):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    _open_huck(page, server)
    ent = page.locator('#reader .ent[data-entity="Miss Mary Jane"], #reader .ent[data-entity="Mary Jane"]').first
    ent.scroll_into_view_if_needed()
    ent.click()
    page.wait_for_selector("#results li.result")
    results = page.locator("#results li.result")
    assert results.count() >= 3
    assert page.locator("#results mark.name").count() >= 1
    assert "Mary" in page.locator("#results mark.name").first.inner_text()
    # LDM's score as a readable chance, best first
    badges = [int(t.split("%")[0]) for t in page.locator("#results .badge.descriptive").all_inner_texts()]
    assert len(badges) == results.count() and badges == sorted(badges, reverse=True) and 0 <= badges[-1] <= badges[0] <= 100
    panel = page.locator("#panel").bounding_box()
    assert panel["width"] <= size[0] and panel["x"] >= 0 and panel["x"] + panel["width"] <= size[0] + 1
    page.locator("#results details.why summary").first.click()
    assert page.locator("#results details.why li").first.inner_text().strip()
    # clicking a passage scrolls the reader to it
    target = results.first.get_attribute("data-passage")
    results.first.locator(".text").click()
    page.wait_for_timeout(300)
    assert page.locator(f"#p-{target}").is_visible()
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / f"reader-{size[0]}x{size[1]}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    page.close()


def test_no_spoilers_limits_results_to_what_was_read(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    _open_huck(page, server)
    # read up to chapter 25: the first passage naming Mary Jane's arrival
    here = _read_up_to_mary_janes_arrival(page)
    position = page.evaluate("""() => { const top = document.querySelector('.toolbar').getBoundingClientRect().bottom;
                                 for (const p of document.querySelectorAll('#reader p'))
                                 if (p.getBoundingClientRect().bottom > top) return Number(p.dataset.end); }""")
    page.locator("#nospoil").check()
    here.locator(".ent", has_text="Mary Jane").first.click()
    page.wait_for_selector("#results li.result, #panel-status:has-text('read on')")
    starts = [int(x) for x in page.locator("#results li.result").evaluate_all("els => els.map(e => e.dataset.start)")]
    assert starts and all(s < position for s in starts)
    page.locator("#nospoil").uncheck()
    page.wait_for_function(f"""() => [...document.querySelectorAll('#results li.result')]
                                 .some(e => Number(e.dataset.start) > {position})""", timeout=15_000)
    page.close()


def test_untrusted_text_renders_inert(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server + "/")
    f = tmp_path / "eve.txt"
    f.write_text(XSS_DOC)
    page.set_input_files("#upload-file", str(f))
    page.get_by_role("button", name="Upload").click()
    page.wait_for_selector("#reader p", timeout=60_000)
    assert page.evaluate("window.__xss") is None
    assert page.locator("#reader script, #reader img").count() == 0
    assert "<script>window.__xss = 1</script>" in page.locator("#reader").inner_text()
    page.locator("#reader .ent").first.click()
    page.wait_for_selector("#results li.result")
    assert page.evaluate("window.__xss") is None and page.locator("#results img, #results script").count() == 0
    page.screenshot(path=str(SHOTS / "xss-inert.png"))
    page.close()


def test_news_page_lists_articles_with_entities(server, browser):
    import json

    import httpx

    from .conftest import DATA

    httpx.post(server + "/api/news/threads", json={"name": "boeing"})
    for line in (DATA / "news" / "meantime" / "boeing.jsonl").read_text().splitlines()[:3]:
        a = json.loads(line)
        httpx.post(server + "/api/news/threads/boeing/articles",
                   json={k: a[k] for k in ("id", "date", "title", "text")}, timeout=60)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server + "/#/news/boeing")
    page.wait_for_selector(".article table.scores tr td")
    assert page.locator(".article").count() == 3
    first = page.locator(".article").first
    first.locator("summary", has_text="All").click()
    assert "mentions in this article" in first.locator(".legend").inner_text()   # no bare abbreviations
    first.locator("summary", has_text="Article text").click()
    assert len(first.locator(".body").inner_text()) > 200
    top_entity = first.locator("table.scores tr td").nth(1).inner_text()
    assert top_entity in first.locator(".body .ent").all_inner_texts()   # entities marked in the text
    page.screenshot(path=str(SHOTS / "news-390x844.png"))
    # a reader adds an article from the page
    page.locator("summary", has_text="Add an article").click()
    page.fill(".add-article input[name=id]", "web-1")
    page.fill(".add-article input[name=title]", "Boeing and Airbus")
    page.fill(".add-article textarea[name=text]", "Boeing said on Tuesday that Boeing will build more jets. "
              "Airbus said Airbus would not.")
    page.locator(".add-article button", has_text="Add").click()
    page.wait_for_function("document.querySelectorAll('.article').length === 4", timeout=60_000)
    page.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_reader_tools_chapters_search_characters_and_back(server, browser, size):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    _open_huck(page, server)
    # the header stays on one line on a phone
    header = page.locator("header").bounding_box()
    assert header["height"] < 60
    # chapter navigation
    page.select_option("#chapters", label=page.locator("#chapters option").nth(12).inner_text())
    page.wait_for_timeout(300)
    chapter_12_heading = page.locator("#reader p", has_text="CHAPTER XII.").last
    assert chapter_12_heading.is_visible()
    assert page.locator("#back").is_visible()          # a jump is an excursion
    # the character list: the narrator is marked, a click asks who that is
    page.locator("#cast-toggle").click()
    narrator = page.locator("#cast li", has=page.locator(".badge", has_text="narrator"))
    assert narrator.count() == 1 and "Huck" in narrator.inner_text()
    assert "Tom" in page.locator("#cast li", has_text="Tom Sawyer").first.locator(".aliases").inner_text()
    page.locator("#cast button", has_text="Jim").first.click()
    page.wait_for_selector("#results li.result")
    assert page.locator("#panel-title").inner_text() == "Jim"
    # the search box takes any name, accents and case aside
    page.fill("#find-entity", "mary jáne")
    page.press("#find-entity", "Enter")
    page.wait_for_function("document.querySelector('#panel-title').textContent === 'mary jáne'")
    page.wait_for_selector("#results li.result")
    # a result jump lands the passage in view above the bottom sheet, and "back" returns
    r = page.locator("#results li.result").first
    target = r.get_attribute("data-passage")
    r.locator(".text").click()
    page.wait_for_timeout(300)
    box = page.locator(f"#p-{target}").bounding_box()
    panel = page.locator("#panel").bounding_box()
    assert box["y"] >= 0 and box["y"] < (panel["y"] if size[0] < 800 else size[1])
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"reader-tools-{size[0]}x{size[1]}.png"))
    page.locator("#back").click()
    page.wait_for_timeout(300)
    assert page.locator("#back").is_hidden() and chapter_12_heading.is_visible()
    page.close()


def test_reading_position_survives_a_reload(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    _open_huck(page, server)
    _read_up_to_mary_janes_arrival(page)
    page.wait_for_timeout(600)
    page.reload()
    page.wait_for_selector("#reader p")
    page.wait_for_timeout(300)
    assert page.locator("#reader p", has_text="Mary Jane _was_ red-headed").first.is_visible()
    page.close()


def test_api_docs_page_works_offline(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    external = []
    page.on("request", lambda req: external.append(req.url) if not req.url.startswith(server) else None)
    page.goto(server + "/docs")
    page.wait_for_selector(".endpoint")
    assert page.locator(".endpoint", has_text="/api/documents/{doc_id}/rank").count() == 1
    assert not external
    page.close()


def test_library_lists_documents_and_removes_one(server, browser, tmp_path):
    import time

    import httpx

    f = tmp_path / "short.txt"
    f.write_text("A Short Tale\n\nNell Baxter walked home. Nell Baxter was a tall woman.\n\nShe smiled.\n")
    up = httpx.post(server + "/api/documents", files={"file": ("short.txt", f.read_bytes(), "text/plain")}, timeout=60)
    job = up.json()["job"]
    for _ in range(120):
        state = httpx.get(f"{server}/api/jobs/{job['id']}").json()
        if state["state"] in ("done", "failed"):
            break
        time.sleep(0.5)
    assert state["state"] == "done"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.on("dialog", lambda d: d.accept())
    page.goto(server + "/")
    row = page.locator(".doclist li", has_text="short.txt")
    row.wait_for()   # the library renders after its fetch
    assert row.count() == 1 and "txt" in row.inner_text()
    page.screenshot(path=str(SHOTS / "library-390x844.png"))
    row.locator("button.delete").click()
    # the view is rebuilt after the delete: wait for the new list (it is briefly absent while loading)
    page.wait_for_function("(() => { const items = [...document.querySelectorAll('.doclist li')];"
                           " return items.length > 0 && !items.some(li => li.textContent.includes('short.txt')); })()")
    assert httpx.get(f"{server}/api/documents/{state['document_id']}").status_code == 404
    assert page.locator(".doclist li", has_text="Huckleberry").count() == 1   # the others stay
    page.close()
