"""NLTK 3.2.4-3.2.5's ``emulate_multibleu=True`` (``nltk/translate/bleu_score.py`` of tags 3.2.4
and 3.2.5: ``corpus_bleu`` ends with ``return round(s, 4) if emulate_multibleu else s``, and
``SmoothingFunction.method0`` returns ``[sys.float_info.min]`` at the first order without a
match when ``emulate_multibleu and i < 5``) against the real NLTK 3.2.5 release, prepared by
``tools/atlas.py`` (Python 3.6): on generated corpora and sentences, every smoothing method,
up to seven orders (the sixth and seventh take method0's other branch), the same float bit
for bit -- or the same int 0 -- or the same exception.

Without the prepared release the live test is skipped with the command that prepares it (a
failure under ``CI=true``, where ``.ci/run`` prepares it); the case family
``cases/families/nltk-emulate-multibleu.yaml`` holds values recorded from it.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet
from strategies import corpus
from tiers import examples

from bleu_harness.bleu import score
from bleu_harness.cases.loader import load
from bleu_harness.records import BackendRequest, Raised, Value

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".atlas" / "envs" / "nltk-3.2.5" / "bin" / "python"
WEIGHTS = st.sampled_from([
    (0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), (1 / 3, 1 / 3, 1 / 3), (0, 0.5, 0.5),
    (0.2,) * 5, (1 / 6,) * 6, (1 / 7,) * 7, (0.1, 0.2, 0.3, 0.4), (2, 0, 0, 1)])
OPTIONS = st.fixed_dictionaries({
    "weights": WEIGHTS, "smoothing": st.sampled_from([f"method{i}" for i in range(8)]),
    "auto_reweigh": st.booleans()})


@pytest.fixture(scope="module")
def release():
    if not PYTHON.is_file():
        pytest.skip("NLTK 3.2.5 is not prepared: python tools/atlas.py prepare nltk-3.2.5")
    from bleu_harness.backends.libraries import nltk_backend
    from bleu_harness.backends.own import engine_backend
    from bleu_harness.execute import Executor

    with Executor(timeout=60) as executor:
        info = executor.start_all([engine_backend(), nltk_backend(str(PYTHON))])[1]
        assert info.ready and info.version == "3.2.5", info
        yield executor


def answer(executor, backend: str, data, level: str, options: dict):
    hyps, refs = data
    request = BackendRequest.make(backend, "nltk", level, hyps, refs, options)
    return next(iter(executor.run([request])))[1]


@settings(max_examples=examples(300, 60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=corpus(), sentence=st.booleans(), options=OPTIONS)
@example(data=(["let go it"], [["let it go"]]), sentence=True,
         options={"weights": (0.25,) * 4, "smoothing": "method0", "auto_reweigh": False})
@example(data=(["a b c d e x f"], [["a b c d e y f"]]), sentence=True,
         options={"weights": (1 / 6,) * 6, "smoothing": "method0", "auto_reweigh": False})
@example(data=(["p q"], [["a b"]]), sentence=True,
         options={"weights": (0.5, 0.5), "smoothing": "method0", "auto_reweigh": False})
def test_emulate_multibleu_as_nltk_3_2_5(release, data, sentence, options):
    hyps, refs = data
    level = "sentence" if sentence else "corpus"
    if sentence:
        hyps, refs = hyps[:1], refs[:1]
    options = {**options, "emulate_multibleu": True}
    theirs = answer(release, "nltk", (hyps, refs), level, options)
    ours = answer(release, "own", (hyps, refs), level, {**options, "version": "3.2.5"})
    if isinstance(theirs, Raised):
        assert isinstance(ours, Raised) and ours.error_type == theirs.error_type, (ours, theirs)
        return
    assert isinstance(theirs, Value) and isinstance(ours, Value), (ours, theirs)
    assert len(ours.scores) == len(theirs.scores)
    for a, b in zip(ours.scores, theirs.scores):
        assert (math.isnan(a) and math.isnan(b)) or float(a).hex() == float(b).hex(), (
            hyps, refs, level, options, ours, theirs)
        assert type(a) is type(b), (a, b)  # corpus_bleu's int 0 stays an int


def test_the_option_is_refused_outside_its_releases():
    for version in ("3.2.2", "3.3", "3.10.4"):
        with pytest.raises(ValueError, match="3.2.4-3.2.5 only"):
            score(["a b"], [["a b"]], "nltk", "sentence", emulate_multibleu=True,
                  version=version)
    assert score(["a b"], [["a b"]], "nltk", "sentence", emulate_multibleu=True,
                 version="3.2.4", weights=(0.5, 0.5)).score == 1.0


def test_the_case_files_values_come_from_the_release():
    cases = [c for c in load(None).cases if c.id.startswith("nltk-emu-")]
    assert len(cases) >= 5
    for case in cases:
        for e in case.expectations:
            if e.options.get("emulate_multibleu"):
                assert e.versions == {"nltk": ">=3.2.4,<3.3"}, case.id
            else:  # the range the atlas measured (tools/fix_ranges.py): 3.2.5's value
                assert SpecifierSet(e.versions.get("nltk", "")).contains("3.2.5"), case.id
            assert (e.provenance.kind, e.provenance.version) == ("computed", "3.2.5"), case.id

