"""Small numeric helpers that several implementations share, each named after its origin."""

from __future__ import annotations

import math
import struct

#: ``sacrebleu.utils.my_log`` and multi-bleu.perl's ``my_log``: the stand-in for log(0).
LOG_ZERO = -9999999999


def my_log(value: float) -> float:
    """``log(value)``, or :data:`LOG_ZERO` for 0 (SacreBLEU ``my_log``; multi-bleu.perl's
    ``return -9999999999 unless $_[0]``)."""
    return LOG_ZERO if value == 0 else math.log(value)


_FLOAT32 = struct.Struct("f")


def float32(value: float) -> float:
    """``value`` rounded to the nearest IEEE single (``np.float32(value)``), as a Python float."""
    try:
        return _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
