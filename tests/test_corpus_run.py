"""The session's whole-corpus run (tests/conftest.py ``corpus_run``: the engine on the bundled
corpus with every reference backend, its stream and HTML report) and what is read from it:
the corpus passes, every divergence between conventions is explained by the knob model, the
HTML report has a row per case, and the divergence map page of the docs
(docs/divergence-map.md) is the map of today's corpus and engine -- its generated table is
what ``tools/divergence_map.py`` renders from this run, so it cannot go stale.

The tests that read the run live in this one file: it is one xdist scope, scheduled first
(tests/conftest.py), so the other worker runs the rest of the suite meanwhile."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from runs import corpus_size, embedded

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_corpus_runs_clean(corpus_run):
    run_read = corpus_run["run"]
    assert corpus_run["exit_code"] == 0, [(r.case, r.message) for r in run_read.checks
                                          if r.verdict in ("fail", "error")]
    kinds = {(r.check, r.verdict) for r in run_read.checks}
    assert {("expectation", "pass"), ("drift", "pass"), ("differential", "pass"),
            ("divergence", "divergence")} <= kinds
    assert {b.name for b in run_read.header.backends} >= {"own", "nltk", "sacrebleu"}
    assert all(b.version for b in run_read.header.backends if b.ready)
    assert run_read.footer.status == "complete"


def test_the_knob_model_explains_every_divergence_of_the_corpus(corpus_run):
    """Issue 14's goal: every pair of conventions that disagrees on a case has a cause --
    the knobs whose switch makes them agree, an exception against a value included."""
    divergences = [r for r in corpus_run["run"].checks if r.verdict == "divergence"]
    assert divergences
    unexplained = [(r.case, r.convention, r.other, (r.cause or {}).get("note"))
                   for r in divergences if not (r.cause or {}).get("explained")]
    assert not unexplained, unexplained[:10]
    errors = [r for r in divergences if "input_rules" in r.cause["knobs"]]
    assert errors and all("raises" in r.cause["sentence"] for r in errors)


def test_the_bundled_corpus_has_a_row_for_every_case(corpus_run):
    assert corpus_run["exit_code"] == 0
    text = corpus_run["html"].read_text(encoding="utf-8")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="?https?:', text)
    data = embedded(corpus_run["html"])
    assert len(data["matrix"]["rows"]) == corpus_size() and len(data["figures"]) == 2
    assert data["header"]["status"] == "passed"


def _tool():
    spec = importlib.util.spec_from_file_location("divergence_map_tool",
                                                  ROOT / "tools" / "divergence_map.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_divergence_map_is_the_map_of_this_corpus(corpus_run):
    assert corpus_run["exit_code"] == 0
    tool = _tool()
    committed = tool.block_of(tool.PAGE.read_text(encoding="utf-8"))
    assert committed == tool.render(corpus_run["run"]), (
        "docs/divergence-map.md is not the map of this corpus and engine: "
        "python tools/divergence_map.py")
