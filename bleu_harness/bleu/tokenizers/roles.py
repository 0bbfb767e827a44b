"""Tokenizations that treat hypotheses and references differently.

Most tools tokenize both sides alike. Two Perl scripts do not:

* the WMT06 shared task's ``multi-bleu.perl`` splits a hypothesis with ``split`` (runs of
  whitespace) but a reference with ``split(/ /, $reference)``, every single space
  (OpenNMT/OpenNMT@72d4a5f ``benchmark/3rdParty/multi-bleu.perl:36,42``);
* ``multi-bleu-detok.perl -lc`` lowercases a hypothesis *before* its tokenization and a
  reference after it (moses-smt/mosesdecoder@34452895
  ``scripts/generic/multi-bleu-detok.perl:62,72-73,80``), so an upper-case entity
  (``&QUOT;``) or ``<SKIPPED>`` is replaced or removed on one side only.

A :class:`ByRole` tokenizer is named like any other (``get_tokenizer`` gives it; called on a
text it tokenizes a hypothesis) and the statistics pass asks it for its ``reference`` side
(:mod:`bleu_harness.bleu.counting`; the C pass tokenizes both sides alike, so a pass that
needs one of these runs in Python).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Tokenize = Callable[[str], list[str]]


@dataclass(frozen=True)
class ByRole:
    """``hypothesis`` tokenizes hypotheses, ``reference`` references."""

    hypothesis: Tokenize
    reference: Tokenize

    def __call__(self, text: str) -> list[str]:
        return self.hypothesis(text)


def reference_side(tokenize: Tokenize) -> Tokenize:
    """How ``tokenize`` tokenizes a reference: its ``reference`` side, or itself."""
    return tokenize.reference if isinstance(tokenize, ByRole) else tokenize
