"""The ignite convention against PyTorch-Ignite's ``ignite.metrics.nlp.Bleu`` itself.

torch is not installed where the tests run, so the real tool's answers are recorded:
``tests/data/ignite.json`` holds what pytorch-ignite 0.5.5 (torch 2.13.0, CPU) gave on 800
generated inputs (tests/torch_bleu_inputs.py: empty corpora, hypotheses and references, a
segment without references, hypotheses shorter than the order, orders without a match,
length ties in both orders, repeated words; every ``smooth``, both averages, ``ngram`` 1-6),
written by tools/record_ignite_torchtext.py. The engine must give, on every record:

* its score bit for bit, and of its type (the micro average's early returns are the int 0);
* the micro average's statistics exactly (``p_numerators``, ``p_denominators``,
  ``hyp_length_sum``, ``ref_length_sum``);
* the same exception (``ValueError`` for a segment without references,
  ``NotComputableError`` for the macro average of no sentence).

Where ``BLEU_HARNESS_TORCH_PYTHON`` names an interpreter with pytorch-ignite, the same is
checked live on inputs Hypothesis generates, through the harness's own ignite backend.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import corpus
from tiers import examples
from torch_python import PREPARE, TORCH_PYTHON
from torch_python import live as torch_live

from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.api import Request, plan
from bleu_harness.bleu.counting import count
from bleu_harness.bleu.shard import chunked, count_chunks
from bleu_harness.cases.loader import load

DATA = Path(__file__).parent / "data"
RECORDED = json.loads((DATA / "ignite.json").read_text(encoding="utf-8"))
NAME = "ignite"
SMOOTHINGS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
live = torch_live("torch and pytorch-ignite")


def engine(record: dict):
    """The engine's result or its ``ConventionError``."""
    try:
        return score(record["hypotheses"], record["references"], NAME, record["level"],
                     **record["options"])
    except ConventionError as error:
        return error


def test_the_recording_says_what_ran():
    versions = RECORDED["versions"]
    assert versions["pytorch-ignite"] == "0.5.5" and versions["torch"].startswith("2.13.0")
    assert "8a2a163e8a94" in RECORDED["source"] and len(RECORDED["records"]) == 800


def what_it_covers(record: dict, outcome: str) -> set[str]:
    """The families of input a record stands for (the test counts them)."""
    options = record["options"]
    hyps = [h.split() for h in record["hypotheses"]]
    refs = [[r.split() for r in rs] for rs in record["references"]]
    found = {f"{options['smooth']}/{options['average']}/{outcome}"}
    if not hyps:
        found.add("empty corpus")
    if any(not h for h in hyps):
        found.add("empty hypothesis")
    if any(not r for rs in refs for r in rs):
        found.add("empty reference")
    if any(len(h) < options["ngram"] for h in hyps):
        found.add("short hypothesis")
    for h, rs in zip(hyps, refs):
        lengths = [len(r) for r in rs]
        if rs and sorted(abs(n - len(h)) for n in lengths)[:2] == [1, 1] and len(set(lengths)) > 1:
            found.add("length tie")
    return found


def test_every_recorded_answer():
    outcomes: Counter[str] = Counter()
    for record in RECORDED["records"]:
        ours = engine(record)
        what = f"{record['hypotheses']!r} {record['references']!r} {record['options']!r}"
        if "error" in record:
            assert isinstance(ours, ConventionError), (what, ours, record["message"])
            assert ours.library_exception == record["error"], (what, ours, record["message"])
            outcomes.update(what_it_covers(record, "raises " + record["error"]))
            continue
        assert not isinstance(ours, Exception), (what, ours, record)
        assert float(ours.score).hex() == float(record["score"]).hex(), (what, ours.score,
                                                                          record["score"])
        assert (type(ours.score) is int) == (record["type"] == "int"), (what, ours.score)
        if record["options"]["average"] == "micro":
            assert list(ours.counts) == record["p_numerators"], what
            assert list(ours.totals) == record["p_denominators"], what
            assert (ours.hyp_len, ours.ref_len) == (record["hyp_length_sum"],
                                                    record["ref_length_sum"]), what
        outcomes.update(what_it_covers(record, "0" if record["score"] == 0 else "positive"))
    print(dict(sorted(outcomes.items())))
    for smooth in SMOOTHINGS:
        for average in ("macro", "micro"):
            assert outcomes[f"{smooth}/{average}/positive"] >= 20, (smooth, average)
            assert outcomes[f"{smooth}/{average}/0"] >= 5, (smooth, average)
    assert sum(n for k, n in outcomes.items() if k.endswith("raises NotComputableError")) >= 5
    assert sum(n for k, n in outcomes.items() if k.endswith("raises ValueError")) >= 10
    for family in ("empty corpus", "empty hypothesis", "empty reference", "short hypothesis",
                   "length tie"):
        assert outcomes[family] >= 10, family


def test_micro_returns_the_int_zero_and_macro_a_float():
    """``_brevity_penalty_smoothing``'s ``return 0`` is an int (bleu.py:197-202); the macro
    average is a float64 tensor's value."""
    assert score(["a b"], [["c d"]], NAME, average="micro").score == 0
    assert type(score(["a b"], [["c d"]], NAME, average="micro").score) is int
    assert type(score(["a b"], [["c d"]], NAME).score) is float


def test_the_case_files_values_come_from_the_tool():
    """Every expectation of the family file is the real tool's (provenance), or printed in
    ignite's own docstring; never the engine's."""
    cases = [c for c in load(None).cases if c.id.startswith("ign-")]
    assert len(cases) >= 10
    for case in cases:
        for e in case.expectations:
            if e.provenance.kind == "documented":
                assert "pytorch/ignite/blob/v0.5.5" in e.provenance.url
                continue
            library = "pytorch-ignite" if e.convention == NAME else e.convention
            assert (e.provenance.library, e.provenance.kind) == (library, "computed")


def test_the_macro_average_keeps_each_segment_sharded_too():
    """The macro average needs each segment's statistics (``Preprocessing.segments``): counted
    in chunks and merged, they are the unsharded ones, in order, and give the same mean."""
    hypotheses = ["a b c d e f g", "the cat", "", "a a a a", "x y z"] * 3
    references = [["a b c d e f h"], ["the cat sat"], ["a"], ["a a", "a a a a a"], ["x y"]] * 3
    scoring = plan([Request(NAME), Request("nltk")], "corpus")
    whole = count(hypotheses, references, scoring.needed)
    sharded = count_chunks(chunked(zip(hypotheses, references), 4), scoring.needed)
    key = next(key for key in scoring.needed if key.segments)
    assert whole[key].segments == sharded[key].segments
    assert len(whole[key].segments) == len(hypotheses)
    assert [r.score for r in scoring.finish(whole)] == [r.score for r in scoring.finish(sharded)]


def test_a_sentence_is_its_own_mean():
    """At sentence level the macro average is the sentence's BLEU in float32 steps: it
    differs from micro's in the last bits (case ign-macro-float32-reciprocal)."""
    macro = score(["a b c d e f g"], [["a b c d e f h"]], NAME, "sentence").score
    micro = score(["a b c d e f g"], [["a b c d e f h"]], NAME, "sentence",
                  average="micro").score
    assert macro != micro and abs(macro - micro) < 1e-7


def test_identify_names_ignite():
    """Numbers the real tool gave (recorded in the case files), printed to four digits:
    ``identify`` names ignite -- alone for smooth1's summed-count floor, with the macro
    average for the mean of sentences."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    cases = {c.id: c for c in load(None).cases}
    floor = identify(from_case(cases["ign-smoothing-of-orders-without-ngrams"]), "0.3162")
    assert {m["convention"] for m in floor["matches"]} == {NAME}
    assert all(m["options"]["smooth"] == "smooth1" for m in floor["matches"])
    mean = identify(from_case(cases["ign-macro-is-a-mean-of-sentences"]), "0.5000")
    ours = [m["options"] for m in mean["matches"] if m["convention"] == NAME]
    assert ours and all(o["average"] == "macro" for o in ours)


@pytest.mark.parametrize(("hyps", "refs", "theirs", "knob", "says"), [
    (["a b", "c d"], [["a b"], ["c d"]], ("nltk", {"smoothing": "method1"}), "denominator",
     "each order's summed n-gram count floored at 1"),
    (["the cat sat on the mat", "a dog ran"], [["the cat sat on the mat"],
                                               ["the bird flew away"]],
     (NAME, {"average": "micro", "smooth": "smooth1"}), "average",
     "the mean of the segments' sentence scores"),
])
def test_attribution_names_the_knob(hyps, refs, theirs, knob, says):
    """smooth1 micro against NLTK's method1 (0.316 against 0.224 on two 2-word hypotheses):
    the floor of the summed counts; macro against micro: the average."""
    from bleu_harness.bleu import CONVENTIONS
    from bleu_harness.bleu.conventions import unit_score
    from bleu_harness.divergence.attribution import attribute
    from bleu_harness.divergence.scorer import Scorer

    ours = (NAME, {"smooth": "smooth1", "average": "micro" if knob == "denominator" else "macro"})
    answers = [unit_score(name, score(hyps, refs, name, **options).score)
               for name, options in (ours, theirs)]
    assert answers[0] != answers[1]
    attribution = attribute(Scorer(hyps, refs, "corpus"),
                            ours[0], CONVENTIONS[ours[0]].resolve("corpus", ours[1]), answers[0],
                            theirs[0], CONVENTIONS[theirs[0]].resolve("corpus", theirs[1]),
                            answers[1])
    assert attribution.explained and attribution.knobs == (knob,), attribution.sentence()
    assert says in attribution.sentence()


# --- live: the real tool, where it is installed ----------------------------------------------

OPTIONS = st.fixed_dictionaries({
    "ngram": st.sampled_from([4, 1, 2, 3, 5]), "smooth": st.sampled_from(SMOOTHINGS),
    "average": st.sampled_from(["macro", "micro"])})


@pytest.fixture(scope="module")
def ignite_worker():
    from bleu_harness.backends.optional import ignite_backend
    from bleu_harness.execute import Executor

    with Executor(timeout=60) as running:
        info, = running.start_all([ignite_backend(TORCH_PYTHON)])
        if not info.ready:
            pytest.skip(f"ignite does not start on {TORCH_PYTHON} ({PREPARE}): {info.note}")
        yield running


@live
@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=corpus(min_segments=0, max_segments=5), options=OPTIONS,
       level=st.sampled_from(["corpus", "sentence"]))
def test_live_against_ignite(ignite_worker, data, options, level):
    """The harness's ignite backend (the real ``Bleu``) and the engine, bit for bit (the
    protocol carries the int 0 as a number: its type is checked on the recorded answers)."""
    from bleu_harness.records import BackendRequest, Raised, Value

    hyps, refs = data
    if level == "sentence":
        hyps, refs = hyps[:1], refs[:1]
        if not hyps:
            return
    request = BackendRequest.make("ignite", NAME, level, hyps, refs, options)
    theirs = next(iter(ignite_worker.run([request])))[1]
    ours = engine({"hypotheses": hyps, "references": refs, "level": level,
                   "options": options})
    if isinstance(theirs, Raised):
        assert isinstance(ours, ConventionError), (ours, theirs)
        assert ours.library_exception == theirs.error_type, (ours, theirs)
        return
    assert isinstance(theirs, Value) and not isinstance(ours, Exception), (ours, theirs)
    assert float(ours.score).hex() == float(theirs.score).hex(), (hyps, refs, options, ours,
                                                                  theirs)
