"""The fast-bleu convention against ``fast_bleu.BLEU`` itself (PyPI fast-bleu 0.0.90, in the
test extra; its C++ compiled at install): the same float bit for bit, and the same
``AssertionError`` where the wrapper asserts, on generated sentences -- empty and short
hypotheses, no references, several references with tied lengths, repeated words, tokens with
a NUL, non-ASCII -- with ``smoothing_func`` 0 and 1 and weights that a float holds exactly or
not (1/3), int weights, several weight vectors at once.

Its x87 ``long double`` log sum is the engine's :mod:`bleu_harness.bleu.x87`; the score is
NLTK's ``sentence_bleu`` within a few ulps, which ``test_fast_bleu_is_not_nltk_bit_for_bit``
shows with numbers.
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import WORDS, segment_text
from tiers import examples

from bleu_harness.bleu import ConventionDeclined, ConventionError, score
from bleu_harness.cases.loader import load

#: fast-bleu's ``#pragma omp parallel`` starts threads on every call: one thread makes a call
#: 1/30 of the time on two busy cores (libgomp reads this when the module is first loaded).
os.environ.setdefault("OMP_NUM_THREADS", "1")
fast_bleu = pytest.importorskip("fast_bleu", reason="fast-bleu is not installed (pip install "
                                "fast-bleu; it compiles its C++ with g++)")

NAME = "fast-bleu"
TEXT = st.one_of(segment_text(words=[*WORDS, "a\x00b", "\x00", "a"], max_words=9),
                 segment_text(words=["a", "b", "c"], max_words=9),
                 st.sampled_from(["", " ", "a b c d", "a a a a"]))
REFERENCES = st.lists(TEXT, max_size=3)
WEIGHTS = st.sampled_from([
    (0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.4),
    (0.2,) * 5, (0.6, 0.4), (0.0, 0.0, 0.0, 1.0), (0, 0, 0, 1), (1, 0), (1.5, -0.5),
    ((0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)),
])


def vectors(weights) -> list:
    return list(weights) if isinstance(weights[0], tuple) else [weights]


def theirs(hypothesis: str, references: list[str], weights, smoothing: int):
    """``BLEU(references, weights, smoothing_func).get_score([hypothesis])`` on
    ``str.split()`` tokens: one score per weight vector, or the exception's name."""
    keyed = {i: tuple(v) for i, v in enumerate(vectors(weights))}
    try:
        bleu = fast_bleu.BLEU([r.split() for r in references], keyed, smoothing_func=smoothing)
    except AssertionError:
        return "AssertionError"
    scores = bleu.get_score([hypothesis.split()])
    return [scores[i][0] for i in keyed]


def ours(hypothesis: str, references: list[str], weights, smoothing: int):
    try:
        result = score([hypothesis], [references], NAME, "sentence", weights=weights,
                       smoothing_func=smoothing)
    except ConventionError as error:
        return error.library_exception
    return list(result.scores)


def same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return len(a) == len(b) and all(
        (math.isnan(x) and math.isnan(y)) or x.hex() == y.hex() for x, y in zip(a, b))


@settings(max_examples=examples(800, 150), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(hypothesis=TEXT, references=REFERENCES, weights=WEIGHTS, smoothing=st.sampled_from([0, 1]))
@example(hypothesis="It is a guide to action which ensures that the military always obeys the "
         "commands of the party", references=[
             "It is a guide to action that ensures that the military will forever heed Party "
             "commands", "It is the guiding principle which guarantees the military forces "
             "always being under the command of the Party", "It is the practical guide for "
             "the army always to heed the directions of the party"],
         weights=((0.5, 0.5), (1 / 3, 1 / 3, 1 / 3)), smoothing=1)  # the docstring's hyp1
@example(hypothesis="", references=["a b"], weights=(0.5, 0.5), smoothing=1)
@example(hypothesis="a b", references=[], weights=(0.5, 0.5), smoothing=1)
@example(hypothesis="a b c", references=["a b c d"], weights=(0, 0, 0, 1), smoothing=1)
@example(hypothesis="a b c d", references=["a b c e"], weights=(0.25,) * 4, smoothing=0)
@example(hypothesis="a\x00x b", references=["a b"], weights=(0.5, 0.5), smoothing=1)
@example(hypothesis="a b c d", references=["a b c d e", "a b c"], weights=(0.25,) * 4,
         smoothing=1)  # a tie of lengths: the shorter
def test_bleu_bit_for_bit(hypothesis, references, weights, smoothing):
    expected = theirs(hypothesis, references, weights, smoothing)
    got = ours(hypothesis, references, weights, smoothing)
    assert same(got, expected), (hypothesis, references, weights, smoothing, got, expected)


@pytest.mark.parametrize("options", [
    {"weights": (1.0,)}, {"weights": ()}, {"weights": (0.5, 0.6)},
    {"smoothing_func": 2}, {"weights": ((0.5, 0.5), (1.0,))},
])
def test_the_wrappers_assertions(options):
    weights = options.get("weights", (0.25,) * 4)
    keyed = {i: v for i, v in enumerate(vectors(weights))} if weights else {0: ()}
    with pytest.raises(AssertionError):
        fast_bleu.BLEU([["a"]], keyed, smoothing_func=options.get("smoothing_func", 1))
    with pytest.raises(ConventionError) as raised:
        score(["a"], [["a"]], NAME, "sentence", **options)
    assert raised.value.library_exception == "AssertionError"


def test_what_the_convention_declines():
    with pytest.raises(ConventionDeclined, match="no corpus level"):
        score(["a b"], [["a b"]], NAME, "corpus")
    with pytest.raises(ConventionDeclined, match="CPython"):
        score(["a b"], [["a b"]], NAME, "sentence", weights=(2, -1))


def test_fast_bleu_is_not_nltk_bit_for_bit():
    """Same rules as NLTK's sentence_bleu with method1 (weights 1/4, which a float holds
    exactly), not the same bits (case fb-ulps-from-nltk: 4 ulps apart)."""
    hyp, ref = "i e d h a d h e c e e h", "i j b a c e e i f j e"
    ours_ = score([hyp], [[ref]], NAME, "sentence").score
    nltk = score([hyp], [[ref]], "nltk", "sentence", smoothing="method1").score
    assert ours_ == theirs(hyp, [ref], (0.25,) * 4, 1)[0]
    assert ours_ == 0.10025157431478128 and nltk == 0.10025157431478134


def test_the_case_files_values_come_from_the_tool():
    cases = [c for c in load(None).cases if c.id.startswith("fb-")]
    assert len(cases) >= 10
    for case in cases:
        for e in case.expectations:
            if e.convention != NAME:
                continue
            assert (e.provenance.kind, e.provenance.library, e.provenance.version) == (
                "computed", "fast-bleu", "0.0.90"), case.id


def test_identify_names_fast_bleu():
    """A number fast-bleu gave (case fb-default-is-method1, 0.036555...), printed to four
    digits: identify names fast-bleu with its default smoothing_func 1."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    cases = {c.id: c for c in load(None).cases}
    found = identify(from_case(cases["fb-default-is-method1"]), "0.0366")
    ours_ = [m["options"] for m in found["matches"] if m["convention"] == NAME]
    assert ours_ and all(o["smoothing_func"] == 1 for o in ours_)


def test_the_live_backend_answers_for_the_convention():
    """The fast-bleu backend (``bleu-harness run --backend fast-bleu``) answers the fast-bleu
    convention with its own option names, and the engine gives the same bits."""
    from bleu_harness.backends.optional import fast_bleu_backend
    from bleu_harness.backends.own import engine_backend
    from bleu_harness.execute import Executor
    from bleu_harness.records import BackendRequest, Raised, Value

    inputs = [(["f d i d c d g e"], [["f g c c"]], {}),
              (["a b c"], [["a b c d"]], {"weights": (0, 0, 0, 1)}),
              (["a b c d"], [["a b c e"]], {"smoothing_func": 0}),
              (["a b"], [["a b"]], {"weights": (1.0,)})]
    with Executor(timeout=30) as executor:
        executor.start_all([engine_backend(), fast_bleu_backend()])
        for hyps, refs, options in inputs:
            answers = [next(iter(executor.run([BackendRequest.make(
                backend, NAME, "sentence", hyps, refs, options)])))[1]
                for backend in ("fast-bleu", "own")]
            theirs, ours_ = answers
            if isinstance(theirs, Raised):
                assert isinstance(ours_, Raised) and ours_.error_type == theirs.error_type
                continue
            assert isinstance(theirs, Value) and ours_.score.hex() == theirs.score.hex(), (
                hyps, refs, options, ours_, theirs)
