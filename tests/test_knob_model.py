"""The knob model (``bleu_harness.bleu.knobs``) is the one description of every convention: it must
give what each convention's ``finish`` gives -- the score (within 1e-9; float32 conventions
within 1e-6) or the same exception -- on every case of the corpus and on generated inputs
with generated options (NLTK's methods 0-7, SacreBLEU's smoothing values, MATLAB's weights).
The scores it is held to are the engine's, which the other tests hold to the libraries."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import NLTK_OPTIONS, SACREBLEU_OPTIONS, corpus
from tiers import examples, exhaustive

from bleu_harness.bleu import CONVENTIONS, ConventionError, score
from bleu_harness.bleu.agreement import same_score
from bleu_harness.bleu.api import Request, plan
from bleu_harness.bleu.compute import compute
from bleu_harness.bleu.conventions import unit_score
from bleu_harness.bleu.counting import count
from bleu_harness.bleu.knobs import describe
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.cases.loader import load
from bleu_harness.checkplan import effective_options
from bleu_harness.divergence.attribution import attribute
from bleu_harness.divergence.scorer import Scorer



@cache
def corpus_cases() -> tuple:
    """The bundled corpus's cases, loaded when a test first asks (not while each worker
    collects the tests)."""
    return tuple(load(None).cases)


#: The most segments a case of the quick tier's corpus-wide model tests has: the real
#: corpora's thousands of lines (cases/real, compare-mt's TED data) add arithmetic nothing
#: the small cases do not, and cost most of these tests' time where a convention counts in
#: Python (fairseq's hashed n-grams, Marian's regex tokens); the exhaustive tier walks them.
QUICK_MAX_SEGMENTS = 100


def sized(cases: tuple) -> tuple:
    """``cases``, without the large ones in the quick tier (:data:`QUICK_MAX_SEGMENTS`)."""
    if exhaustive():
        return cases
    return tuple(case for case in cases if len(case.hypotheses) <= QUICK_MAX_SEGMENTS)


def walked() -> tuple:
    """The cases the corpus-wide model tests walk: all of them in the exhaustive tier, every
    third of the small ones in the quick one."""
    return corpus_cases() if exhaustive() else sized(corpus_cases())[::3]


def engine_answer(hypotheses, references, convention: str, level: str, options) -> float | str | None:
    """The engine's answer on the 0-1 scale, ``raises X``, or ``None`` (unsupported input or
    options)."""
    try:
        result = score(hypotheses, references, convention, level, **options)
    except ConventionError as error:
        if isinstance(error, ConventionDeclined):
            return None
        return f"raises {error.library_exception}"
    except ValueError:
        return None
    return unit_score(convention, result.score)


def assert_model_reproduces(hypotheses, references, level: str, convention: str, options,
                            scorer: Scorer | None = None) -> None:
    answer = engine_answer(hypotheses, references, convention, level, options)
    if answer is None:
        return
    spec = CONVENTIONS[convention]
    scorer = scorer or Scorer(hypotheses, references, level)
    modelled = scorer(spec.knobs(spec.resolve(level, dict(options)), level))
    assert same_score(modelled, answer, max(spec.precision, 1e-9)), (
        convention, options, modelled, answer)


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_model_gives_every_answer_of_the_corpus(convention):
    for case in walked():
        assert_model_reproduces(case.hypotheses, case.references, case.level, convention,
                                effective_options(case, convention, {}))


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_model_gives_every_identify_variant(convention):
    """Every option setting ``identify`` searches, on every 16th case of the corpus (48th in
    the quick tier)."""
    for case in sized(corpus_cases())[::16 if exhaustive() else 48]:
        scorer = Scorer(case.hypotheses, case.references, case.level)
        for variant in CONVENTIONS[convention].variants:
            assert_model_reproduces(case.hypotheses, case.references, case.level, convention,
                                    effective_options(case, convention, dict(variant)), scorer)


@pytest.mark.parametrize("convention, generated_options", [
    ("nltk", NLTK_OPTIONS),  # methods 0-7 with their epsilon, alpha and k; weights
    ("sacrebleu", SACREBLEU_OPTIONS),  # smoothing methods and values, effective order, ...
])
def test_the_model_gives_generated_options(convention, generated_options):
    @settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=corpus(), options=generated_options,
           level=st.sampled_from(["corpus", "sentence"]))
    def check(data, options, level):
        hypotheses, references = data
        if level == "sentence":
            hypotheses, references = hypotheses[:1], references[:1]
        assert_model_reproduces(hypotheses, references, level, convention, options)

    check()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=corpus(), convention=st.sampled_from(list(CONVENTIONS)))
def test_the_model_gives_every_convention_on_generated_input(data, convention):
    hypotheses, references = data
    assert_model_reproduces(hypotheses, references, "corpus", convention, {})


def test_the_signature_names_the_knobs():
    """torchmetrics breaks length ties toward the first-listed reference (issue #3504) and
    computes in float32 tensors; NLTK floors each segment's n-gram count at one."""
    torchmetrics = CONVENTIONS["torchmetrics"].signature()
    assert "ref:closest_first" in torchmetrics and "float32:yes" in torchmetrics
    assert "denominator:floor1" in CONVENTIONS["nltk"].signature(smoothing="method1")
    assert "smoothing:floor|smoothing_value:0.1" in CONVENTIONS["nltk"].signature(
        smoothing="method1")


def _attribution(hypotheses, references, level, a, options_a, b, options_b):
    scorer = Scorer(hypotheses, references, level)
    resolved_a = CONVENTIONS[a].resolve(level, options_a)
    resolved_b = CONVENTIONS[b].resolve(level, options_b)
    return attribute(scorer, a, resolved_a,
                     engine_answer(hypotheses, references, a, level, options_a),
                     b, resolved_b, engine_answer(hypotheses, references, b, level, options_b))


def test_an_error_against_a_value_is_explained_by_the_input_checks():
    """multi-bleu.perl dies on an empty system output where NLTK scores 0 (case B9)."""
    attribution = _attribution([""], [["the cat sat"]], "corpus", "nltk", {}, "multi-bleu", {})
    assert attribution.explained and attribution.knobs == ("input_rules",)
    assert attribution.score_b == "raises Illegal division by zero"
    sentence = attribution.sentence()
    assert "nltk scores this input" in sentence and "hypothesis length 0" in sentence


#: No trigram matches: the smoothing decides.
NO_TRIGRAM = (["the cat on mat sat"], [["the cat sat on the mat"]])


def test_nltk_method4_against_method0_is_the_smoothing():
    hypotheses, references = NO_TRIGRAM
    attribution = _attribution(hypotheses, references, "sentence", "nltk",
                               {"smoothing": "method0"}, "nltk", {"smoothing": "method4"})
    assert attribution.explained and attribution.knobs[0] == "smoothing"
    assert "NLTK method4" in attribution.sentence()


def test_a_sacrebleu_floor_value_is_explained():
    hypotheses, references = NO_TRIGRAM
    attribution = _attribution(hypotheses, references, "sentence", "sacrebleu",
                               {"smooth_method": "floor", "smooth_value": 0.01,
                                "tokenize": "none"},
                               "nltk", {"smoothing": "method1"})
    assert attribution.score_a != attribution.score_b
    assert attribution.explained, attribution.note
    assert attribution.knobs == ("smoothing_value",)
    assert "smoothing parameter 0.01" in attribution.sentence()


def test_matlab_nan_and_fewer_words_rules_are_knobs():
    both_empty = _attribution([""], [[""]], "sentence", "matlab", {}, "sacrebleu",
                              {"tokenize": "none"})
    assert both_empty.explained and "all_empty" in both_empty.knobs
    short = _attribution(["a b c"], [["a b c"]], "sentence", "matlab", {}, "sacrebleu",
                         {"tokenize": "none"})
    assert short.explained and "fewer_words" in short.knobs
    assert "fewer words than N scores 0" in describe("fewer_words", "zero")


def _bits(value) -> str:
    """A score's exact bits (NLTK's int 0 and 0.0 alike: the model's scores are floats)."""
    return "nan" if value != value else float(value).hex()


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_model_is_exact_for_each_conventions_own_settings(convention):
    """For a convention's own settings the knob arithmetic (``compute``, in the convention's
    float form) gives its finish's scores bit for bit, not just within 1e-9 (issue 27.2)."""
    compared = 0
    for case in sized(corpus_cases()):
        options = effective_options(case, convention, {})
        prepared = plan([Request(convention, options)], case.level)
        if prepared.declined:
            continue
        spec, resolved = prepared.conventions[0]
        stats = count(case.hypotheses, case.references, prepared.needed)[
            spec.preprocessing(resolved)]
        try:
            expected = spec.finish(stats, case.level, resolved).scores
        except ConventionError:
            continue
        computed = compute(stats, spec.knobs(resolved, case.level)).scores
        assert [_bits(s) for s in computed] == [_bits(s) for s in expected], (
            case.hypotheses, case.references, resolved)
        compared += 1
    assert compared > 50  # compare-mt scores corpus level only, one reference each
