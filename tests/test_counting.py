"""The pure-Python statistics pass: its housekeeping (it pauses Python's cyclic collector for
a chunk of segments at a time, as the pass makes no reference cycle, and leaves it as it was
found, also when a tokenizer raises), and where it stops counting a segment's orders, against
SacreBLEU's counts (the rest of its arithmetic is checked against the C kernel,
tests/test_native.py, and that against the libraries)."""

from __future__ import annotations

import gc
import random
from itertools import product

import pytest
import sacrebleu
from nltk.translate.bleu_score import closest_ref_length

from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import RULES, reference_lengths
from bleu_harness.bleu.counting import count_in_python
from bleu_harness.bleu.stats import clipped_matches

HYPS, REFS = ["the cat sat", "a b c"], [["the cat sat down"], ["a b d"]]


@pytest.mark.parametrize("keys", [{}, {Preprocessing("13a", True): 4}])
@pytest.mark.parametrize("enabled", [True, False])
def test_the_cyclic_collector_is_left_as_it_was(keys, enabled):
    seen = []

    def tokenizer(text):
        seen.append(gc.isenabled())
        return text.split()

    keys = {Preprocessing(tokenizer): 4, **keys}
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        stats = count_in_python(HYPS, REFS, keys)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)  # paused while the pass runs
    assert stats[Preprocessing(tokenizer)] == count_in_python(HYPS, REFS, {Preprocessing(): 4})[
        Preprocessing()]


@pytest.mark.parametrize("keys", [{}, {Preprocessing(): 4}])
def test_the_cyclic_collector_runs_again_after_a_tokenizer_raised(keys):
    def broken(text):
        raise RuntimeError("boom")

    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="boom"):
        count_in_python(HYPS, REFS, {Preprocessing(broken): 4, **keys})
    assert gc.isenabled()


def sacrebleu_counts(hyp: str, refs: list[str], order: int) -> list[int]:
    """Clipped matches per order as SacreBLEU 2.x counts them (``BLEU.corpus_score``)."""
    metric = sacrebleu.metrics.BLEU(tokenize="none", max_ngram_order=order)
    return list(metric.corpus_score([hyp], [[ref] for ref in refs]).counts)


# An order with one match: the last that can match (the statistics pass stops after it).
ONE_MATCH_EDGES = [
    ("a a a", ["a a a"]),  # one token throughout: each order's n-gram held twice, then once
    ("a a a a", ["a a a", "b"]),
    ("a b", ["a b"]),  # two unigrams, one bigram
    ("x a b y", ["a b"]),
    ("a b a", ["b a b"]),  # repeats: two unigrams, and still two bigrams
    ("a b a b", ["b a b a", "a b"]),
    ("a b c d e", ["a b c z d e", "c d"]),
]


@pytest.mark.parametrize(("hyp", "refs"), ONE_MATCH_EDGES)
@pytest.mark.parametrize("order", [0, 4, 6])
def test_clipping_stops_after_one_match_exactly_as_sacrebleu_counts(hyp, refs, order):
    """The pure-Python pass ends a segment's orders after one with fewer than two matches;
    SacreBLEU counts every order, so it is the expectation (also with one reference, which
    takes its own steps). Order 0 has no counts (it raised IndexError when a word matched:
    the case ``tool-tf-nmt-max-order-zero`` failed without the C kernel)."""
    assert clipped_matches(hyp.split(), [r.split() for r in refs], order) == sacrebleu_counts(
        hyp, refs, order)
    assert clipped_matches(hyp.split(), [refs[0].split()], order) == sacrebleu_counts(
        hyp, refs[:1], order)


def test_clipping_of_random_small_vocabulary_segments_equals_sacrebleu_counts():
    """Three words make repeated n-grams and orders with exactly one match common."""
    rng = random.Random(13)
    for _ in range(600):
        words = ["a", "b", "c"][:rng.randint(1, 3)]

        def sentence(rng=rng, words=words):
            return " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))

        hyp, refs = sentence(), [sentence() for _ in range(rng.randint(1, 3))]
        order = rng.choice([2, 4, 6])
        assert clipped_matches(hyp.split(), [r.split() for r in refs], order) == (
            sacrebleu_counts(hyp, refs, order)), (hyp, refs, order)


def test_the_reference_length_rules_are_the_libraries():
    """Every segment of up to three references of up to six tokens, against NLTK's own
    ``closest_ref_length`` (closest, the shorter on a tie), torchmetrics' rule as its
    ``_bleu_score_update`` writes it (``target_len_list[target_len_diff.index(min(
    target_len_diff))]``: closest, the first-listed on a tie), TF-NMT ``compute_bleu``'s
    ``min`` and Tensor2Tensor's first reference."""
    assert RULES == ("closest_shorter", "closest_first", "shortest", "first")
    for hyp_len in range(6):
        for count in (1, 2, 3):
            for lens in product(range(7), repeat=count):
                target_len_diff = [abs(hyp_len - x) for x in lens]
                torchmetrics = lens[target_len_diff.index(min(target_len_diff))]
                assert reference_lengths(hyp_len, lens) == (
                    closest_ref_length([["w"] * n for n in lens], hyp_len), torchmetrics,
                    min(lens), lens[0]), (hyp_len, lens)
