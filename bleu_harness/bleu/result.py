"""What a convention returns, and what it raises."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bleu_harness.bleu.tokenizers import tokenizer_name


@dataclass(frozen=True)
class BleuResult:
    """One convention's score of one input, on the convention's native scale.

    ``precisions`` are reported as the library reports them (SacreBLEU: percent, after
    smoothing; NLTK: the unsmoothed modified precisions ``m_n / l_n`` with NLTK's per-segment
    floor in ``l_n``). ``counts`` are the clipped matches per order and ``totals`` the
    denominators the convention divides by. ``scores`` has one score per weight vector (NLTK
    accepts a list of weight vectors); ``score`` is the first of them. ``details`` holds what
    a convention reports beyond these (mteval's cumulative and individual 1-9-gram scores,
    multi-bleu's ratio) and ``report`` the line the original tool prints, where it prints one.
    """

    convention: str
    level: str
    score: float
    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    hyp_len: int
    ref_len: int
    options: Mapping[str, Any]
    signature: str
    scores: tuple[float, ...] = field(default=())
    details: Mapping[str, Any] = field(default_factory=dict)
    report: str = ""
    #: The signature in the followed library's own format, where it prints one (SacreBLEU 2.x:
    #: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``); ``signature`` is
    #: the engine's full knob signature.
    library_signature: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))
        if not self.scores:
            object.__setattr__(self, "scores", (self.score,))

    @property
    def is_nan(self) -> bool:
        return isinstance(self.score, float) and math.isnan(self.score)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (NaN and infinities become strings, as JSON has neither)."""
        return {
            "convention": self.convention,
            "level": self.level,
            "score": json_number(self.score),
            "scores": [json_number(s) for s in self.scores],
            "precisions": [json_number(p) for p in self.precisions],
            "counts": list(self.counts),
            "totals": list(self.totals),
            "bp": json_number(self.bp),
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "options": {k: _jsonable(v) for k, v in self.options.items()},
            "signature": self.signature,
            **({"details": {k: _jsonable(v) for k, v in self.details.items()}}
               if self.details else {}),
            **({"report": self.report} if self.report else {}),
            **({"library_signature": self.library_signature}
               if self.library_signature else {}),
        }


def json_number(value: float) -> float | str:
    """``value`` itself if JSON can hold it, else ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _jsonable(value: Any) -> Any:
    if callable(value):  # the user's own tokenizer
        return tokenizer_name(value)
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return json_number(value)
    return value


#: ``library_exception`` of an input the library's API cannot even express (T2T's single
#: reference): the engine declines it rather than guessing what the library would do.
UNSUPPORTED_INPUT = "unsupported input"


class ConventionError(Exception):
    """The followed library raises on this input; the engine raises this instead.

    ``rule`` names the convention's rule that makes the input unscorable, e.g.
    ``"method6 needs a non-zero trigram precision"``; ``library_exception`` names what the
    library itself raises (``"AssertionError"``), so a harness can compare outcomes.
    """

    def __init__(self, convention: str, rule: str, library_exception: str) -> None:
        super().__init__(f"{convention}: {rule} (the library raises {library_exception})")
        self.convention = convention
        self.rule = rule
        self.library_exception = library_exception


class ConventionDeclined(ConventionError):
    """The engine declines an input the library's API cannot express (T2T's several
    references, SacreBLEU 1.x's order other than 4, a tokenizer whose package or model is
    missing): ``reason`` says why; no guess at what the library would do."""

    def __init__(self, convention: str, reason: str) -> None:
        super().__init__(convention, reason, UNSUPPORTED_INPUT)
