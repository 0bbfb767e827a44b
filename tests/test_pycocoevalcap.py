"""The pycocoevalcap convention against the installed pycocoevalcap (1.2), bit for bit: the
whole BLEU-1..n list of ``Bleu.compute_score`` / ``BleuScorer.compute_score`` and the
per-segment lists, or the same exception, on generated inputs (empty and short segments,
0-4 references with tied lengths, repeated words, punctuation, non-ASCII) under every
option; and its PTB pipeline (Java) on generated captions. Skipped where pycocoevalcap is
not installed (``pip install pycocoevalcap``); the PTB tests also where Java is missing.
"""

from __future__ import annotations

import json
import math
import shutil

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from libraries import coco_bleu, ptb_pipeline
from strategies import caption_corpus, caption_text, corpus, segment_text
from needs import needs
from tiers import examples, exhaustive_only

from bleu_harness.bleu import CONVENTIONS, ConventionError, score
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.bleu.tokenizers import ptb, why_unavailable
from bleu_harness.records import BackendRequest, Raised, Unsupported, Value

pytest.importorskip("pycocoevalcap.bleu.bleu", reason="pycocoevalcap is not installed")

EXAMPLES = settings(max_examples=examples(400), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
#: The PTB pipeline starts two JVMs per example (about a second).
PTB_EXAMPLES = settings(max_examples=examples(25, 4), deadline=None,
                        suppress_health_check=[HealthCheck.too_slow])
needs_java = needs(lambda: why_unavailable("ptb"))
OPTIONS = st.fixed_dictionaries({}, optional={
    "n": st.sampled_from([1, 2, 3, 4, 5]),
    "option": st.sampled_from(["closest", "shortest", "average"]),
})


def bits(values) -> list[str]:
    return [float(v).hex() for v in values]


def outcome(call):
    try:
        return call()
    except Exception as error:  # the engine's ConventionError, or the library's own
        return error


def engine_list(hyps, refs, level, options):
    result = score(hyps, refs, "pycocoevalcap", level, **options)
    assert bits([result.score]) == bits([result.details["cumulative"][-1]])
    return list(result.details["cumulative"])


def ignore(what: str) -> None:
    pass


def assert_same(hyps, refs, level, options, note=ignore):
    """The engine's list bit for bit the tool's, or the same exception; ``note`` records
    which (Hypothesis's ``event``, for ``--hypothesis-show-statistics``)."""
    theirs = outcome(lambda: coco_bleu(hyps, refs, level, options))
    ours = outcome(lambda: engine_list(hyps, refs, level, options))
    if isinstance(ours, ConventionDeclined):
        assert options.get("n", 4) > 4, ours
        note("declined by the engine")
        return None
    if type(ours) is ValueError:  # the PTB pipeline's tokens would depend on the batch
        assert options.get("tokenize") == "ptb" and "depend on what follows" in str(ours)
        note("refused: a caption's tokens depend on its neighbour")
        return None
    if isinstance(theirs, Exception) or isinstance(ours, Exception):
        assert isinstance(ours, ConventionError) and isinstance(theirs, Exception), (ours, theirs)
        assert ours.library_exception == type(theirs).__name__, (ours, theirs)
        note(f"both raise {type(theirs).__name__}")
        return None
    note("compared")
    corpus_list = theirs if level == "sentence" else theirs[0]
    assert bits(ours) == bits(corpus_list), (hyps, refs, options, ours, corpus_list)
    return theirs


@EXAMPLES
@given(data=corpus(), options=OPTIONS, sentence=st.booleans(), referenced=st.booleans(),
       more=st.lists(segment_text(), min_size=4, max_size=4))
def test_bit_exact(data, options, sentence, referenced, more):
    hyps, refs = data
    if referenced:  # a segment without references raises: half the time, give it some
        refs = [r or more[:1 + i % 4] for i, r in enumerate(refs)]
    level = "sentence" if sentence else "corpus"
    if sentence:
        hyps, refs = hyps[:1], refs[:1]
    assert_same(hyps, refs, level, options, event)


@EXAMPLES
@given(data=corpus(max_segments=3), options=OPTIONS)
def test_per_segment_lists_are_the_sentence_level(data, options):
    """``compute_score``'s second value, one BLEU-1..n list per segment (its own arithmetic,
    ``bleu_scorer.py:232-240``), is the engine's sentence level of each segment."""
    hyps, refs = data
    theirs = outcome(lambda: coco_bleu(hyps, refs, "corpus", options))
    assume(not isinstance(theirs, Exception))
    for i, (hyp, seg_refs) in enumerate(zip(hyps, refs)):
        ours = engine_list([hyp], [seg_refs], "sentence", options)
        assert bits(ours) == bits([order[i] for order in theirs[1]]), (hyp, seg_refs, options)


def test_the_tools_quirks():
    """Recorded from pycocoevalcap 1.2: an identical candidate scores just under 1 (and is
    not 1 even for BLEU-1); every order has a floor (1e-15 / (n + 1e-9)), so no n-gram match
    still gives a positive BLEU-4; an empty candidate gives 0; ties take the shorter
    reference; and ``n`` > 4 raises ``IndexError``."""
    same = engine_list(["a b c d e"], [["a b c d e"]], "corpus", {})
    assert all(0.999999999 < s < 1.0 for s in same)
    assert 0 < engine_list(["a b c d"], [["e f g h"]], "corpus", {})[-1] < 1e-10
    assert engine_list([""], [["a b"]], "corpus", {}) == [0.0] * 4
    for hyps, refs, options in ((["a b c d e"], [["a b c d e f", "a b c d"]], {}),
                                (["a b c d e"], [["a b c d", "a b c d e f"]], {}),
                                (["a b"], [["a b c", "a"]], {"option": "shortest"}),
                                (["a b"], [["a b c", "a", "a b c d e f"]], {"option": "average"}),
                                ([], [], {}), (["a"], [["a"]], {"n": 5}), (["a"], [[]], {}),
                                (["a"], [[]], {"option": "shortest"}),
                                (["a"], [[]], {"option": "average"}),
                                (["a", "b"], [["a"], []], {"n": 6, "option": "shortest"})):
        for level in ("corpus", "sentence")[:1 + (len(hyps) == 1)]:
            assert_same(hyps, refs, level, options)


def test_a_segment_without_references_raises_as_the_tool_does():
    """``Bleu`` asserts a reference per image; ``BleuScorer``'s ``min()`` / mean of none."""
    for option, raised in (("closest", "AssertionError"), ("shortest", "ValueError"),
                           ("average", "ZeroDivisionError")):
        with pytest.raises(ConventionError) as error:
            score(["a b"], [[]], "pycocoevalcap", option=option)
        assert error.value.library_exception == raised


def test_the_average_reference_length_is_summed_in_segment_order():
    """``option='average'`` adds each segment's mean reference length in float in segment
    order: mean lengths 8/3, 17/3 and 16/3 give another float sum forwards than backwards,
    and the engine gives the tool's ratio and scores either way."""
    words = "a b c d e f g h i".split()
    lengths = [[2, 1, 5], [6, 7, 4], [2, 5, 9]]
    refs = [[" ".join(words[:n]) for n in segment] for segment in lengths]
    hyps = ["a", "b c", "a b"]
    ratios = []
    for order in (slice(None), slice(None, None, -1)):
        ours = score(hyps[order], refs[order], "pycocoevalcap", option="average")
        assert bits(list(ours.details["cumulative"])) == bits(
            coco_bleu(hyps[order], refs[order], "corpus", {"option": "average"})[0])
        ratios.append(ours.details["ratio"])
    assert ratios[0] != ratios[1]


def test_signature_and_knobs():
    signature = CONVENTIONS["pycocoevalcap"].signature()
    assert signature.startswith("pycocoevalcap|ref:closest_shorter|")
    assert "smoothing:coco-epsilon" in signature and "bp:epsilon" in signature
    assert "ref:average" in CONVENTIONS["pycocoevalcap"].signature(option="average")
    assert "weights:0.5,0.5|" in CONVENTIONS["pycocoevalcap"].signature(n=2)
    ptb_signature = CONVENTIONS["pycocoevalcap"].signature(tokenize="ptb")
    assert "tokenizer:ptb-cased|case:lower" in ptb_signature


@pytest.mark.parametrize("bad", [{"n": 0}, {"option": "longest"}, {"tokenize": "13a"},
                                 {"verbose": 1}])
def test_bad_options_are_one_value_error(bad):
    with pytest.raises(ValueError):
        score(["a"], [["a"]], "pycocoevalcap", **bad)


# --- the PTB pipeline -----------------------------------------------------------------------

@needs_java
@settings(max_examples=examples(15, 6), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(captions=st.lists(caption_text(), min_size=1, max_size=60))
def test_ptb_tokens_are_the_pipelines(captions):
    """Each caption on its own (the engine) gives what the pipeline's one batch gives it:
    ``PTBTokenizer().tokenize`` as the library writes, runs and splits it -- or the engine
    refuses it, its tokens depending on the caption after it."""
    theirs = ptb_pipeline({i: [c] for i, c in enumerate(captions)})
    for i, caption in enumerate(captions):
        try:
            ours = ptb.tokenize_ptb(caption)
        except ValueError as refused:
            assert "depend on what follows" in str(refused)
            continue
        assert ours == theirs[i][0].split(), (caption, theirs[i])


@needs_java
@PTB_EXAMPLES
@given(data=caption_corpus(), options=OPTIONS)
def test_ptb_bit_exact(data, options):
    hyps, refs = data
    assert_same(hyps, refs, "corpus", {**options, "tokenize": "ptb"}, event)


@needs_java
def test_ptb_quirks():
    """Lower-cased by Java, brackets kept as ``-lrb-`` (the punctuation list has ``-LRB-``),
    punctuation and quotes dropped but ``?!`` (one PTB token, not in the list) kept, ``3 1/2``
    one PTB token that ``str.split()`` splits."""
    assert ptb.tokenize_ptb('A man (Mr. X) said: "it\'s 3 1/2 km..."') == [
        "a", "man", "-lrb-", "mr.", "x", "-rrb-", "said", "it", "'s", "3", "1/2", "km"]
    assert ptb.tokenize_ptb_cased("A (b).") == ["A", "b"]
    assert ptb.tokenize_ptb("") == [] and ptb.tokenize_ptb("? ! ...") == []
    assert ptb.tokenize_ptb("?!") == ["?!"]


@needs_java
@pytest.mark.parametrize("line_end", ptb.JAVA_LINE_ENDS)
def test_ptb_refuses_a_caption_java_splits(line_end):
    """Java ends a line there, so the pipeline pairs the next caption with this image (its
    ``zip``): the engine says so rather than score something else."""
    hyps = [f"a{line_end}b", "c d"]
    refs = [["a b"], ["c d"]]
    shifted = ptb_pipeline({i: [h] for i, h in enumerate(hyps)})
    assert shifted == {0: ["a"], 1: ["b"]}  # the second image got the first one's tail
    with pytest.raises(ValueError, match="wrong image"):
        score(hyps, refs, "pycocoevalcap", tokenize="ptb")


def test_ptb_declines_without_the_jar(monkeypatch, tmp_path):
    monkeypatch.setenv(ptb.JAR_VARIABLE, str(tmp_path / "missing.jar"))
    with pytest.raises(ConventionDeclined) as error:
        score(["a"], [["a"]], "pycocoevalcap", tokenize="ptb")
    assert "stanford-corenlp-3.4.1.jar" in error.value.rule
    assert score(["a b c d"], [["a b c d"]], "pycocoevalcap").score > 0.99  # no ptb: scores


def test_ptb_declines_without_java(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    assert "no java on the PATH" in why_unavailable("ptb")


# --- identify, explain, fingerprint, the live backend ---------------------------------------

CAPTIONS = (["A man riding a wave on top of a surfboard.", "Two dogs play in the grass!",
             "A plate of food, with broccoli and rice."],
            [["A man on a surfboard riding a wave.", "A surfer rides a large wave."],
             ["Two dogs are playing on the grass.", "Dogs playing in a field."],
             ["A plate with rice, broccoli and meat.", "Food on a white plate."]])


@pytest.mark.parametrize("tokenize", ["none", pytest.param("ptb", marks=needs_java)])
def test_identify_answers_a_coco_bleu_4(tmp_path, capsys, tokenize):
    """The number a paper prints (``%0.3f``, as ``COCOEvalCap`` does) is found as
    pycocoevalcap with its defaults -- through the PTB pipeline on raw captions."""
    from bleu_harness.cli import main

    hyps, refs = CAPTIONS
    published = "%0.3f" % coco_bleu(hyps, refs, "corpus", {"tokenize": tokenize})[0][3]
    hyp_file = tmp_path / "hyp.txt"
    hyp_file.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref_files = []
    for j in range(2):
        ref_files.append(tmp_path / f"ref{j}.txt")
        ref_files[-1].write_text("\n".join(r[j] for r in refs) + "\n", encoding="utf-8")
    assert main(["identify", str(hyp_file), *map(str, ref_files), "--score", published,
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    found = [m for m in document["matches"] if m["convention"] == "pycocoevalcap"]
    assert any(m["options"].get("n", 4) == 4 and m["options"].get("tokenize") == tokenize
               for m in found), found


def test_explain_names_the_epsilons():
    """Two words against themselves: NLTK's tiny float (no 3- or 4-grams) against
    pycocoevalcap's 1e-3 (the floor 1e-15 / 1e-9 of an order without n-grams): the
    smoothing knob says so."""
    from bleu_harness.divergence.attribution import Scorer, attribute

    hyps, refs = ["a b"], [["a b"]]
    scorer = Scorer(hyps, refs, "sentence")
    coco = CONVENTIONS["pycocoevalcap"].resolve("sentence", {})
    nltk = CONVENTIONS["nltk"].resolve("sentence", {})
    attribution = attribute(scorer, "pycocoevalcap", coco,
                            score(hyps, refs, "pycocoevalcap", "sentence").score,
                            "nltk", nltk, score(hyps, refs, "nltk", "sentence").score)
    assert attribution.explained and "smoothing" in attribution.knobs
    assert "(m + 1e-15) / (n + 1e-9)" in attribution.sentence()


@pytest.fixture()
def in_tests(monkeypatch):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).parent)  # the worker imports this module from here


def real_pycocoevalcap(hypotheses, references, level, **options):
    """The installed pycocoevalcap as an implementation under test: its BLEU-4."""
    result = coco_bleu(list(hypotheses), [list(r) for r in references], level, options)
    return (result if level == "sentence" else result[0])[-1]


@exhaustive_only  # the quick tier fingerprints live NLTK and SacreBLEU (test_explain.py)
def test_fingerprint_of_the_real_tool_is_pycocoevalcap(capsys, in_tests):
    from bleu_harness.cli import main

    assert main(["fingerprint", "--implementation", "test_pycocoevalcap:real_pycocoevalcap",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["closest_overall"] == ["pycocoevalcap"], document
    assert not document["inconsistent"]


@pytest.fixture(scope="module")
def executor():
    from bleu_harness.backends.optional import pycocoevalcap_backend
    from bleu_harness.backends.own import engine_backend
    from bleu_harness.execute import Executor

    with Executor(timeout=60) as running:
        running.start_all([engine_backend(), pycocoevalcap_backend()])
        yield running


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=corpus(), options=OPTIONS)
def test_the_live_backend_agrees_with_the_engine(executor, data, options):
    """Through the harness's workers: the library worker answers BLEU-n and the list as
    ``cumulative.k`` figures, and the engine gives the same."""

    hyps, refs = data
    answers = {}
    for backend in ("pycocoevalcap", "own"):
        request = BackendRequest.make(backend, "pycocoevalcap", "corpus", hyps, refs, options)
        answers[backend] = next(iter(executor.run([request])))[1]
    theirs, ours = answers["pycocoevalcap"], answers["own"]
    assume(not isinstance(ours, Unsupported))
    assert type(ours) is type(theirs), (ours, theirs)
    if isinstance(ours, Raised):
        assert ours.error_type == theirs.error_type
        return
    assert isinstance(ours, Value)
    assert math.isfinite(ours.score) and bits([ours.score]) == bits([theirs.score])
    for k in range(1, options.get("n", 4) + 1):
        figure = f"cumulative.{k}"
        assert bits([ours.figure(figure)]) == bits([theirs.figure(figure)]), figure


@needs_java
def test_the_live_backend_runs_the_ptb_pipeline(executor):
    """The library worker runs ``PTBTokenizer().tokenize`` (two JVMs), the engine its own."""
    hyps, refs = CAPTIONS
    requests = [BackendRequest.make(backend, "pycocoevalcap", "corpus", hyps, refs,
                                    {"tokenize": "ptb"}) for backend in ("pycocoevalcap", "own")]
    answers = [next(iter(executor.run([request])))[1] for request in requests]
    assert bits([answers[0].score]) == bits([answers[1].score])
    assert answers[0].figure("cumulative.1") == answers[1].figure("cumulative.1")
