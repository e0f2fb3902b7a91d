"""A bad-input corpus run against the CLI and the HTTP API: one-line errors, exit 2 / HTTP 4xx,
never a traceback, never a silent exit 0 with no output."""

import codecs
import os
import random
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from beyondfind import NotFoundError
from beyondfind.books import METHODS, rank_passages
from beyondfind.documents import parse_document
from beyondfind.server.app import create_app

from .conftest import HUCK


def _cli(*args, cwd=None):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([sys.executable, "-m", "beyondfind.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


def _assert_clean_error(proc):
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-300:], proc.stderr[-1500:])
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("beyondfind: error:"), proc.stderr


def _bad_files(tmp):
    rnd = random.Random(7)
    noise = bytes(rnd.randrange(256) for _ in range(200_000)).replace(b"\x00", b"\x01")
    files = {"empty.txt": b"", "blank.txt": b"  \n\t \n", "random.txt": noise, "random.html": noise,
             "nested.jsonl": ("[" * 100_000 + "]" * 100_000 + "\n").encode()}
    out = []
    for name, data in files.items():
        p = tmp / name
        p.write_bytes(data)
        out.append(p)
    return out


def test_bad_documents_cli(tmp_path, huck_search):
    lib = str(huck_search.library.path)
    for path in _bad_files(tmp_path):
        _assert_clean_error(_cli("index", str(path), "--library", lib))
        _assert_clean_error(_cli("rank", str(path), "--entity", "John Smith", "--library", lib))


def test_bad_arguments_cli(tmp_path, huck_search):
    lib = str(huck_search.library.path)
    _assert_clean_error(_cli("rank", "99999999999999999999999", "--entity", "Alice", "--library", lib))
    _assert_clean_error(_cli("rank", str(HUCK), "--entity", "Jim", "--before", "-5", "--library", lib))
    _assert_clean_error(_cli("rank", str(HUCK), "--entity", "Jim", "--top", "0", "--library", lib))
    _assert_clean_error(_cli("nlp", "gazetteer", "--data", str(tmp_path)))   # no WordNet there
    _assert_clean_error(_cli("train", "vectors", "--data", str(tmp_path), "--output", str(tmp_path / "v.npz")))
    thread = tmp_path / "t.jsonl"
    thread.write_text("")
    _assert_clean_error(_cli("news", "rank", str(thread), "--nlp", "blank"))
    thread.write_text('{"id": "a", "date": "2020-01-01", "title": "T", "text": "GM said.", '
                      '"entities": [{"name": "GM", "mentions": 5}]}\n')
    _assert_clean_error(_cli("news", "rank", str(thread), "--nlp", "blank"))
    good = tmp_path / "g.jsonl"
    good.write_text('{"id": "a", "date": "2020-01-01", "title": "T", "text": "General Motors said."}\n')
    _assert_clean_error(_cli("news", "rank", str(good), "--top", "-1", "--nlp", "blank"))
    quiet = tmp_path / "q.jsonl"
    quiet.write_text('{"id": "q", "date": "2020-01-01", "title": "t", "text": "it rained all day."}\n')
    proc = _cli("news", "rank", str(quiet), "--nlp", "blank")
    assert proc.returncode == 0 and "'q' has no entities" in proc.stderr   # said, not a silent exit
    for name in ("", "a/b"):
        _assert_clean_error(_cli("news", "add", "--thread", name, str(good), "--nlp", "blank",
                                 "--store", str(tmp_path / "news.sqlite")))


def test_text_decoding_by_byte_order_mark():
    text = "Mary Jane smiled at Huck.\n\nShe was glad. Crème brûlée."
    for codec, bom in (("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                       ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-8", codecs.BOM_UTF8)):
        doc = parse_document(bom + text.encode(codec), "t.txt")
        assert doc.text == text and len(doc.passages) == 2, codec
    assert parse_document(text.encode("cp1252"), "t.txt").text == text
    news = '\ufeff{"id": "a", "title": "T", "text": "Crème"}\n'.encode()
    from beyondfind.news.io import read_thread
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "n.jsonl")
        open(p, "wb").write(news)
        assert read_thread(p, warn=lambda m: None)[0].text == "Crème"


@pytest.fixture(scope="module")
def client(huck_search, nlp):
    app = create_app(huck_search.library.path, max_upload=400_000)
    app.state.beyondfind.search._nlp = nlp
    with TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False) as c:
        yield c


def _huck_id(client):
    return next(d["id"] for d in client.get("/api/documents").json()["documents"] if "Huckleberry" in d["title"])


@pytest.mark.parametrize("method", METHODS)
def test_absent_name_is_absent_for_every_method(huck, method):
    with pytest.raises(NotFoundError, match="does not occur"):
        rank_passages(huck, "Alice[a-", method)


def test_foreign_hosts_and_cross_site_writes_are_refused(client):
    assert client.get("/api/documents", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/documents", headers={"host": "localhost:8000"}).status_code == 200
    thread = {"name": "guarded"}
    r = client.post("/api/news/threads", json=thread, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "cross-origin" in r.json()["error"]
    r = client.post("/api/news/threads", json=thread, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/api/documents", files={"file": ("x.txt", b"Mary Jane smiled.")}, headers={"origin": "null"})
    assert r.status_code == 403
    ok = client.post("/api/news/threads", json=thread, headers={"origin": "http://127.0.0.1:8000",
                                                                  "sec-fetch-site": "same-origin"})
    assert ok.status_code == 201


def test_request_bodies_are_limited(client):
    from beyondfind.server.app import MAX_JSON_BODY

    big = b'{"id": "a", "text": "' + b"x" * (MAX_JSON_BODY + 10) + b'"}'
    r = client.post("/api/news/threads/guarded/articles", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger" in r.json()["error"]

    def chunks():   # no Content-Length: the limit holds while the body streams in
        for _ in range(MAX_JSON_BODY // 65536 + 2):
            yield b" " * 65536
    r = client.post("/api/news/threads/guarded/articles", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text[:200]
    r = client.post("/api/news/threads", content=b"{}", headers={"content-length": "abc",
                                                                "content-type": "application/json"})
    assert r.status_code == 400


def test_bad_requests_api(client, tmp_path):
    big = 99999999999999999999999
    for route in ("", "/text", "/passages", "/entities", "/rank?entity=Alice"):
        r = client.get(f"/api/documents/{big}{route}")
        assert 400 <= r.status_code < 500 and "error" in r.json(), (route, r.status_code)
    for path in _bad_files(tmp_path):
        r = client.post("/api/documents", files={"file": (path.name, path.read_bytes())})
        assert 400 <= r.status_code < 500 and "error" in r.json(), (path.name, r.status_code, r.text[:200])
