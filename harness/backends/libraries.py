"""The live reference libraries, called the way their users call them."""

from __future__ import annotations

import logging
import warnings
from importlib.metadata import PackageNotFoundError, version

from harness.backends.base import BackendInfo, Outcome, ScoreRequest, declined, guarded

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def installed_version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return ""


class NltkBackend:
    """``nltk.translate.bleu_score``: whitespace-split tokens, options as keyword arguments."""

    def info(self) -> BackendInfo:
        return BackendInfo("nltk", installed_version("nltk"), ("nltk",), "library")

    def score(self, request: ScoreRequest) -> Outcome:
        return declined(request, "NLTK", "nltk", ("score", "scores")) or guarded(
            lambda: self._call(request))

    @staticmethod
    def _call(request: ScoreRequest) -> float:
        from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

        options = dict(request.options)
        smoother = SmoothingFunction(**{k: options.pop(k) for k in ("epsilon", "alpha", "k")
                                        if k in options})
        method = options.pop("smoothing", "method0")
        if isinstance(method, int):
            method = f"method{method}"
        options["smoothing_function"] = getattr(smoother, method)
        hyps = [h.split() for h in request.hypotheses]
        refs = [[r.split() for r in rs] for rs in request.references]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if request.level == "sentence":
                result = sentence_bleu(refs[0], hyps[0], **options)
            else:
                result = corpus_bleu(refs, hyps, **options)
        if isinstance(result, list):  # a list of weight vectors: one score each
            name, _, k = request.figure.partition(".")
            return result[int(k) - 1] if name == "scores" else result[0]
        return result

    def close(self) -> None:
        pass


class SacrebleuBackend:
    """``sacrebleu.metrics.BLEU``; per-segment references become streams with ``None``."""

    def info(self) -> BackendInfo:
        return BackendInfo("sacrebleu", installed_version("sacrebleu"), ("sacrebleu",), "library")

    def score(self, request: ScoreRequest) -> Outcome:
        return declined(request, "SacreBLEU", "sacrebleu") or guarded(lambda: self._call(request))

    @staticmethod
    def _call(request: ScoreRequest) -> float:
        from sacrebleu.metrics import BLEU

        options = dict(request.options)
        if "use_effective_order" in options:
            options["effective_order"] = options.pop("use_effective_order")
        options.setdefault("effective_order", request.level == "sentence")
        metric = BLEU(**options)
        if request.level == "sentence":
            return metric.sentence_score(request.hypotheses[0], list(request.references[0])).score
        width = max((len(r) for r in request.references), default=0)
        streams = [[refs[j] if j < len(refs) else None for refs in request.references]
                   for j in range(width)]
        return metric.corpus_score(list(request.hypotheses), streams).score

    def close(self) -> None:
        pass
