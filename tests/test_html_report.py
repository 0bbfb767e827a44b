"""The single-file HTML report: self-contained, a matrix row per case, a cause for every
failure, changed cells first for two runs -- and, where a Chromium is installed, loaded in a
real headless browser: no console error, the plots drawn, a filter and a cell that work.

The bundled corpus's report (the session's one whole-corpus run, tests/conftest.py) is
checked for its rows and its self-containment; the failing run, the comparison and the
browser take the small corpus of the tie bug (runs.TIE_CORPUS)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from runs import TIE_CORPUS, corpus_size, embedded
from tiers import exhaustive_only

from bleu_harness.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def reports(tie_corpus_run, tie_bug_run, tmp_path_factory) -> dict[str, Path]:
    """A clean run of the small corpus, the failing implementation on it, and the two
    compared."""
    assert tie_corpus_run["exit_code"] == 0 and tie_bug_run["exit_code"] == 1
    compared = tmp_path_factory.mktemp("compared") / "compared.html"
    assert main(["report", str(tie_corpus_run["stream"]), str(tie_bug_run["stream"]), "-o",
                 str(compared)]) == 0
    return {"clean": tie_corpus_run["html"], "failing": tie_bug_run["html"],
            "compared": compared}


def test_the_report_is_one_file_that_needs_no_network(reports):
    text = reports["clean"].read_text(encoding="utf-8")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="?https?:', text)
    assert "Plotly" in text and len(text) > 1_000_000  # the plotting library is inlined
    data = embedded(reports["clean"])
    assert len(data["matrix"]["rows"]) == corpus_size(TIE_CORPUS) and len(data["figures"]) == 2
    assert data["header"]["status"] == "passed"


def test_every_failure_in_the_report_names_its_cause(reports):
    data = embedded(reports["failing"])
    failing = [c for d in data["matrix"]["details"].values() for c in d["checks"]
               if c["verdict"] == "fail"]
    assert failing and all("the first-listed on a tie" in c["cause"] for c in failing)
    assert data["header"]["exit"] == 1


def test_two_runs_put_the_changed_cells_first(reports):
    rows = embedded(reports["compared"])["matrix"]["rows"]
    changed = [r["changed"] for r in rows]
    assert any(changed) and changed == sorted(changed, reverse=True)


def test_the_inputs_of_a_case_show_invisible_characters():
    from bleu_harness.text import visible

    assert visible("a\tb\u00a0c\u200b ") == "a⇥b⍽c<U+200B>·"


@exhaustive_only
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")
def test_the_report_works_in_a_real_browser(reports, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    errors: list[str] = []
    cases = corpus_size(TIE_CORPUS)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(reports["clean"].as_uri())
            page.wait_for_selector("#plot-1 .main-svg", timeout=30_000)
            assert page.locator("#plot-0 .main-svg").count() and page.locator(
                "#matrix tbody tr").count() == cases
            page.goto(reports["failing"].as_uri())  # its run has no map: no plots
            page.wait_for_selector("#matrix tbody tr", timeout=30_000)
            assert page.locator("#matrix tbody tr").count() == cases
            page.select_option("#filter-verdict", "fail")
            failing = page.locator("#matrix tbody tr").count()
            assert 0 < failing < cases
            page.locator("#matrix td.cell.v-fail").first.click()
            page.wait_for_selector("#detail:not([hidden])")
            assert "first-listed on a tie" in page.locator("#detail").inner_text()
            page.select_option("#filter-verdict", "")
            page.fill("#filter-text", "perl-multi-bleu-059")
            assert page.locator("#matrix tbody tr").count() == 1
            screenshot = tmp_path / "report.png"
            page.screenshot(path=str(screenshot), full_page=False)
            assert screenshot.stat().st_size > 10_000
        finally:
            browser.close()
    assert errors == []
