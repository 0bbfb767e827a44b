"""The C sentence kernel (bleu_harness.bleu.kernel, _sentence.c) against each convention's own
``finish`` in Python, bit for bit and exception for exception: on random statistics far
beyond real sentences, on random texts with every edge the kernel hands back to Python (no
reference, empty texts, several references), for every option setting a convention lists.
"""

from __future__ import annotations

import builtins
import math
import random
import struct
from pathlib import Path
from array import array

import pytest
from tiers import examples, exhaustive_only

from bleu_harness.bleu import Scorer, native, pairwise, score, sentence_scores
from bleu_harness.bleu import kernel as kernel_module
from bleu_harness.bleu.batch import LEVEL
from bleu_harness.bleu.conventions import CONVENTIONS, get_convention
from bleu_harness.bleu.corpus import CorpusStats, reference_lengths
from bleu_harness.bleu.history import NLTK, SACREBLEU
from bleu_harness.bleu.options import FrozenOptions
from bleu_harness.bleu.result import ConventionError

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.why_unavailable()))

#: The conventions whose module declares its sentence arithmetic.
DECLARING = sorted(name for name in CONVENTIONS
                   if get_convention(name).sentence_arithmetic is not None)


def _settings(name: str) -> list[dict]:
    """Every option setting the convention lists that resolves at the sentence level."""
    convention = get_convention(name)
    out = []
    for variant in convention.variants:
        try:
            convention.resolve(LEVEL, dict(variant))
        except ValueError:
            continue
        out.append(dict(variant))
    return out


#: The releases whose rules differ (bleu_harness.bleu.history), each at a few settings.
RELEASES = ([("nltk", {"version": v, "smoothing": m}) for v in NLTK.releases
             for m in ("method0", "method1", "method3")]
            + [("sacrebleu", {"version": v, "smooth_method": m, "effective_order": e})
               for v in SACREBLEU.releases for m in ("exp", "floor") for e in (False, True)])

ALL_CASES = [(name, settings) for name in DECLARING for settings in _settings(name)] + RELEASES


def _spread(cases: list, every: int) -> list:
    """The quick tier's share of ``cases``: each convention's first setting and every
    ``every``-th after it; the exhaustive tier runs them all."""
    firsts = {name: i for i, (name, _) in reversed(list(enumerate(cases)))}
    return [pytest.param(name, settings, id=f"{name}-{i}",
                         marks=() if i == firsts[name] or i % every == 0 else exhaustive_only)
            for i, (name, settings) in enumerate(cases)]


CASES = _spread(ALL_CASES, 8)


def _bits(value) -> tuple:
    """A score as what it is: its type and, for a float, its 64 bits (NaN included)."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    return (type(value).__name__, value)


def _python(scorer: Scorer, stats: CorpusStats):
    """The convention's own finish of one segment's statistics, or the error it raises."""
    try:
        return _bits(scorer.from_statistics(stats))
    except ConventionError as error:
        return ("raises", error.library_exception)


def test_declared_conventions_are_the_expected_ones():
    # Each is declared in its module; the list is here so that losing one is seen.
    assert DECLARING == ["matlab", "mteval-v13a", "multi-bleu", "nltk", "sacrebleu", "t2t",
                         "tf-models", "tf-nmt"]


def _random_row(rng: random.Random, order: int) -> tuple[list[int], CorpusStats]:
    """A segment's row and the same statistics as ``CorpusStats.of_segment`` builds them."""
    hyp_len = rng.choice([0, 1, 2, 3, 4, 5, 7, 10, 20, 60, 300, 5000])
    ref_count = rng.choice([0, 1, 1, 1, 2, 4])
    ref_lens = [max(0, hyp_len + rng.randint(-6, 6)) if rng.random() < 0.8
                else rng.choice([0, 1, 2, 50]) for _ in range(ref_count)]
    matches, alive = [], True
    for n in range(order):
        total = max(hyp_len - n, 0)
        if not alive or not ref_count:
            matches.append(0)
            continue
        top = min([total] + [max(length - n, 0) for length in ref_lens])
        m = rng.choice([0, top, rng.randint(0, max(top, 0))]) if top > 0 else 0
        if n and m > matches[-1]:
            m = matches[-1]
        matches.append(m)
        alive = m > 0
    rules = reference_lengths(hyp_len, ref_lens) if ref_lens else (0, 0, 0, 0)
    row = [hyp_len, ref_count, *rules, max(ref_lens, default=0), 0, *matches]
    return row, CorpusStats.of_segment(order, hyp_len, ref_lens, matches)


@pytest.mark.parametrize("name, settings", CASES)
def test_the_c_arithmetic_is_finish_on_random_statistics(name, settings):
    scorer = Scorer(name, **settings)
    if scorer.kernel is None:
        pytest.skip("the kernel's plan declines these settings (scored in Python)")
    rng = random.Random(f"{name}{sorted(settings.items())}")
    order = scorer.kernel.order
    made = [_random_row(rng, order) for _ in range(examples(600, 150))]
    rows = array("q", [value for row, _ in made for value in row]).tobytes()
    scores, left = native._native.sentence_scores(rows, order, scorer.kernel.plan)
    assert len(left) < len(made)  # most rows are the kernel's own
    for i, (_, stats) in enumerate(made):
        if i in left:
            continue
        assert _bits(scores[i]) == _python(scorer, stats), (name, settings, made[i][0])


def _random_text(rng: random.Random, words: int) -> str:
    vocabulary = ["the", "The", "cat", "sat", "on", "mat", "a", "dog", ",", ".", "3.5",
                  "don't", "&quot;", "Ünïcode", "日本", "x-y", "(", ")"]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def _random_pairs(rng: random.Random, count: int) -> tuple[list[str], list[list[str]]]:
    hypotheses, references = [], []
    for _ in range(count):
        length = rng.choice([0, 1, 2, 3, 4, 6, 9, 14])
        hypotheses.append(_random_text(rng, length))
        references.append([_random_text(rng, max(0, length + rng.randint(-3, 3)))
                           for _ in range(rng.choice([0, 1, 1, 2, 3]))])
    return hypotheses, references


def _one_at_a_time(scorer: Scorer, hypothesis: str, references: list[str]):
    """The pair counted and finished in Python, as a single call without the kernel."""
    try:
        return _bits(scorer.from_statistics(scorer.statistics(hypothesis, references)))
    except ConventionError as error:
        return ("raises", error.library_exception)


@pytest.mark.parametrize("name, settings", CASES)
def test_a_batch_is_the_single_calls_on_random_texts(name, settings):
    scorer = Scorer(name, **settings)
    rng = random.Random(f"texts {name}{sorted(settings.items())}")
    hypotheses, references = _random_pairs(rng, 150)
    expected = [_one_at_a_time(scorer, h, refs) for h, refs in zip(hypotheses, references)]
    for i, (h, refs) in enumerate(zip(hypotheses, references)):
        try:
            got = _bits(scorer.score(h, refs))
        except ConventionError as error:
            got = ("raises", error.library_exception)
        assert got == expected[i], (name, settings, h, refs)
    scoreable = [i for i, e in enumerate(expected) if e[0] != "raises"]
    batch = scorer.scores([hypotheses[i] for i in scoreable],
                          [references[i] for i in scoreable])
    assert [_bits(s) for s in batch] == [expected[i] for i in scoreable]
    if len(scoreable) < len(expected):
        with pytest.raises(ConventionError) as raised:
            scorer.scores(hypotheses, references)
        first = expected.index(next(e for e in expected if e[0] == "raises"))
        assert f"at sentence {first} of the batch" in "".join(raised.value.__notes__)


def test_the_interpreters_own_sum_gives_the_same_bits_here():
    """From Python 3.12 ``sum`` compensates, and the kernel calls it; on a left-to-right
    ``sum`` both ways must give the same bits, so the calling path is checked here too."""
    assert kernel_module._sums_left_to_right() == (builtins.sum([1e100, 1.0, -1e100]) == 0.0)
    rng = random.Random(3)
    for name in ("sacrebleu", "tf-nmt", "mteval-v13a", "multi-bleu"):
        scorer = Scorer(name)
        plan = scorer.kernel.plan
        called = plan[:-1] + (builtins.sum,)
        made = [_random_row(rng, scorer.kernel.order) for _ in range(300)]
        rows = array("q", [value for row, _ in made for value in row]).tobytes()
        own = native._native.sentence_scores(rows, scorer.kernel.order, plan)
        through_sum = native._native.sentence_scores(rows, scorer.kernel.order, called)
        assert [_bits(s) for s in own[0]] == [_bits(s) for s in through_sum[0]]
        assert own[1] == through_sum[1]


def test_settings_the_plan_cannot_express_are_scored_in_python():
    assert Scorer("nltk", smoothing="method4").kernel is None  # NLTK's own smoothing
    assert Scorer("torchmetrics").kernel is None  # float32 steps: no declaration
    assert Scorer("nltk", weights=[(0.5, 0.5), (1 / 3,) * 3]).kernel is None  # two vectors
    assert Scorer("nltk", weights=(1, 0, 0, 0)).kernel is None  # int weights stay ints
    assert sentence_scores(["the cat"], [["the cat"]], "nltk", smoothing="method4") == \
        [Scorer("nltk", smoothing="method4").score("the cat", ["the cat"])]


def test_the_no_match_zero_is_the_conventions_own_object():
    assert _bits(Scorer("nltk").score("a b c d", ["e f g h"])) == ("int", 0)
    assert _bits(Scorer("sacrebleu").score("a b c d", ["e f g h"])) == ("float",
                                                                       struct.pack("<d", 0.0))


def test_rows_of_another_order_are_refused():
    scorer = Scorer("sacrebleu")
    with pytest.raises(ValueError, match="another order"):
        native._native.sentence_scores(b"\0" * 8 * 3, scorer.kernel.order, scorer.kernel.plan)


def test_an_exp_that_overflows_is_left_to_python():
    # NLTK's weights may be anything: a large one makes exp overflow, which NLTK raises on.
    scorer = Scorer("nltk", weights=(-1000.0, 0.0, 0.0, 0.0))
    with pytest.raises(ConventionError, match="overflows"):
        scorer.score("a b c d e", ["a x y z w"])
    assert math.isfinite(scorer.score("a b c d e", ["a b c d e"]))


@pytest.mark.parametrize("name, settings", CASES)
def test_pairwise_in_c_is_the_single_calls(name, settings):
    scorer = Scorer(name, **settings)
    rng = random.Random(f"pairs {name}{sorted(settings.items())}")
    candidates = [_random_text(rng, rng.choice([0, 1, 3, 5, 8])) for _ in range(7)]
    candidates.append(candidates[1])  # a duplicate
    pseudo = [_random_text(rng, rng.choice([0, 2, 6])) for _ in range(4)]
    for evidence, given in ((candidates, None), (pseudo, pseudo)):
        expected = [[None if given is None and i == j
                     else _one_at_a_time(scorer, c, [e]) for j, e in enumerate(evidence)]
                    for i, c in enumerate(candidates)]
        failures = [(i, j) for i, row in enumerate(expected) for j, e in enumerate(row)
                    if e is not None and e[0] == "raises"]
        if failures:
            with pytest.raises(ConventionError) as raised:
                pairwise(candidates, name, references=given, **settings)
            i, j = failures[0]
            assert f"at candidate {i} against" in "".join(raised.value.__notes__)
            assert f" {j}" in "".join(raised.value.__notes__)
            continue
        got = pairwise(candidates, name, references=given, **settings)
        assert [[None if s is None else _bits(s) for s in row] for row in got] == expected


def test_pairwise_rows_count_what_segment_rows_count():
    """The pairwise pass (each text tokenized and numbered once) gives each pair the row the
    per-segment pass gives it, here on real sentences under SacreBLEU's 13a."""
    scorer = Scorer("sacrebleu")
    hyps = (Path(__file__).parents[1] / "cases" / "data" / "nmt-deen-3000" /
            "deen_output").read_text(encoding="utf-8").splitlines()[:30]
    rows = kernel_module.pairwise_rows(hyps, len(hyps), 0, scorer.kernel.specs)
    singles = native._native.segment_rows([h for h in hyps for _ in hyps],
                                          [[e] for _ in hyps for e in hyps],
                                          scorer.kernel.specs)
    assert rows == singles


def test_a_batch_counted_in_chunks_is_the_batch(monkeypatch):
    rng = random.Random(11)
    hypotheses, references = _random_pairs(rng, 60)
    scorer = Scorer("sacrebleu")
    whole = scorer.kernel.scores(hypotheses, references)
    monkeypatch.setattr(kernel_module, "CHUNK", 7)
    chunked = scorer.kernel.scores(hypotheses, references)
    assert whole[1] and chunked == whole  # rows left to Python, at the same indices
    referenced = [(h, refs) for h, refs in zip(hypotheses, references) if refs]
    assert [_bits(s) for s in scorer.scores(*zip(*referenced))] == [
        _one_at_a_time(scorer, h, refs) for h, refs in referenced]


def test_pairwise_scores_are_the_scores_of_its_rows():
    """Scored candidate by candidate as its rows are counted, or all rows counted first: the
    same scores and the same rows left to Python (an empty candidate, an empty text)."""
    scorer = Scorer("sacrebleu")
    texts = ["the cat sat", "", "the cat sat on the mat", "a dog", "the dog sat"]
    for candidates, evidence in ((5, 0), (3, 3), (0, 0), (2, 5)):
        rows = kernel_module.pairwise_rows(texts, candidates, evidence, scorer.kernel.specs)
        assert scorer.kernel.pairwise(texts, candidates, evidence) == \
            scorer.kernel.score_rows(rows)


_COUNT_TO_100 = " ".join(map(str, range(100)))
_BACKWARDS = " ".join(map(str, range(99, -1, -1)))


def _truth(name: str, options: dict, hypothesis: str, references: list[str]):
    """What one ``score(..., level="sentence")`` call answers: the single call's bits, or its
    error."""
    try:
        return _bits(score([hypothesis], [references], name, level="sentence",
                           **options).score)
    except ConventionError as error:
        return ("raises", error.library_exception)


def _every_api(name: str, options: dict, hypothesis: str, references: list[str]) -> list:
    answers = []
    for call in (lambda: Scorer(name, **options).score(hypothesis, references),
                 lambda: sentence_scores([hypothesis], [references], name, **options)[0],
                 lambda: pairwise([hypothesis], name, references=references[:1],
                                  **options)[0][0]):
        try:
            answers.append(_bits(call()))
        except ConventionError as error:
            answers.append(("raises", error.library_exception))
    return answers


@pytest.mark.parametrize("name, options, hypothesis, references", [
    # tokenizers that split hypotheses and references differently: counted in Python
    ("multi-bleu", {"script": "wmt06"}, "a  b\tc d e f", ["a  b\tc d e f"]),
    ("multi-bleu", {"script": "detok", "lc": True}, "a &QUOT; b c d e", ["a &QUOT; b c d e"]),
    # a list of one weight vector before NLTK 3.6.6 (a TypeError), and of four weights
    ("nltk", {"version": "3.6.5", "weights": [[1.0]]}, "the cat sat on the mat",
     ["the cat sat on a mat"]),
    ("nltk", {"version": "3.6.5", "weights": [[0.25] * 4]}, "the cat sat on the mat",
     ["the cat sat on a mat"]),
    # a negative smoothing value: a negative precision, left out or a domain error
    ("nltk", {"smoothing": "method1", "epsilon": -0.1}, "x y z w", ["x z y w"]),
    ("sacrebleu", {"smooth_method": "floor", "smooth_value": -0.5}, "x y z w", ["x z y w"]),
    ("sacrebleu", {"smooth_method": "add-k", "smooth_value": -0.5}, "x y z w", ["x z y w"]),
    # infinite and overflowing terms: math.fsum's own errors and answers
    ("nltk", {"weights": (1.5e308, 1.5e308)}, "a b c d e f", ["a b x d e y"]),
    ("nltk", {"weights": (math.inf, -math.inf)}, "a b c d e f", ["a b x d e y"]),
    ("nltk", {"weights": (math.inf, 0.5)}, "the cat sat on the mat", ["the cat sat on a mat"]),
    ("nltk", {"smoothing": "method1", "epsilon": math.inf}, "x y z w", ["x z y w"]),
    # NIST's halvings past 2^63 (60 and more orders without a match)
    ("sacrebleu", {"max_ngram_order": 64}, _COUNT_TO_100, [_BACKWARDS]),
    ("t2t", {"max_order": 64}, _COUNT_TO_100, [_BACKWARDS]),
    ("nltk", {"smoothing": "method3", "weights": (1 / 64,) * 64}, _COUNT_TO_100, [_BACKWARDS]),
    # an int smoothing value no double holds
    ("nltk", {"smoothing": "method1", "epsilon": 10**400}, "the cat sat on the mat",
     ["the cat sat on a mat"]),
])
def test_the_kernel_gives_the_single_calls_answer_at_the_edges(name, options, hypothesis,
                                                               references):
    """Inputs an independent review found the kernel answering otherwise (each now left to
    Python, or declined by the plan)."""
    truth = _truth(name, options, hypothesis, references)
    assert _every_api(name, options, hypothesis, references) == [truth] * 3
