"""The version atlas (issue #12): the committed docs/atlas.md is the atlas of today's
corpus; an atlas of two releases shows what changed between them and why; a version range
that is too narrow or too wide is found, with the range the releases support."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from runs import CORPUS, run

from bleu_harness.cases.loader import load
from bleu_harness.report.atlas import (
    LibraryAtlas,
    Question,
    atlas_document,
    suggested_range,
)

ROOT = Path(__file__).resolve().parents[1]
ENVS = ROOT / ".atlas" / "envs"


def test_the_committed_atlas_is_the_atlas_of_this_corpus():
    text = (ROOT / "docs" / "atlas.md").read_text(encoding="utf-8")
    recorded = re.search(r"^Corpus: ([0-9a-f]{64})", text, re.M).group(1)
    assert recorded == load().corpus_hash, (
        "the case corpus changed since docs/atlas.md was made: python tools/atlas.py run "
        "&& python tools/atlas.py render (or tox p -m atlas && tox -e atlas)")
    assert "Every recorded value holds exactly for the releases its range names." in text


@pytest.mark.skipif(not all((ENVS / r / "bin" / "python").exists()
                            for r in ("nltk-3.4.5", "nltk-3.6.5")),
                    reason="NLTK 3.4.5 and 3.6.5 not prepared: python tools/atlas.py prepare --ci")
def test_an_atlas_of_two_releases_shows_the_method7_change_and_its_reasons():
    runs = []
    for release in ("nltk-3.4.5", "nltk-3.6.5"):
        result, _ = run(paths=(str(CORPUS / "seeds" / "blog.yaml"),), backends=("own", "nltk"),
                        library_python={"nltk": str(ENVS / release / "bin" / "python")})
        assert result.exit_code == 0
        runs.append(result.run())
    nltk = atlas_document(runs)["libraries"]["nltk"]
    assert nltk["releases"] == ["3.4.5", "3.6.5"]
    def method7(question):
        return (question["case"] == "blog-caveat-you-are-ready"
                and question["options"] == "smoothing=method7")

    change = next(b for b in nltk["behaviours"] for q in b["questions"] if method7(q))
    eras = next(q["eras"] for q in change["questions"] if method7(q))
    assert [e["answer"] for e in eras] == ["0.4002926439114545", "0.3265309055565624"]
    assert {r["since"] for r in change["reasons"]} >= {"3.5", "3.6"}
    assert nltk["ranges"] == []


def test_a_range_is_suggested_at_the_historys_release_boundaries():
    atlas = LibraryAtlas("nltk", ["3.2.5", "3.3", "3.4.5", "3.5", "3.6.2", "3.10.4"],
                         {("c", "", "score"): Question("c", "", "score")})
    assert suggested_range(atlas, ["3.3", "3.4.5", "3.5", "3.6.2", "3.10.4"]) == ">=3.3"
    assert suggested_range(atlas, ["3.2.5", "3.3", "3.4.5"]) == "<3.5"
    assert suggested_range(atlas, ["3.6.2", "3.10.4"]) == ">=3.6"
    sacre = LibraryAtlas("sacrebleu", ["1.4.14", "1.5.1", "2.0.0", "2.1.0", "2.2.1"], {})
    assert suggested_range(sacre, ["1.4.14", "2.2.1"]) == "!=1.5.*,!=2.0.*,!=2.1.*"


def test_identify_names_the_releases_that_computed_a_number(capsys):
    """The blog's method7 value is NLTK's only up to 3.4.5 (cases/families/nltk-versions.yaml,
    recorded from each release)."""
    from bleu_harness.cli import main

    assert main(["identify", "--hyp", "you are ready ?", "--ref", "are you ready ?",
                 "--score", "0.4003"]) == 0
    out = capsys.readouterr().out
    assert "smoothing: method7" in out and "release: as nltk >=3.2.2,<3.5" in out


def test_the_atlas_renders_as_html(tmp_path):
    from bleu_harness.report.atlas import render_html

    document = {"corpus": ["abc"], "libraries": {"nltk": {
        "releases": ["3.4.5", "3.6.5"], "questions": 1, "ranges": [],
        "behaviours": [{"at": ["3.6.5"], "reasons": [{"since": "3.6", "what": "w<b>",
                                                       "cite": "PR #2681"}],
                        "questions": [{"case": "c", "options": "defaults", "figure": "score",
                                       "eras": [{"releases": ["3.4.5"], "answer": "0.4"},
                                                {"releases": ["3.6.5"], "answer": "0.3"}]}]}]}}}
    page = render_html(document)
    assert "<h3>Changes at 3.6.5</h3>" in page and "w&lt;b&gt;" in page
    assert "0.4 ≤3.4.5, 0.3 from 3.6.5" in page
