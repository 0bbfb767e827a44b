"""When two BLEU scores are the same, in one place: the tolerances, the two scales (0-1 and
0-100) and agreement. The engine, the judge, the diagnosis, the backends and the views all
ask here.

* Where the engine follows a float64 library it is bit-exact; two float64 computations that
  only order their operations differently agree to :data:`RELATIVE_TOLERANCE`.
* A result that went through float32 (torchmetrics tensors, T2T's ``np.float32``, fast-bleu's
  C++ ``float`` weights) agrees to a few float32 ulps (2**-23 = 1.2e-7 each):
  :data:`FLOAT32_TOLERANCE`.
* NaN agrees only with NaN, and a tiny positive score (NLTK's 1e-77 family) is never zero.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

#: Two float64 computations of one BLEU agree to this relative difference.
RELATIVE_TOLERANCE = 1e-9
#: A float32 result agrees to this relative difference (a few ulps; 1e-6 leaves room).
FLOAT32_TOLERANCE = 1e-6

Score = float | str  # a number, or a phrase for an outcome that is not one ("raises X")


def agree(a: Score, b: Score, rel_tol: float = 0.0) -> bool:
    """Whether two answers agree: a phrase (``raises X``) only with the same phrase, NaN only
    with NaN, numbers bit for bit or within ``rel_tol`` (relative; a tiny value is never
    zero)."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=rel_tol, abs_tol=0.0)


def same_score(a: Score, b: Score, precision: float = 0.0) -> bool:
    """Whether two scores on one scale agree, within :data:`RELATIVE_TOLERANCE` or a float32
    convention's ``precision``."""
    return agree(a, b, max(RELATIVE_TOLERANCE, precision))


def on_unit_scale(value: Score, scale: float) -> Score:
    """A score on the 0-1 scale (SacreBLEU and multi-bleu print 0-100: ``scale`` 100); a
    phrase stays as it is."""
    return value / scale if not isinstance(value, str) else value


def as_percent(value: float, scale: float) -> float:
    """A score (or precision) on the 0-100 scale, from its convention's ``scale``."""
    return value * 100 / scale


def percent_scale(values: Iterable[float]) -> float:
    """100 where some answer exceeds 1 (it can only be on the 0-100 scale), else 1."""
    return 100.0 if any(v > 1.0 + RELATIVE_TOLERANCE for v in values) else 1.0
