"""TF-NMT's splitting on single spaces, two ways (tensorflow/nmt).

* ``split-space``: ``text.split(" ")``, as a caller hands ``compute_bleu`` its token lists:
  two spaces make an empty token, an empty line is one empty token, a trailing space or line
  break stays part of the text.
* ``strip-split-space``: ``evaluation_utils._bleu``, TF-NMT's own scoring script, which
  ``_clean``s each line (``sentence.strip()``) before ``split(" ")``: ``'the cat '`` is two
  tokens there and three under ``split-space``.
"""

from __future__ import annotations


def tokenize_split_space(text: str) -> list[str]:
    """``text.split(" ")`` (``compute_bleu`` on a caller's ``line.split(" ")``)."""
    return text.split(" ")


def tokenize_strip_split_space(text: str) -> list[str]:
    """``text.strip().split(" ")`` (``evaluation_utils._bleu`` after ``_clean``)."""
    return text.strip().split(" ")
