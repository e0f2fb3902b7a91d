"""Titles that stand for a name: "the Count" is Count Dracula when the book gives that title to
one person, "the Doctor" Doctor Manette, "the Queen" the Queen of Hearts.

The rules live here because two places read them: indexing links the pronouns after "the Count"
to the Count (:func:`beyondfind.index.annotate._resolve`, over the spool's rows), and a loaded
book counts those mentions for him (:class:`beyondfind.index.book.IndexedBook`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping

from ..nlp.names import Name, canonical_honorific, parse_name

# rank, military, clerical, academic and legal titles; not Mr./Mrs./Miss, kinship or address words
TITLES = frozenset({"count", "countess", "baron", "baroness", "duke", "duchess", "prince", "princess", "king",
                    "queen", "emperor", "earl", "colonel", "captain", "major", "general", "lieutenant",
                    "sergeant", "reverend", "dr", "judge", "professor", "squire", "parson", "deacon", "widow"})
TITLE_SHARE = 0.8        # the form holds this share of the name mentions written with the title ...
TITLE_MIN_MENTIONS = 3   # ... and at least this many
THE_TITLE = re.compile(r"[Tt]he ([A-Z][a-z]+)\.?")
THE_TITLE_LIKE = "the %"
"""SQL ``LIKE`` pattern (ASCII case-insensitive) that every :data:`THE_TITLE` match satisfies: the
spool selects the candidate nominals with it before the pattern decides."""


def titled_names(person_names: Mapping[Name, int]) -> dict[str, Name]:
    """Title → the person's name the book writes with it, when one name holds
    :data:`TITLE_SHARE` of the person mentions (``person_names``: mentions per name) written with
    that title (``count`` → Count Dracula, against one "Count de Ville")."""
    by_title: dict[str, Counter] = defaultdict(Counter)
    for name, n in person_names.items():
        if name.honorific in TITLES and name.words:
            by_title[name.honorific][name.words] += n
    out = {}
    for title, names_written in by_title.items():
        words, n = names_written.most_common(1)[0]
        if n >= TITLE_MIN_MENTIONS and n >= TITLE_SHARE * sum(names_written.values()):
            out[title] = Name(title, words)
    return out


def is_title_reference(text: str) -> bool:
    """"the Count", "The Doctor": a title standing for a person's name."""
    return THE_TITLE.fullmatch(text) is not None


def title_name(text: str, titled: dict[str, Name]) -> Name | None:
    """The name of the person "the Count" (``text``) stands for, or None."""
    found = THE_TITLE.fullmatch(text)
    return titled.get(canonical_honorific(found.group(1).lower())) if found else None


def referenced_name(text: str, is_name: bool, titled: Mapping[str, Name]) -> Name | None:
    """The name a person mention refers by: its own when it is a name, the titled person's when it
    is "the" and that title (``titled``: :func:`titled_names`), else None."""
    return parse_name(text) if is_name else title_name(text, titled)
