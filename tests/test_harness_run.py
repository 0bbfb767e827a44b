"""``bleu-harness run`` as a user meets it: what it catches, the reports, diff, help."""

from __future__ import annotations

import json

import pytest
from runs import CORPUS, FAKE, NLTK_CHECKS, ONE_LIBRARY, TESTS, checks, run
from tiers import exhaustive_only

from bleu_harness.cli import main
from bleu_harness.report.stream import read_run

TIES = str(CORPUS / "families" / "ref-length.yaml")
#: The two files that hold every ``tie-*`` and ``closest-vs-shortest-*`` case of the corpus:
#: ``--select`` on them picks what it picks on the whole corpus, without loading it.
REF_LENGTH = (TIES, str(CORPUS / "families" / "ref-length-ties.yaml"))


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


@exhaustive_only
def test_bundled_corpus_runs_clean_with_the_pure_python_pass(tmp_path, monkeypatch):
    """The engine without its C kernel (``BLEU_HARNESS_NATIVE=0``, inherited by the engine's
    worker) passes the corpus too: the pure-Python pass is the fallback on a machine without
    a compiler, and the C pass is tested against it only on generated inputs. Every recorded
    value, and live NLTK's answer on every case (``--backend nltk``: the engine is under
    test; no divergence map, which no assertion here reads and which asks the engine every
    convention on every case)."""
    monkeypatch.setenv("BLEU_HARNESS_NATIVE", "0")
    stream = tmp_path / "python.jsonl"
    code = main(["run", "--backend", "nltk", "--format", "json", "--output", str(stream),
                 "--quiet"])
    run_read = read_run(stream)
    assert code == 0, [(r.case, r.message) for r in run_read.checks
                       if r.verdict in ("fail", "error")]
    assert {(r.check, r.verdict) for r in run_read.checks} >= {("expectation", "pass"),
                                                               ("differential", "pass")}


def test_first_reference_tie_break_is_caught_and_tagged():
    result, _ = run(implementation="miniatures:first_reference_wins_ties", claims="nltk",
                    select="tie-*", paths=(TIES,), backends=NLTK_CHECKS)
    assert result.exit_code == 1
    failed = checks(result, verdict="fail")
    assert {c.case for c in failed} == {"tie-two-refs-longer-first", "tie-three-refs",
                                        "tie-corpus-mixed-text"}
    assert all("ref-length-tie" in c.tags for c in failed)
    assert checks(result, "differential", "fail")


def test_wrong_scale_is_tagged_scale():
    result, _ = run(implementation="miniatures:wrong_scale", claims="nltk",
                    paths=REF_LENGTH, select="closest-vs-shortest-*", backends=NLTK_CHECKS)
    failed = checks(result, "expectation", "fail")
    assert failed and all("scale" in c.tags for c in failed)


def test_json_markdown_and_junit_reports(tmp_path, capsys):
    stream_file, markdown, junit = tmp_path / "run.jsonl", tmp_path / "run.md", tmp_path / "j.xml"
    assert main(["run", *REF_LENGTH, *ONE_LIBRARY, "--select", "tie-*", "--format", "json", "--output",
                 str(stream_file), "--junit-xml", str(junit)]) == 0
    run_read = read_run(stream_file)
    assert run_read.header.corpus_hash and run_read.footer.exit_code == 0
    assert "<testsuite" in junit.read_text() and 'name="expected"' in junit.read_text()
    assert main(["run", *REF_LENGTH, *ONE_LIBRARY, "--select", "tie-*", "--format", "markdown", "--output",
                 str(markdown)]) == 0
    assert markdown.read_text().startswith("## bleu-harness run: passed")
    assert not list(tmp_path.glob(".*.tmp"))


def test_diff_reports_what_got_worse(tmp_path, capsys):
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    assert main(["run", *REF_LENGTH, *ONE_LIBRARY, "--select", "tie-*", "--format", "json", "--output",
                 str(old)]) == 0
    assert main(["run", *REF_LENGTH, *ONE_LIBRARY, "--select", "tie-*", "--implementation",
                 "miniatures:first_reference_wins_ties", "--claims", "nltk", "--format", "json",
                 "--output", str(new)]) == 1
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    assert "Newly failing" in out and "tie-two-refs-longer-first" in out
    # a value that moved from the engine to the implementation is labelled with both (it was
    # labelled with the first run's backend alone, as if the engine's value had changed)
    drift = out[out.index("### Value drift"):].splitlines()[2:]
    assert drift and all("own → miniatures:first_reference_wins_ties as nltk" in line
                         for line in drift if line.startswith("- ")), drift
    assert main(["diff", str(old), str(old)]) == 0
    capsys.readouterr()
    other = tmp_path / "other.jsonl"
    assert main(["run", str(CORPUS / "seeds"), *ONE_LIBRARY, "--select", "tie-*", "--format", "json",
                 "--output", str(other)]) == 2  # no case of seeds/ is a tie case
    assert main(["run", TIES, *ONE_LIBRARY, "--format", "json", "--output", str(other)]) == 0
    capsys.readouterr()
    main(["diff", str(old), str(other), "--format", "json"])
    assert json.loads(capsys.readouterr().out)["corpus_changed"] is True


def test_help_reads_well(capsys):
    for command in ([], ["run"], ["validate"], ["diff"], ["score"], ["explain"], ["identify"],
                    ["fingerprint"]):
        with pytest.raises(SystemExit) as done:
            main([*command, "--help"])
        assert done.value.code == 0
    out = capsys.readouterr().out
    assert "exit codes" in out and "--implementation-cmd" in out and "HYP_FILE" in out
    assert "130" in out and "--known" in out and "--jobs" in out


def test_figures_are_checked_where_a_backend_reports_them():
    """An implementation under test answers scores only: a precision figure is unsupported
    for it, while NLTK's list-of-weights scores (scores.N) are drift-checked on NLTK itself
    and checked on the implementation's list."""
    result, _ = run(implementation="miniatures:faithful", claims="nltk",
                    paths=(str(CORPUS / "seeds" / "nltk-docs.yaml"),), backends=NLTK_CHECKS)
    figures = [c for c in checks(result, "expectation") if c.figure.startswith("precision")]
    assert figures and all(c.verdict == "unsupported" for c in figures)
    assert any("not precision.1" in c.message for c in figures)
    lists = [c for c in checks(result) if c.figure.startswith("scores.")]
    assert {c.check for c in lists} == {"expectation", "drift"}
    assert all(c.verdict == "pass" for c in lists)


def test_an_implementation_that_returns_one_score_for_a_list_of_weights_fails():
    """NLTK returns a list for a list of weight vectors; one number is not the same answer."""
    result, _ = run(implementation_cmd=f"{FAKE} ok", claims="nltk",
                    paths=(str(CORPUS / "families" / "weights.yaml"),), select="*-list",
                    backends=NLTK_CHECKS)
    lists = checks(result, "expectation")
    assert lists and any("a list of scores" in c.message for c in lists)
    assert result.exit_code == 1


def test_no_map_leaves_the_divergence_map_out_and_checks_the_same(tmp_path):
    """``--no-map``: the engine's conventions are not scored against each other; every other
    check is the same."""
    streams = {}
    for flags in ((), ("--no-map",)):
        stream = tmp_path / f"run{len(flags)}.jsonl"
        assert main(["run", TIES, *ONE_LIBRARY, *flags, "--format", "json", "--output", str(stream),
                     "--quiet"]) == 0
        streams[flags] = read_run(stream).checks
    mapped, unmapped = streams[()], streams[("--no-map",)]
    assert any(r.verdict == "divergence" for r in mapped)
    assert not any(r.verdict == "divergence" for r in unmapped)
    assert [r for r in mapped if r.verdict != "divergence"] == list(unmapped)
    with pytest.raises(SystemExit) as done:
        main(["run", TIES, "--map", "--no-map"])
    assert done.value.code == 2
