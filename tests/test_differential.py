"""The engine against the installed NLTK and SacreBLEU: same float bit for bit, or both raise.

Inputs are generated (``tests/strategies.py``): short and empty segments, 0-4 references of
tied and untied lengths, repeated words, punctuation, entities, non-ASCII and CJK text, and
every option of each convention.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from libraries import nltk_bleu, sacrebleu_bleu
from strategies import NLTK_OPTIONS, SACREBLEU_OPTIONS, corpus
from tiers import examples

from bleu_harness.bleu import ConventionError, score

EXAMPLES = settings(max_examples=examples(400), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def same_float(a, b) -> bool:
    """Bit-equal floats (NaN equals NaN)."""
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a.hex() == b.hex()


def outcome(call):
    try:
        return call()
    except ConventionError as error:
        return error
    except Exception as error:  # the library's own exception
        return error


def assert_agree(ours, theirs, what: str) -> None:
    if isinstance(theirs, Exception) or isinstance(ours, Exception):
        assert isinstance(ours, ConventionError) and isinstance(theirs, Exception), (
            f"{what}: engine gave {ours!r}, library gave {theirs!r}")
        assert ours.library_exception == type(theirs).__name__, (ours, theirs)
        return
    assert same_float(ours, theirs), f"{what}: engine {ours!r} != library {theirs!r}"


#: method1 with its default epsilon (0.1, no ``epsilon`` option) on inputs with an order
#: that has no match: the random search left this out in 2 of 8 runs (issue 27), so a wrong
#: default epsilon escaped; pinned here at both levels.
DEFAULT_EPSILON = {"weights": (0.25, 0.25, 0.25, 0.25), "smoothing": "method1",
                   "auto_reweigh": False}


@EXAMPLES
@given(data=corpus(), options=NLTK_OPTIONS, sentence=st.booleans())
@example(data=(["the cat sat . a"], [["the cat . sat a"]]), options=DEFAULT_EPSILON,
         sentence=True)
@example(data=(["the cat sat . a", "b a"], [["the cat . sat a"], ["a b"]]),
         options=DEFAULT_EPSILON, sentence=False)
def test_nltk_bit_exact(data, options, sentence):
    hyps, refs = data
    level = "sentence" if sentence else "corpus"
    if sentence:
        hyps, refs = hyps[:1], refs[:1]
    theirs = outcome(lambda: nltk_bleu(hyps, refs, level, options))
    ours = outcome(lambda: score(hyps, refs, "nltk", level, **options))
    if not isinstance(ours, Exception) and isinstance(theirs, list):
        assert len(ours.scores) == len(theirs)
        for a, b in zip(ours.scores, theirs):
            assert same_float(a, b), (hyps, refs, options, ours.scores, theirs)
        return
    assert_agree(ours if isinstance(ours, Exception) else ours.score, theirs,
                 f"{hyps!r} {refs!r} {options!r}")


@EXAMPLES
@given(data=corpus(), options=SACREBLEU_OPTIONS, sentence=st.booleans())
def test_sacrebleu_bit_exact(data, options, sentence):
    hyps, refs = data
    level = "sentence" if sentence else "corpus"
    if sentence:
        hyps, refs = hyps[:1], refs[:1]
    theirs = outcome(lambda: sacrebleu_bleu(hyps, refs, level, options))
    ours = outcome(lambda: score(hyps, refs, "sacrebleu", level, **options))
    what = f"{hyps!r} {refs!r} {options!r}"
    if isinstance(ours, Exception) or isinstance(theirs, Exception):
        assert_agree(ours, theirs, what)
        return
    assert same_float(ours.score, theirs.score), (what, ours.score, theirs.score)
    assert all(same_float(a, b) for a, b in zip(ours.precisions, theirs.precisions)), what
    assert same_float(ours.bp, theirs.bp), what
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len), what


@pytest.mark.parametrize("level", ["sentence", "corpus"])
def test_sacrebleu_counts_match_library(level):
    hyps = ["The cat, it sat on the mat.", "a b c"]
    refs = [["the cat sat on the mat .", "The cat sat on a mat!"], ["a b d"]]
    if level == "sentence":
        hyps, refs = hyps[:1], refs[:1]
    ours = score(hyps, refs, "sacrebleu", level)
    theirs = sacrebleu_bleu(hyps, refs, level, {})
    assert list(ours.counts) == theirs.counts and list(ours.totals) == theirs.totals
