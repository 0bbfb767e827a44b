"""JavaScript's ``Math.exp`` and ``Math.pow`` as V8 computes them: fdlibm's algorithms, step
by step in IEEE doubles, not the C library's ``exp``/``pow`` that Python's ``math.exp`` and
``**`` call (the two differ in the last bit for about one argument in ten).

Ported from V8's ``src/base/ieee754.cc`` (``exp`` and ``pow``: "adapted from fdlibm",
Copyright (C) 1993 Sun Microsystems, "Permission to use, copy, modify, and distribute this
software is freely granted, provided that this notice is preserved"), the file Node.js ships
as ``deps/v8/src/base/ieee754.cc`` (nodejs/node@v20.20.2, V8 11.3.244.8, where ``Math.pow``
has no ``--use-std-math-pow`` flag: every tier calls this ``pow``). Each statement keeps its
C form: the high and low 32-bit words of a double are read and written as fdlibm does
(``GET_HIGH_WORD``, ``SET_LOW_WORD``, ...), the constants are the same doubles, and every
operation is one IEEE double operation, as on x86-64 (no fused multiply-add).
``tests/test_bleu_score_js.py`` holds both to ``node``'s own on generated arguments.

Only what a BLEU score reaches is needed (finite arguments, ``exp`` of a length ratio and
``pow`` of a product of precisions), but the special cases are ported too, so each function
is V8's for any double.
"""

from __future__ import annotations

import math
import struct

_DOUBLE = struct.Struct("<d")
_UINT64 = struct.Struct("<Q")


def _bits(x: float) -> int:
    return _UINT64.unpack(_DOUBLE.pack(x))[0]


def _double(bits: int) -> float:
    return _DOUBLE.unpack(_UINT64.pack(bits & 0xFFFFFFFFFFFFFFFF))[0]


def _signed(word: int) -> int:
    """A 32-bit word as C's ``int32_t``."""
    word &= 0xFFFFFFFF
    return word - (1 << 32) if word & 0x80000000 else word


def _high(x: float) -> int:
    """``GET_HIGH_WORD`` into an ``int32_t``."""
    return _signed(_bits(x) >> 32)


def _low(x: float) -> int:
    """``GET_LOW_WORD`` into a ``uint32_t``."""
    return _bits(x) & 0xFFFFFFFF


def _words(high: int, low: int) -> float:
    """``INSERT_WORDS``."""
    return _double(((high & 0xFFFFFFFF) << 32) | (low & 0xFFFFFFFF))


def _with_high(x: float, high: int) -> float:
    """``SET_HIGH_WORD``."""
    return _words(high, _low(x))


def _with_low(x: float, low: int) -> float:
    """``SET_LOW_WORD``."""
    return _words(_bits(x) >> 32, low)


def _divide(a: float, b: float) -> float:
    """``base::Divide``: IEEE division, a zero divisor included."""
    if b == 0.0:
        if a == 0.0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


# --- exp ---------------------------------------------------------------------------------------

_HALF = (0.5, -0.5)
_O_THRESHOLD = 7.09782712893383973096e+02  # 0x40862E42, 0xFEFA39EF
_U_THRESHOLD = -7.45133219101941108420e+02  # 0xC0874910, 0xD52D3051
_LN2_HI = (6.93147180369123816490e-01, -6.93147180369123816490e-01)  # 0x3FE62E42, 0xFEE00000
_LN2_LO = (1.90821492927058770002e-10, -1.90821492927058770002e-10)  # 0x3DEA39EF, 0x35793C76
_INVLN2 = 1.44269504088896338700e+00  # 0x3FF71547, 0x652B82FE
_P1 = 1.66666666666666019037e-01  # 0x3FC55555, 0x5555553E
_P2 = -2.77777777770155933842e-03  # 0xBF66C16C, 0x16BEBD93
_P3 = 6.61375632143793436117e-05  # 0x3F11566A, 0xAF25DE2C
_P4 = -1.65339022054652515390e-06  # 0xBEBBBD41, 0xC5D26BF1
_P5 = 4.13813679705723846039e-08  # 0x3E663769, 0x72BEA4D0
_E = 2.718281828459045  # 0x4005BF0A, 0x8B145769
_HUGE = 1.0e+300
_TWOM1000 = 9.33263618503218878990e-302  # 2**-1000
_TWO1023 = 8.988465674311579539e307  # 2**1023


def exp(x: float) -> float:
    """V8's ``ieee754::exp`` (``Math.exp``)."""
    hx = _bits(x) >> 32
    xsb = (hx >> 31) & 1  # sign bit of x
    hx &= 0x7FFFFFFF  # high word of |x|
    if hx >= 0x40862E42:  # |x| >= 709.78...
        if hx >= 0x7FF00000:
            if ((hx & 0xFFFFF) | _low(x)) != 0:
                return x + x  # NaN
            return x if xsb == 0 else 0.0  # exp(+-inf) = {inf, 0}
        if x > _O_THRESHOLD:
            return math.inf  # huge * huge: overflow
        if x < _U_THRESHOLD:
            return 0.0  # twom1000 * twom1000: underflow
    k, hi, lo = 0, 0.0, 0.0
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            if x == 1.0:
                return _E
            hi = x - _LN2_HI[xsb]
            lo = _LN2_LO[xsb]
            k = 1 - xsb - xsb
        else:
            k = int(_INVLN2 * x + _HALF[xsb])  # static_cast<int>: truncation
            t = float(k)
            hi = x - t * _LN2_HI[0]  # t * ln2HI is exact here
            lo = t * _LN2_LO[0]
        x = hi - lo
    elif hx < 0x3E300000:  # |x| < 2**-28
        if _HUGE + x > 1.0:
            return 1.0 + x  # trigger inexact
    t = x * x
    if k >= -1021:
        twopk = _words(0x3FF00000 + (k << 20), 0)
    else:
        twopk = _words(0x3FF00000 + ((k + 1000) << 20), 0)
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        if k == 1024:
            return y * 2.0 * _TWO1023
        return y * twopk
    return y * twopk * _TWOM1000


# --- pow ---------------------------------------------------------------------------------------

_BP = (1.0, 1.5)
_DP_H = (0.0, 5.84962487220764160156e-01)  # 0x3FE2B803, 0x40000000
_DP_L = (0.0, 1.35003920212974897128e-08)  # 0x3E4CFDEB, 0x43CFD006
_TWO53 = 9007199254740992.0  # 0x43400000, 0x00000000
_TINY = 1.0e-300
_L1 = 5.99999999999994648725e-01  # 0x3FE33333, 0x33333303
_L2 = 4.28571428578550184252e-01  # 0x3FDB6DB6, 0xDB6FABFF
_L3 = 3.33333329818377432918e-01  # 0x3FD55555, 0x518F264D
_L4 = 2.72728123808534006489e-01  # 0x3FD17460, 0xA91D4101
_L5 = 2.30660745775561754067e-01  # 0x3FCD864A, 0x93C9DB65
_L6 = 2.06975017800338417784e-01  # 0x3FCA7E28, 0x4A454EEF
_LG2 = 6.93147180559945286227e-01  # 0x3FE62E42, 0xFEFA39EF
_LG2_H = 6.93147182464599609375e-01  # 0x3FE62E43, 0x00000000
_LG2_L = -1.90465429995776804525e-09  # 0xBE205C61, 0x0CA86C39
_OVT = 8.0085662595372944372e-0017  # -(1024-log2(ovfl+.5ulp))
_CP = 9.61796693925975554329e-01  # 0x3FEEC709, 0xDC3A03FD = 2/(3ln2)
_CP_H = 9.61796700954437255859e-01  # 0x3FEEC709, 0xE0000000 = (float)cp
_CP_L = -7.02846165095275826516e-09  # 0xBE3E2FE0, 0x145B01F5 = tail of cp_h
_IVLN2 = 1.44269504088896338700e+00  # 0x3FF71547, 0x652B82FE = 1/ln2
_IVLN2_H = 1.44269502162933349609e+00  # 0x3FF71547, 0x60000000 = 24b 1/ln2
_IVLN2_L = 1.92596299112661746887e-08  # 0x3E54AE0B, 0xF85DDF44 = 1/ln2 tail


def _overflow(s: float) -> float:
    return math.copysign(math.inf, s)  # s * huge * huge


def _underflow(s: float) -> float:
    return math.copysign(0.0, s)  # s * tiny * tiny


def pow(x: float, y: float) -> float:  # noqa: A001 - the C function's name
    """V8's ``ieee754::pow`` (``Math.pow`` and ``**``)."""
    hx, lx = _high(x), _low(x)
    hy, ly = _high(y), _low(y)
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    if (iy | ly) == 0:
        return 1.0  # x**0 = 1
    if (ix > 0x7FF00000 or (ix == 0x7FF00000 and lx != 0) or iy > 0x7FF00000
            or (iy == 0x7FF00000 and ly != 0)):
        return x + y  # NaN
    # yisint: 0 y is not an integer, 1 an odd integer, 2 an even integer (x < 0 only)
    yisint = 0
    if hx < 0:
        if iy >= 0x43400000:
            yisint = 2
        elif iy >= 0x3FF00000:
            k = (iy >> 20) - 0x3FF
            if k > 20:
                j = ly >> (52 - k)
                if _signed(j << (52 - k)) == _signed(ly):
                    yisint = 2 - (j & 1)
            elif ly == 0:
                j = iy >> (20 - k)
                if (j << (20 - k)) == iy:
                    yisint = 2 - (j & 1)
    if ly == 0:  # special values of y
        if iy == 0x7FF00000:  # y is +-inf
            if ((ix - 0x3FF00000) | lx) == 0:
                return y - y  # (+-1)**+-inf is NaN
            if ix >= 0x3FF00000:
                return y if hy >= 0 else 0.0  # (|x|>1)**+-inf = inf, 0
            return -y if hy < 0 else 0.0  # (|x|<1)**-,+inf = inf, 0
        if iy == 0x3FF00000:  # y is +-1
            return _divide(1.0, x) if hy < 0 else x
        if hy == 0x40000000:
            return x * x  # y is 2
        if hy == 0x3FE00000 and hx >= 0:  # y is 0.5, x >= +0
            return math.sqrt(x)
    ax = abs(x)
    if lx == 0 and ix in (0x7FF00000, 0, 0x3FF00000):  # x is +-0, +-inf, +-1
        z = ax
        if hy < 0:
            z = _divide(1.0, z)
        if hx < 0:
            if ((ix - 0x3FF00000) | yisint) == 0:
                z = math.nan  # (-1)**non-int
            elif yisint == 1:
                z = -z  # (x<0)**odd = -(|x|**odd)
        return z
    n = (hx >> 31) + 1
    if (n | yisint) == 0:
        return math.nan  # (x<0)**(non-int)
    s = -1.0 if (n | (yisint - 1)) == 0 else 1.0  # the sign of (-ve)**(odd int)
    if iy > 0x41E00000:  # |y| > 2**31
        if iy > 0x43F00000:  # |y| > 2**64: must over- or underflow
            if ix <= 0x3FEFFFFF:
                return math.inf if hy < 0 else 0.0
            if ix >= 0x3FF00000:
                return math.inf if hy > 0 else 0.0
        if ix < 0x3FEFFFFF:  # over/underflow if x is not close to one
            return _overflow(s) if hy < 0 else _underflow(s)
        if ix > 0x3FF00000:
            return _overflow(s) if hy > 0 else _underflow(s)
        # |1-x| <= 2**-20: log(x) by x - x^2/2 + x^3/3 - x^4/4
        t = ax - 1.0
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
        u = _IVLN2_H * t
        v = t * _IVLN2_L - w * _IVLN2
        t1 = _with_low(u + v, 0)
        t2 = v - (t1 - u)
    else:
        n = 0
        if ix < 0x00100000:  # subnormal x
            ax *= _TWO53
            n -= 53
            ix = _high(ax)
        n += (ix >> 20) - 0x3FF
        j = ix & 0x000FFFFF
        ix = j | 0x3FF00000  # normalize ix
        if j <= 0x3988E:
            k = 0  # |x| < sqrt(3/2)
        elif j < 0xBB67A:
            k = 1  # |x| < sqrt(3)
        else:
            k = 0
            n += 1
            ix -= 0x00100000
        ax = _with_high(ax, ix)
        # ss = s_h + s_l = (x-1)/(x+1) or (x-1.5)/(x+1.5)
        u = ax - _BP[k]
        v = _divide(1.0, ax + _BP[k])
        ss = u * v
        s_h = _with_low(ss, 0)
        t_h = _words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)  # ax + bp[k] high
        t_l = ax - (t_h - _BP[k])
        s_l = v * ((u - s_h * t_h) - s_h * t_l)
        # log(ax)
        s2 = ss * ss
        r = s2 * s2 * (_L1 + s2 * (_L2 + s2 * (_L3 + s2 * (_L4 + s2 * (_L5 + s2 * _L6)))))
        r += s_l * (s_h + ss)
        s2 = s_h * s_h
        t_h = _with_low(3.0 + s2 + r, 0)
        t_l = r - ((t_h - 3.0) - s2)
        u = s_h * t_h  # u + v = ss * (1 + ...)
        v = s_l * t_h + t_l * ss
        p_h = _with_low(u + v, 0)  # 2/(3log2) * (ss + ...)
        p_l = v - (p_h - u)
        z_h = _CP_H * p_h  # cp_h + cp_l = 2/(3*log2)
        z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
        t = float(n)  # log2(ax) = (ss + ..) * 2/(3*log2) = n + dp_h + z_h + z_l
        t1 = _with_low(((z_h + z_l) + _DP_H[k]) + t, 0)
        t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)
    # split y into y1 + y2 and compute (y1 + y2) * (t1 + t2)
    y1 = _with_low(y, 0)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = _high(z), _low(z)
    if j >= 0x40900000:  # z >= 1024
        if ((j - 0x40900000) | i) != 0:
            return _overflow(s)
        if p_l + _OVT > z - p_h:
            return _overflow(s)
    elif (j & 0x7FFFFFFF) >= 0x4090CC00:  # z <= -1075
        if (_signed(j - _signed(0xC090CC00)) | i) != 0:
            return _underflow(s)
        if p_l <= z - p_h:
            return _underflow(s)
    # 2**(p_h + p_l)
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:  # |z| > 0.5: n = [z + 0.5]
        n = _signed(j + (0x00100000 >> (k + 1)))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF  # the new k for n
        t = _words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _with_low(p_l + p_h, 0)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    r = _divide(z * t1, (t1 - 2.0) - (w + z * w))
    z = 1.0 - (r - z)
    j = _signed(_high(z) + _signed((n & 0xFFFFFFFF) << 20))
    if (j >> 20) <= 0:
        z = math.ldexp(z, n)  # subnormal output: scalbn
    else:
        z = _with_high(z, _high(z) + _signed((n & 0xFFFFFFFF) << 20))
    return s * z
