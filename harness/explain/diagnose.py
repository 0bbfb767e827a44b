"""Why an implementation's answer differs from the convention it claims: the smallest set of
knob changes (``harness.bleu.knobs``) that turns the claimed convention into something
that gives the implementation's answer on this input.

"Your implementation equals nltk with the reference length: the closest reference length,
the first-listed on a tie" is the kind of sentence it produces; "matches no knob setting"
when nothing within two knob changes (or a 0-100 scale) reproduces the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import Any

from harness.bleu import CONVENTIONS
from harness.bleu.knobs import MEANINGS, KnobSettings, describe
from harness.compare import same_score
from harness.explain.attribution import KNOB_NAMES, Scorer, plain

#: The values a knob can take (the knob model's vocabulary, ``MEANINGS``), tried as
#: alternatives to the claimed convention's; NLTK's methods 4-7 need their own parameters
#: and tokenizers are tried among SacreBLEU's usual four.
ALTERNATIVES: dict[str, tuple[Any, ...]] = {
    **{knob: tuple(MEANINGS[knob]) for knob in (
        "ref", "no_match_zero", "zero", "empty_order", "fewer_words", "all_empty", "bp",
        "normalise", "denominator", "case", "float32")},
    "smoothing": tuple(v for v in MEANINGS["smoothing"] if not v.startswith("nltk-")),
    "tokenizer": ("none", "13a", "intl", "char"),
}
UNIFORM_WEIGHTS = tuple((1 / n,) * n for n in (1, 2, 3, 4))
#: The usual parameter of each smoothing that has one (NLTK's epsilon, add-one).
SMOOTHING_VALUES = {"floor": 0.1, "add-k": 1, "add-k-from-bigram": 1}
#: An answer reproduces a knob setting within this (float32 implementations included).
MATCH = 1e-6
MAX_KNOBS = 2


@dataclass(frozen=True)
class Diagnosis:
    """What explains an answer: ``knobs`` ((knob, claimed value, its value) triples) and a
    ``scale`` factor (100: the answer is on 0-100), or nothing (``explained`` False)."""

    convention: str
    explained: bool
    knobs: tuple[tuple[str, Any, Any], ...] = ()
    scale: float = 1.0
    note: str = ""

    @property
    def group(self) -> str:
        """A short name that failures with the same cause share."""
        if not self.explained:
            return self.note or "matches no knob setting"
        parts = [f"{knob}={plain(value)}" for knob, _, value in self.knobs]
        if self.scale != 1.0:
            parts.append(f"scale 0-{100 if self.scale == 100 else 1:g}")
        return ", ".join(parts) or "same as the convention"

    def sentence(self, who: str = "the implementation") -> str:
        if not self.explained:
            return f"{who} {self.note or 'matches no knob setting of ' + self.convention}."
        causes = [f"{KNOB_NAMES.get(knob, knob)}: {describe(knob, value)} (instead of "
                  f"{describe(knob, before)})" for knob, before, value in self.knobs]
        if self.scale == 100:
            causes.append("the score on a 0-100 scale (instead of 0-1)")
        elif self.scale == 0.01:
            causes.append("the score on a 0-1 scale (instead of 0-100)")
        if not causes:
            return f"{who} gives what {self.convention} gives here."
        return f"{who} equals {self.convention} with " + "; ".join(causes) + "."

    def to_dict(self) -> dict[str, Any]:
        return {"convention": self.convention, "explained": self.explained,
                "group": self.group, "sentence": self.sentence(),
                "knobs": [{"knob": k, "from": plain(a), "to": plain(b)}
                          for k, a, b in self.knobs],
                "scale": self.scale, "note": self.note}


def _candidates(start: KnobSettings) -> dict[str, tuple[Any, ...]]:
    options = {knob: tuple(v for v in values if v != getattr(start, knob))
               for knob, values in ALTERNATIVES.items()}
    options["weights"] = tuple(w for w in UNIFORM_WEIGHTS + (tuple(start.weights),)
                               if w != tuple(start.weights))
    return {k: v for k, v in options.items() if v}


@dataclass(frozen=True)
class Probe:
    """One input and an implementation's answer to it (native scale of the convention)."""

    hypotheses: Sequence[str]
    references: Sequence[Sequence[str]]
    level: str
    options: Mapping[str, Any]
    answer: float


def diagnose(hypotheses: Sequence[str], references: Sequence[Sequence[str]], level: str,
             convention: str, options: Mapping[str, Any], answer: float,
             claimed: Callable[[float], bool] | None = None,
             scorer: Scorer | None = None) -> Diagnosis:
    """The smallest knob change that makes ``convention`` (with ``options``) give ``answer``
    (on the convention's own scale, or on the other one) for this input.

    ``claimed(score)`` says whether a score (native scale) is what the convention gives here
    (the recorded value, or the live library's answer): the model must reproduce it before
    it may explain a difference from it."""
    probe = Probe(hypotheses, references, level, options, answer)
    return explain_answers(convention, [probe], [scorer] if scorer else None,
                           [claimed] if claimed else None)


def explain_answers(convention: str, probes: Sequence[Probe],
                    scorers: Sequence[Scorer] | None = None,
                    claimed: Sequence[Callable[[float], bool] | None] | None = None
                    ) -> Diagnosis:
    """The smallest knob change (and scale) under which ``convention`` gives every probe's
    answer at once: one cause for all of an implementation's answers, if there is one."""
    spec = CONVENTIONS.get(convention)
    if spec is None:
        return Diagnosis(convention, False, note=f"claims {convention!r}, which has no model")
    starts = []
    for probe in probes:
        try:
            start = spec.knobs(spec.resolve(probe.level, dict(probe.options)), probe.level)
        except ValueError as error:
            return Diagnosis(convention, False,
                             note=f"has options the model cannot read: {error}")
        starts.append(start)
    scorers = scorers or [Scorer(p.hypotheses, p.references, p.level) for p in probes]
    for index, check in enumerate(claimed or ()):
        modelled = scorers[index](starts[index])
        if check is not None and (isinstance(modelled, str) or not check(modelled * spec.scale)):
            return Diagnosis(convention, False,
                             note=f"cannot be diagnosed: the knob model does not reproduce "
                                  f"{convention} on this input")
    factors = (1.0, 100.0) if spec.scale == 1 else (1.0, 0.01)

    def reproduces(change: Mapping[str, Any]) -> float | None:
        if "smoothing" in change:
            change = {**change, "smoothing_value": SMOOTHING_VALUES.get(change["smoothing"])}
        for factor in factors:
            if all(same_score(scorer(replace(start, **change)),
                              probe.answer / spec.scale / factor, MATCH)
                   for probe, start, scorer in zip(probes, starts, scorers)):
                return factor
        return None

    candidates = _common_candidates(starts)
    for size in range(0, MAX_KNOBS + 1):
        for knobs in combinations(candidates, size):
            for values in product(*(candidates[k] for k in knobs)):
                change = dict(zip(knobs, values))
                factor = reproduces(change)
                if factor is not None:
                    return Diagnosis(convention, True, tuple(
                        (k, getattr(starts[0], k), v) for k, v in change.items()), factor)
    return Diagnosis(convention, False,
                     note=f"matches no setting within {MAX_KNOBS} knob changes of {convention}")


def _common_candidates(starts: Sequence[KnobSettings]) -> dict[str, tuple[Any, ...]]:
    """Each knob's values that differ from at least one probe's setting: a change sets the
    knob to one value on every probe (an implementation that always splits on whitespace
    differs from a convention whose tokenizer follows each case)."""
    merged: dict[str, tuple[Any, ...]] = {}
    for start in starts:
        for knob, values in _candidates(start).items():
            merged[knob] = tuple(dict.fromkeys(merged.get(knob, ()) + values))
    return merged
