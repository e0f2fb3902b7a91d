"""A bad-input corpus run against the CLI and the HTTP API: one-line errors, exit 2 / HTTP 4xx,
never a traceback, never a silent exit 0 with no output."""

import codecs
import os
import random
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

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
    thread = tmp_path / "t.jsonl"
    thread.write_text("")
    _assert_clean_error(_cli("news", "rank", str(thread), "--nlp", "blank"))
    thread.write_text('{"id": "a", "date": "2020-01-01", "title": "T", "text": "GM said.", '
                      '"entities": [{"name": "GM", "mentions": 5}]}\n')
    _assert_clean_error(_cli("news", "rank", str(thread), "--nlp", "blank"))
    good = tmp_path / "g.jsonl"
    good.write_text('{"id": "a", "date": "2020-01-01", "title": "T", "text": "General Motors said."}\n')
    _assert_clean_error(_cli("news", "rank", str(good), "--top", "-1", "--nlp", "blank"))
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
    return TestClient(app, raise_server_exceptions=False)


def test_bad_requests_api(client, tmp_path):
    big = 99999999999999999999999
    for route in ("", "/text", "/passages", "/entities", "/rank?entity=Alice"):
        r = client.get(f"/api/documents/{big}{route}")
        assert 400 <= r.status_code < 500 and "error" in r.json(), (route, r.status_code)
    for path in _bad_files(tmp_path):
        r = client.post("/api/documents", files={"file": (path.name, path.read_bytes())})
        assert 400 <= r.status_code < 500 and "error" in r.json(), (path.name, r.status_code, r.text[:200])
