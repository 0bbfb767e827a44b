"""The statistics pass: text in, one :class:`CorpusStats` per preprocessing out.

One pass over the segments serves every preprocessing at once, segment by segment, so no
per-segment table outlives its segment (the pure-Python pass reads :data:`CHUNK` segments at
a time, and with one preprocessing holds their tokens: memory is bounded by one chunk).
Where two preprocessings give the same tokens for a segment -- pre-tokenized text under
``none`` and ``13a``, lower-case text with and without ``lowercase`` -- the segment is counted
once and its statistics are shared: conventions that differ only in rules which this
segment does not trigger cost one count between them.

The native kernel (``bleu_harness.bleu._native``, ``bleu_harness.bleu.native``) does the same pass in C
when it is built and every preprocessing asked for is one it knows; the results are equal
integers either way (tests/test_native.py). The C pass tokenizes hypotheses and references
alike, so a pass that needs a tokenization that does not (a ``ByRole`` of
:mod:`bleu_harness.bleu.tokenizers.roles`: the WMT06 multi-bleu.perl, multi-bleu-detok.perl
``-lc``) runs in Python; so does one whose tokenizer clips n-grams its own way (its
``clipped_matches``: npm ``bleu-score``'s JavaScript object keys,
:mod:`bleu_harness.bleu.tokenizers.javascript`).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import islice, repeat
from typing import Any

from bleu_harness.bleu import native
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import CorpusStats, StatsBuilder
from bleu_harness.bleu.stats import clipped_matches
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.bleu.tokenizers.roles import ByRole, reference_side
from bleu_harness.bleu.tokenizers.sacrebleu import tokenize_none

Tokens = list[str]
TokenKey = tuple[str, bool]  # (tokenizer, lowercase): one tokenization of the text
Clipping = Callable[[Tokens, Sequence[Tokens], int], list[int]]
Preparers = tuple[Callable[[str], Tokens], Callable[[str], Tokens]]  # (hypotheses, references)
CHUNK = 128  # segments the pure-Python pass holds at once: bounded memory, and the tokens of a
#             chunk stay in the processor's caches (1024 measured 2-3% slower)


def preparer(key: Preprocessing, reference: bool = False) -> Callable[[str], Tokens]:
    """Text to tokens under ``key``: ``str.lower`` first when asked, then the tokenizer (its
    reference side when ``reference``, for a tokenization that splits the two differently)."""
    tokenize = get_tokenizer(key.tokenizer)
    if reference:
        tokenize = reference_side(tokenize)
    if tokenize is tokenize_none:
        tokenize = str.split  # the same, without a Python frame per text
    if not key.lowercase:
        return tokenize

    def prepare(text: str) -> Tokens:
        return tokenize(text.lower())

    return prepare


def splits_by_role(key: Preprocessing) -> bool:
    """Whether ``key`` tokenizes hypotheses and references differently."""
    return isinstance(get_tokenizer(key.tokenizer), ByRole)


def clipping(key: Preprocessing) -> Clipping:
    """How ``key``'s matches are clipped: its tokenizer's own ``clipped_matches`` where it has
    one (npm ``bleu-score``'s object keys), else :func:`~bleu_harness.bleu.stats.clipped_matches`."""
    return getattr(get_tokenizer(key.tokenizer), "clipped_matches", clipped_matches)


def counts_in_order(key: Preprocessing) -> bool:
    """Whether ``key``'s tokenizer counts the corpus itself, segment after segment (fairseq's
    ids, given by one dictionary in corpus order, and its hashed n-grams:
    :class:`~bleu_harness.bleu.tokenizers.fairseq.FairseqIds`)."""
    return hasattr(get_tokenizer(key.tokenizer), "in_order")


def count_in_order(hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                   key: Preprocessing, order: int, state: Any = None) -> CorpusStats:
    """The statistics of a key that :func:`counts_in_order`, in one pass of its own;
    ``state`` (:func:`order_state`) carries what an earlier part of the corpus left (the
    parts counted one after another, :mod:`bleu_harness.bleu.shard`)."""
    builder = StatsBuilder(order, key.segments)
    hyps: list[str] = []
    kept: list[Sequence[str]] = []
    dropped: list[int] = []
    for hyp, refs in zip(hypotheses, references):
        keep = [r for r in refs if r != ""] if key.drop_empty_references else refs
        hyps.append(hyp)
        kept.append(keep)
        dropped.append(len(refs) - len(keep))
    counted = get_tokenizer(key.tokenizer).in_order(hyps, kept, order, key.lowercase, state)
    for (hyp_len, ref_lens, matches), gone in zip(counted, dropped):
        builder.add(hyp_len, ref_lens, matches, gone)
    return builder.build()


def order_state(key: Preprocessing) -> Any:
    """The state a key that :func:`counts_in_order` starts a corpus with (fairseq's new
    ``Dictionary``)."""
    return get_tokenizer(key.tokenizer).new_vocabulary()


def _with_keys_in_order(count_rest):
    """``count_rest`` for the keys that do not :func:`count_in_order`; each that does in a
    pass of its own (the input then read once more)."""
    def counting(hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                 needed: Mapping[Preprocessing, int]) -> dict[Preprocessing, CorpusStats]:
        ordered = [key for key in needed if counts_in_order(key)]
        if not ordered:
            return count_rest(hypotheses, references, needed)
        hypotheses, references = list(hypotheses), list(references)
        rest = {key: order for key, order in needed.items() if key not in ordered}
        counted = count_rest(hypotheses, references, rest) if rest else {}
        for key in ordered:
            counted[key] = count_in_order(hypotheses, references, key, needed[key])
        return {key: counted[key] for key in needed}

    counting.__doc__ = count_rest.__doc__
    counting.__name__ = count_rest.__name__
    return counting


def clips_its_own_way(key: Preprocessing) -> bool:
    """Whether ``key``'s tokenizer clips n-grams its own way (counted in Python, never by
    the C pass)."""
    return clipping(key) is not clipped_matches


@_with_keys_in_order
def count(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    needed: Mapping[Preprocessing, int],
) -> dict[Preprocessing, CorpusStats]:
    """The corpus statistics under each preprocessing of ``needed`` (to its order), in one
    pass over ``hypotheses`` and ``references`` (validated, equally long).

    With the C kernel built (:mod:`bleu_harness.bleu.native`), one C pass serves every key;
    otherwise one Python pass does. Keys the C pass cannot count -- that keep each segment's
    statistics (``Preprocessing.segments``), tokenize by role, or clip their own way -- are
    counted by the Python pass beside it (the input is then read twice).
    """
    if not native.AVAILABLE:
        return count_in_python(hypotheses, references, needed)
    in_python = {key: order for key, order in needed.items() if _python_only(key)}
    if not in_python:
        return count_in_c(hypotheses, references, needed)
    if len(in_python) == len(needed):
        return count_in_python(hypotheses, references, needed)
    hypotheses, references = list(hypotheses), list(references)
    counted = count_in_c(hypotheses, references,
                         {key: order for key, order in needed.items() if key not in in_python})
    counted.update(count_in_python(hypotheses, references, in_python))
    return {key: counted[key] for key in needed}


def _python_only(key: Preprocessing) -> bool:
    """Whether only the Python pass counts ``key``: it keeps each segment's statistics,
    tokenizes hypotheses and references differently, or clips its own way."""
    return key.segments or splits_by_role(key) or clips_its_own_way(key)


def native_group(key: Preprocessing, order: int) -> native.Group | None:
    """The C pass's group for ``key`` at ``order``, or ``None`` where ``key`` is counted in
    Python: fairseq's ids in corpus order, each segment's statistics kept, a tokenizer that
    clips its own way or tokenizes hypotheses and references differently, or no C pass."""
    if (counts_in_order(key) or not native.AVAILABLE or key.segments
            or clips_its_own_way(key) or splits_by_role(key)):
        return None
    return (key.tokenizer, key.lowercase, [(order, key.drop_empty_references)], preparer(key))


def segment_counter(key: Preprocessing, order: int) -> Callable[[str, Sequence[str]], CorpusStats]:
    """``(hypothesis, references) -> CorpusStats`` of that one segment under ``key`` to
    ``order``: :func:`count` with everything that does not depend on the segment worked out
    once (the batch sentence API calls it once per sentence). A key that keeps each
    segment's statistics is counted by the Python pass, which keeps them."""
    if counts_in_order(key):
        def one_line(hypothesis: str, references: Sequence[str]) -> CorpusStats:
            return count_in_order((hypothesis,), (references,), key, order)

        return one_line
    group = native_group(key, order)
    if group is not None:
        return native.segment_counter(group)
    needed = {key: order}

    def counted(hypothesis: str, references: Sequence[str]) -> CorpusStats:
        return count_in_python((hypothesis,), (references,), needed)[key]

    return counted


def count_in_c(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    needed: Mapping[Preprocessing, int],
) -> dict[Preprocessing, CorpusStats]:
    """:func:`count` by the C kernel: one pass over the input for every (tokenizer,
    lowercase) at once (:func:`bleu_harness.bleu.native.count_groups`); in Python when a key
    tokenizes hypotheses and references differently (one pass over the input serves all)."""
    if any(splits_by_role(key) or clips_its_own_way(key) for key in needed):
        return count_in_python(hypotheses, references, needed)
    groups: dict[tuple[str, bool], list[Preprocessing]] = {}
    for key in needed:
        groups.setdefault((key.tokenizer, key.lowercase), []).append(key)
    counted = native.count_groups(
        hypotheses, references,
        [(tokenizer, lowercase, [(needed[key], key.drop_empty_references) for key in keys],
          preparer(keys[0])) for (tokenizer, lowercase), keys in groups.items()])
    stats: dict[Preprocessing, CorpusStats] = {}
    for keys, group_stats in zip(groups.values(), counted):
        stats.update(zip(keys, group_stats))
    return {key: stats[key] for key in needed}


@_with_keys_in_order
def count_in_python(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    needed: Mapping[Preprocessing, int],
) -> dict[Preprocessing, CorpusStats]:
    """:func:`count` in pure Python (the reference the native kernel is tested against)."""
    keys = list(needed)
    builders = [StatsBuilder(needed[key], key.segments) for key in keys]
    top = max(needed.values(), default=0)
    # Keys that differ only in dropping empty references share a tokenizer call.
    prepares: dict[TokenKey, Preparers] = {}
    plan = []
    for key, builder in zip(keys, builders):
        token_key = (key.tokenizer, key.lowercase)
        if token_key not in prepares:
            prepares[token_key] = (preparer(key), preparer(key, reference=True))
        plan.append((token_key, key.drop_empty_references, builder, clipping(key)))

    if len(plan) == 1:
        (token_key, drop, builder, clip), = plan
        _count_one_preprocessing(hypotheses, references, *prepares[token_key], drop, top,
                                 builder, clip)
        return {keys[0]: builder.build()}

    segments = zip(hypotheses, references)
    while chunk := list(islice(segments, CHUNK)):
        with cycle_collector_paused():
            for hyp, refs in chunk:
                _count_segment(hyp, refs, plan, prepares, top)
    return {key: builder.build() for key, builder in zip(keys, builders)}


def _count_segment(hyp: str, refs: Sequence[str],
                   plan: Sequence[tuple[TokenKey, bool, StatsBuilder, Clipping]],
                   prepares: Mapping[TokenKey, Preparers], top: int) -> None:
    """One segment under every preprocessing of ``plan``: each tokenization once, and one
    count of clipped matches for the preprocessings that give the same tokens (and clip
    alike)."""
    tokens: dict[TokenKey, tuple[Tokens, list[Tokens]]] = {}
    counted: list[tuple[Tokens, list[Tokens], Clipping, list[int]]] = []
    for token_key, drop, builder, clip in plan:
        if token_key not in tokens:
            prepare, prepare_reference = prepares[token_key]
            tokens[token_key] = (prepare(hyp), [prepare_reference(r) for r in refs])
        hyp_tokens, ref_tokens = tokens[token_key]
        dropped = 0
        if drop:
            kept = [t for t, r in zip(ref_tokens, refs) if r != ""]
            dropped = len(ref_tokens) - len(kept)
            ref_tokens = kept
        for seen_hyp, seen_refs, seen_clip, seen in counted:
            if seen_clip is clip and seen_hyp == hyp_tokens and seen_refs == ref_tokens:
                matches = seen
                break
        else:
            matches = clip(hyp_tokens, ref_tokens, top)
            counted.append((hyp_tokens, ref_tokens, clip, matches))
        builder.add(len(hyp_tokens), tuple(map(len, ref_tokens)), matches, dropped)


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a while (unless it is off already): the pass
    makes tuples, sets and dicts by the million and never a reference cycle, so the collector
    would only walk them -- about a tenth of the pure-Python pass's time. Paused for one chunk
    at a time, so that cycles anything else makes meanwhile (a Python tokenizer) wait at most
    one chunk."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _count_one_preprocessing(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    prepare: Callable[[str], Tokens],
    prepare_reference: Callable[[str], Tokens],
    drop_empty_references: bool,
    max_order: int,
    builder: StatsBuilder,
    clip: Clipping = clipped_matches,
) -> None:
    """The pure-Python pass for one preprocessing, :data:`CHUNK` segments at a time: each
    step is a C-level ``map`` over the chunk, and the builder sums a chunk at once (the
    cyclic collector paused, :func:`cycle_collector_paused`); ``clip`` counts the matches."""
    segments = zip(hypotheses, references)
    while chunk := list(islice(segments, CHUNK)):
        with cycle_collector_paused():
            hyps, refs = zip(*chunk)
            dropped: Sequence[int] = [0] * len(chunk)
            if drop_empty_references:
                kept = [[r for r in rs if r != ""] if "" in rs else rs for rs in refs]
                dropped = list(map(int.__sub__, map(len, refs), map(len, kept)))
                refs = kept
            hyp_tokens = list(map(prepare, hyps))
            ref_tokens = list(map(list, map(map, repeat(prepare_reference), refs)))
            builder.add_many(list(map(len, hyp_tokens)),
                             list(map(tuple, map(map, repeat(len), ref_tokens))),
                             list(map(clip, hyp_tokens, ref_tokens, repeat(max_order))),
                             dropped)
