"""beyondfind: entity-centric search.

Two products share one NLP pipeline and one SQLite library:

* book search ("who is this?"): :mod:`beyondfind.documents` → :mod:`beyondfind.index` →
  :mod:`beyondfind.retrieval` (LRM and baselines) → :mod:`beyondfind.features` →
  :mod:`beyondfind.ranking` (LDM);
* news entity summarization ("who matters here?"): :mod:`beyondfind.news`.

:mod:`beyondfind.evaluation` measures both against :mod:`beyondfind.datasets`; :mod:`beyondfind.cli`
and :mod:`beyondfind.server` are thin shells over the same functions.
"""

__version__ = "0.1.0"


class BeyondfindError(Exception):
    """An error a user can act on: the message names what is wrong and what to do.
    ``status``: the HTTP status the server answers with (the CLI exits with 2)."""

    status = 400


class NotFoundError(BeyondfindError):
    """A document, thread, article or entity that is not there."""

    status = 404


class BusyError(BeyondfindError):
    """The library is held by another writer for longer than the wait allows; try again."""

    status = 503
