"""The divergence detectors (``bleu_harness.divergence.detectors``): one per tag of
``schema/tags.yaml``, read off the statistics pass the input's scorer keeps (issue 27, item
5: the tags ran a second, per-segment pass of their own).

The tags of every case of the bundled corpus are frozen in
``tests/data/input_tags_snapshot.json``, recorded by that per-segment pass (commit de9f6df);
the detectors give the same. Regenerate it only for a deliberate change:
``python tests/test_detectors.py``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bleu_harness.bleu import CONVENTIONS, api
from bleu_harness.cases.loader import load, tag_vocabulary
from bleu_harness.divergence.detectors import (
    DETECTED_TAGS,
    INPUT_DETECTORS,
    OPTION_DETECTORS,
    input_tags,
)
from bleu_harness.divergence.scorer import Scorer
from bleu_harness.judge import statistics_tags

SNAPSHOT = Path(__file__).resolve().parent / "data" / "input_tags_snapshot.json"


def tags(segments, level="corpus", tokenizer=None) -> list[str]:
    hyps = [hyp for hyp, _ in segments]
    refs = [list(refs) for _, refs in segments]
    return input_tags(Scorer(hyps, refs, level), tokenizer)


def test_every_detector_names_a_tag_of_the_vocabulary():
    assert set(DETECTED_TAGS) <= tag_vocabulary()
    assert list(INPUT_DETECTORS) == [
        "zero-overlap", "short-hypothesis", "empty-hypothesis", "empty-reference",
        "ref-length-tie", "closest-vs-shortest", "bp-boundary", "corpus-denominator-floor",
        "tokenization", "case"]  # the order tags are listed in, as before
    assert list(OPTION_DETECTORS) == ["smoothing", "effective-order", "weights", "case"]


def _snapshot() -> dict[str, list[str]]:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))["cases"]


def _corpus_tags() -> dict[str, list[str]]:
    return {case.id: statistics_tags(case, Scorer(case.hypotheses, case.references, case.level))
            for case in load().cases}


def test_the_bundled_corpus_is_tagged_as_the_per_segment_pass_tagged_it():
    recorded, now = _snapshot(), _corpus_tags()
    assert len(recorded) > 500
    assert {case: now.get(case) for case in recorded} == recorded
    assert sum(map(bool, recorded.values())) > 450  # nearly every case fires some tag


@pytest.mark.parametrize("segments, level, tokenizer, fires, not_fires", [
    # the first order with n-grams and no match
    ([("a b c d", ["a b c e"])], "sentence", None, ["zero-overlap@4"], ["zero-overlap@1"]),
    ([("a b", ["c d"])], "sentence", None, ["zero-overlap@1", "short-hypothesis"], []),
    ([("", ["a"])], "sentence", None, ["empty-hypothesis"], ["short-hypothesis"]),
    # 3 tokens between references of 4 and 2: the first-listed (4) is not the shorter (2)
    ([("a b c", ["a b c d", "a b"])], "sentence", None, ["ref-length-tie"], []),
    ([("a b c", ["a b", "a b c d"])], "sentence", None, [], ["ref-length-tie"]),
    ([("a b c d", ["a b c d", "a b"])], "sentence", None, ["closest-vs-shortest"],
     ["ref-length-tie"]),
    # 13a reads mteval's "<skipped>" as nothing: an empty reference; whitespace does not
    ([("a b c d", ["<skipped>", "a b c d"])], "sentence", "13a", ["empty-reference"], []),
    ([("a b c d", ["<skipped>", "a b c d"])], "sentence", None, [], ["empty-reference"]),
    # c == r over the segments that have references (3 == 3; the other has none)
    ([("a b c d", []), ("the cat sat", ["the cat sat"])], "corpus", None,
     ["empty-reference", "bp-boundary"], []),
    ([("a b c d", []), ("the cat", ["the cat sat"])], "corpus", None, [], ["bp-boundary"]),
    ([("a b c d e", ["a b c d e"]), ("a", ["a"])], "corpus", None,
     ["corpus-denominator-floor", "short-hypothesis", "bp-boundary"], []),
    ([("a", ["a"])], "sentence", None, ["short-hypothesis"], ["corpus-denominator-floor"]),
    ([("The cat sat on the mat", ["the cat sat on the mat"])], "sentence", None, ["case"],
     ["tokenization"]),
    ([("the cat.", ["the cat ."])], "sentence", None, ["tokenization"], ["case"]),
])
def test_each_detector_fires_where_its_tag_says(segments, level, tokenizer, fires, not_fires):
    found = tags(segments, level, tokenizer)
    assert set(fires) <= set(found) and not set(not_fires) & set(found), found


def test_input_that_cannot_be_counted_raises_value_error():
    with pytest.raises(ValueError, match="hypotheses"):
        input_tags(Scorer(["a", "b"], [["a"]], "corpus"))


def test_the_tags_and_the_knob_model_read_one_statistics_pass(monkeypatch):
    """The tags count the input once as it is and once case-folded; the knob model's NLTK
    (whitespace tokens, no folding) reads the first of those, not a pass of its own."""
    counted = []

    def counting(hypotheses, references, key, order):
        counted.append(key)
        return original(hypotheses, references, key, order)

    original = api.corpus_statistics
    monkeypatch.setattr(api, "corpus_statistics", counting)
    scorer = Scorer(["The cat sat on the mat", "a b"], [["the cat sat on the mat"], ["a c"]])
    found = input_tags(scorer)
    assert "case" in found and len(counted) == 2
    spec = CONVENTIONS["nltk"]
    scorer(spec.knobs(spec.resolve("corpus", {}), "corpus"))
    assert len(counted) == 2


def main() -> None:
    """Records the tags of every bundled case (a deliberate change only)."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, check=True,
                            text=True, cwd=SNAPSHOT.parent).stdout.strip()
    now = _corpus_tags()
    lines = [f"  {json.dumps(case)}: {json.dumps(now[case])}" for case in sorted(now)]
    SNAPSHOT.write_text(
        "{\n" + f'"recorded_with": "bleu_harness.divergence.detectors of commit {commit}, '
        'every case of the bundled corpus",\n"cases": {\n' + ",\n".join(lines) + "\n}\n}\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
