"""What the views print is true (issue 26): tiny answers are not rounded to zero, streams
read back whatever text they hold, a changed setup or an interrupted run heads a diff, skips
are named, one-line messages stay one line, report files are never lost or half-written."""

from __future__ import annotations

import json

import pytest
from runs import TESTS

from harness.cli import main
from harness.explain.fingerprint import render


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


# --- 6: fingerprint answers --------------------------------------------------------------

def test_fingerprint_keeps_nltks_tiny_zero_overlap_answers(capsys):
    """Issue 26.6: answers were rounded to 10 decimals, so NLTK's 6.2e-78 read 0.0."""
    assert main(["fingerprint", "--implementation", "miniatures:faithful",
                 "--format", "json"]) == 0
    families = {f["family"]: f for f in json.loads(capsys.readouterr().out)["families"]}
    answers = families["zero-overlap"]["answers"]
    tiny = {k: a for k, a in answers.items() if k != "b01-zero-overlap"}  # no match at all: 0
    assert tiny and all(0 < a < 1e-70 for a in tiny.values()), answers


def test_fingerprint_prints_a_tiny_answer_on_significant_digits():
    document = {"implementation": "x", "scale": "0-1", "explanation": None,
                "closest_overall": [], "families": [
                    {"family": "zero-overlap", "like": [], "behaviour": "",
                     "answers": {"b01": 6.2e-78, "b02": 0.0, "b03": "raises"}}]}
    assert "b01=6.2e-78, b02=0, b03=raises" in render(document)
