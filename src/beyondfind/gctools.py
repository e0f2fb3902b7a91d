"""Python's cyclic garbage collector around work that allocates many long-lived objects."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused():
    """Python's cyclic garbage collector off for a block that allocates many objects that stay
    (a book's ~10⁵ records and index entries, the modules a command imports) and leaves no cyclic
    garbage: the collections such allocation triggers each walk every object the process holds (a
    cold query spent ~50 ms in them). Reference counting still frees what the block drops; the
    collector runs again afterwards (if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
