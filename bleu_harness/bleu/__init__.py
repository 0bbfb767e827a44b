"""The project's own BLEU engine.

>>> from bleu_harness.bleu import score
>>> score(["the cat sat"], [["the cat sat"]], convention="sacrebleu", level="sentence").score
100.00000000000004

``conventions`` maps each convention's name to its description and signature.
"""

from bleu_harness.bleu.api import LEVELS, Request, score, score_many
from bleu_harness.bleu.batch import Scorer, mbr_choice, pairwise, sentence_scores
from bleu_harness.bleu.conventions import CONVENTIONS, get_convention
from bleu_harness.bleu.conventions import CONVENTIONS as conventions
from bleu_harness.bleu.result import BleuResult, ConventionDeclined, ConventionError

__all__ = [
    "CONVENTIONS",
    "LEVELS",
    "BleuResult",
    "ConventionDeclined",
    "ConventionError",
    "Request",
    "Scorer",
    "conventions",
    "get_convention",
    "mbr_choice",
    "pairwise",
    "score",
    "score_many",
    "sentence_scores",
]
