"""The torchmetrics convention: ``torchmetrics.text.BLEUScore`` /
``torchmetrics.functional.text.bleu_score`` (CONVENTIONS.md A.1; issue #3504).

Read from ``functional/text/bleu.py``, step by step:

* tokens: ``str.split()`` (an empty string gives no token);
* reference length: the closest, the **first-listed** on a tie
  (``target_len_list[target_len_diff.index(min(target_len_diff))]``); a segment without
  references raises ``ValueError`` (``min`` of an empty list);
* ``if min(numerator) == 0.0: return tensor(0.0)`` -- before smoothing, so ``smooth`` never
  rescues an order without a match;
* ``smooth=True``: ``(m + 1) / (l + 1)`` for orders 2..N, ``m / l`` for the unigram;
* ``weights`` (default ``[1 / n_gram] * n_gram``) must have ``n_gram`` entries and are not
  normalised: ``exp(sum(weights * log(p)))``;
* BP = 1 if c > r else ``exp(1 - r / c)``;
* everything in float32 tensors. The engine rounds each step to float32; ``torch.log`` and
  ``torch.exp`` may differ from the correctly rounded value by an ulp, so the result matches
  the library to float32 precision (about 1e-7 relative), not bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.arithmetic import float32
from bleu_harness.bleu.convention import (
    Convention,
    Finished,
    Preprocessing,
    merge_options,
    require_bool,
    require_order,
    weight_tuple,
)
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.result import ConventionError

NAME = "torchmetrics"
DEFAULTS: dict[str, Any] = {"n_gram": 4, "smooth": False, "weights": None}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    options = merge_options(NAME, given, DEFAULTS)
    require_order(NAME, "n_gram", options["n_gram"])
    require_bool(NAME, "smooth", options["smooth"])
    if options["weights"] is not None:
        weights = weight_tuple(NAME, "weights", options["weights"])
        if len(weights) != options["n_gram"]:
            raise ValueError(f"{NAME}: List of weights has different weights than `n_gram`: "
                             f"{len(weights)} != {options['n_gram']}")
        options["weights"] = weights
    return options


def weights_of(options: Mapping[str, Any]) -> tuple[float, ...]:
    n_gram = options["n_gram"]
    return options["weights"] if options["weights"] is not None else (1.0 / n_gram,) * n_gram


def required_order(options: Mapping[str, Any]) -> int:
    return options["n_gram"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("none")




def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    n_gram = options["n_gram"]
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "a segment without references has no closest length",
                              "ValueError")
    preds_len = corpus.hyp_len
    target_len = corpus.ref_len("closest_first")
    numerator = corpus.matches[:n_gram]
    denominator = corpus.totals[:n_gram]

    def finished(score: float, precisions=(), bp: float = 0.0) -> Finished:
        return Finished((score,), tuple(precisions), numerator, denominator, bp,
                        preds_len, target_len)

    if min(numerator) == 0:
        return finished(0.0)
    if options["smooth"]:
        precisions = [float32((m + 1) / (t + 1)) for m, t in zip(numerator, denominator)]
        precisions[0] = float32(numerator[0] / denominator[0])
    else:
        precisions = [float32(m / t) for m, t in zip(numerator, denominator)]
    total = 0.0
    for w, p in zip(weights_of(options), precisions):
        total = float32(total + float32(float32(w) * float32(math.log(p))))
    geometric_mean = float32(math.exp(total))
    if preds_len > target_len:
        bp = 1.0
    else:
        bp = float32(math.exp(float32(1 - float32(target_len / preds_len))))
    return finished(float32(bp * geometric_mean), precisions, bp)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"n_gram": n, "smooth": s} for n in (4, 1, 2, 3) for s in (False, True))
