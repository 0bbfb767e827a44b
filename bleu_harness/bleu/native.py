"""The statistics pass in C, when the optional extension ``bleu_harness.bleu._native`` is built.

Why C and not Rust: the kernel is one file of C against CPython's own API, built by the
setuptools that ``pip install`` already uses (``setup.py``, ``optional=True``): no second
toolchain, no crates to download, no maturin; where no compiler is found the install goes on
and :mod:`bleu_harness.bleu.counting` runs its pure-Python pass. The C pass reads the strings'
code points in place (no UTF-8 copy), splits on ``Py_UNICODE_ISSPACE`` (``str.split()``'s
rule) or takes the tokens another tokenizer gives, and gives the same integers as the Python
pass -- ``tests/test_native.py`` checks that on every run.

``BLEU_HARNESS_NATIVE=0`` in the environment turns it off (the benchmark compares both).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.stats import SegmentStats
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.bleu.tokenizers.t2t import t2t_class_of
from bleu_harness.bleu.tokenizers.unicode_classes import category_ranges, major_letters

try:
    from bleu_harness.bleu import _native
except ImportError:  # not built: no compiler at install time, or a source checkout
    _native = None

#: The C pass is built and not turned off.
AVAILABLE = _native is not None and os.environ.get("BLEU_HARNESS_NATIVE", "1") != "0"


def why_unavailable() -> str | None:
    """None when the C pass runs; otherwise the reason, for reports and benchmarks."""
    if _native is None:
        return "the C extension bleu_harness.bleu._native is not built (no compiler at install)"
    if not AVAILABLE:
        return "turned off by BLEU_HARNESS_NATIVE=0"
    return None


#: Tokenizers the C pass does itself (after ``str.lower`` when asked): ``str.split()``,
#: SacreBLEU's ``13a`` with its digit rules (Hugging Face's unstripped copy and mteval's
#: case-preserving one give the same tokens wherever the C pass does them) and mteval's
#: ASCII-folded ``mteval-13a-lc`` (lines with ``<``, a line break or U+001C-U+001F go to the
#: Python tokenizer), ``char``, multi-bleu.perl's split and Tensor2Tensor's Unicode-class
#: tokenizer.
_MODES = {"none": 0, "13a": 1, "13a-unstripped": 1, "mteval-13a": 1, "char": 2, "multibleu": 4,
          "mteval-13a-lc": 5, "t2t": 6}
_PREPARED = 3
_WITH_PYTHON_FALLBACK = (1, 5)
_T2T = 6

#: One tokenization of the pass: (tokenizer, lowercase, [(order, drop_empty_references)],
#: the Python tokenizer, lower-casing included, for what C does not tokenize itself).
Group = tuple[str, bool, Sequence[tuple[int, bool]], Callable[[str], list[str]]]


def _mode(tokenizer) -> int:
    return _MODES.get(tokenizer, _PREPARED) if isinstance(tokenizer, str) else _PREPARED


@cache
def _load_unicode_classes() -> None:
    """Hands the C pass T2T's classes once: one byte per code point, 1 for P*, 2 for S*
    (:func:`bleu_harness.bleu.tokenizers.unicode_classes.major_letters`, as T2T enumerates),
    corrected to what T2T's pasted classes match (the backslash is in neither)."""
    flags = bytes(1 if chr(b) == "P" else 2 if chr(b) == "S" else 0 for b in range(256))
    table = bytearray(major_letters().encode("ascii").translate(flags))
    for flag, major in ((1, "P"), (2, "S")):
        matched = t2t_class_of(major)
        for first, last in category_ranges()[major]:
            for c in range(first, last + 1):
                if c not in matched:
                    table[c] = 0
        for c in matched:
            table[c] = flag
    _native.set_unicode_classes(bytes(table))


def count_groups(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    groups: Sequence[Group],
) -> list[list[CorpusStats]]:
    """One pass in C over the segments for every group: per group, one :class:`CorpusStats`
    per ``(order, drop_empty_references)``.

    Within a segment, a tokenization that would give the same tokens as ``str.split()`` (when
    a group asks for it) or as another group (13a and its copies, mteval's folded 13a) takes
    them, and groups whose tokens give the same ids share one count of clipped matches:
    groups are counted highest order first, so a lower order can take a higher one's.
    """
    specs = _with_a_split_base([_spec(group) for group in groups])
    by_order = sorted(range(len(specs)), key=lambda i: -specs[i][3])
    sums = _native.count(hypotheses, references, tuple(specs[i] for i in by_order))
    result: list[list[CorpusStats]] = [[] for _ in groups]
    for i, group_sums in zip(by_order, sums):
        if i < len(groups):  # not the split base
            result[i] = [_corpus_stats(s, order)
                         for s, (order, _) in zip(group_sums, groups[i][2])]
    return result


#: A group of ``str.split()`` tokens at order 1, counted only so that the C pass has a base to
#: derive other tokens from: on text where 13a or T2T would split nothing more, their tokens
#: are ``str.split()``'s word by word (the kernel's ``derived_tokens``/``by_token``), much
#: cheaper than their own scan (SacreBLEU's 13a alone cost 15.7 us a segment of generated
#: text, with NLTK's split beside it 10.8: one convention cost more than two).
_SPLIT_BASE = (_MODES["none"], str.split, False, 1, (False,))
_DERIVED_FROM_SPLIT = {_MODES["13a"], _MODES["mteval-13a-lc"], _T2T}


def _with_a_split_base(specs: list[tuple]) -> list[tuple]:
    """``specs``, and :data:`_SPLIT_BASE` after them where a group could take ``str.split()``'s
    tokens and no group gives them."""
    has_base = any(mode == _MODES["none"] and not lowercase for mode, _, lowercase, *_ in specs)
    if not has_base and any(spec[0] in _DERIVED_FROM_SPLIT for spec in specs):
        return [*specs, _SPLIT_BASE]
    return specs


def _spec(group: Group) -> tuple:
    """What the C pass is told of one group."""
    tokenizer, lowercase, orders_and_drops, prepare = group
    mode = _mode(tokenizer)
    if mode in _WITH_PYTHON_FALLBACK:
        prepare = get_tokenizer(tokenizer)  # the C pass lower-cases before calling it
    elif mode == _T2T:
        _load_unicode_classes()
    return (mode, prepare, lowercase, max(order for order, _ in orders_and_drops),
            tuple(drop for _, drop in orders_and_drops))


def row_specs(group: Group) -> tuple:
    """What ``_native.segment_rows`` is told to count a row of one group's single
    ``(order, drop)``: the group, and the ``str.split()`` base it may take its tokens from
    (:data:`_SPLIT_BASE`)."""
    return tuple(_with_a_split_base([_spec(group)]))


def segment_counter(group: Group) -> Callable[[str, Sequence[str]], CorpusStats]:
    """The statistics of one segment under one group's single ``(order, drop)``, by the C
    pass, with everything that does not depend on the segment worked out once (a batch of
    sentence scores calls it once per sentence)."""
    _, _, [(order, _)], _ = group
    specs = (_spec(group),)
    count = _native.count

    def counted(hypothesis: str, references: Sequence[str]) -> CorpusStats:
        return _corpus_stats(count((hypothesis,), (references,), specs)[0][0], order)

    return counted


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
