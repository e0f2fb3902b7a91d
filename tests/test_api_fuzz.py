"""Generated requests and inputs: Schemathesis requests from the live OpenAPI schema (no 5xx, every
error a JSON message) and Hypothesis bytes for the document readers (a Document or a clear error)."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from beyondfind import BeyondfindError
from beyondfind.documents import READERS, parse_document
from beyondfind.server.app import create_app

EXAMPLES = 50


@pytest.fixture(scope="module")
def api_schema(huck_search, nlp, tmp_path_factory):
    # a copy of the library: generated DELETE requests must not remove the session's Huckleberry Finn
    import sqlite3

    copy = tmp_path_factory.mktemp("fuzz") / "library.sqlite"
    with sqlite3.connect(copy) as target:
        huck_search.library.conn.backup(target)
    app = create_app(copy, max_upload=100_000, allowed_hosts=("testserver", "localhost"))
    app.state.beyondfind.search._nlp = nlp
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    app.state.beyondfind.worker.close()


def test_generated_requests_never_get_a_server_error(api_schema, huck):
    """Every operation of the live schema, EXAMPLES generated requests each (bounded so the suite
    stays fast; raise it locally for a deeper run)."""
    calls = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy(), real_document=st.booleans())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case, real_document):
            if real_document and "doc_id" in (case.path_parameters or {}):
                case.path_parameters["doc_id"] = huck.doc_id   # reach past the 404 into the handlers
            response = case.call()
            calls.append(response.status_code)
            assert response.status_code < 500, (case.method, case.formatted_path, case.query, response.text[:300])
            if response.status_code >= 400:
                assert response.json()["error"], response.text[:300]

        check()
    assert len(calls) >= 5 * EXAMPLES and sum(200 <= c < 300 for c in calls) >= EXAMPLES, sorted(set(calls))


@given(data=st.one_of(st.binary(max_size=4000),
                      st.text(max_size=2000).map(lambda t: t.encode("utf-8", "surrogatepass"))),
       ext=st.sampled_from(sorted(READERS)))
@settings(max_examples=300, deadline=None)
def test_any_bytes_give_a_document_or_a_clear_error(data, ext):
    try:
        doc = parse_document(data, f"doc{ext}")
    except BeyondfindError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert doc.passages and all(doc.text[p.start:p.end] == p.text for p in doc.passages)
    assert all(0 <= p.start < p.end <= len(doc.text) for p in doc.passages)
