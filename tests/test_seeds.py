"""Every worked number of the four public documents the project began from (its seed
documents), reproduced by the engine; each test names its document by number, and the
numbers are written here as the documents print them (``cases/seeds/`` holds them as cases):

* 000: MathWorks, ``bleuEvaluationScore`` reference page (Text Analytics Toolbox),
  https://www.mathworks.com/help/textanalytics/ref/bleuevaluationscore.html
* 001: Baeldung, "BLEU Score in NLP", https://www.baeldung.com/cs/nlp-bleu-score
* 002: NLTK documentation, ``nltk.translate.bleu_score`` module (its docstring examples),
  https://www.nltk.org/api/nltk.translate.bleu_score.html
* 003: Lei Mao, "BLEU Score" (blog post), https://leimao.github.io/blog/BLEU-Score/
"""

from __future__ import annotations

import math

import pytest
from libraries import nltk_bleu

from bleu_harness.bleu import score
from bleu_harness.compare import matches


def matches_printed(value: float, shown: str) -> bool:
    """A doctest shows the full repr (exact) unless it ends in '...' (ELLIPSIS); MATLAB and the
    tutorial print rounded digits."""
    full = shown.endswith("...") is False and len(shown.split(".")[-1]) > 4
    return matches(value, shown, "exact" if full or shown == "1.0" else "printed")

# --- 000: MATLAB bleuEvaluationScore, "Evaluate Summary" and n-gram weights examples ------
MATLAB_SUMMARY = "The fast brown fox jumped over the lazy dog ."
MATLAB_REFERENCES = ["The quick brown animal jumped over the lazy dog .",
                     "The quick brown fox jumped over the lazy dog ."]


def matlab(hyp, refs, **options):
    return score([hyp], [refs], "matlab", "sentence", **options).score


def test_000_matlab_default_weights_0_7825():
    assert matches_printed(matlab(MATLAB_SUMMARY, MATLAB_REFERENCES), "0.7825")


def test_000_matlab_ngram_weights_half_half_0_8367():
    assert matches_printed(
        matlab(MATLAB_SUMMARY, MATLAB_REFERENCES, ngram_weights=[0.5, 0.5]), "0.8367")


def test_000_matlab_weights_are_normalised():
    # "The function normalizes the n-gram weights to sum to one."
    assert matlab(MATLAB_SUMMARY, MATLAB_REFERENCES, NgramWeights=[3, 3]) == matlab(
        MATLAB_SUMMARY, MATLAB_REFERENCES, ngram_weights=[0.5, 0.5])


def test_000_matlab_fewer_words_than_weights_scores_zero():
    # "If the number of words in candidate is smaller than the number of elements in
    # ngramWeights, then the resulting BLEU score is zero."
    assert matlab("The quick brown", MATLAB_REFERENCES) == 0
    assert matlab("The quick brown", MATLAB_REFERENCES, ngram_weights=[1, 1, 1]) > 0


def test_000_matlab_both_empty_is_nan():
    # "If candidate and references are both empty documents, then score is NaN."
    assert math.isnan(matlab("", [""]))
    assert math.isnan(matlab("", ["", ""]))
    assert matlab("", ["a b c d"]) == 0


def test_000_matlab_identical_candidate_scores_one():
    # "If candidate is identical to one of the reference documents, then score is 1."
    assert matlab(MATLAB_REFERENCES[1], MATLAB_REFERENCES) == 1.0


def test_000_matlab_identical_but_short_candidate_follows_the_fewer_words_rule():
    # The two rules above collide; the engine documents that the fewer-words rule wins.
    assert matlab("the dog", ["the dog"]) == 0
    assert matlab("the dog", ["the dog"], ngram_weights=[1, 1]) == 1.0


def test_000_matlab_ignore_case():
    upper = MATLAB_SUMMARY.upper()
    assert matlab(upper, MATLAB_REFERENCES) == 0
    assert matches_printed(matlab(upper, MATLAB_REFERENCES, IgnoreCase=True), "0.7825")


@pytest.mark.parametrize("weights, problem", [
    ([0.5, -0.5], "nonnegative"), ([math.inf, 1], "finite"), ([math.nan], "finite"),
    ([], "at least one"), ([0, 0], "all be zero"),
])
def test_000_matlab_weights_must_be_finite_and_nonnegative(weights, problem):
    with pytest.raises(ValueError, match=problem):
        matlab(MATLAB_SUMMARY, MATLAB_REFERENCES, ngram_weights=weights)


# --- 001: tutorial, clipped precision and the BLEU-4 example ------------------------------
def test_001_clipped_precision_four_sevenths():
    # "She She She eats a sour cherry": She clipped to 2 (ref 1 has "She" and "she"), so the
    # tutorial compares case-insensitively, punctuation removed.
    result = score(["She She She eats a sour cherry"],
                   [["She is eating a blueberry as she loves it",
                     "She eats a fruit of her favorite"]], "matlab", "sentence", ignore_case=True)
    assert (result.counts[0], result.totals[0]) == (4, 7)


@pytest.mark.parametrize("convention, options", [
    ("nltk", {}), ("matlab", {}), ("sacrebleu", {"tokenize": "none", "smooth_method": "none"})])
def test_001_bleu4_example_0_516(convention, options):
    # CP = 5/8, 4/7, 3/6, 2/5; "we compute the weighted geometric mean precision and get
    # 0.516 ... BLEU_4 = 1 x 0.516". The tutorial truncates: the value is 0.5169...
    result = score(["The match was postponed because of the snow"],
                   [["The match was postponed because it was snowing"]],
                   convention, "sentence", **options)
    value = result.score / (100 if convention == "sacrebleu" else 1)
    assert math.floor(value * 1000) / 1000 == 0.516
    assert result.counts == (5, 4, 3, 2) and result.bp == 1.0


# --- 002: NLTK bleu_score documentation -----------------------------------------------------
REF1 = ("It is a guide to action that ensures that the military will forever heed Party "
        "commands")
REF2 = ("It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party")
REF3 = "It is the practical guide for the army always to heed the directions of the party"
HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
HYP_B = "he read the book because he was interested in world history"
REF_B = "he was interested in world history because he read the book"


def nltk_precision(hyp: str, refs: list[str], n: int) -> float:
    return score([hyp], [refs], "nltk", "sentence", weights=(1 / n,) * n).precisions[n - 1]


@pytest.mark.parametrize("hyp, refs, n, printed", [
    ("the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"], 1,
     "0.2857..."),
    ("of the", [REF1, REF2, REF3], 1, "1.0"),
    ("of the", [REF1, REF2, REF3], 2, "1.0"),
    (HYP1, [REF1, REF2, REF3], 1, "0.9444..."),
    (HYP2, [REF1, REF2, REF3], 1, "0.5714..."),
    (HYP1, [REF1, REF2, REF3], 2, "0.5882352941176471"),
    (HYP2, [REF1, REF2, REF3], 2, "0.07692..."),
])
def test_002_nltk_modified_precision(hyp, refs, n, printed):
    assert matches_printed(nltk_precision(hyp, refs, n), printed)


@pytest.mark.parametrize("ref_lens, hyp_len, printed", [
    ((12, 15, 17), 12, "1.0"),
    ((28, 28), 12, "0.2635971381157267"),
    ((13, 2), 12, "0.9200..."),
    ((13, 11), 12, "1.0"),
    ((11, 13), 12, "1.0"),  # "The brevity penalty doesn't depend on reference order."
    ((11, 8), 7, "0.8668..."),
    ((11, 8, 6, 7), 7, "1.0"),
])
def test_002_nltk_brevity_penalty(ref_lens, hyp_len, printed):
    result = score([" ".join("a" * hyp_len)], [[" ".join("a" * n) for n in ref_lens]], "nltk",
                   "sentence")
    assert matches_printed(result.bp, printed)


CORPUS_HYPS = [HYP1, HYP_B]
CORPUS_REFS = [[REF1, REF2, REF3], [REF_B]]


@pytest.mark.parametrize("weights, printed", [
    ((0.25, 0.25, 0.25, 0.25), ["0.5920..."]),
    ((0.1, 0.3, 0.5, 0.1), ["0.5818..."]),
    (((0.5, 0.5), (0.333, 0.333, 0.334), (0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2)),
     ["0.8242...", "0.7067...", "0.5920...", "0.4719..."]),
])
def test_002_nltk_corpus_bleu(weights, printed):
    result = score(CORPUS_HYPS, CORPUS_REFS, "nltk", "corpus", weights=weights)
    assert len(result.scores) == len(printed)
    assert all(matches_printed(v, p) for v, p in zip(result.scores, printed)), result.scores


def test_002_nltk_sentence_bleu_weight_list():
    weights = ((1 / 2, 1 / 2), (1 / 3, 1 / 3, 1 / 3), (1 / 4, 1 / 4, 1 / 4, 1 / 4))
    result = score([HYP1], [[REF1, REF2, REF3]], "nltk", "sentence", weights=weights)
    expected = ["0.7453...", "0.6240...", "0.5045..."]
    assert all(matches_printed(v, p) for v, p in zip(result.scores, expected)), result.scores


# --- 003: blog post "BLEU caveats" ----------------------------------------------------------
BLOG_REFS = ["the cat is on the mat", "there is a cat on the mat"]


def test_003_example1_0_4671379777282001():
    result = score(["the cat the cat on the mat"], [BLOG_REFS], "nltk", "sentence")
    assert result.score == 0.4671379777282001
    assert result.counts == (5, 4, 2, 1) and result.totals == (7, 6, 5, 4)


def test_003_example2_tiny_float_1_2882297539194154e_231():
    result = score(["the the the the the the the the"], [BLOG_REFS], "nltk", "sentence")
    assert result.score == 1.2882297539194154e-231


def test_003_caveat_you_are_ready_1_133422688662942e_154():
    assert score(["you are ready ?"], [["are you ready ?"]], "nltk", "sentence").score == (
        1.133422688662942e-154)


def test_003_method7_value_was_from_an_older_nltk():
    # The blog printed 0.4002926439114545 with NLTK <= 3.4.5, whose method4 had an operator
    # precedence bug (nltk/nltk#2341); NLTK >= 3.6 (nltk/nltk#2681) gives another number. The
    # engine follows the installed NLTK; the corpus keeps both, version-ranged.
    ours = score(["you are ready ?"], [["are you ready ?"]], "nltk", "sentence",
                 smoothing="method7").score
    theirs = nltk_bleu(["you are ready ?"], [["are you ready ?"]], "sentence",
                       {"smoothing": "method7"})
    assert ours == theirs != 0.4002926439114545
