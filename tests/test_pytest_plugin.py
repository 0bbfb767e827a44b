"""The pytest plugin: case files collected through pytest's own hooks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).parents[1] / "cases"


def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-o", "addopts=", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_collects_every_case_of_the_corpus(tmp_path):
    done = pytest_run(str(CORPUS), "--collect-only", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matlab.yaml::matlab-evaluate-summary" in done.stdout
    assert "ref-length.yaml::tie-three-refs" in done.stdout


def test_failure_shows_yaml_lines_expected_actual_and_tags(tmp_path):
    text = (CORPUS / "families" / "ref-length.yaml").read_text(encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(
        text.replace('value: "0.7788007830714049"', 'value: "0.7"'), encoding="utf-8")
    junit = tmp_path / "junit.xml"
    done = pytest_run("cases.yaml", f"--junitxml={junit}", cwd=tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert "case closest-vs-shortest-tf-nmt-450 (" in out and "cases.yaml:" in out
    assert "|   - id: closest-vs-shortest-tf-nmt-450" in out
    assert "expected 0.7   actual 0.7788007830714049" in out and "closest-vs-shortest" in out
    assert "Traceback" not in out and "1 failed" in out
    assert 'name="provenance"' in junit.read_text()
