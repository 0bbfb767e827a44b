import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

from ci_oracles import pytest_runtest_makereport  # noqa: E402,F401  (a hook: CI=true)


def _run_to_files(folder: Path, name: str, *arguments: str) -> dict:
    """One whole-corpus run, its stream and HTML report written; shared by the tests that
    read them (each such run costs seconds)."""
    from bleu_harness.cli import main
    from bleu_harness.report.stream import read_run

    stream, html = folder / f"{name}.jsonl", folder / f"{name}.html"
    here = os.getcwd()
    os.chdir(TESTS)  # --implementation imports the miniatures from here
    try:
        code = main(["run", *arguments, "--format", "json", "--output", str(stream),
                     "--html", str(html), "--quiet"])
    finally:
        os.chdir(here)
    return {"exit_code": code, "stream": stream, "html": html, "run": read_run(stream)}


@pytest.fixture(scope="session")
def corpus_run(tmp_path_factory) -> dict:
    """The engine on the bundled corpus."""
    return _run_to_files(tmp_path_factory.mktemp("corpus"), "clean")


@pytest.fixture(scope="session")
def tie_bug_run(tmp_path_factory) -> dict:
    """An NLTK implementation whose only bug is breaking length ties toward the first
    reference (torchmetrics' rule), on the bundled corpus."""
    return _run_to_files(tmp_path_factory.mktemp("tie-bug"), "failing", "--implementation",
                         "miniatures:first_reference_wins_ties", "--claims", "nltk")
