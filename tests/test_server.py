import json
import time

import pytest
from fastapi.testclient import TestClient

from beyondfind.server.app import create_app

from .conftest import DATA


@pytest.fixture(scope="module")
def client(huck_search, nlp):
    app = create_app(huck_search.library.path, max_upload=200_000)
    app.state.beyondfind.search._nlp = nlp
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def wait_for_job(client, job, timeout=180):
    """Poll an indexing job as the reader page does, until it is done or failed."""
    deadline = time.time() + timeout
    while job["state"] in ("queued", "running"):
        assert time.time() < deadline, job
        time.sleep(0.3)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def _huck_id(client):
    return next(d["id"] for d in client.get("/api/documents").json()["documents"] if "Huckleberry" in d["title"])


def test_documents_text_entities_and_rank(client):
    doc_id = _huck_id(client)
    info = client.get(f"/api/documents/{doc_id}").json()
    assert info["chapters"] and info["length"] > 500_000
    text = client.get(f"/api/documents/{doc_id}/text", params={"start": 10_000, "end": 10_100}).json()
    assert len(text["text"]) == 100
    ps = client.get(f"/api/documents/{doc_id}/passages", params={"start": 300_000, "end": 301_000}).json()["passages"]
    assert ps and all(p["end"] > 300_000 and p["start"] < 301_000 for p in ps)
    ents = client.get(f"/api/documents/{doc_id}/entities").json()["entities"]
    assert any(e["name"] == "Jim" for e in ents)
    r = client.get(f"/api/documents/{doc_id}/rank", params={"entity": "Mary Jane", "explain": True, "top": 3})
    assert r.status_code == 200
    results = r.json()["results"]
    assert len(results) == 3 and results[0]["explain"]["reasons"] and "highlights" in results[0]
    before = client.get(f"/api/documents/{doc_id}/rank", params={"entity": "Mary Jane", "before": 330_000}).json()
    assert all(x["end"] <= 330_000 for x in before["results"])
    doc = client.get(f"/api/documents/{doc_id}").json()
    half = client.get(f"/api/documents/{doc_id}/rank", params={"entity": "Mary Jane", "before": "50%"}).json()
    assert half["results"] and all(x["end"] <= doc["length"] / 2 for x in half["results"])
    ch = doc["chapters"][20]
    by_chapter = client.get(f"/api/documents/{doc_id}/rank",
                            params={"entity": "Jim", "before": f"ch:{ch['number']}", "top": 50}).json()
    assert by_chapter["results"] and all(x["end"] <= ch["start"] for x in by_chapter["results"])
    assert doc["narrator"] == "Huckleberry Finn"


@pytest.mark.parametrize("params,status", [
    ({"entity": ""}, 400), ({"entity": "*"}, 400), ({"entity": "Zebulon Q"}, 404),
    ({"entity": "Jim", "method": "nope"}, 400), ({"entity": "Jim", "top": 0}, 422),
    ({"entity": "Jim", "before": -3}, 400), ({"entity": "Jim", "before": "140%"}, 400),
    ({"entity": "Jim", "before": "ch:9999"}, 400), ({"entity": "x" * 10_000}, 400),
])
def test_bad_rank_requests_are_json_errors(client, params, status):
    r = client.get(f"/api/documents/{_huck_id(client)}/rank", params=params)
    assert r.status_code == status and r.json()["error"]


def test_unknown_document_and_upload_limits(client):
    assert client.get("/api/documents/99999/rank", params={"entity": "Jim"}).status_code == 404
    assert client.get("/api/documents/abc").status_code == 422
    big = client.post("/api/documents", files={"file": ("big.txt", b"a " * 150_000, "text/plain")})
    assert big.status_code == 413 and "larger" in big.json()["error"]
    bad = client.post("/api/documents", files={"file": ("x.pdf", b"%PDF-1.4", "application/pdf")})
    assert bad.status_code == 400 and "unsupported" in bad.json()["error"]
    empty = client.post("/api/documents", files={"file": ("e.txt", b"", "text/plain")})
    assert empty.status_code == 400


def test_upload_is_a_job_then_rank(client):
    body = ("Mary Jane lived in a small house by the river with her two sisters and their old uncle Peter.\n\n"
            "She was nineteen, red-headed and kind, and everybody in the town loved her dearly for it.\n")
    r = client.post("/api/documents", files={"file": ("mj.txt", body.encode(), "text/plain")})
    assert r.status_code == 202 and r.headers["location"] == f"/api/jobs/{r.json()['job']['id']}"
    job = wait_for_job(client, r.json()["job"])
    assert job["state"] == "done" and job["done"] == job["total"] == 2, job
    doc_id = job["document_id"]
    again = client.post("/api/documents", files={"file": ("mj.txt", body.encode(), "text/plain")})
    assert again.status_code == 200 and again.json()["new"] is False and again.json()["document"]["id"] == doc_id
    res = client.get(f"/api/documents/{doc_id}/rank", params={"entity": "Mary Jane", "method": "lrm"}).json()
    assert res["results"][0]["passage"] in (0, 1)
    # the same bytes read as another format are another document
    html = client.post("/api/documents", files={"file": ("mj.html", body.encode(), "text/html")})
    assert html.status_code == 202
    html_job = wait_for_job(client, html.json()["job"])
    assert html_job["state"] == "done" and html_job["document_id"] != doc_id
    assert client.get(f"/api/documents/{html_job['document_id']}").json()["format"] == "html"
    assert client.get("/api/jobs").json()["jobs"][0]["id"] == html_job["id"]


def test_requests_answer_while_a_novel_is_indexed(client):
    """The upload handler only queues: while a novel is annotated in the worker process, other
    requests answer at once."""
    novel = (DATA / "books" / "84-frankenstein.txt").read_bytes()[:190_000]
    r = client.post("/api/documents", files={"file": ("frank.txt", novel, "text/plain")})
    assert r.status_code == 202
    job = r.json()["job"]
    waits = []
    while job["state"] in ("queued", "running"):
        t = time.perf_counter()
        assert client.get("/static/style.css").status_code == 200
        assert client.get("/api/documents").status_code == 200
        waits.append(time.perf_counter() - t)
        job = client.get(f"/api/jobs/{job['id']}").json()
        time.sleep(0.2)
    assert job["state"] == "done", job
    assert len(waits) >= 3 and max(waits) < 1.0, waits


def test_news_endpoints(client):
    assert client.post("/api/news/threads", json={"name": "gm"}).status_code == 201
    lines = (DATA / "news" / "meantime" / "gm.jsonl").read_text().splitlines()[:3]
    for line in lines:
        a = json.loads(line)
        r = client.post("/api/news/threads/gm/articles", json={k: a[k] for k in ("id", "date", "title", "text")})
        assert r.status_code == 201 and r.json()["entities"]
    dup = client.post("/api/news/threads/gm/articles", json={"id": json.loads(lines[0])["id"], "text": "x"})
    assert dup.status_code == 400 and "replace" in dup.json()["error"]
    arts = client.get("/api/news/threads/gm/articles").json()["articles"]
    assert [a["date"] for a in arts] == sorted(a["date"] for a in arts)
    one = client.get(f"/api/news/threads/gm/articles/{arts[-1]['id']}").json()
    assert one["entities"][0]["rank"] == 1
    assert client.get("/api/news/threads/nope/articles").status_code == 404
    assert client.post("/api/news/threads/gm/articles", json={"id": "z"}).status_code == 422


def test_openapi_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/documents/{doc_id}/rank" in paths
