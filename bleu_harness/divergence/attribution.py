"""Why two conventions disagree: the smallest set of knobs whose switch makes them agree.

Convention A's knob settings are moved toward B's (:mod:`bleu_harness.bleu.knobs`), one subset
of the differing knobs at a time, smallest subsets first; the first subset whose score
agrees with B's is the attribution. The steps are then replayed one knob at a time, so the
report shows the score after each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.agreement import RELATIVE_TOLERANCE, same_score
from bleu_harness.bleu.knobs import InputRules, KnobSettings, Outcome, describe
from bleu_harness.divergence.scorer import Scorer

KNOB_NAMES = {"input_rules": "the input checks", "ref": "the reference length",
              "unreferenced_length": "the length of a segment without references",
              "no_match_zero": "the no-match rule", "zero": "the zero-precision rule",
              "smoothing": "the smoothing", "smoothing_value": "the smoothing parameter",
              "empty_order": "the rule for orders without n-grams (effective order)",
              "fewer_words": "the fewer-words-than-N rule", "all_empty": "the all-empty rule",
              "bp": "the brevity penalty", "weights": "the weights",
              "normalise": "weight normalisation", "denominator": "the denominator floor",
              "tokenizer": "the tokenizer", "case": "case folding",
              "drop_empty_references": "empty references", "float32": "the float precision",
              "average": "the average over segments"}
#: Above this many differing knobs the search stops at subsets of this size.
MAX_SUBSET = 6


@dataclass(frozen=True)
class Step:
    knob: str
    before: Any
    after: Any
    score: Outcome  # 0-1 scale (or "raises X"), after this step
    detail: str = ""  # for the input checks: what each side does with this input


@dataclass(frozen=True)
class Attribution:
    """A (start) moved toward B (target): the knobs that explain the difference."""

    a: str
    b: str
    score_a: Outcome
    score_b: Outcome
    steps: tuple[Step, ...] = ()
    explained: bool = False
    note: str = ""
    differing: tuple[str, ...] = field(default=())

    @property
    def knobs(self) -> tuple[str, ...]:
        return tuple(s.knob for s in self.steps)

    def sentence(self) -> str:
        """The attribution in words."""
        head = (f"{self.a} {_said(self.score_a, self.a)} and "
                f"{self.b} {_said(self.score_b, self.b)}")
        if not self.explained:
            return f"{head}; {self.note or 'no combination of knobs explains it'}."
        if not self.steps:
            return f"{head}; {self.note}."
        causes = "; ".join(f"{KNOB_NAMES.get(s.knob, s.knob)} ({s.detail})" if s.detail
                           else f"{KNOB_NAMES.get(s.knob, s.knob)} ({self.a}: "
                           f"{describe(s.knob, s.before)}; {self.b}: {describe(s.knob, s.after)})"
                           for s in self.steps)
        count = "it" if len(self.steps) == 1 else f"these {len(self.steps)}"
        return f"{head}. The difference is {causes}. Switching {count} makes them agree."

    def short(self) -> str:
        """One line for a report: the knobs, or why there are none."""
        if not self.explained or not self.steps:
            return self.note or "not explained by the knobs"
        return "cause: " + ", ".join(f"{s.knob} {plain(s.before)}→{plain(s.after)}"
                                     for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "score_a": self.score_a, "score_b": self.score_b,
                "explained": self.explained, "knobs": list(self.knobs),
                "steps": [{"knob": s.knob, "from": plain(s.before), "to": plain(s.after),
                           "score": s.score, **({"detail": s.detail} if s.detail else {})}
                          for s in self.steps],
                "differing": list(self.differing), "note": self.note,
                "sentence": self.sentence()}


def plain(value: Any) -> Any:
    """A value as JSON holds it (tuples become lists, input checks the convention's name)."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, InputRules):
        return f"input checks of {value.convention}"
    return value


def _said(outcome: Outcome, convention: str) -> str:
    """What a convention answers, on its own scale (a 0-1 score of SacreBLEU reads 0-100, as
    its table beside it shows)."""
    if isinstance(outcome, str):
        return outcome
    spec = CONVENTIONS.get(convention)
    return f"gives {outcome * (spec.scale if spec else 1):.6g}"


def attribute(scorer: Scorer, a: str, options_a: Mapping[str, Any], score_a: Outcome,
              b: str, options_b: Mapping[str, Any], score_b: Outcome) -> Attribution:
    """Scores are on the 0-1 scale (or ``raises X``); options are the resolved options of
    each convention."""
    start, target = scorer.settings(a, options_a), scorer.settings(b, options_b)
    base = Attribution(a, b, score_a, score_b)
    precision = max(CONVENTIONS[a].precision, CONVENTIONS[b].precision)
    if same_score(score_a, score_b, precision):
        return _with(base, explained=True, note="they agree on this input")
    for name, settings, expected in ((a, start, score_a), (b, target, score_b)):
        if not same_score(scorer(settings), expected, max(precision, RELATIVE_TOLERANCE)):
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
    """The subset switched one knob at a time. The input checks are described as they act
    with the rest of the subset switched: A's checks on the statistics the other switched
    knobs give (fairseq's refuse the empty hypothesis allennlp's tokens make)."""
    steps, current = [], start
    others = start.with_knobs(target, [k for k in subset if k != "input_rules"])
    for knob in subset:
        current = current.with_knobs(target, [knob])
        detail = ""
        if knob == "input_rules":
            detail = f"{scorer.refusal(others)}; {scorer.refusal(target)}"
        steps.append(Step(knob, getattr(start, knob), getattr(target, knob), scorer(current),
                          detail))
    return tuple(steps)
