"""The x87's 80-bit ``long double``, as fast-bleu's C++ computes its log sum in it.

fast-bleu (Danial-Alh/fast-bleu@182584a6 ``fast_bleu/cpp_sources/sources/nltk.cpp:135-148``)
writes ``s += ((double)weights[i]) * log(((long double)num) / ((long double)den))``: with
``using namespace std`` that ``log`` is ``std::log(long double)``, the C library's ``logl``,
and g++ on x86-64 evaluates every ``long double`` step on the x87 with its 64-bit
significand (the compiled module's ``corpus_bleu``: ``fildll``, ``fdivrp``, ``call logl``,
``fmulp``, ``faddl`` of the double ``s``, ``fstpl`` back to a double). Values here are exact
``Fraction`` s; :func:`round_extended` rounds one to the 64-bit significand (to nearest, ties
to even, the x87's default), and :func:`logl` is the C library's own ``logl`` called through
``ctypes`` -- glibc's x86-64 ``logl`` is the x87's ``fyl2x``/``fyl2xp1``, which is not
correctly rounded (about one argument in five differs from the correctly rounded logarithm in
the last bit), so only that function gives fast-bleu's bits.

Where ``long double`` is not the x87 format (ARM, where it is a double or a quad) there is no
such ``logl`` and :func:`why_unavailable` says so.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache

#: Bits of the x87 extended significand (its integer bit included).
SIGNIFICAND = 64
_BIAS = 16383

#: ``logl(LDBL_MIN)``, ``log(2**-16382)`` rounded to 64 bits: fast-bleu's method0 constant
#: (``log(numeric_limits<long double>::min())``, ``nltk.cpp:139``), which g++ folds at compile
#: time (the module's read-only constant ``30eb1012678c6cb10cc0``, -11355.137111933024...).
LOG_LDBL_MIN = -Fraction(12784747816510614320, 1 << 50)


def round_extended(x: Fraction) -> Fraction:
    """``x`` rounded to a 64-bit significand, to nearest, ties to even (the x87's rounding of
    every ``long double`` operation; the exponent range of normal numbers is assumed)."""
    if x == 0:
        return Fraction(0)
    n, d = abs(x.numerator), x.denominator
    e = n.bit_length() - d.bit_length()  # 2**e <= |x| < 2**(e + 1), or one below
    if (n << max(-e, 0)) < (d << max(e, 0)):
        e -= 1
    shift = SIGNIFICAND - 1 - e  # |x| * 2**shift is in [2**63, 2**64)
    num, den = (n << shift, d) if shift >= 0 else (n, d << -shift)
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
    rounded = Fraction(q, 1 << shift) if shift >= 0 else Fraction(q << -shift)
    return -rounded if x < 0 else rounded


@cache
def _long_double() -> type:
    """A ``c_longdouble`` that ``ctypes`` hands back as itself, not as a Python float (which
    would round it to a double): its bytes are the 80-bit value. ``ctypes`` and ``platform``
    are imported where fast-bleu's arithmetic first needs them (the engine's start-up)."""
    import ctypes

    class LongDouble(ctypes.c_longdouble):
        pass

    return LongDouble


def _to_bytes(x: Fraction) -> bytes:
    """The x87 encoding of ``x`` (which must have a 64-bit significand)."""
    if x == 0:
        return bytes(10)
    n, d = abs(x.numerator), x.denominator
    e = n.bit_length() - d.bit_length()
    if (n << max(-e, 0)) < (d << max(e, 0)):
        e -= 1
    significand = abs(x) * Fraction(2) ** (SIGNIFICAND - 1 - e)
    if significand.denominator != 1:
        raise ValueError(f"{x} has more than {SIGNIFICAND} significant bits")
    exponent = (e + _BIAS) | (0x8000 if x < 0 else 0)
    return int(significand).to_bytes(8, "little") + exponent.to_bytes(2, "little")


def _from_bytes(raw: bytes) -> Fraction:
    significand = int.from_bytes(raw[:8], "little")
    exponent = int.from_bytes(raw[8:10], "little")
    value = Fraction(significand) * Fraction(2) ** ((exponent & 0x7FFF) - _BIAS - SIGNIFICAND + 1)
    return -value if exponent & 0x8000 else value


@cache
def _libm_logl():
    """The C library's ``logl`` where ``long double`` is the x87's, else ``None``."""
    import ctypes
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return None
    if ctypes.sizeof(ctypes.c_longdouble) not in (12, 16):
        return None
    from ctypes.util import find_library  # here: it imports subprocess and shutil

    name = find_library("m")
    try:
        library = ctypes.CDLL(name) if name else ctypes.CDLL(None)
        function = library.logl
    except (OSError, AttributeError):
        return None
    function.restype = _long_double()
    function.argtypes = [_long_double()]
    probe = _long_double()()
    ctypes.memmove(ctypes.addressof(probe), _to_bytes(Fraction(2)), 10)
    if _from_bytes(bytes(function(probe))[:10]) != round_extended(Fraction(
            "0.693147180559945309417232121458176568")):
        return None  # not the x87 format after all
    return function


def why_unavailable() -> str | None:
    """None where :func:`logl` runs; otherwise why not."""
    import platform

    if _libm_logl() is None:
        return (f"the C library's logl on the x87's 80-bit long double is needed "
                f"(this is {platform.machine() or 'an unknown machine'}, whose long double "
                f"is not the x87's)")
    return None


@lru_cache(maxsize=4096)
def logl(x: Fraction) -> Fraction:
    """``logl(x)`` of the C library, exactly (``x`` positive, with a 64-bit significand)."""
    function = _libm_logl()
    if function is None:
        raise RuntimeError(why_unavailable())
    import ctypes

    argument = _long_double()()
    ctypes.memmove(ctypes.addressof(argument), _to_bytes(x), 10)
    return _from_bytes(bytes(function(argument))[:10])


def weighted_log_sum(weights, precisions) -> float:
    """fast-bleu's ``s`` (``nltk.cpp:135-142``): from ``s = 0.0``, for each order
    ``s = (double)((long double)s + (long double)w * logl(p))``, each ``long double`` step
    rounded to 64 bits and ``s`` stored back as a double; ``p`` is the precision, exactly
    (rounded to 64 bits as ``num / den`` in ``long double`` is), or ``None`` for method0's
    zero order, whose log is :data:`LOG_LDBL_MIN`."""
    s = 0.0
    for w, p in zip(weights, precisions):
        log = LOG_LDBL_MIN if p is None else logl(round_extended(p))
        term = round_extended(Fraction(w) * log)
        s = float(round_extended(Fraction(s) + term))
    return s
