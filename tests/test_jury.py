"""The jury convention against jury's own ``bleu`` metric (obss/jury@c8d32259, the PyPI jury
2.3.1 wheel's files, unmodified in ``tests/oracles/jury/``, its ``evaluate``/``datasets``
stubbed and its downloaded ``compute_bleu`` the vendored TF-NMT file: tests/jury_oracle.py),
on generated items -- one or several predictions each, one to three references (the first
item with none, now and then), empty and short texts, punctuation, case, non-ASCII, every
``max_order`` from 0 to 5 and ``smooth`` -- the same score bit for bit, the same reported
BP and lengths, or the same exception.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import WORDS, segment_text
from tiers import examples

from bleu_harness.bleu import ConventionDeclined, ConventionError, score
from bleu_harness.cases.loader import load

pytest.importorskip("numpy", reason="numpy is not installed (jury's Collator needs it)")
import jury_oracle  # noqa: E402

NAME = "jury"
TEXT = st.one_of(
    segment_text(words=[*WORDS, "Cat", "CAT", "don't", "Look!", "a.b", "İstanbul", "—"]),
    segment_text(words=["a", "b", "c"], max_words=8),
    st.sampled_from(["", " ", "!!!", "a", "a b c d"]))
ITEM = st.tuples(st.lists(TEXT, min_size=1, max_size=3),
                 st.lists(TEXT, min_size=0, max_size=3))
ITEMS = st.lists(ITEM, min_size=0, max_size=4)


def theirs(items, max_order: int, smooth: bool):
    predictions = [list(preds) for preds, _ in items]
    references = [list(refs) for _, refs in items]
    try:
        return jury_oracle.compute(predictions, references, max_order=max_order, smooth=smooth)
    except Exception as error:
        return type(error).__name__


def ours(items, max_order: int, smooth: bool):
    hyps = [h for preds, _ in items for h in preds]
    refs = [list(r) for preds, r in items for _ in preds]
    sizes = [len(preds) for preds, _ in items] or 1
    try:
        return score(hyps, refs, NAME, max_order=max_order, smooth=smooth,
                     predictions_per_item=sizes)
    except ConventionError as error:
        return error.library_exception


@settings(max_examples=examples(600, 120), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(items=ITEMS, max_order=st.integers(0, 5), smooth=st.booleans())
@example(items=[(["the cat is on the mat", "There is cat playing on the mat"],
                 ["the cat is playing on the mat.", "The cat plays on the mat."]),
                (["Look! a wonderful day."],
                 ["Today is a wonderful day", "The weather outside is wonderful."])],
         max_order=4, smooth=False)  # the docstring's (and README's) example: 0.4237...
@example(items=[(["a b c", "a b c d e f"], ["a b c d"])], max_order=2, smooth=False)
@example(items=[(["a b"], ["a b c d"]), (["a b c", "a"], ["a b c"])], max_order=1,
         smooth=True)
@example(items=[], max_order=4, smooth=False)
@example(items=[(["a b"], [])], max_order=4, smooth=False)
@example(items=[(["a b"], ["a b"]), (["a b"], [])], max_order=4, smooth=False)
def test_bleu_bit_for_bit(items, max_order, smooth):
    expected = theirs(items, max_order, smooth)
    got = ours(items, max_order, smooth)
    what = (items, max_order, smooth, got, expected)
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected, what
        return
    assert got.score.hex() == float(expected["score"]).hex(), what
    assert float(got.bp).hex() == float(expected["brevity_penalty"]).hex(), what
    assert (got.hyp_len, got.ref_len) == (expected["translation_length"],
                                          expected["reference_length"]), what
    assert [float(p).hex() for p in got.precisions] == [
        float(p).hex() for p in expected["precisions"]], what


def test_the_adjusted_bp_of_an_item():
    """One item, two predictions against a 4-word reference. 3 and 6 words: the flattened
    ratio 9/8 is above 1 and the score is TF-NMT's of the pairs; 3 and 2 words: 5/8, and
    the BP becomes that of the item's longest prediction, exp(1 - 4/3), not exp(1 - 8/5)."""
    def flat(hyps):
        return score(hyps, [["a b c d"]] * 2, "tf-nmt", tokenize="none", max_order=1).score

    kept = ours([(["a b c", "a b c d e f"], ["a b c d"])], 1, False)
    assert kept.score == flat(["a b c", "a b c d e f"])
    raised = ours([(["a b c", "a b"], ["a b c d"])], 1, False)
    adjusted, bp = math.exp(1 - 1.0 / (3 / 4)), math.exp(1 - 1.0 / (5 / 8))
    assert raised.score == flat(["a b c", "a b"]) * (adjusted / bp)
    assert raised.bp == adjusted and (raised.hyp_len, raised.ref_len) == (3, 4)


def test_what_the_convention_declines():
    with pytest.raises(ConventionDeclined, match="do not cover"):
        score(["a", "b", "c"], [["a"], ["a"], ["a"]], NAME, predictions_per_item=2)
    with pytest.raises(ConventionDeclined, match="repeat its references"):
        score(["a", "b"], [["a"], ["a b"]], NAME, predictions_per_item=2)


def test_the_case_files_values_come_from_the_tool():
    cases = [c for c in load(None).cases if c.id.startswith("jury-")]
    assert len(cases) >= 8
    for case in cases:
        for e in case.expectations:
            if e.convention == NAME:
                assert (e.provenance.kind, e.provenance.library, e.provenance.version) == (
                    "computed", "jury", "2.3.1"), case.id


def test_identify_names_jury():
    """A number jury gives (case jury-punctuation-splits-words), printed to four digits:
    identify names jury (TF-NMT's own tokenizations give other numbers)."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    cases = {c.id: c for c in load(None).cases}
    case = cases["jury-punctuation-splits-words"]
    value = next(e.value for e in case.expectations if e.convention == NAME and not e.options)
    found = identify(from_case(case), f"{float(value):.4f}")
    assert NAME in {m["convention"] for m in found["matches"]}
