"""Calls into the installed reference libraries, shaped like ``bleu_harness.bleu.score``.

Used by the differential tests: whatever the library returns or raises is the expectation.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

NLTK_DEFAULTS = {"weights": (0.25, 0.25, 0.25, 0.25), "smoothing": "method0", "epsilon": 0.1,
                 "alpha": 5, "k": 5, "auto_reweigh": False}


def nltk_bleu(hyps: list[str], refs: list[list[str]], level: str, options: dict[str, Any]):
    o = {**NLTK_DEFAULTS, **options}
    smoother = SmoothingFunction(epsilon=o["epsilon"], alpha=o["alpha"], k=o["k"])
    method = getattr(smoother, o["smoothing"])
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split() for r in rs] for rs in refs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if level == "sentence":
            return sentence_bleu(ref_tokens[0], hyp_tokens[0], o["weights"], method,
                                 o["auto_reweigh"])
        return corpus_bleu(ref_tokens, hyp_tokens, o["weights"], method, o["auto_reweigh"])


def sacrebleu_metric(level: str, options: dict[str, Any]) -> sacrebleu.metrics.BLEU:
    return sacrebleu.metrics.BLEU(
        lowercase=options.get("lowercase", False),
        tokenize=options.get("tokenize", "13a"),
        smooth_method=options.get("smooth_method", "exp"),
        smooth_value=options.get("smooth_value"),
        max_ngram_order=options.get("max_ngram_order", 4),
        effective_order=options.get("effective_order", level == "sentence"),
    )


def reference_streams(refs: list[list[str]]) -> list[list[str | None]]:
    """Per-segment reference lists as SacreBLEU's streams, ``None`` where a segment has fewer."""
    width = max((len(r) for r in refs), default=0)
    return [[rs[j] if j < len(rs) else None for rs in refs] for j in range(width)]


def sacrebleu_bleu(hyps: list[str], refs: list[list[str]], level: str,
                   options: dict[str, Any]) -> sacrebleu.metrics.bleu.BLEUScore:
    metric = sacrebleu_metric(level, options)
    if level == "sentence":
        return metric.sentence_score(hyps[0], refs[0])
    return metric.corpus_score(hyps, reference_streams(refs))


def coco_bleu(hyps: list[str], refs: list[list[str]], level: str, options: dict[str, Any],
              prints=None):
    """pycocoevalcap's BLEU-1..n list (and per-segment lists) as its users get it:
    ``Bleu(n).compute_score`` (``option`` 'closest', what it always uses), or ``BleuScorer``
    with ``compute_score(option=...)``; ``tokenize='ptb'``: ``PTBTokenizer().tokenize`` on the
    references and on the hypotheses first (``COCOEvalCap.evaluate``). What it prints goes to
    ``prints`` (a text stream), or nowhere. At sentence level, the list of the one segment
    from the per-segment lists."""
    import contextlib
    import io

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer

    n, option = options.get("n", 4), options.get("option", "closest")
    gts = {i: list(r) for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    if options.get("tokenize", "none") == "ptb":
        gts, res = ptb_pipeline(gts), ptb_pipeline(res)
    with contextlib.redirect_stdout(prints if prints is not None else io.StringIO()):
        if option == "closest":
            corpus, segments = Bleu(n).compute_score(gts, res)
        else:
            scorer = BleuScorer(n=n)
            for i, hyp in res.items():
                scorer += (hyp[0], gts.get(i, []))
            corpus, segments = scorer.compute_score(option=option)
    if level == "sentence":
        return [order[0] for order in segments]
    return corpus, segments


def ptb_pipeline(captions: dict[int, list[str]]) -> dict[int, list[str]]:
    """``PTBTokenizer().tokenize`` on ``{id: [caption, ...]}`` (one JVM for them all)."""
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    return PTBTokenizer().tokenize({i: [{"caption": c} for c in cs]
                                    for i, cs in captions.items()})
