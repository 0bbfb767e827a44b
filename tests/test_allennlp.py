"""The allennlp convention against allennlp's own ``BLEU`` metric.

allennlp does not install here (it pins an old torch), so its files are vendored unmodified
(``tests/oracles/allennlp/``, allenai/allennlp@80fb6061 = v2.10.1) and run on the torch
interpreter ``BLEU_HARNESS_TORCH_PYTHON`` names (tests/allennlp_oracle.py keeps one running for
the module); without it the live tests are skipped with the reason, and the case family
(``cases/families/allennlp.yaml``, its values recorded from the same oracle by
tools/allennlp_cases.py) still checks the engine.

On inputs Hypothesis generates (empty and short rows, repeated words, non-ASCII words,
padding written out, batches of several rows padded to their longest, ``@start@`` / ``@end@``
/ padding at the ends of rows, every ``exclude_indices`` and ``ngram_weights`` setting) the
engine must give allennlp's float bit for bit and its running sums exactly.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from runs import assert_recorded_by_the_tool
from tiers import examples
from torch_python import TORCH_PYTHON
from torch_python import live as torch_live

from bleu_harness.bleu import ConventionDeclined, score
from bleu_harness.cases.loader import load_file

HERE = Path(__file__).parent
NAME = "allennlp"
FAMILY = HERE.parent / "cases" / "families" / "allennlp.yaml"
PAD, UNK, START, END = "@@PADDING@@", "@@UNKNOWN@@", "@start@", "@end@"
live = torch_live("torch")


class Oracle:
    """tests/allennlp_oracle.py on the torch interpreter, asked one request at a time."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen(
            [python, str(HERE / "allennlp_oracle.py")], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.versions = json.loads(self.process.stdout.readline())

    def ask(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def oracle():
    running = Oracle(TORCH_PYTHON)
    try:
        yield running
    finally:
        running.close()


def test_the_vendored_files_are_allennlps():
    """The git blobs of allenai/allennlp@80fb6061's files (``git hash-object``)."""
    import hashlib

    blobs = {"bleu.py": "8e38c9d3e40ef0bda719779013bfac99cfbd2a1d",
             "metric.py": "6e7ea58ffff62b81415c0acf6b4624680771d1e8",
             "util.py": "75c11174e55c202b2297e6321cf737bda091ef9b",
             "LICENSE": "9b259bdfcf9022e7f4999a318ab7261300644e11"}
    for name, blob in blobs.items():
        data = (HERE / "oracles" / "allennlp" / name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name


def test_allennlps_own_test_case():
    """allennlp's ``test_bleu_computed_correctly`` (``tests/training/metrics/bleu_test.py``):
    ids 1, 2 as words, 0 the padding, excluded; its check ``exp(0.5 * (log 3 - log 6) + 0.5 *
    (log 1 - log 3))`` holds to ``assert_allclose`` (the 1e-13 shifts the last digits)."""
    result = score([f"a {PAD} {PAD}", f"a a {PAD}", "a a a"],
                   [[f"b {PAD} {PAD}"], [f"a {PAD} {PAD}"], ["a a b"]], NAME,
                   ngram_weights=(0.5, 0.5), exclude_indices=[0])
    assert (result.counts, result.totals, result.hyp_len, result.ref_len) == ((3, 1), (6, 3), 6, 5)
    assert math.isclose(result.score, math.exp(0.5 * (math.log(3) - math.log(6))
                                               + 0.5 * (math.log(1) - math.log(3))),
                        rel_tol=1e-7)


def test_padding_counts_unless_excluded():
    """Without ``exclude_indices`` the padding is words: in the lengths and the n-grams."""
    padded = score([f"a b {PAD}"], [["a b c"]], NAME)
    excluded = score([f"a b {PAD}"], [["a b c"]], NAME, exclude_indices=[0])
    assert (padded.hyp_len, excluded.hyp_len) == (3, 2)
    assert padded.bp == 1.0 and excluded.bp == math.exp(1 - 3 / 2)


def test_one_reference_per_segment():
    with pytest.raises(ConventionDeclined):
        score(["a b"], [["a b", "a"]], NAME)
    with pytest.raises(ConventionDeclined):
        score(["a b"], [[]], NAME)


@pytest.mark.parametrize("bad", [[2], ["a b"], [""], "@end@", [True]])
def test_exclude_indices_takes_words_or_the_reserved_indices(bad):
    with pytest.raises(ValueError, match="exclude_indices"):
        score(["a"], [["a"]], NAME, exclude_indices=bad)


def test_the_case_files_values_come_from_the_tool():
    """Every expectation of the family is the vendored metric's (provenance), never the
    engine's."""
    assert_recorded_by_the_tool(FAMILY, NAME, "80fb6061")


def test_identify_names_allennlp():
    """A number the real metric gave (recorded in the case family), to four digits."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    case = next(c for c in load_file(FAMILY)[0] if c.id == "anlp-zero-match-order-is-tiny")
    value = next(e.value for e in case.expectations if e.convention == NAME and not e.options)
    found = identify(from_case(case), f"{float(value):.4g}")
    assert NAME in {m["convention"] for m in found["matches"]}


# --- live: the real metric, where torch is installed ------------------------------------------

CONTENT = ["a", "b", "c", "a", "b", "the", "cat", "é", "日本", UNK]
#: Never @end@ without the padding: the padding after it would leave it between two words,
#: which the engine declines (test_an_excluded_word_between_two_others_is_declined).
EXCLUDES = [(), (0,), (0, END), (0, START, END), (START,), (1,), (0, 1, START, END)]
WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), (1 / 3, 1 / 3, 1 / 3),
           (0.1, 0.2, 0.3, 0.4), (0.5, 0.5, 0.5, 0.5, 0.5), (0, 0, 1), (2, -1)]


def excluded_words(exclude: tuple) -> set[str]:
    return {{0: PAD, 1: UNK}.get(item, item) for item in exclude}


@st.composite
def row(draw, exclude: tuple) -> list[str]:
    """Content words (none excluded between others), maybe ``@start@`` first and ``@end@``
    (or several) last."""
    banned = excluded_words(exclude)
    words = [w for w in CONTENT if w not in banned] or ["a"]
    content = draw(st.lists(st.sampled_from(words + [w for w in (START, END) if w not in banned]),
                            max_size=7))
    start = [START] if draw(st.booleans()) else []
    end = [END] * draw(st.integers(0, 2))
    return start + content + end


@st.composite
def allennlp_input(draw) -> dict:
    exclude = draw(st.sampled_from(EXCLUDES))
    weights = draw(st.sampled_from(WEIGHTS))
    n = draw(st.integers(0, 5))
    hyps = [draw(row(exclude)) for _ in range(n)]
    refs = [hyp[:] if hyp and draw(st.integers(0, 3)) == 0 else draw(row(exclude))
            for hyp in hyps]
    batches: list[int] = []
    while sum(batches) < n:
        batches.append(draw(st.integers(1, n - sum(batches))))
    hyp_rows, ref_rows, start = [], [], 0
    for size in batches:  # each call's rows padded to its longest (the padding written out)
        for rows, out in ((hyps, hyp_rows), (refs, ref_rows)):
            chunk = rows[start:start + size]
            width = max(map(len, chunk))
            out.extend(r + [PAD] * (width - len(r)) for r in chunk)
        start += size
    options = {"ngram_weights": list(weights)}
    if exclude:
        options["exclude_indices"] = list(exclude)
    return {"hypotheses": [" ".join(r) for r in hyp_rows],
            "references": [[" ".join(r)] for r in ref_rows], "options": options,
            "batches": batches, "level": "sentence" if n == 1 and draw(st.booleans()) else "corpus"}


def compare(request: dict, theirs: dict) -> None:
    ours = score(request["hypotheses"], request["references"], NAME, request["level"],
                 **request["options"])
    what = json.dumps(request, ensure_ascii=False)
    assert "error" not in theirs, (what, theirs)
    assert float(ours.score).hex() == float(theirs["score"]).hex(), (what, ours.score, theirs)
    order = len(request["options"]["ngram_weights"])
    if request["hypotheses"]:
        assert list(ours.counts) == theirs["matches"][:order], what
        assert list(ours.totals) == theirs["totals"][:order], what
    assert (ours.hyp_len, ours.ref_len) == (theirs["prediction_lengths"],
                                            theirs["reference_lengths"]), what


@live
def test_live_oracle_versions(oracle):
    assert oracle.versions["allennlp"] == "2.10.1"
    print(oracle.versions, file=sys.stderr)


@live
@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(request=allennlp_input())
@example(request={"hypotheses": [], "references": [], "options": {"ngram_weights": [0.25] * 4},
                  "batches": [], "level": "corpus"})
@example(request={"hypotheses": [""], "references": [[""]],
                  "options": {"ngram_weights": [0.25] * 4}, "batches": [1], "level": "sentence"})
@example(request={"hypotheses": [f"a b {PAD} {PAD}", "a b c d"],
                  "references": [["a b c d"], ["a b c d"]],
                  "options": {"ngram_weights": [0.25] * 4}, "batches": [2], "level": "corpus"})
@example(request={"hypotheses": [f"{START} a b c {END} {PAD}"],
                  "references": [[f"{START} a b c d {END}"]],
                  "options": {"ngram_weights": [0.25] * 4, "exclude_indices": [0, START, END]},
                  "batches": [1], "level": "corpus"})
def test_live_against_allennlp(oracle, request):
    compare(request, oracle.ask(request))


@live
def test_live_an_excluded_word_inside_a_row_is_declined(oracle):
    """allennlp forms no n-gram across an excluded word inside a row (``util.py:514-515``):
    'a <unk> b' has no bigram there, where the words without it would have (a, b). The
    engine, whose statistics hold one token list per segment, declines such a row rather
    than give another number."""
    request = {"hypotheses": [f"a {UNK} b"], "references": [["a b"]],
               "options": {"ngram_weights": [0.5, 0.5], "exclude_indices": [1]}}
    theirs = oracle.ask(request)
    assert theirs["totals"] == [2.0, 0.0]
    with pytest.raises(ConventionDeclined, match="between two others"):
        score(request["hypotheses"], request["references"], NAME, **request["options"])


@pytest.mark.parametrize("hyp, ref, declined", [
    (f"a {UNK} b", "a b", True), ("a b", f"a {UNK} {UNK} b", True),
    (f"{UNK} a b {UNK}", "a b", False), (f"{UNK} {UNK}", "a b", False),
    ("a b", f"a b {UNK}", False)])
def test_an_excluded_word_between_two_others_is_declined(hyp, ref, declined):
    """On either side; excluded words at the ends of a row are the row without them."""
    def scored():
        return score([hyp], [[ref]], NAME, exclude_indices=[1])
    if declined:
        with pytest.raises(ConventionDeclined, match="between two others"):
            scored()
    else:
        assert scored().score >= 0
