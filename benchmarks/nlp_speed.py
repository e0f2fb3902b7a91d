"""Words per second of the full pipeline on a whole novel, batched, 1 and 2 processes.
Baseline in the same run: spaCy's tokenizer alone on the same text (ratio printed)."""

import sys
import time

from common import shared_dir

from beyondfind.documents import load_document
from beyondfind.nlp import load_pipeline
from beyondfind.nlp.text import clean_for_nlp


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
    for n_process in (1, 2):
        t = time.perf_counter()
        try:
            for _ in nlp.pipe(texts, batch_size=128, n_process=n_process):
                pass
        except Exception as exc:  # noqa: BLE001 — report, don't hide
            print(f"full pipeline, n_process={n_process}: failed ({type(exc).__name__}: {exc})")
            continue
        wps = words / (time.perf_counter() - t)
        print(f"full pipeline, n_process={n_process}: {wps:,.0f} words/s "
              f"({wps / tok_wps:.3f}x tokenizer; target >= 5,000 words/s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
