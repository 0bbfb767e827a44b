"""The engine against the optional libraries, where they are installed: torchmetrics (to
float32 precision), fast-bleu (NLTK sentence BLEU with float32 weights) and bleuscore
(TF-NMT's formula). Absent libraries skip these tests with the reason; nothing fails.

The comparison goes through the harness's own backends, so their claims (which inputs each
library answers for) are exercised too.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import corpus
from tiers import examples

from bleu_harness.backends.optional import (
    bleuscore_backend,
    fast_bleu_backend,
    torchmetrics_backend,
)
from bleu_harness.backends.own import engine_backend
from bleu_harness.execute import Executor
from bleu_harness.records import BackendRequest, Raised, Unsupported, Value

EXAMPLES = settings(max_examples=examples(120), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def installed_version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return ""


def needs(distribution: str):
    return pytest.mark.skipif(not installed_version(distribution),
                              reason=f"{distribution} is not installed (optional backend)")


@pytest.fixture(scope="module")
def executor():
    with Executor(timeout=30) as running:
        running.start_all([engine_backend(), torchmetrics_backend(), fast_bleu_backend(),
                           bleuscore_backend()])
        yield running


def answer(executor, backend: str, convention: str, data, level: str, options):
    hyps, refs = data
    request = BackendRequest.make(backend, convention, level, hyps, refs, options)
    return next(iter(executor.run([request])))[1]


def assert_agree(executor, backend: str, convention: str, data, level="corpus", **options):
    theirs = answer(executor, backend, convention, data, level, options)
    assume(not isinstance(theirs, Unsupported))
    ours = answer(executor, "own", convention, data, level, options)
    assert type(ours) is type(theirs), (ours, theirs)
    if isinstance(ours, Raised):
        assert ours.error_type == theirs.error_type, (ours, theirs)
    elif isinstance(ours, Value):
        tolerance = executor.backends[backend].tolerance
        assert ours.score == theirs.score or math.isclose(
            ours.score, theirs.score, rel_tol=tolerance, abs_tol=0.0), (ours, theirs)


@needs("torchmetrics")
@EXAMPLES
@given(data=corpus(), n_gram=st.integers(1, 4), smooth=st.booleans(),
       half_weights=st.booleans())
def test_torchmetrics(executor, data, n_gram, smooth, half_weights):
    options = {"n_gram": n_gram, "smooth": smooth}
    if half_weights:
        options["weights"] = (0.5,) * n_gram
    assert_agree(executor, "torchmetrics", "torchmetrics", data, **options)


@needs("fast-bleu")
@EXAMPLES
@given(data=corpus(max_segments=1), smoothing=st.sampled_from(["method0", "method1"]),
       weights=st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1 / 3,) * 3, (0.1, 0.2, 0.3, 0.4),
                                (0, 0, 0, 1), (1, 0), (0.5, 0.5, 0), (0, 0.5, 0, 0.5)]))
def test_fast_bleu(executor, data, smoothing, weights):
    assert_agree(executor, "fast-bleu", "nltk", data, "sentence", smoothing=smoothing,
                 weights=weights)


@needs("fast-bleu")
def test_fast_bleu_is_no_reference_where_it_is_not_nltk(executor):
    """fast-bleu 0.0.90 gives 1.0 for weights (0, 0, 0, 1) where NLTK gives 0.75: with one
    non-zero weight it declines, so the bundled weights cases pass with it installed."""
    data = (["the cat sat on the mat"], [["the cat sat on a mat"]])
    declined = answer(executor, "fast-bleu", "nltk", data, "sentence", {"weights": (0, 0, 0, 1)})
    assert isinstance(declined, Unsupported) and "one non-zero weight" in declined.reason
    from bleu_harness.cases.loader import bundled_corpus
    from bleu_harness.cli import main

    weights = str(bundled_corpus() / "families" / "weights.yaml")  # every weights-* case
    assert main(["run", weights, "--backend", "fast-bleu", "--backend", "nltk", "--quiet"]) == 0


@needs("bleuscore")
@EXAMPLES
@given(data=corpus(), max_order=st.integers(1, 4), smooth=st.booleans())
def test_bleuscore(executor, data, max_order, smooth):
    assert_agree(executor, "bleuscore", "tf-nmt", data, max_order=max_order, smooth=smooth,
                 tokenize="13a")


@needs("torchmetrics")
def test_torchmetrics_tie_takes_the_first_reference(executor):
    """Cases b05/b06 (Lightning-AI/torchmetrics#3504): 12 tokens against 13 and 11, in both
    orders."""
    hyp, long, short = "a " * 12, "a " * 13, "a " * 11
    first_long = answer(executor, "torchmetrics", "torchmetrics", ([hyp], [[long, short]]),
                        "corpus", {})
    first_short = answer(executor, "torchmetrics", "torchmetrics", ([hyp], [[short, long]]),
                         "corpus", {})
    assert first_short.score == 1.0 and first_long.score < 1.0


def test_a_run_without_the_optional_libraries_names_them_and_passes(monkeypatch):
    """A missing package is left out of the run and named in its header; nothing fails."""
    import importlib.util

    from bleu_harness.cases.loader import bundled_corpus
    from bleu_harness.pipeline import RunOptions, execute_run

    real = importlib.util.find_spec
    optional = {"torchmetrics", "fast_bleu", "bleuscore", "compare_mt", "pycocoevalcap",
                "ignite"}
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in optional else real(name, *a))
    result = execute_run(RunOptions(paths=(str(bundled_corpus() / "seeds" / "matlab.yaml"),)),
                         lambda line: None)
    absent = {b.name for b in result.header.backends if b.status == "not installed"}
    assert absent == {"torchmetrics", "fast-bleu", "bleuscore", "compare-mt", "pycocoevalcap",
                      "ignite"}
    assert result.exit_code == 0
