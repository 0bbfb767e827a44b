"""Value comparison and case-file loading, on their own."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from runs import case_file, one_case

from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import load, load_file
from bleu_harness.compare import matches


@pytest.mark.parametrize("actual, printed, compare, ok", [
    (0.78254229, "0.7825", "printed", True),     # half a unit in the last digit: 5e-5
    (0.78256, "0.7825", "printed", False),
    (0.5920000001, "0.5920...", "printed", True),  # doctest ELLIPSIS: the repr starts so
    (0.5921, "0.5920...", "printed", False),
    (0.1 + 0.2, "0.30000000000000004", "exact", True),
    (0.3, "0.30000000000000004", "exact", False),
    (1.2882297539194154e-231, "1.2882297539194154e-231", "printed", True),
    (0.0, "1.2882297539194154e-231", "printed", False),  # tiny is not zero
    (1e-300, "0", "printed", False),  # an integer as printed is exact
    (0.0, "0", "printed", True),
    (math.nan, "NaN", "printed", True),
    (0.5, "NaN", "printed", False),
    (0.51, "0.5", 0.02, True),
    (0.53, "0.5", 0.02, False),
])
def test_matches(actual, printed, compare, ok):
    assert matches(actual, printed, compare) is ok


def test_problems_name_file_line_and_case(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        "schema: 1\ncases:\n"
        "  - id: fine\n    description: d\n    tags: [seed]\n    level: sentence\n"
        "    segments: [{hyp: a, refs: [a]}]\n"
        "    expect: [{convention: nltk, value: '0', provenance: {kind: documented, source: s, where: w}}]\n"
        "  - id: unquoted\n    description: d\n    tags: [seed]\n    level: sentence\n"
        "    segments: [{hyp: a, refs: [a]}]\n"
        "    expect: [{convention: nltk, value: 0.5, provenance: {kind: computed, source: s}}]\n",
        encoding="utf-8")
    cases, problems = load_file(path)
    assert [c.id for c in cases] == ["fine"]
    assert len(problems) == 1 and problems[0].line == 14 and problems[0].case_id == "unquoted"
    assert "quoted string" in problems[0].message
    assert str(problems[0]).startswith(f"{path}:14: unquoted: ")


def test_lint_rules(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        "schema: 1\ncases:\n"
        "  - id: twice\n    description: d\n    tags: [no-such-tag]\n    level: sentence\n"
        "    segments: [{hyp: a, refs: [a]}, {hyp: b, refs: [b]}]\n"
        "    expect: [{convention: nltk, value: '0.5', compare: exact, options: {smoothing: method9},"
        " provenance: {kind: computed, source: s}}]\n"
        "  - id: twice\n    description: d\n    tags: []\n    level: corpus\n"
        "    segments: [{hyp: a, refs: [a]}]\n    expect: []\n", encoding="utf-8")
    messages = " ".join(p.message for p in lint(load([path]).cases))
    for rule in ("BH001", "BH002", "BH003", "BH005", "BH006", "BH007"):
        assert rule in messages, rule


def test_bundled_corpus_is_valid():
    loaded = load()
    assert loaded.cases and not loaded.problems and not lint(loaded.cases)


def test_load_mentioning_parses_only_the_files_that_name_a_word(tmp_path):
    """``load(mentioning=...)`` (fingerprint's probes): a file that names none of the words
    is not parsed -- not even its problems are read -- and one that does is loaded whole."""
    case_file(tmp_path, "a.yaml", one_case("alpha") + one_case("gamma"))
    case_file(tmp_path, "b.yaml", one_case("beta"))
    (tmp_path / "c.yaml").write_text("schema: 1\ncases: [unclosed\n", encoding="utf-8")
    everything = load([str(tmp_path)])
    assert sorted(c.id for c in everything.cases) == ["alpha", "beta", "gamma"]
    assert [Path(p.file).name for p in everything.problems] == ["c.yaml"]
    named = load([str(tmp_path)], mentioning=["alpha"])
    assert [c.id for c in named.cases] == ["alpha", "gamma"] and not named.problems


def test_a_file_loaded_again_gives_what_it_holds_now(tmp_path):
    """Cases built once per process (``loader._BUILT``) are those of the file's bytes: an
    edit is seen on the next load, and a case reading data files (``files:``) reads them
    again."""
    path = case_file(tmp_path, "a.yaml", one_case("alpha"))
    (tmp_path / "hyp.txt").write_text("a b c d\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a b c d\n", encoding="utf-8")
    filed = case_file(tmp_path, "b.yaml", one_case("beta").replace(
        "    segments: [{hyp: a b c d, refs: [a b c d]}]\n",
        "    files: {hypotheses: hyp.txt, references: [ref.txt]}\n"))
    first = load([str(tmp_path)])
    assert [c.id for c in first.cases] == ["alpha", "beta"], first.problems
    assert load([str(tmp_path)]).cases[0] is first.cases[0]  # built once
    path.write_text(path.read_text(encoding="utf-8").replace("alpha", "omega"),
                    encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c e\n", encoding="utf-8")
    again = load([str(tmp_path)])
    assert [c.id for c in again.cases] == ["omega", "beta"]
    assert again.cases[1].hypotheses == ["a b c e"] and filed.is_file()
