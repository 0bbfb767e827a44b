"""The BLEU arithmetic over knob settings, in each tool's float form.

:func:`compute` evaluates a :class:`~bleu_harness.bleu.knobs.KnobSettings` on corpus
statistics. The knobs say *what* is computed; ``KnobSettings.arithmetic`` (an
:class:`Arithmetic`) says *how* a tool writes it in floats (``math.fsum`` or ``sum``,
``Σ/N`` or ``Σ·w``, percent precisions, ``1/(c/r)``, float32 after every step), which changes
bits and never the rule. Every :class:`Arithmetic` value names the library expression it
reproduces: do not "simplify" one form into another (``sum`` is not ``fsum``, ``Σ/N`` is not
``Σ·(1/N)``, ``100.0*m/t`` is not ``100*(m/t)``, ``1/(c/r)`` is not ``r/c``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bleu_harness.bleu import fdlibm, libm, x87
from bleu_harness.bleu.arithmetic import LOG_ZERO, float32
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.history import NLTK
from bleu_harness.bleu.smoothing import NLTK_PARAMETERS, SmoothingInputs, smooth

if TYPE_CHECKING:
    from bleu_harness.bleu.knobs import KnobSettings


@dataclass(frozen=True)
class Arithmetic:
    """How a tool evaluates the knob arithmetic in floats: it changes bits, never the rule."""

    #: "ratio": ``m / t``; "percent": ``100.0 * m / t``, ``100.0 / (2^k t)`` (SacreBLEU).
    unit: str = "ratio"
    #: "fsum": ``exp(math.fsum(w * log p))`` (NLTK); "sum": ``exp(sum(w * log p))`` (MATLAB,
    #: TF-NMT); "mean": ``exp(sum(log p) / N)`` (SacreBLEU, multi-bleu, mteval, T2T);
    #: "steps": float32 after every operation, the total from 0.0 (torchmetrics tensors);
    #: "product": ``bleu = 1.; bleu *= p_n`` in order, then ``bleu ** (1./N)`` (pycocoevalcap,
    #: uniform weights: :data:`PRODUCT_FORM`; npm bleu-score's ``reduce((acc, p) => acc * p,
    #: 1)`` and ``Math.pow(product, 1 / maxN)``); "mean-float32": float32 after every operation,
    #: the logs summed from 0 in order, the sum divided by N, the BP's exponent added before
    #: ``exp`` when ``bp`` is "exponent" (Marian's ``calcBLEU``, uniform weights); "x87":
    #: fast-bleu's ``long double`` steps (:func:`bleu_harness.bleu.x87.weighted_log_sum`:
    #: ``logl`` of each exact precision, a double sum rounded through 80 bits at each order,
    #: then ``exp`` in double).
    log_sum: str = "fsum"
    #: "r/c": ``exp(1 - r/c)``; "1/ratio": ``exp(1 - 1/(c/r))`` (TF-NMT, T2T);
    #: "1/ratio-float32": the same with ``c/r``, ``1/ratio`` and ``1 - ...`` each a float32 and
    #: ``math.exp`` in float64 (keras-hub's float32 NumPy state under NumPy 2's promotion);
    #: "exponent": ``exp(mean + min(0, 1 - r/c))`` (mteval ``--no-smoothing``; Marian's
    #: ``1 - max(r/c, 1)`` in float32).
    bp: str = "r/c"
    #: The native score is ``scale * score`` (multi-bleu's ``100 * $bleu``).
    times_scale: bool = False
    #: The native score is ``(scale * bp) * exp(...)``: the scale multiplies the BP first
    #: (compare-mt's ``self.scale * bp * math.exp(prec)``).
    scale_first: bool = False
    #: ``scale * score`` is rounded to float32 again (``np.float32(bleu) * 100``, tf-models).
    scale_in_float32: bool = False
    #: ``log 0 = -9999999999``, a term, and the sum goes on (SacreBLEU, multi-bleu).
    my_log: bool = False
    #: BP is 1 only if c > r: c == r == 0 gives 0 (NLTK, MATLAB, mteval).
    strict_bp: bool = False
    #: The precision loop ``break``s at the first order without n-grams, so later orders
    #: are never smoothed and report 0.0 (SacreBLEU's ``if total[n - 1] == 0: break``).
    stops_at_empty_order: bool = False
    #: "float64" or "float32": an unsmoothed precision ``m / t`` is ``(1 / t) * m`` in that
    #: float. ignite without smoothing divides a Python float by a tensor (``n.item() / d``,
    #: pytorch/ignite@8a2a163e8a94 ``ignite/metrics/nlp/bleu.py:61-62``), and torch's
    #: ``Tensor.__rtruediv__`` is ``self.reciprocal() * other``: float64 tensors for the
    #: micro average, float32 for each sentence of the macro average (line 222).
    reciprocal_precision: str = ""
    #: With ``float32``: the BP is float64 and multiplies the float32 geometric mean in
    #: float64, the product not rounded (torchtext's ``bp * score.item()``,
    #: pytorch/text@a897aa927f94 ``torchtext/data/metrics.py:97-99``).
    float64_bp: bool = False
    #: Each precision (``m / t``, or ``(m + k) / (t + k)``) is a float32 number, and the log
    #: sum, exp and BP are float64 from there: keras-hub's ``float(matches[i]) /
    #: possible_matches[i]`` of a float32 NumPy array element is a ``np.float32`` under
    #: NumPy 2's promotion (keras-team/keras-hub@71453d08f59e
    #: ``keras_hub/src/metrics/bleu.py:245-256``), and ``math.log`` reads it as it is.
    float32_precisions: bool = False
    #: With ``add-k`` smoothing: each order's term is ``w * (log(m + k) - log(t + k))``, a
    #: difference of two logs, not ``w * log((m + k) / (t + k))``, summed by ``sum`` in order
    #: (allennlp's ``BLEU.get_metric``, allenai/allennlp@80fb6061
    #: ``allennlp/training/metrics/bleu.py:154-162``, ``k = 1e-13``).
    difference_of_logs: bool = False
    #: With ``log_sum`` "mean-float32": each order's term is ``logf(m) - logf(t)``, the two
    #: float32 logarithms of the float32 counts subtracted in float32, not ``logf(m / t)``
    #: (Marian's ``SacreBleuValidator::calcBLEU`` from 1.10.0: ``logbleu += std::log(
    #: commonNgrams) - std::log(hypothesesNgrams)``, marian-nmt/marian-dev@65bf82ffce52
    #: ``src/training/validator.cpp:633``).
    log_difference: bool = False
    #: ``exp`` and ``pow`` are JavaScript's ``Math.exp`` and ``Math.pow`` as V8 computes them
    #: (fdlibm's algorithms, :mod:`bleu_harness.bleu.fdlibm`), not the C library's: npm
    #: bleu-score's ``Math.exp(1 - r / c)`` and ``Math.pow(product, 1 / maxN)``.
    v8_math: bool = False

    def fits(self, k: KnobSettings) -> bool:
        """Whether this form can evaluate ``k``: the "mean", "percent" and "exponent" forms
        need uniform, unnormalised weights and a smoothing that is not NLTK's; the difference
        of logs needs ``add-k`` and weights used as given."""
        if self.log_difference and self.log_sum != "mean-float32":
            return False
        if self.difference_of_logs and (k.smoothing != "add-k" or k.normalise
                                        or k.empty_order != "zero"):
            return False
        if self.log_sum == "product":
            return _product_fits(k)
        if self.log_sum == "x87":
            return _x87_fits(k)
        if (self.log_sum not in ("mean", "mean-float32") and self.unit != "percent"
                and self.bp != "exponent"):
            return True
        weights = _first_vector(k.weights)
        return (len(set(weights)) <= 1 and not k.normalise
                and not k.smoothing.startswith("nltk-") and len(_all_vectors(k.weights)) == 1)


#: The reference form (``math.fsum`` over ratio precisions), for mixtures no tool writes.
REFERENCE = Arithmetic()
#: The reference form scaled at the end: the form of a setting its own form cannot express.
REFERENCE_TIMES_SCALE = Arithmetic(times_scale=True)

# --- pycocoevalcap (salaniz/pycocoevalcap@ad63453cfab57a81a02b2949b17a91fab1c3df77) --------
#: ``BleuScorer.compute_score``'s ``tiny`` and ``small`` (``bleu/bleu_scorer.py:201-202``): every
#: precision is ``(m + tiny) / (n + small)`` (lines 251-252) and the length ratio
#: ``(c + tiny) / (r + small)`` (line 254), "so that if guess is 0 still return 0".
COCO_TINY, COCO_SMALL = 1e-15, 1e-9
#: The product form: pycocoevalcap's cumulative BLEU-k (lines 249-253).
PRODUCT_FORM = Arithmetic(log_sum="product")


def _product_fits(k: KnobSettings) -> bool:
    """The product form is a geometric mean of uniform weights, with no order left out."""
    return (all(len(set(v)) <= 1 for v in _all_vectors(k.weights)) and not k.normalise
            and k.empty_order == "zero" and k.zero == "zero"
            and not k.smoothing.startswith("nltk-"))


def _x87_fits(k: KnobSettings) -> bool:
    """fast-bleu's form: precisions as exact fractions, no smoothing or its floor (method1),
    a zero order that ends the score or counts as ``LDBL_MIN`` (method0)."""
    return (k.smoothing in ("none", "floor") and k.empty_order == "zero" and not k.normalise
            and k.zero in ("zero", "tiny-long-double") and not k.float32)


def _decimal(value: float) -> Fraction:
    """A smoothing parameter as the decimal it is written as (fast-bleu's method1 epsilon is
    ``Fraction(1, 10)``, ``nltk.cpp:45``, not the double nearest 0.1)."""
    return Fraction(repr(value))


def reference_length(corpus: CorpusStats, k: KnobSettings) -> int | float:
    """The summed reference length under ``k.ref``; ``average`` is pycocoevalcap's
    (``_single_reflen``, ``bleu/bleu_scorer.py:186-187``): each segment's
    ``float(sum(lengths)) / len(lengths)``, added up in segment order from the int 0
    (``self._reflen += reflen``, line 225). The statistics of each segment hold that sum
    (``corpus.segments``: ``k.preprocessing()`` keeps them for ``average``), and so do those
    of one segment (``corpus.last``) or of one reference per segment (integer sums);
    elsewhere it is a ``ValueError``."""
    if k.ref != "average":
        return corpus.ref_len(k.ref, k.unreferenced_length)
    if corpus.without_references:
        raise ValueError("a segment without references has no average reference length")
    if not corpus.segment_count:
        return 0
    if corpus.segments is not None:
        total = 0
        for segment in corpus.segments:
            total += float(sum(segment.ref_lens)) / len(segment.ref_lens)
        return total
    if corpus.segment_count == 1 and corpus.last is not None:
        lengths = corpus.last.ref_lens
        return float(sum(lengths)) / len(lengths)
    if corpus.most_references == 1:
        return float(corpus.ref_len("first"))
    raise ValueError("the float sum of per-segment average reference lengths depends on the "
                     "segments' order, which corpus statistics do not keep")


@dataclass(frozen=True)
class Computation:
    """What :func:`compute` found: the statistics it read, the gate that decided (if any),
    each order's precision (in the form's unit, and whether the order has n-grams), and one
    native-scale score per weight vector."""

    matches: tuple[int, ...]
    totals: tuple[Any, ...]
    raw: tuple[int, ...]
    bp: float
    hyp_len: int
    ref_len: int
    arithmetic: Arithmetic
    gate: str | None
    precisions: tuple[tuple[Any, bool], ...]
    scores: tuple[Any, ...]


def _all_vectors(weights: tuple) -> tuple[tuple[float, ...], ...]:
    return weights if weights and isinstance(weights[0], tuple) else (weights,)


def _first_vector(weights: tuple) -> tuple[float, ...]:
    return _all_vectors(weights)[0]


def _same(value: Any) -> Any:
    return value


def brevity_penalty(hyp_len: int, ref_len: int | float, k: KnobSettings, a: Arithmetic,
                    r32: Callable[[float], float] = _same) -> float:
    if k.bp == "epsilon":  # pycocoevalcap, bleu/bleu_scorer.py:254-257
        ratio = (hyp_len + COCO_TINY) / (ref_len + COCO_SMALL)
        return math.exp(1 - 1 / ratio) if ratio < 1 else 1.0
    if k.bp == "off" or hyp_len > ref_len or (hyp_len == ref_len and not a.strict_bp):
        return 1.0
    if hyp_len == 0:
        return 0.0
    if a.bp == "1/ratio":
        return math.exp(1 - 1.0 / (hyp_len / ref_len))
    if a.bp == "1/ratio-float32":  # float32 steps are correctly rounded from float64 ones
        return math.exp(float32(1 - float32(1.0 / float32(hyp_len / ref_len))))
    exp = fdlibm.exp if a.v8_math else math.exp
    return r32(exp(r32(1 - r32(ref_len / hyp_len))))


def _nltk_precisions(corpus: CorpusStats, k: KnobSettings, matches, totals, raw):
    """NLTK's smoothing methods (``nltk-method4..7``) at the rules of the setting's release
    (the latest where it names none)."""
    method = k.smoothing.removeprefix("nltk-")
    parameters = {**NLTK_PARAMETERS, {"method6": "alpha"}.get(method, "k"): k.smoothing_value}
    inputs = SmoothingInputs.for_corpus(corpus, matches, totals,
                                        NLTK.rules(k.version or NLTK.latest), **parameters)
    smoothed = smooth(method, [Fraction(m, max(t, 1)) for m, t in zip(matches, totals)], inputs)
    return [(p, r > 0) for p, r in zip(smoothed, raw)]


def _precisions(corpus: CorpusStats, k: KnobSettings, a: Arithmetic, matches, totals, raw,
                r32, orders: int, available: int | None) -> list[tuple[Any, bool]]:
    """Each order's precision after smoothing and whether the order has n-grams (add-k gives
    every order k of them). ``available``: the orders the tool's statistics hold; a loop
    that reaches past them with every earlier order present raises ``IndexError``
    (SacreBLEU 2.0.0's ``compute_bleu``)."""
    if k.smoothing.startswith("nltk-"):
        return _nltk_precisions(corpus, k, matches, totals, raw)
    percent = a.unit == "percent"
    exact = a.log_sum == "x87"  # fast-bleu: Fraction(num, den), its floor 1 / (10 den)
    if a.float32_precisions:
        r32 = float32
    value = k.smoothing_value
    out: list[tuple[Any, bool]] = []
    halvings = 1
    for n in range(1, orders + 1):
        if available is not None and n > available:
            if all(present for _, present in out):
                raise IndexError("list index out of range")
            out.append((0.0, False))
            continue
        if a.stops_at_empty_order and out and not out[-1][1]:
            out.append((0.0, False))
            continue
        m, t, r = matches[n - 1], totals[n - 1], raw[n - 1]
        if m != m:  # a NaN count stays NaN (npm bleu-score: Math.min of a string)
            out.append((m, True))
        elif k.smoothing == "coco-epsilon":  # pycocoevalcap, bleu/bleu_scorer.py:251-252
            out.append((r32((m + COCO_TINY) / (t + COCO_SMALL)), r > 0))
        elif k.smoothing == "add-k" or (k.smoothing == "add-k-from-bigram" and n > 1):
            mm, tt = m + value, t + value
            p = ((100.0 * mm / tt) if percent else mm / tt) if tt else 0.0
            out.append((r32(p), r + value != 0))
        elif m > 0 and exact:
            out.append((Fraction(m, t), True))
        elif m > 0 and a.reciprocal_precision:
            rounded = float32 if a.reciprocal_precision == "float32" else _same
            out.append((rounded(rounded(1 / t) * m), True))
        elif m > 0:
            out.append((r32(100.0 * m / t if percent else m / t), True))
        elif t == 0:
            out.append((0.0, r > 0))
        elif k.smoothing == "floor" and exact:
            out.append((_decimal(value) / t, r > 0))
        elif k.smoothing == "floor":
            out.append((100.0 * value / t if percent else value / t, r > 0))
        elif k.smoothing == "nist-geometric":
            halvings *= 2
            out.append((100.0 / (halvings * t) if percent else 1 / (halvings * t), r > 0))
        else:
            out.append((0.0, r > 0))
    return out


def _combine(weights, precisions, k: KnobSettings, a: Arithmetic, r32, hyp_len: int,
             ref_len: int, counts: tuple = ((), ())) -> tuple[float, bool]:
    """exp of the weighted log sum, and whether the BP is already folded into it.
    ``counts``: each order's matches and n-grams (``a.log_difference`` takes their logs)."""
    if any(p != p for p, _ in precisions[:len(weights)]):
        return math.nan, False  # a NaN count (npm bleu-score's object keys) makes NaN anywhere
    if a.log_sum == "x87":  # fast-bleu: nltk.cpp:135-148
        if k.zero == "zero" and any(p == 0 for p, _ in precisions[:len(weights)]):
            return 0.0, False
        return _c_exp(x87.weighted_log_sum(
            weights, [None if p == 0 else p for p, _ in precisions])), False
    if a.log_sum == "product":  # pycocoevalcap: bleu *= p in order; bleu ** (1./N)
        product = 1.0
        for p, _ in precisions[:len(weights)]:
            product *= p
        if a.v8_math:
            return fdlibm.pow(product, 1.0 / len(weights)), False
        return product ** (1.0 / len(weights)), False
    terms: list[tuple[float, float]] = []
    for index, (w, (p, present)) in enumerate(zip(weights, precisions)):
        if not present and k.empty_order == "effective":
            break
        if not present and k.empty_order == "neutral":
            terms.append((w, 0))
            continue
        if p == 0 and k.zero == "first-weight-tiny":  # NLTK 3.2.4-3.2.5 emulate_multibleu
            if index < 5:  # method0 returns [sys.float_info.min]: one term, w1's
                terms = [(weights[0], math.log(sys.float_info.min))]
            break
        if p == 0 and k.zero == "truncate":
            break  # NLTK method0 before 3.3: the product ends at the first zero order
        if p <= 0 and k.zero == "raises":
            raise ValueError("math domain error")  # log(p) of NLTK before 3.6.6
        if p == 0 and a.my_log and k.zero == "zero" and w != 0:
            terms.append((w, LOG_ZERO))  # my_log(0): later orders still count (and may raise)
            continue
        if p == 0 or (p < 0 and k.zero == "dropped"):
            if w == 0 or k.zero == "dropped":
                continue  # 0 * log 0 leaves the order out (MATLAB: a zero weight)
            if k.zero == "tiny-long-double":  # fast-bleu's method0: log(LDBL_MIN)
                terms.append((w, float(x87.LOG_LDBL_MIN)))
                continue
            if k.zero != "tiny":
                return 0.0, False
            p = sys.float_info.min
        if a.log_sum == "mean-float32" and a.log_difference:  # logf(m) - logf(t)
            m, t = counts[0][index], counts[1][index]
            terms.append((w, float32(libm.logf(float(m)) - libm.logf(float(t)))))
            continue
        if a.log_sum == "mean-float32":
            terms.append((w, libm.logf(p)))
            continue
        terms.append((w, math.log(p)))  # a negative precision raises ValueError here
    if k.empty_order == "neutral" and not any(present for _, present in precisions):
        return 0.0, False  # nothing to average: mteval's and T2T's 0
    if not terms:
        return 0.0, False
    if a.log_sum == "mean-float32":  # Marian: logbleu += log(p); logbleu /= 4.f; ...
        total = 0.0  # std::log / std::exp of a float: the C library's logf / expf
        for _, lp in terms:
            total = float32(total + lp)
        mean = float32(total / float32(len(weights)))
        if a.bp == "exponent" and k.bp != "off":  # 1.f - std::max(r / c, 1.f)
            mean = float32(mean + float32(1 - max(float32(ref_len / hyp_len), 1.0)))
            return libm.expf(mean), True
        return libm.expf(mean), False
    if a.log_sum == "mean" and len(set(weights)) == 1 and not k.normalise:
        count = len(terms) if k.empty_order == "effective" else len(weights)
        mean = sum(lp for _, lp in terms) / count
        if a.bp == "exponent" and k.bp != "off":
            return math.exp(mean + min(0, 1 - ref_len / hyp_len)), True
        return math.exp(mean), False
    if k.empty_order == "effective" and len(terms) < len(weights):
        total = sum(w for w, _ in terms)
        terms = [(w / total if total else 0.0, lp) for w, lp in terms]
    if a.log_sum == "steps":
        total = 0.0
        for w, lp in terms:
            total = r32(total + r32(r32(w) * r32(lp)))
        return r32(math.exp(total)), False
    if a.log_sum == "sum":
        return math.exp(sum(w * lp for w, lp in terms)), False
    return math.exp(math.fsum(w * lp for w, lp in terms)), False


def _difference_of_logs(weights, matches, totals, k: float) -> float:
    """``math.exp(sum(w * (math.log(m + k) - math.log(t + k)) ...))`` in order (allennlp's
    ``get_metric``, ``bleu.py:154-162``): an order without a match counts about ``k / t``,
    one without n-grams ``k / k = 1``."""
    return math.exp(sum(w * (math.log(m + k) - math.log(t + k))
                        for w, m, t in zip(weights, matches, totals)))


def _c_exp(x: float) -> float:
    """C's ``exp``: ``inf`` on overflow where ``math.exp`` raises."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def item_sizes(items: Any, segment_count: int) -> list[int]:
    """How many consecutive segments each item holds: ``k`` each, or the sizes given (a
    ``ValueError`` where they do not cover the segments)."""
    sizes = [items] * (segment_count // items) if isinstance(items, int) else list(items)
    if sum(sizes) != segment_count or not all(size >= 1 for size in sizes):
        raise ValueError(f"items of {items} predictions do not cover {segment_count} "
                         "segments")
    return sizes


def item_lengths(corpus: CorpusStats, items: Any) -> tuple[int, int]:
    """jury's adjusted lengths (``bleu_for_language_generation.py:228-231``): the sum of each
    item's longest prediction, and of its shortest reference (``get_token_lengths`` with
    ``min`` and ``max``); an item's references are its first segment's."""
    if corpus.segments is None:
        raise ValueError("items need each segment's statistics (a preprocessing with "
                         "segments=True)")
    adjusted_ref = adjusted_hyp = 0
    start = 0
    for size in item_sizes(items, len(corpus.segments)):
        group = corpus.segments[start:start + size]
        start += size
        adjusted_ref += int(min(group[0].ref_lens))
        adjusted_hyp += int(max(s.hyp_len for s in group))
    return adjusted_hyp, adjusted_ref


def adjusted_for_items(scores, corpus: CorpusStats, items: Any, hyp_len: int,
                       ref_len: int | float, bp: float) -> tuple[list, float]:
    """jury's multi-prediction BLEU (obss/jury@c8d32259
    ``jury/metrics/bleu/bleu_for_language_generation.py:225-266``): the score of the
    flattened pairs, whose length ratio ``hyp_len / ref_len`` decides; above 1 it stands (BP
    1.0), else it is multiplied by ``adjusted_bp / bp``, where ``bp = exp(1 - 1/ratio)`` and
    ``adjusted_bp`` is the same of the items' lengths: the sum of each item's longest
    prediction over the sum of its shortest reference (above 1 when those predictions are
    the longer). Returns the scores and the BP jury reports."""
    if all(size == 1 for size in item_sizes(items, corpus.segment_count)):
        return list(scores), bp  # jury's single-prediction path: compute_bleu's score as is
    adjusted_hyp, adjusted_ref = item_lengths(corpus, items)
    ratio = hyp_len / ref_len
    adjusted_ratio = adjusted_hyp / adjusted_ref
    if ratio > 1.0:
        return list(scores), 1.0
    flat_bp = math.exp(1 - 1.0 / ratio)
    adjusted_bp = math.exp(1 - 1.0 / adjusted_ratio)
    return [score * (adjusted_bp / flat_bp) for score in scores], adjusted_bp


def reweighed(hyp_len: int) -> tuple[float, ...]:
    """NLTK's ``auto_reweigh``: ``(1 / hyp_len,) * hyp_len`` (a ``ZeroDivisionError`` for an
    empty hypothesis)."""
    return (1 / hyp_len,) * hyp_len


def compute(corpus: CorpusStats, k: KnobSettings, available: int | None = None,
            zero: Any = 0.0) -> Computation:
    """BLEU of the statistics under ``k``, on ``k``'s native scale, in ``k``'s float form
    (the reference form for a mixture, or where the form cannot express ``k``). With
    ``k.average`` "sentence-mean" the scores are the mean of each segment's (the rest of the
    computation is the summed statistics')."""
    a = k.float_form if k.float_form.fits(k) else REFERENCE_TIMES_SCALE
    whole = _compute(corpus, k, a, available, zero)
    if k.average != "sentence-mean" or not corpus.segment_count:
        return whole
    return replace(whole, gate=None, scores=_mean_of_sentences(corpus, k, a, available, zero))


def _mean_of_sentences(corpus: CorpusStats, k: KnobSettings, a: Arithmetic,
                       available: int | None, zero: Any) -> tuple[Any, ...]:
    """Each segment scored alone, the scores summed in segment order from 0.0 and divided by
    the number of segments (ignite's macro average: ``_sum_of_bleu += ...`` in a float64
    tensor, then ``_sum_of_bleu / _num_sentences``, pytorch/ignite@8a2a163e8a94
    ``ignite/metrics/nlp/bleu.py:240, 255, 270``)."""
    segments = corpus.segment_corpora
    sums: list[Any] = []
    for segment in segments:
        scores = _compute(segment, k, a, available, zero).scores
        sums = [total + s for total, s in zip(sums or [0.0] * len(scores), scores)]
    return tuple(total / len(segments) for total in sums)


def _compute(corpus: CorpusStats, k: KnobSettings, a: Arithmetic, available: int | None,
             zero: Any) -> Computation:
    """:func:`compute` of the summed statistics in the float form ``a``."""
    r32 = float32 if k.float32 and a.log_sum in ("steps", "mean-float32") else _same
    vectors = _all_vectors(k.weights)
    counted = max(len(v) for v in vectors)
    matches, raw = corpus.matches[:counted], corpus.totals[:counted]
    totals = corpus.floored_totals[:counted] if k.denominator == "floor1" else raw
    if k.denominator == "floor1-sum":  # ignite: max(1, d) of each order's sum
        totals = tuple(max(1, t) for t in raw)
    hyp_len = corpus.hyp_len
    ref_len = reference_length(corpus, k)
    bp = brevity_penalty(hyp_len, ref_len, k, a, _same if a.float64_bp else r32)

    def done(gate: str | None, scores, precisions=()) -> Computation:
        return Computation(matches, totals, raw, bp, hyp_len, ref_len, a, gate,
                           tuple(precisions), tuple(scores))

    if k.empty_order == "reweigh-first" and hyp_len < 4 and vectors == ((0.25,) * 4,):
        vectors = (reweighed(hyp_len),)  # before anything else: 0 words divide by zero
        counted = hyp_len
        matches, raw, totals = matches[:counted], raw[:counted], totals[:counted]
    if k.all_empty == "nan-ratio" and hyp_len == 0 and ref_len == 0:
        return done("all empty", (math.nan,) * len(vectors))  # 0/0 in float32: no exception
    if not corpus.segment_count or counted == 0:
        return done("no orders", (zero,) * len(vectors))
    if k.all_empty in ("nan", "zero") and hyp_len == 0 and corpus.longest_reference == 0:
        return done("all empty", (math.nan if k.all_empty == "nan" else 0.0,) * len(vectors))
    if k.fewer_words == "zero" and raw[len(vectors[0]) - 1] == 0:
        return done("fewer words", (0.0,) * len(vectors))
    if k.no_match_zero and not any(matches):  # no unigram match: no match at all
        return done("no match", (zero,) * len(vectors))
    if k.zero == "zero-before-smoothing" and min(matches) == 0:
        return done("zero before smoothing", (0.0,) * len(vectors))
    precisions = _precisions(corpus, k, a, matches, totals, raw, r32, counted, available)
    scores = []
    for weights in vectors:
        if k.normalise and sum(weights) > 0:
            weights = tuple(w / sum(weights) for w in weights)
        if k.empty_order == "reweigh" and hyp_len < 4 and weights == (0.25,) * 4:
            weights = reweighed(hyp_len)
        if a.difference_of_logs:
            geometric, folded = _difference_of_logs(weights, matches, totals,
                                                    k.smoothing_value), False
        else:
            geometric, folded = _combine(weights, precisions, k, a, r32, hyp_len, ref_len,
                                         (matches, totals))
        if a.scale_first:
            scores.append(k.scale * bp * geometric)
            continue
        score = geometric if folded else bp * geometric
        if k.float32 and not a.float64_bp:
            score = float32(score)
        if k.rounding is not None:
            score = round(score, k.rounding)
        if a.times_scale and k.scale != 1:  # never 1.0 * x: NLTK's int 0 stays an int
            score = k.scale * score
            if a.scale_in_float32:
                score = float32(score)
        scores.append(score)
    if k.items is not None:
        scores, bp = adjusted_for_items(scores, corpus, k.items, hyp_len, ref_len, bp)
    return done(None, scores, precisions)
