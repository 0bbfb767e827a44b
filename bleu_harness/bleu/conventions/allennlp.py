"""The allennlp convention: allennlp's ``BLEU`` metric (``allennlp.training.metrics.BLEU``),
read from allenai/allennlp@80fb6061 ``allennlp/training/metrics/bleu.py`` (the same file as
tag v2.10.1, the last release; unchanged since 1caf0daf, v2.9.0) step by step:

* tokens (:mod:`bleu_harness.bleu.tokenizers.allennlp`): the metric takes token-id tensors
  and tokenizes nothing; the harness gives each ``str.split()`` word its own id, one row per
  segment, the words ``@@PADDING@@`` / ``@@UNKNOWN@@`` being the padding and OOV ids 0 / 1;
* one reference: ``gold_targets`` holds one row per prediction (the class docstring,
  lines 39-40; ``zip(predictions, gold_targets)``, line 84);
* ``_get_modified_precision_counts`` (lines 64-90): clipped matches against that row and
  the hypothesis n-grams, counted by ``allennlp.training.util.ngrams`` (``util.py:503-517``),
  added to running ``Counter``\\s over every call (lines 128-134): the summed counts, no
  per-segment floor; ``/ world_size`` makes them floats, which changes no value;
* lengths (lines 136-149): ``size(0) * size(1)`` of each tensor -- every position of a row,
  **padding included** -- unless ``exclude_indices`` is given, then the positions whose id is
  not excluded (``get_valid_tokens_mask``, ``util.py:520-524``); an excluded id also takes
  every n-gram holding it out of the counts (``util.py:514-515``);
* ``_get_brevity_penalty`` (lines 92-97): 1.0 when the summed prediction length exceeds the
  reference length, 0.0 when either is 0, else ``math.exp(1.0 - r / c)``: the standard
  penalty but for 0 == 0, which is 0.0 -- summed lengths of 0 are every row and reference
  empty, the knob ``all_empty="zero"``;
* ``get_metric`` (lines 151-166): ``bp * math.exp(sum(w * (math.log(m + 1e-13) -
  math.log(t + 1e-13))))`` over ``enumerate(ngram_weights, start=1)``, the weights as given:
  an order without a match counts about ``1e-13 / t`` (tiny, never 0), an order without
  n-grams ``1e-13 / 1e-13 = 1``; no call at all gives 0.0 (the brevity penalty of 0 == 0).

Streaming: every ``__call__`` adds to the same sums, so a batch is the sum of its rows and a
corpus the sum of its segments -- a batch padded to its longest row is its rows with the
padding written out (``@@PADDING@@`` words). An excluded word between two others is declined
with its reason (allennlp forms no n-gram across it, the tokens without it would:
:mod:`bleu_harness.bleu.tokenizers.allennlp`). Not modelled: ``mask`` (allennlp raises
``NotImplementedError``), distributed runs, and ``ngram_weights=()`` (allennlp then gives the
brevity penalty alone; the harness needs an order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import (
    KnobSettings,
    case_and_tokenizer,
    input_rules,
    remembered,
    uniform,
)
from bleu_harness.bleu.options import Option, weights
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.bleu.tokenizers.allennlp import RESERVED_INDICES, WithoutExcluded

NAME = "allennlp"
#: ``get_metric``'s ``1e-13`` (``bleu.py:157-158``), added to every order's counts.
EPSILON = 1e-13


def ngram_weights(convention: str, key: str, value: Any) -> tuple[float, ...]:
    """``ngram_weights``: numbers, at least one."""
    vector = weights(convention, key, value)
    if not vector:
        raise ValueError(f"{convention}: {key!r} must have at least one weight (allennlp "
                         "gives the brevity penalty alone for none; the harness needs an "
                         "order)")
    return vector


def exclude_indices(convention: str, key: str, value: Any) -> tuple[str, ...]:
    """``exclude_indices``: the words whose ids are left out, or the padding and OOV indices
    0 and 1 (any other id depends on a model's vocabulary: name its word instead)."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError(f"{convention}: option {key!r} must be a list of words (or the "
                         f"indices 0, 1), got {value!r}")
    words = set()
    for item in value:
        if isinstance(item, int) and not isinstance(item, bool) and item in RESERVED_INDICES:
            words.add(RESERVED_INDICES[item])
        elif isinstance(item, str) and item.split() == [item]:  # one str.split() word
            words.add(item)
        else:
            raise ValueError(f"{convention}: option {key!r} takes words (one token each) or "
                             f"the indices 0 (@@PADDING@@) and 1 (@@UNKNOWN@@); got {item!r}")
    return tuple(sorted(words))


OPTIONS = (
    Option("ngram_weights", (0.25, 0.25, 0.25, 0.25), ngram_weights),
    Option("exclude_indices", (), exclude_indices),
)


def required_order(options: Mapping[str, Any]) -> int:
    return len(options["ngram_weights"])


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """``str.split()`` words; without the excluded ones where ``exclude_indices`` names any."""
    excluded = options["exclude_indices"]
    return Preprocessing(WithoutExcluded(excluded) if excluded else "none")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    """The one reference's length; ``(m + 1e-13) / (t + 1e-13)`` for every order (add-k with
    k = 1e-13), taken as a difference of logs; the weights as given; 0 when the summed lengths
    are 0 == 0 (the brevity penalty's ``return 0.0``: every row and reference empty)."""
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="sum", difference_of_logs=True),
        ref="first", smoothing="add-k", smoothing_value=EPSILON, all_empty="zero",
        weights=tuple(options["ngram_weights"]), **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """One reference per segment (``gold_targets`` has one row per prediction), then the knob
    arithmetic; the precisions are ``(m + 1e-13) / (t + 1e-13)``."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "BLEU takes one gold target row per prediction: "
                                 "exactly one reference per segment")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(p for p, _ in c.precisions)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches: uniform weights of 1-4 orders.
VARIANTS = tuple({"ngram_weights": uniform(n)} for n in (4, 1, 2, 3))

#: What the convention follows, in a line.
DESCRIPTION = ("allennlp BLEU metric: token ids, one reference, summed counts, every order "
               "(m + 1e-13) / (t + 1e-13) in logs (a zero-match order ~1e-13/t, an order "
               "without n-grams 1), weights as given, lengths count padding unless excluded")
