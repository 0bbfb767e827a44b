"""The C library's single-precision ``logf`` and ``expf``: what C++'s ``std::log(float)`` and
``std::exp(float)`` call, so the bits a compiled tool's float32 arithmetic gets (Marian's
``calcBLEU``, marian-nmt/marian-dev@46c94a58fd43 ``src/training/validator.h:797-809``).

Neither is correctly rounded: glibc's (2.28 and later, Szabolcs Nagy's implementations,
``sysdeps/ieee754/flt-32/e_logf.c`` and ``e_expf.c``) compute in double and round once, within
0.52 ulp, so now and then their last bit is not the correctly rounded one -- the logarithm
rounded to float32 differs from ``logf`` on a few of every thousand float32 inputs. Only the
library's own function gives the tool's bits, so it is called through ``ctypes``, as a tool
built on this machine calls it. Where the C library has no ``logf``/``expf`` (no ``ctypes``
or an unknown C library), :func:`logf` and :func:`expf` round the double ones, which agrees to
float32 precision, and :func:`why_unavailable` says so.
"""

from __future__ import annotations

import math
from functools import cache

from bleu_harness.bleu.arithmetic import float32


@cache
def _library():
    """The C library's ``(logf, expf)``, or ``None``. ``ctypes`` is imported here, where
    float32 arithmetic first needs it (the engine's start-up does not)."""
    try:
        import ctypes

        for name in ("libm.so.6", None):  # glibc; else the process's own symbols
            try:
                library = ctypes.CDLL(name)
                functions = library.logf, library.expf
                break
            except (OSError, AttributeError):
                continue
        else:
            return None
    except ImportError:
        return None
    for function in functions:
        function.restype = ctypes.c_float
        function.argtypes = [ctypes.c_float]
    return functions


def why_unavailable() -> str | None:
    """None where the C library's ``logf`` and ``expf`` are called; otherwise why not."""
    if _library() is None:
        return "the C library's logf and expf could not be loaded (ctypes): double rounded"
    return None


def logf(x: float) -> float:
    """``logf(x)`` of the C library for a float32 ``x`` (``math.log`` rounded to float32
    where it cannot be called); a ``ValueError`` for ``x <= 0``, as ``math.log``."""
    if x <= 0:
        raise ValueError("math domain error")
    functions = _library()
    return functions[0](x) if functions else float32(math.log(x))


def expf(x: float) -> float:
    """``expf(x)`` of the C library for a float32 ``x`` (``math.exp`` rounded to float32 where
    it cannot be called)."""
    functions = _library()
    return functions[1](x) if functions else float32(math.exp(x))
