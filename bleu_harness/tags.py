"""Divergence tags: why two BLEU numbers for the same input can differ, read off the input's
statistics and the options of the two sides (CONVENTIONS.md section B names the families)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.corpus import closest_first, closest_shorter, shortest
from bleu_harness.bleu.stats import SegmentStats, corpus_stats
from bleu_harness.bleu.tokenizers import get_tokenizer

DEFAULT_ORDER = 4


def input_tags(hypotheses: Sequence[str], references: Sequence[Sequence[str]], level: str,
               tokenizer: str | None, order: int = DEFAULT_ORDER) -> list[str]:
    """Tags that describe the input itself (whitespace tokens unless ``tokenizer``)."""
    split = get_tokenizer(tokenizer or "none")
    hyps = [split(h) for h in hypotheses]
    refs = [[split(r) for r in rs] for rs in references]
    segments = corpus_stats(hyps, refs, order)
    tags: list[str] = []
    for n in range(1, order + 1):
        total = sum(s.totals[n - 1] for s in segments)
        if total and not sum(s.matches[n - 1] for s in segments):
            tags.append(f"zero-overlap@{n}")
            break
    if any(0 < s.hyp_len < order for s in segments):
        tags.append("short-hypothesis")
    if any(s.hyp_len == 0 for s in segments):
        tags.append("empty-hypothesis")
    if any(not s.ref_lens or 0 in s.ref_lens for s in segments):
        tags.append("empty-reference")
    if any(_tied(s) for s in segments):
        tags.append("ref-length-tie")
    if any(s.ref_lens and closest_shorter(s.hyp_len, s.ref_lens) != shortest(s.hyp_len, s.ref_lens)
           for s in segments):
        tags.append("closest-vs-shortest")
    with_refs = [s for s in segments if s.ref_lens]
    c = sum(s.hyp_len for s in with_refs)
    r = sum(closest_shorter(s.hyp_len, s.ref_lens) for s in with_refs)
    if c and c == r:
        tags.append("bp-boundary")
    if level == "corpus" and len(segments) > 1 and any(s.hyp_len < order for s in segments):
        tags.append("corpus-denominator-floor")
    if any(get_tokenizer("13a")(t) != t.split() for t in _texts(hypotheses, references)):
        tags.append("tokenization")
    if _case_matters(hyps, refs, segments, order):
        tags.append("case")
    return tags


def _texts(hypotheses, references):
    yield from hypotheses
    for refs in references:
        yield from refs


def _tied(segment: SegmentStats) -> bool:
    lens = segment.ref_lens
    return bool(lens) and closest_first(segment.hyp_len, lens) != closest_shorter(
        segment.hyp_len, lens)


def _case_matters(hyps, refs, segments, order: int) -> bool:
    lowered = corpus_stats([[t.lower() for t in h] for h in hyps],
                           [[[t.lower() for t in r] for r in rs] for rs in refs], order)
    return any(a.matches != b.matches for a, b in zip(segments, lowered))


def option_tags(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Tags for what the options of two sides do differently (or do at all)."""
    tags = []
    smoothing = [o.get("smoothing", o.get("smooth_method")) for o in (a, b)]
    if any(s not in (None, "method0", "none") for s in smoothing) or smoothing[0] != smoothing[1]:
        tags.append("smoothing")
    if any(o.get("effective_order") or o.get("use_effective_order") or o.get("auto_reweigh")
           for o in (a, b)):
        tags.append("effective-order")
    if _weights_of(a) != _weights_of(b):
        tags.append("weights")
    if any(o.get("lowercase") or o.get("ignore_case") or o.get("IgnoreCase") for o in (a, b)):
        tags.append("case")
    return tags


def _weights_of(options: Mapping[str, Any]):
    for key in ("weights", "ngram_weights", "NgramWeights"):
        if key in options:
            return tuple(options[key])
    return None


def scale_tag(actual: float, expected: float) -> list[str]:
    """``scale`` when the two differ by a factor of 100 (a 0-1 score read as 0-100)."""
    if not (math.isfinite(actual) and math.isfinite(expected)) or not expected or not actual:
        return []
    for factor in (100.0, 0.01):
        if math.isclose(actual, expected * factor, rel_tol=FLOAT32_TOLERANCE):
            return ["scale"]
    return []

