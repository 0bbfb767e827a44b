"""``bleu-harness identify``: which conventions and options produce a published score.

Every convention is scored with each of its ``variants`` (one statistics pass per
tokenization) and each result is compared to the value as printed, on the 0-1 and on the
0-100 scale: "23.17" matches a score that rounds to 23.17 there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from harness.bleu import CONVENTIONS, ConventionError, Request
from harness.bleu.conventions import unit_score
from harness.compare import expected_float, matches
from harness.explain.attribution import plain
from harness.explain.inputs import Input
from harness.textfiles import InputError


@dataclass(frozen=True)
class Candidate:
    convention: str
    options: dict[str, Any]
    score: float  # native scale
    shown_as: float  # on the scale the value was given in
    signature: str
    matches: bool

    def to_dict(self) -> dict[str, Any]:
        return {"convention": self.convention,
                "options": {k: plain(v) for k, v in self.options.items()},
                "score": self.score, "compared_as": self.shown_as, "signature": self.signature,
                "matches": self.matches}


def parse_value(text: str) -> float:
    try:
        value = expected_float(text)
    except ValueError:
        raise InputError(f"--score {text!r}: not a number") from None
    if not math.isfinite(value) or value < 0:
        raise InputError(f"--score {text!r}: a BLEU score is a finite number >= 0")
    return value


def identify(data: Input, value_text: str, closest: int = 5) -> dict[str, Any]:
    value = parse_value(value_text)
    candidates: list[Candidate] = []
    for name, convention in CONVENTIONS.items():
        options = [data.options_for(name, v) for v in convention.variants]
        unique = list({repr(sorted(o.items())): o for o in options}.values())
        outcomes = data.score([Request(name, o) for o in unique])
        for o, outcome in zip(unique, outcomes):
            if isinstance(outcome, ConventionError):
                continue
            unit = unit_score(name, outcome.score)
            for shown in (unit, unit * 100):
                candidates.append(Candidate(name, o, outcome.score, shown, outcome.signature,
                                            matches(shown, value_text, "printed")))
    found = _distinct([c for c in candidates if c.matches])
    near = sorted(candidates, key=lambda c: _distance(c.shown_as, value))
    return {
        "value": value_text,
        "matches": [c.to_dict() for c in found],
        "closest": [] if found else [c.to_dict() for c in _distinct(near)[:closest]],
        "searched": len({(c.convention, repr(c.options)) for c in candidates}),
    }


def _distance(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-12)


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    seen, out = set(), []
    for c in candidates:
        key = (c.convention, repr(sorted(c.options.items())))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def render(document: dict[str, Any]) -> str:
    lines = [f"{document['searched']} convention settings searched for {document['value']}."]
    if document["matches"]:
        lines.append(f"{len(document['matches'])} produce it:")
        for c in document["matches"]:
            lines.append(f"  {c['convention']:<13} {c['score']!r:<24} {c['signature']}")
    else:
        lines.append(f"Nothing produces {document['value']}. Closest:")
        for c in document["closest"]:
            lines.append(f"  {c['convention']:<13} {c['compared_as']:<24.10g} {c['signature']}")
    return "\n".join(lines)
