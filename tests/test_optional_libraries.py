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

from harness.backends.base import RAISED, UNSUPPORTED, VALUE, ScoreRequest
from harness.backends.libraries import installed_version
from harness.backends.optional import BleuscoreBackend, FastBleuBackend, TorchmetricsBackend
from harness.backends.own import OwnBackend
from strategies import corpus

EXAMPLES = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def needs(distribution: str):
    return pytest.mark.skipif(not installed_version(distribution),
                              reason=f"{distribution} is not installed (optional backend)")


def request(convention, data, level="corpus", **options) -> ScoreRequest:
    hyps, refs = data
    return ScoreRequest(convention, tuple(hyps), tuple(tuple(r) for r in refs), level, options)


def assert_agree(backend, req: ScoreRequest) -> None:
    theirs = backend.score(req)
    assume(theirs.kind != UNSUPPORTED)
    ours = OwnBackend().score(req)
    assert ours.kind == theirs.kind, (ours, theirs)
    if ours.kind == RAISED:
        assert ours.error_type == theirs.error_type, (ours, theirs)
    elif ours.kind == VALUE:
        tolerance = backend.info().tolerance
        assert ours.value == theirs.value or math.isclose(
            ours.value, theirs.value, rel_tol=tolerance, abs_tol=0.0), (ours, theirs)


@needs("torchmetrics")
@EXAMPLES
@given(data=corpus(), n_gram=st.integers(1, 4), smooth=st.booleans(),
       half_weights=st.booleans())
def test_torchmetrics(data, n_gram, smooth, half_weights):
    options = {"n_gram": n_gram, "smooth": smooth}
    if half_weights:
        options["weights"] = (0.5,) * n_gram
    assert_agree(TorchmetricsBackend(), request("torchmetrics", data, **options))


@needs("fast-bleu")
@EXAMPLES
@given(data=corpus(max_segments=1), smoothing=st.sampled_from(["method0", "method1"]),
       weights=st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1 / 3,) * 3, (0.1, 0.2, 0.3, 0.4)]))
def test_fast_bleu(data, smoothing, weights):
    assert_agree(FastBleuBackend(), request("nltk", data, "sentence", smoothing=smoothing,
                                            weights=weights))


@needs("bleuscore")
@EXAMPLES
@given(data=corpus(), max_order=st.integers(1, 4), smooth=st.booleans())
def test_bleuscore(data, max_order, smooth):
    assert_agree(BleuscoreBackend(), request("tf-nmt", data, max_order=max_order,
                                             smooth=smooth, tokenize="13a"))


@needs("torchmetrics")
def test_torchmetrics_tie_takes_the_first_reference():
    """CONVENTIONS.md B5/B6 (issue #3504): 12 tokens against 13 and 11, in both orders."""
    hyp, long, short = "a " * 12, "a " * 13, "a " * 11
    first_long = TorchmetricsBackend().score(request("torchmetrics", ([hyp], [[long, short]])))
    first_short = TorchmetricsBackend().score(request("torchmetrics", ([hyp], [[short, long]])))
    assert first_short.value == 1.0 and first_long.value < 1.0


def test_a_run_without_the_optional_libraries_names_them_and_passes(monkeypatch):
    """A missing package is left out of the run and named in its header; nothing fails."""
    import harness.backends.optional as optional
    from harness.cases.loader import bundled_corpus
    from harness.runner import RunOptions, execute

    monkeypatch.setattr(optional, "installed_version", lambda name: "")
    result = execute(RunOptions(paths=(str(bundled_corpus() / "seeds" / "matlab.yaml"),)))
    header = result.lines[0]
    assert set(header["not_installed"]) == {"torchmetrics", "fast-bleu", "bleuscore"}
    assert not {"torchmetrics", "fast-bleu", "bleuscore"} & {b["name"] for b in header["backends"]}
    assert result.exit_code == 0
