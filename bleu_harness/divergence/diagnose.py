"""Why an implementation's answer differs from the convention it claims: the smallest set of
knob changes (``bleu_harness.bleu.knobs``) that turns the claimed convention into something
that gives the implementation's answer on this input.

"Your implementation equals nltk with the reference length: the closest reference length,
the first-listed on a tie" is the kind of sentence it produces; "matches no knob setting"
when nothing within two knob changes (or a 0-100 scale) reproduces the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE, same_score
from bleu_harness.bleu.knobs import MEANINGS, KnobSettings, describe
from bleu_harness.divergence.attribution import KNOB_NAMES, plain
from bleu_harness.divergence.scorer import Scorer

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
MATCH = FLOAT32_TOLERANCE
MAX_KNOBS = 2
#: At most this many fits are kept per answer (the stream stays small).
MAX_FITS = 24


@dataclass(frozen=True)
class Diagnosis:
    """What explains an answer: ``knobs`` ((knob, claimed value, its value) triples) and a
    ``scale`` factor (100: the answer is on 0-100), or nothing (``explained`` False).

    ``fits`` is the evidence a run weighs across failures (``bleu_harness.report.causes``):
    every smallest change (its parts, ``knob=value`` and ``scale 0-1``/``scale 0-100``)
    within ``MAX_KNOBS`` knobs that gives the answer on this input, the diagnosis's own
    first; ``moved`` the single parts that change the convention's score on this input
    (a change that moves the score here without giving the answer is contradicted here)."""

    convention: str
    explained: bool
    knobs: tuple[tuple[str, Any, Any], ...] = ()
    scale: float = 1.0
    note: str = ""
    fits: tuple[tuple[str, ...], ...] = ()
    moved: tuple[str, ...] = ()
    weighed: bool = False  # the full search ran: ``fits`` and ``moved`` are complete

    @property
    def group(self) -> str:
        """A short name that failures with the same cause share."""
        if not self.explained:
            return self.note or "matches no knob setting"
        return ", ".join(change_parts(self.knobs, self.scale)) or "same as the convention"

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
        document = {"convention": self.convention, "explained": self.explained,
                    "group": self.group, "sentence": self.sentence(),
                    "knobs": [{"knob": k, "from": plain(a), "to": plain(b)}
                              for k, a, b in self.knobs],
                    "scale": self.scale, "note": self.note}
        if self.weighed:
            document["fits"] = [list(parts) for parts in self.fits]
            document["moved"] = list(self.moved)
        return document


def change_parts(knobs: Sequence[tuple[str, Any, Any]], scale: float) -> tuple[str, ...]:
    """A change in words a group name is made of: ``knob=value`` per knob, then the scale."""
    parts = [f"{knob}={plain(value)}" for knob, _, value in knobs]
    if scale != 1.0:
        parts.append(scale_part(scale))
    return tuple(parts)


def scale_part(scale: float) -> str:
    return f"scale 0-{100 if scale == 100 else 1:g}"


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
    (on the convention's own scale, or on the other one) for this input, with every other
    smallest change that gives it (``fits``) and the parts that move the score (``moved``).

    A function of the convention, its options, the input and the answer: whichever check
    asks (an expectation, a differential check, ``explain``), the same answer gets the same
    cause. ``claimed(score)`` says whether a score (native scale) is what the convention
    gives here as the check knows it (the recorded value, or the live library's answer,
    each within ``MATCH`` at least: the judge's ``recorded_claim`` and ``answered_claim``);
    it only makes sure the knob model reproduces the convention here before a knob may
    explain a difference from it. Where the model does not, only the option-independent explanation is tried: what
    the check knows on the other scale."""
    spec = CONVENTIONS.get(convention)
    if spec is None:
        return Diagnosis(convention, False, note=f"claims {convention!r}, which has no model")
    try:
        start = spec.knobs(spec.resolve(level, dict(options)), level)
    except ValueError as error:
        return Diagnosis(convention, False, note=f"has options the model cannot read: {error}")
    scorer = scorer or Scorer(hypotheses, references, level)
    modelled = scorer(start)
    if claimed is not None and (isinstance(modelled, str) or not claimed(modelled * spec.scale)):
        for factor in _factors(spec.scale)[1:]:
            if claimed(answer / factor):
                return Diagnosis(convention, True, (), factor,
                                 fits=((scale_part(factor),),), moved=(scale_part(factor),),
                                 weighed=True)
        return Diagnosis(convention, False,
                         note=f"cannot be diagnosed: the knob model does not reproduce "
                              f"{convention} on this input")
    return _weigh(convention, spec.scale, start, scorer, modelled, answer)


def _factors(scale: float) -> tuple[float, float]:
    """The answer's own scale first, then the other one (0-100 for a 0-1 convention)."""
    return (1.0, 100.0) if scale == 1 else (1.0, 0.01)


def _weigh(convention: str, native: float, start: KnobSettings, scorer: Scorer,
           modelled: Any, answer: float) -> Diagnosis:
    """Every change within ``MAX_KNOBS`` knobs (and scale) tried on one input: the smallest
    ones that give ``answer`` (none contained in another) and the parts that move the
    score. The first fit, in the search order, is the diagnosis."""
    candidates = _candidates(start)
    fits: list[tuple[tuple[tuple[str, Any, Any], ...], float]] = []
    found: list[frozenset[str]] = []
    moved: list[str] = []
    if not isinstance(modelled, str) and modelled != 0:
        moved.append(scale_part(_factors(native)[1]))
    for size in range(0, MAX_KNOBS + 1):
        for knobs in combinations(candidates, size):
            for values in product(*(candidates[k] for k in knobs)):
                change = dict(zip(knobs, values))
                score = scorer(start.changed(**_with_parameter(change)))
                triples = tuple((k, getattr(start, k), v) for k, v in change.items())
                if size == 1 and not same_score(score, modelled, MATCH):
                    moved.append(change_parts(triples, 1.0)[0])
                for factor in _factors(native):
                    parts = frozenset(change_parts(triples, factor))
                    if any(f <= parts for f in found):
                        continue
                    if same_score(score, answer / native / factor, MATCH):
                        fits.append((triples, factor))
                        found.append(parts)
    every = tuple(change_parts(k, f) for k, f in fits[:MAX_FITS])
    if not fits:
        return Diagnosis(convention, False, moved=tuple(moved), weighed=True,
                         note=f"matches no setting within {MAX_KNOBS} knob changes of "
                              f"{convention}")
    knobs, factor = fits[0]
    return Diagnosis(convention, True, knobs, factor, fits=every, moved=tuple(moved),
                     weighed=True)


def _with_parameter(change: Mapping[str, Any]) -> dict[str, Any]:
    """A smoothing change brings its usual parameter (``SMOOTHING_VALUES``)."""
    if "smoothing" in change:
        return {**change, "smoothing_value": SMOOTHING_VALUES.get(change["smoothing"])}
    return dict(change)


def explain_answers(convention: str, probes: Sequence[Probe],
                    scorers: Sequence[Scorer] | None = None,
                    max_knobs: int = MAX_KNOBS) -> Diagnosis:
    """The smallest knob change (and scale) under which ``convention`` gives every probe's
    answer at once: one cause for all of an implementation's answers, if there is one.
    ``max_knobs`` bounds the changes tried (a caller that already holds an explanation of
    that many knobs needs only a smaller one)."""
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

    def reproduces(change: Mapping[str, Any]) -> float | None:
        change = _with_parameter(change)
        for factor in _factors(spec.scale):
            if all(same_score(scorer(start.changed(**change)),
                              probe.answer / spec.scale / factor, MATCH)
                   for probe, start, scorer in zip(probes, starts, scorers)):
                return factor
        return None

    candidates = _common_candidates(starts)
    for size in range(0, min(max_knobs, MAX_KNOBS) + 1):
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
