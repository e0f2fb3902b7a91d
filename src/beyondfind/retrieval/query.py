"""The entity a reader asks about, parsed once at the edge (CLI, HTTP, Python API).

Every ranking method receives an :class:`EntityQuery`: the text as selected (for the term-based
baselines and Find) and its parsed :class:`~beyondfind.nlp.names.Name` (honorific + name words,
lower-cased and accent-folded, so ``Natasha`` finds ``Natásha``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from .. import BeyondfindError
from ..nlp.names import Name, parse_name

MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class EntityQuery:
    text: str
    name: Name

    @classmethod
    def parse(cls, text: str) -> "EntityQuery":
        """The query for ``text``, or a :class:`BeyondfindError` saying why it cannot be searched.

        >>> EntityQuery.parse("  Mr. Darcy ").name
        Name(honorific='mr', words=('darcy',))
        >>> EntityQuery.parse("Natásha").name.words
        ('natasha',)
        """
        if not isinstance(text, str) or not text.strip():
            raise BeyondfindError("empty entity name; give the name of a character, e.g. 'Mary Jane'")
        if len(text) > MAX_NAME_CHARS:
            raise BeyondfindError(f"entity name is {len(text)} characters long; names are at most {MAX_NAME_CHARS}")
        name = parse_name(text)
        if not name.words:
            raise BeyondfindError(f"entity name {text!r} has no letters; give a name such as 'Mary Jane'")
        return cls(text.strip(), name)

    def written_as_in(self, document_text: str) -> "EntityQuery":
        """This query with its text as the document writes it, when the document writes it only in
        another case ("pemberley" → "Pemberley"), so exact-string evidence (Find, LDM's exact-name
        features, a place's fusion with Find) counts what a reader means. The most frequent
        spelling wins; a text the document writes as typed, or not at all, is kept.

        >>> EntityQuery.parse("mr. darcy").written_as_in("Mr. Darcy bowed. MR. DARCY! Mr. Darcy.").text
        'Mr. Darcy'
        """
        if self.text in document_text:
            return self
        spellings = Counter(m.group(0) for m in re.finditer(re.escape(self.text), document_text, re.IGNORECASE))
        return replace(self, text=spellings.most_common(1)[0][0]) if spellings else self
