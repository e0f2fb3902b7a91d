"""The annotator's version, stored with each document (``…+a27``): a document annotated by an
older beyondfind is annotated again the next time it is indexed or opened by path. A module of its
own so that checking it imports nothing of the annotator."""

ANNOTATOR_VERSION = 75  # bump when annotation changes meaning: older documents are re-annotated
