"""Why two conventions disagree: the smallest set of knobs whose switch makes them agree.

Convention A's knob settings are moved toward B's (:mod:`harness.explain.knobs`), one subset
of the differing knobs at a time, smallest subsets first; the first subset whose score
agrees with B's is the attribution. The steps are then replayed one knob at a time, so the
report shows the score after each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from harness.bleu import CONVENTIONS
from harness.compare import same_score
from harness.explain.knobs import (
    KnobSettings,
    describe,
    knob_score,
    settings_for,
    statistics,
)

KNOB_NAMES = {"ref": "the reference length", "no_match_zero": "the no-match rule",
              "zero": "the zero-precision rule", "smoothing": "the smoothing",
              "empty_order": "the rule for orders without n-grams (effective order)",
              "weights": "the weights", "normalise": "weight normalisation",
              "denominator": "the denominator floor", "tokenizer": "the tokenizer",
              "case": "case folding", "float32": "the float precision"}
#: Above this many differing knobs the search stops at subsets of this size.
MAX_SUBSET = 6


@dataclass(frozen=True)
class Step:
    knob: str
    before: Any
    after: Any
    score: float  # 0-1 scale, after this step


@dataclass(frozen=True)
class Attribution:
    """A (start) moved toward B (target): the knobs that explain the difference."""

    a: str
    b: str
    score_a: float
    score_b: float
    steps: tuple[Step, ...] = ()
    explained: bool = False
    note: str = ""
    differing: tuple[str, ...] = field(default=())

    @property
    def knobs(self) -> tuple[str, ...]:
        return tuple(s.knob for s in self.steps)

    def sentence(self) -> str:
        """The attribution in words."""
        head = f"{self.a} gives {self.score_a:.6g} and {self.b} {self.score_b:.6g}"
        if not self.explained:
            return f"{head}; {self.note or 'no combination of knobs explains it'}."
        causes = "; ".join(f"{KNOB_NAMES.get(s.knob, s.knob)} ({self.a}: "
                           f"{describe(s.knob, s.before)}; {self.b}: {describe(s.knob, s.after)})"
                           for s in self.steps)
        count = "it" if len(self.steps) == 1 else f"these {len(self.steps)}"
        return f"{head}. The difference is {causes}. Switching {count} makes them agree."

    def short(self) -> str:
        """One line for a report: the knobs, or why there are none."""
        if not self.explained:
            return self.note or "not explained by the knobs"
        return "cause: " + ", ".join(f"{s.knob} {plain(s.before)}→{plain(s.after)}"
                                     for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "score_a": self.score_a, "score_b": self.score_b,
                "explained": self.explained, "knobs": list(self.knobs),
                "steps": [{"knob": s.knob, "from": plain(s.before), "to": plain(s.after),
                           "score": s.score} for s in self.steps],
                "differing": list(self.differing), "note": self.note,
                "sentence": self.sentence()}


def plain(value: Any) -> Any:
    """A value as JSON holds it (tuples become lists)."""
    return list(value) if isinstance(value, tuple) else value


class Scorer:
    """Knob scores of one input, with the statistics computed once per tokenization."""

    def __init__(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> None:
        self.hypotheses, self.references = hypotheses, references
        self._stats: dict[tuple[str, str, int], Any] = {}

    def __call__(self, k: KnobSettings) -> float:
        order = max(len(k.weights), 1)
        key = (k.tokenizer, k.case, order)
        if key not in self._stats:
            self._stats[key] = statistics(self.hypotheses, self.references, k.tokenizer,
                                          k.case, order)
        return knob_score(self._stats[key], k)


def attribute(scorer: Scorer, a: str, options_a: Mapping[str, Any], score_a: float,
              b: str, options_b: Mapping[str, Any], score_b: float) -> Attribution:
    """Scores are on the 0-1 scale; options are the resolved options of each convention."""
    start, target = settings_for(a, options_a), settings_for(b, options_b)
    base = Attribution(a, b, score_a, score_b)
    if start is None or target is None:
        missing = a if start is None else b
        return _with(base, note=f"the knob model does not cover {missing} with these options")
    precision = max(CONVENTIONS[a].precision, CONVENTIONS[b].precision)
    for name, settings, expected in ((a, start, score_a), (b, target, score_b)):
        if not same_score(scorer(settings), expected, max(precision, 1e-9)):
            return _with(base, note=f"the knob model does not reproduce {name} on this input")
    differing = start.differing(target)
    for size in range(1, min(len(differing), MAX_SUBSET) + 1):
        for subset in combinations(differing, size):
            if same_score(scorer(start.with_knobs(target, subset)), score_b, precision):
                return _with(base, steps=_replay(scorer, start, target, subset),
                             explained=True, differing=tuple(differing))
    return _with(base, differing=tuple(differing),
                 note="no subset of the differing knobs makes them agree")


def _with(base: Attribution, **changes) -> Attribution:
    return Attribution(**{**base.__dict__, **changes})


def _replay(scorer: Scorer, start: KnobSettings, target: KnobSettings, subset) -> tuple:
    steps, current = [], start
    for knob in subset:
        current = current.with_knobs(target, [knob])
        steps.append(Step(knob, getattr(start, knob), getattr(target, knob), scorer(current)))
    return tuple(steps)
