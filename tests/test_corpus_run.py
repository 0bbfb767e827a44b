"""The session's whole-corpus runs (tests/conftest.py): ``corpus_run``, the engine on the
bundled corpus with every reference backend, its stream and HTML report, and ``corpus_map_run``,
the same with the divergence map (the exhaustive tier's: the map is most of a run's time).
What is read from them: the corpus passes, the HTML report has a row per case, every
divergence between conventions is explained by the knob model, and the divergence map page of
the docs (docs/divergence-map.md) is the map of today's corpus and engine -- its generated
table is what ``tools/divergence_map.py`` renders from the run, so it cannot go stale. In the
quick tier the knob model explains the map of the divergence families.

The tests that read the whole-corpus runs live in this one file: it is one xdist scope,
scheduled first (tests/conftest.py), so the other worker runs the rest of the suite
meanwhile."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from runs import CORPUS, corpus_size, embedded
from tiers import exhaustive_only

from bleu_harness.cli import main
from bleu_harness.report.stream import read_run

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_corpus_runs_clean(corpus_run):
    run_read = corpus_run["run"]
    assert corpus_run["exit_code"] == 0, [(r.case, r.message) for r in run_read.checks
                                          if r.verdict in ("fail", "error")]
    kinds = {(r.check, r.verdict) for r in run_read.checks}
    assert {("expectation", "pass"), ("drift", "pass"), ("differential", "pass")} <= kinds
    assert {b.name for b in run_read.header.backends} >= {"own", "nltk", "sacrebleu"}
    assert all(b.version for b in run_read.header.backends if b.ready)
    assert run_read.footer.status == "complete"


def _unexplained(run) -> list:
    divergences = [r for r in run.checks if r.verdict == "divergence"]
    assert divergences
    errors = [r for r in divergences if "input_rules" in r.cause["knobs"]]
    assert errors and all("raises" in r.cause["sentence"] for r in errors)
    return [(r.case, r.convention, r.other, (r.cause or {}).get("note"))
            for r in divergences if not (r.cause or {}).get("explained")]


@exhaustive_only
def test_the_knob_model_explains_every_divergence_of_the_corpus(corpus_map_run):
    """Issue 14's goal: every pair of conventions that disagrees on a case has a cause --
    the knobs whose switch makes them agree, an exception against a value included."""
    assert corpus_map_run["exit_code"] == 0
    unexplained = _unexplained(corpus_map_run["run"])
    assert not unexplained, unexplained[:10]


#: The families where conventions part (no match, short hypotheses, length ties, empty
#: sides, case): the quick tier's map. Raw text, the costliest map of them, is explained by
#: the exhaustive tier's map of the whole corpus (above).
MAP_FAMILIES = ("zero-overlap.yaml", "ref-length-ties.yaml", "empty-inputs.yaml",
                "case.yaml", "brevity-penalty.yaml")


def test_the_knob_model_explains_the_map_of_the_divergence_families(tmp_path):
    stream = tmp_path / "map.jsonl"
    paths = [str(CORPUS / "families" / name) for name in MAP_FAMILIES]
    assert main(["run", *paths, "--backend", "own", "--format", "json", "--output",
                 str(stream), "--quiet"]) == 0
    unexplained = _unexplained(read_run(stream))
    assert not unexplained, unexplained[:10]


def test_the_bundled_corpus_has_a_row_for_every_case(corpus_run):
    assert corpus_run["exit_code"] == 0
    text = corpus_run["html"].read_text(encoding="utf-8")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="?https?:', text)
    data = embedded(corpus_run["html"])
    assert len(data["matrix"]["rows"]) == corpus_size()
    assert data["figures"] == []  # the divergence map's two figures: --no-map
    assert data["header"]["status"] == "passed"


def _tool():
    spec = importlib.util.spec_from_file_location("divergence_map_tool",
                                                  ROOT / "tools" / "divergence_map.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@exhaustive_only
def test_the_committed_divergence_map_is_the_map_of_this_corpus(corpus_map_run):
    assert corpus_map_run["exit_code"] == 0
    tool = _tool()
    committed = tool.block_of(tool.PAGE.read_text(encoding="utf-8"))
    assert committed == tool.render(corpus_map_run["run"]), (
        "docs/divergence-map.md is not the map of this corpus and engine: "
        "python tools/divergence_map.py")
