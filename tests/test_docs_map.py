"""The divergence map page of the docs (docs/divergence-map.md) is the map of today's corpus
and engine: its generated table is what ``tools/divergence_map.py`` renders from the
session's whole-corpus run (tests/conftest.py ``corpus_run``), so it cannot go stale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
