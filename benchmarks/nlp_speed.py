"""Words per second of the full pipeline on a whole novel, batched, 1 and 2 processes.
Baselines in the same run: spaCy's tokenizer alone on the same text, and the same pipeline with
thinc's default BLIS matrix products instead of NumPy's OpenBLAS (`nlp._numpy_matrix_products`)."""

import contextlib
import sys
import time

from common import shared_dir
from threadpoolctl import threadpool_limits

import beyondfind.nlp
from beyondfind.documents import load_document
from beyondfind.nlp import load_pipeline
from beyondfind.nlp.text import clean_for_nlp


def words_per_second(nlp, texts, words: int, n_process: int) -> float:
    # one BLAS thread per process (the forked workers inherit it), as `beyondfind index` runs them
    with threadpool_limits(limits=1, user_api="blas") if n_process > 1 else contextlib.nullcontext():
        t = time.perf_counter()
        for _ in nlp.pipe(texts, batch_size=128, n_process=n_process):
            pass
    return words / (time.perf_counter() - t)


def main() -> None:
    book = load_document(shared_dir() / "data" / "books" / "76-huckleberry-finn.txt")
    texts = [clean_for_nlp(p.text) for p in book.passages]
    words = sum(len(t.split()) for t in texts)
    nlp = load_pipeline()
    t = time.perf_counter()
    for _ in nlp.tokenizer.pipe(texts, batch_size=256):
        pass
    tok_wps = words / (time.perf_counter() - t)
    print(f"novel: {book.name}, {words} words, {len(texts)} passages")
    print(f"baseline tokenizer only: {tok_wps:,.0f} words/s")
    with_openblas = beyondfind.nlp._numpy_matrix_products
    beyondfind.nlp._numpy_matrix_products = contextlib.nullcontext   # thinc's default ops: BLIS
    blis_nlp = load_pipeline()
    beyondfind.nlp._numpy_matrix_products = with_openblas
    blis_wps = words_per_second(blis_nlp, texts, words, 1)
    print(f"baseline full pipeline with BLIS matrix products, n_process=1: {blis_wps:,.0f} words/s")
    for n_process in (1, 2):
        try:
            wps = words_per_second(nlp, texts, words, n_process)
        except Exception as exc:  # noqa: BLE001 — report, don't hide
            print(f"full pipeline, n_process={n_process}: failed ({type(exc).__name__}: {exc})")
            continue
        print(f"full pipeline, n_process={n_process}: {wps:,.0f} words/s "
              f"({wps / tok_wps:.3f}x tokenizer, {wps / blis_wps:.2f}x with BLIS on one process; "
              f"target >= 5,000 words/s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
