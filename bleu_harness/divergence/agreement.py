"""Which conventions disagree on one input, and why: the pairs that the judge's divergence
map and ``bleu-harness explain`` report, each with its knob attribution
(:mod:`bleu_harness.divergence.attribution`). Agreement itself -- one scale, within the less
precise convention's precision -- is the engine's (``bleu_harness.bleu.conventions``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.conventions import scores_agree, unit_score
from bleu_harness.divergence.attribution import Attribution, attribute
from bleu_harness.divergence.scorer import Scorer

#: A convention's answer: its score on its own scale, ``raises X``, or ``None`` where it has
#: none to compare (an input it does not take, or no answer at all).
Answer = float | str | None


def disagreements(answers: Mapping[str, Answer]) -> list[tuple[str, str]]:
    """Every pair of conventions (in the order of ``answers``) whose answers disagree; a
    convention without an answer is in no pair."""
    return [(a, b) for a, b in combinations(answers, 2)
            if answers[a] is not None and answers[b] is not None
            and not scores_agree(a, answers[a], b, answers[b])]


def attribute_disagreement(scorer: Scorer, a: str, options_a: Mapping[str, Any], answer_a: Answer,
                           b: str, options_b: Mapping[str, Any], answer_b: Answer) -> Attribution:
    """Why ``a`` and ``b`` (given these options) disagree on ``scorer``'s input: the knobs
    whose switch makes them agree, on the 0-1 scale."""
    return attribute(scorer, a, CONVENTIONS[a].resolve(scorer.level, dict(options_a)),
                     unit_score(a, answer_a),
                     b, CONVENTIONS[b].resolve(scorer.level, dict(options_b)),
                     unit_score(b, answer_b))
