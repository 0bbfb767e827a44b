"""The compare-mt convention against compare-mt's own ``BleuScorer`` (PyPI ``compare-mt``,
installed by the test extra): the same float, bit for bit, and the same type (its int ``0``
for no unigram match), on generated corpora with one reference per segment -- double
spaces, empty lines, leading and trailing blanks, case, every weight setting."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import segment_text
from tiers import examples

from bleu_harness.bleu import ConventionDeclined, ConventionError, score

scorers = pytest.importorskip("compare_mt.scorers",
                              reason="compare-mt is not installed (pip install compare-mt six)")

WEIGHTS = st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), (1 / 3,) * 3,
                           (0.1, 0.2, 0.3, 0.4), (0, 0, 1), (2, 0, 0, 1), ()])
TEXT = st.one_of(segment_text(), st.sampled_from(["", " ", "  a  b ", "İstanbul ISTANBUL",
                                                   "A a", "\ta b\t"]))


def theirs(hypotheses, references, weights, case_insensitive):
    """What ``compare-mt`` computes from the lines of its files."""
    def tokens(lines):
        return [line.strip().split(" ") for line in lines]
    scorer = scorers.BleuScorer(weights=weights, case_insensitive=case_insensitive)
    return scorer.score_corpus(tokens(references), tokens(hypotheses))[0]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(pairs=st.lists(st.tuples(TEXT, TEXT), max_size=5), weights=WEIGHTS,
       case_insensitive=st.booleans())
@example(pairs=[("the cat sat on the mat", "the cat is on the mat")], weights=(0.25,) * 4,
         case_insensitive=False)
@example(pairs=[("a b", "x y")], weights=(0.25,) * 4, case_insensitive=False)
@example(pairs=[("", "")], weights=(0.25,) * 4, case_insensitive=False)
@example(pairs=[("a b c d", "a b x d e f g")], weights=(0.25,) * 4, case_insensitive=False)
def test_bleu_scorer_bit_for_bit(pairs, weights, case_insensitive):
    hypotheses = [h for h, _ in pairs]
    references = [r for _, r in pairs]
    expected = theirs(hypotheses, references, weights, case_insensitive)
    ours = score(hypotheses, [[r] for r in references], "compare-mt",
                 weights=weights, case_insensitive=case_insensitive).score
    assert type(ours) is type(expected)
    assert float(ours).hex() == float(expected).hex(), (expected, ours)


def test_several_references_are_declined():
    with pytest.raises(ConventionDeclined, match="exactly one reference"):
        score(["a b"], [["a b", "a c"]], "compare-mt")


def test_sentence_level_raises_as_bleu_scorer_does():
    with pytest.raises(NotImplementedError):
        scorers.BleuScorer().score_sentence(["a", "b"], ["a", "b"])
    with pytest.raises(ConventionError) as raised:
        score(["a b"], [["a b"]], "compare-mt", "sentence")
    assert raised.value.library_exception == "NotImplementedError"


def theirs_sentbleu(hypotheses, references, case_insensitive, level):
    """compare-mt's ``sentbleu`` (``SentBleuScorer``) on the lines of its files, or the
    exception it raises."""
    def tokens(lines):
        return [line.strip().split(" ") for line in lines]
    scorer = scorers.SentBleuScorer(case_insensitive=case_insensitive)
    refs, outs = tokens(references), tokens(hypotheses)
    if level == "sentence":
        return scorer.score_sentence(refs[0], outs[0])[0]
    return scorer.score_corpus(refs, outs)[0]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=5),
       case_insensitive=st.booleans(), level=st.sampled_from(["sentence", "corpus"]))
@example(pairs=[("the cat sat on the mat", "the cat sat on a mat")], case_insensitive=False,
         level="sentence")
@example(pairs=[("", "a b")], case_insensitive=False, level="sentence")
@example(pairs=[("A b c", "a B c"), ("x", "y")], case_insensitive=True, level="corpus")
@example(pairs=[("a", "a b c d e")], case_insensitive=False, level="sentence")
def test_sentbleu_bit_for_bit(pairs, case_insensitive, level):
    """``scorer="sentbleu"``: NLTK's method2 sentence BLEU times 100, a corpus their mean,
    the same float or the same exception as compare-mt's ``SentBleuScorer``."""
    if level == "sentence":
        pairs = pairs[:1]
    hypotheses = [h for h, _ in pairs]
    references = [r for _, r in pairs]
    try:
        expected = theirs_sentbleu(hypotheses, references, case_insensitive, level)
    except Exception as error:  # noqa: BLE001 -- NLTK's exception is the expectation
        with pytest.raises(ConventionError) as raised:
            score(hypotheses, [[r] for r in references], "compare-mt", level,
                  scorer="sentbleu", case_insensitive=case_insensitive)
        assert raised.value.library_exception == type(error).__name__
        return
    ours = score(hypotheses, [[r] for r in references], "compare-mt", level,
                 scorer="sentbleu", case_insensitive=case_insensitive).score
    assert float(ours).hex() == float(expected).hex(), (expected, ours)


def test_sentbleu_takes_no_weights():
    with pytest.raises(ConventionDeclined, match="no weights"):
        score(["a b"], [["a b"]], "compare-mt", "sentence", scorer="sentbleu", weights=(0.5, 0.5))
