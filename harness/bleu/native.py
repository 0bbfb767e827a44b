"""The statistics pass in C, when the optional extension ``harness.bleu._native`` is built.

Why C and not Rust: the kernel is one file of C against CPython's own API, built by the
setuptools that ``pip install`` already uses (``setup.py``, ``optional=True``): no second
toolchain, no crates to download, no maturin; where no compiler is found the install goes on
and :mod:`harness.bleu.counting` runs its pure-Python pass. The C pass reads the strings'
code points in place (no UTF-8 copy), splits on ``Py_UNICODE_ISSPACE`` (``str.split()``'s
rule) or takes the tokens another tokenizer gives, and gives the same integers as the Python
pass -- ``tests/test_native.py`` checks that on every run.

``BLEU_HARNESS_NATIVE=0`` in the environment turns it off (the benchmark compares both).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from harness.bleu.corpus import CorpusStats
from harness.bleu.stats import SegmentStats
from harness.bleu.tokenizers import get_tokenizer

try:
    from harness.bleu import _native
except ImportError:  # not built: no compiler at install time, or a source checkout
    _native = None

#: The C pass is built and not turned off.
AVAILABLE = _native is not None and os.environ.get("BLEU_HARNESS_NATIVE", "1") != "0"


def why_unavailable() -> str | None:
    """None when the C pass runs; otherwise the reason, for reports and benchmarks."""
    if _native is None:
        return "the C extension harness.bleu._native is not built (no compiler at install)"
    if not AVAILABLE:
        return "turned off by BLEU_HARNESS_NATIVE=0"
    return None


#: Tokenizers the C pass does itself (after ``str.lower`` when asked): ``str.split()``,
#: SacreBLEU's ``13a`` (Hugging Face's unstripped copy and mteval's case-preserving one give
#: the same tokens wherever the C pass does them) and mteval's ASCII-folded ``mteval-13a-lc``
#: (lines where a digit touches ``. , -`` or with ``<``, a line break or U+001C-U+001F go
#: to the Python tokenizer, about 3% of news text), ``char`` and multi-bleu.perl's split.
_MODES = {"none": 0, "13a": 1, "13a-unstripped": 1, "mteval-13a": 1, "char": 2, "multibleu": 4,
          "mteval-13a-lc": 5}
_PREPARED = 3
_WITH_PYTHON_FALLBACK = (1, 5)


def _mode(tokenizer) -> int:
    return _MODES.get(tokenizer, _PREPARED) if isinstance(tokenizer, str) else _PREPARED


def count(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    tokenizer: str,
    lowercase: bool,
    orders_and_drops: Sequence[tuple[int, bool]],
    prepare: Callable[[str], list[str]],
) -> list[CorpusStats]:
    """One pass in C: one :class:`CorpusStats` per ``(order, drop_empty_references)``.

    ``tokenizer`` is done in C when it is one of :data:`_MODES`; otherwise ``prepare(text)``
    (the Python tokenizer, lower-casing included) gives each text's tokens.
    """
    top = max(order for order, _ in orders_and_drops)
    drops = tuple(drop for _, drop in orders_and_drops)
    mode = _mode(tokenizer)
    if mode in _WITH_PYTHON_FALLBACK:
        prepare = get_tokenizer(tokenizer)  # the C pass lower-cases before calling it
    sums = _native.count(hypotheses, references, mode, prepare, lowercase, top, drops)
    return [_corpus_stats(s, order) for s, (order, _) in zip(sums, orders_and_drops)]


def _corpus_stats(sums: tuple, order: int) -> CorpusStats:
    (count, hyp_len, matches, totals, short, ref_sums, without, without_hyp, never,
     first_without, fewest, most, longest, last) = sums
    totals, short = totals[:order], short[:order]
    if last is not None:
        last_hyp_len, last_ref_lens, last_matches, last_dropped = last
        last = SegmentStats(last_hyp_len, last_ref_lens, last_matches[:order], last_dropped)
    return CorpusStats(order, count, hyp_len, matches[:order], totals,
                       tuple(t + s for t, s in zip(totals, short)), ref_sums, without,
                       without_hyp, never, first_without, fewest, most, longest, last)
