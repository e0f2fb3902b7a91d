"""Syntactic roles read off a dependency parse (no spaCy import: works on any parsed tokens)."""

from __future__ import annotations

import numpy as np

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj"})


def sentence_index(doc) -> list[int]:
    """Each token's sentence number, the numbering of ``doc.sents`` (0 for all without sentence
    boundaries), read from the SENT_START array instead of Token by Token."""
    if not len(doc) or not doc.has_annotation("SENT_START"):
        return [0] * len(doc)
    starts = doc.to_array("SENT_START") == 1
    starts[0] = True
    return (np.cumsum(starts) - 1).tolist()


def is_subject(span) -> bool:
    """Whether ``span`` (a spaCy Span or token sequence) is a grammatical subject: one of its tokens
    is, or is in apposition to a subject outside it ("his friend Mr. Darcy soon drew the attention
    of the room": the parser makes "friend" the subject and "Darcy" its apposition)."""
    inside = {t.i for t in span}
    return any(t.dep_ in SUBJECT_DEPS or (t.dep_ == "appos" and t.head.dep_ in SUBJECT_DEPS and t.head.i not in inside)
               for t in span)


# --- description attached to a mention (LDM's ``describe`` features) ----------------------------
# The shipped parser uses Universal Dependencies labels without subtypes: the predicate of a copula
# heads the clause ("He was handsome": He ←nsubj– handsome –cop→ was), relative clauses are ``acl``
# and possessors ``nmod`` ("his eyes", "Darcy 's fortune").
PREDICATE, MODIFIER, POSSESSION = 1, 2, 4
"""Bit flags of :func:`description_kinds`."""
LINKING_VERBS = frozenset({"seem", "look", "become", "appear", "remain", "grow"})
MODIFIER_DEPS = frozenset({"amod", "appos", "acl"})
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their", "its", "my", "your", "our"})
DESCRIBED_NOUNS = frozenset("""
face eye eyes hair figure voice manner manners air look looks countenance feature features person age
year years fortune income family father mother brother sister wife husband son daughter uncle aunt cousin
character temper temperament disposition heart mind name profession trade occupation dress complexion smile
appearance brow forehead mouth nose lip lips cheek cheeks hand hands height size beauty clothes coat hat
estate situation education nature habit habits spirit spirits head expression gait frame shoulders beard
whiskers skin teeth chin step bearing tone youth childhood history birth parents children wealth property
""".split())
"""Nouns whose possessor is being described ("her eyes", "Darcy's fortune", "his father")."""


def description_kinds(span) -> int:
    """How the text describes the entity a mention names, from the parse around the mention's head:
    ``PREDICATE`` — it is the subject of a copular or linking predicate ("He was a dark-skinned
    gipsy", "she seemed tired"); ``MODIFIER`` — an adjective, apposition or relative clause outside
    the mention attaches to it ("Darcy, a tall man", "young Osborne", "Osborne, who had …");
    ``POSSESSION`` — it possesses a face, family or fortune word ("her eyes", "his father").
    The span's Doc must be parsed (``doc.has_annotation("DEP")``): spaCy crashes on the children of
    an unparsed token."""
    head = span.root
    kinds = 0
    if head.dep_ == "nsubj":
        predicate = head.head
        if any(c.dep_ == "cop" for c in predicate.children) or (
                predicate.lemma_ in LINKING_VERBS and any(c.dep_ == "xcomp" for c in predicate.children)):
            kinds |= PREDICATE
    if any(c.dep_ in MODIFIER_DEPS and not span.start <= c.i < span.end for c in head.children):
        kinds |= MODIFIER
    if head.dep_ in ("nmod", "poss") and head.head.lower_ in DESCRIBED_NOUNS and head.i < head.head.i and (
            head.lower_ in POSSESSIVE_PRONOUNS or any(c.dep_ == "case" and c.lower_ in ("'s", "’s") for c in head.children)):
        kinds |= POSSESSION
    return kinds
