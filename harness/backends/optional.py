"""Libraries the harness uses when they are installed: torchmetrics, fast-bleu, bleuscore.

Each is optional: when its package is missing, ``info().version`` is empty and the runner
leaves it out, saying so. Each answers only for the convention it implements and only where
it implements it; elsewhere it answers ``unsupported`` with the documented reason
(CONVENTIONS.md A.1, A.2, B9-B11, B28), so a known difference of kind is not reported as a
failure of the engine.
"""

from __future__ import annotations

from harness.backends.base import (UNSUPPORTED, BackendInfo, Outcome, ScoreRequest, declined,
                                    guarded)
from harness.backends.libraries import installed_version
from harness.bleu.tokenizers import tokenize_13a

#: float32 arithmetic (torchmetrics tensors, fast-bleu's C++ ``float`` weights): the engine
#: agrees to a few float32 ulps, about 2.4e-7 relative; 1e-6 leaves room.
FLOAT32_TOLERANCE = 1e-6


def _unsupported(reason: str) -> Outcome:
    return Outcome(UNSUPPORTED, message=reason)


class TorchmetricsBackend:
    """``torchmetrics.functional.text.bleu_score`` (``BLEUScore``), on the CPU."""

    def info(self) -> BackendInfo:
        return BackendInfo("torchmetrics", installed_version("torchmetrics"), ("torchmetrics",),
                           "library", FLOAT32_TOLERANCE)

    def score(self, request: ScoreRequest) -> Outcome:
        return declined(request, "torchmetrics", "torchmetrics") or guarded(
            lambda: self._call(request))

    @staticmethod
    def _call(request: ScoreRequest) -> float:
        from torchmetrics.functional.text import bleu_score

        options = dict(request.options)
        weights = options.get("weights")
        result = bleu_score(list(request.hypotheses), [list(r) for r in request.references],
                            n_gram=options.get("n_gram", 4), smooth=options.get("smooth", False),
                            weights=list(weights) if weights is not None else None)
        return float(result)

    def close(self) -> None:
        pass


class FastBleuBackend:
    """``fast_bleu.BLEU`` (C++): NLTK's sentence BLEU with ``smoothing_func`` 0 or 1.

    It scores each hypothesis against the whole reference set, so it answers for one
    hypothesis at a time (NLTK ``sentence_bleu``). Its weights must sum to 1 within 1e-15 and
    have at least two entries (an ``assert``); it keeps them as C++ ``float``. Its method0
    floor underflows to exactly 0.0 where NLTK keeps a tiny positive number.
    """

    def info(self) -> BackendInfo:
        return BackendInfo("fast-bleu", installed_version("fast-bleu"), ("nltk",), "library",
                           FLOAT32_TOLERANCE)

    def score(self, request: ScoreRequest) -> Outcome:
        reason = self._unsupported_reason(request)
        if reason:
            return _unsupported(reason)
        outcome = guarded(lambda: self._call(request))
        if outcome.kind == "value" and outcome.value == 0.0 and self._method(request) == 0:
            return _unsupported("fast-bleu's method0 floor underflows to 0.0 where NLTK keeps "
                                "a tiny positive score (CONVENTIONS.md A.2)")
        return outcome

    @staticmethod
    def _method(request: ScoreRequest) -> int | None:
        method = request.options.get("smoothing", "method0")
        return {"method0": 0, "method1": 1, 0: 0, 1: 1}.get(method)

    def _unsupported_reason(self, request: ScoreRequest) -> str:
        options = request.options
        weights = options.get("weights", (0.25, 0.25, 0.25, 0.25))
        refused = declined(request, "fast-bleu", "nltk")
        if refused:
            return refused.message
        if request.level != "sentence" or len(request.hypotheses) != 1:
            return "fast-bleu scores one hypothesis at a time (sentence level)"
        if not request.references[0]:
            return "fast-bleu needs a reference"
        if self._method(request) is None or set(options) - {"weights", "smoothing", "epsilon"}:
            return "fast-bleu offers only smoothing method0/method1 and weights"
        if options.get("epsilon", 0.1) != 0.1:
            return "fast-bleu's method1 epsilon is fixed at 0.1"
        if (not weights or isinstance(weights[0], (tuple, list)) or len(weights) < 2
                or abs(sum(weights) - 1) > 1e-15):
            return "fast-bleu needs one weight vector of length >= 2 summing to 1"
        return ""

    def _call(self, request: ScoreRequest) -> float:
        from fast_bleu import BLEU

        weights = tuple(request.options.get("weights", (0.25, 0.25, 0.25, 0.25)))
        bleu = BLEU([r.split() for r in request.references[0]], {"w": weights},
                    smoothing_func=self._method(request))
        return bleu.get_score([request.hypotheses[0].split()])["w"][0]

    def close(self) -> None:
        pass


class BleuscoreBackend:
    """``bleuscore.compute`` (Rust): TF-NMT's formula with 13a tokens, shortest reference.

    Where TF-NMT raises (a zero hypothesis or reference length, a segment without
    references) bleuscore returns a number or panics (CONVENTIONS.md A.1, B9-B11); those
    inputs are answered ``unsupported`` with that reason.
    """

    def info(self) -> BackendInfo:
        return BackendInfo("bleuscore", installed_version("bleuscore"), ("tf-nmt",), "library",
                           1e-12)

    def score(self, request: ScoreRequest) -> Outcome:
        reason = self._unsupported_reason(request)
        if reason:
            return _unsupported(reason)
        return guarded(lambda: self._call(request))

    @staticmethod
    def _unsupported_reason(request: ScoreRequest) -> str:
        refused = declined(request, "bleuscore", "tf-nmt")
        if refused:
            return refused.message
        if request.options.get("tokenize", "13a") != "13a":
            return "bleuscore always tokenizes with 13a"
        if any(not refs for refs in request.references):
            return "bleuscore panics on a segment without references (TF-NMT: ValueError)"
        hyp_len = sum(len(tokenize_13a(h)) for h in request.hypotheses)
        ref_len = sum(min(len(tokenize_13a(r)) for r in refs) for refs in request.references)
        if hyp_len == 0 or ref_len == 0:
            return ("bleuscore returns a score where TF-NMT divides by a zero length "
                    "(CONVENTIONS.md B9-B11)")
        return ""

    @staticmethod
    def _call(request: ScoreRequest) -> float:
        import bleuscore

        options = request.options
        result = bleuscore.compute([list(r) for r in request.references],
                                   list(request.hypotheses),
                                   max_order=options.get("max_order", 4),
                                   smooth=options.get("smooth", False))
        return result["bleu"]

    def close(self) -> None:
        pass
