"""The pytest plugin: case files collected through pytest's own hooks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from runs import inner_pytest
from tiers import exhaustive_only, sampled

from bleu_harness.cases.loader import load

CORPUS = Path(__file__).parents[1] / "cases"


def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """pytest in a subprocess (runs.inner_pytest), without the project's addopts."""
    return inner_pytest("-p", "no:cacheprovider", "-o", "addopts=", *args, cwd=cwd)


@pytest.mark.parametrize("paths", sampled([
    ("seeds/matlab.yaml", "families/ref-length.yaml"), (".",)], one_argument=True))
def test_collects_every_case_of_the_corpus(tmp_path, paths):
    """Every case of the files named, each an item (the quick tier: two files of the
    corpus; the exhaustive tier: the whole corpus too)."""
    done = pytest_run(*(str(CORPUS / p) for p in paths), "--collect-only", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matlab.yaml::matlab-evaluate-summary" in done.stdout
    assert "ref-length.yaml::tie-three-refs" in done.stdout
    expected = len(load([CORPUS / p for p in paths]).cases)
    assert f"{expected} tests collected" in done.stdout, done.stdout[-500:]


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
    # without --bleu-backend: every installed library, each named with its version
    assert "checked against nltk " in out and "sacrebleu " in out


def test_another_projects_yaml_is_never_collected(tmp_path):
    """Installed into another project, the plugin took over its YAML: ``db.yaml`` with
    ``schema: public`` and ``fixtures.yaml`` with ``cases:`` gave 11 failed tests beside its
    one passing test. Only case corpora (a CORPUS_ROOT file), the paths named by
    ``bleu_harness_cases`` / ``--bleu-harness-cases`` and files named on the command line are
    case files."""
    (tmp_path / "db.yaml").write_text("schema: public\ntables: [a]\n", encoding="utf-8")
    (tmp_path / "fixtures.yaml").write_text("cases:\n  - name: x\n", encoding="utf-8")
    (tmp_path / "helm.yaml").mkdir()
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text("def test_x():\n    assert True\n", encoding="utf-8")
    done = pytest_run(cwd=tmp_path)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
    assert "failed" not in done.stdout


def test_case_files_are_collected_where_the_user_says(tmp_path):
    good = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    mine = tmp_path / "bleu"
    mine.mkdir()
    (mine / "matlab.yaml").write_text(good, encoding="utf-8")
    assert "no tests ran" in pytest_run(cwd=tmp_path).stdout  # not asked for: not collected
    by_option = pytest_run("--bleu-harness-cases", "bleu", "--collect-only", "-q", cwd=tmp_path)
    assert "matlab.yaml::matlab-evaluate-summary" in by_option.stdout, by_option.stdout
    (tmp_path / "pytest.ini").write_text("[pytest]\nbleu_harness_cases = bleu\n", encoding="utf-8")
    by_ini = pytest_run("--collect-only", "-q", cwd=tmp_path)
    assert "matlab.yaml::matlab-evaluate-summary" in by_ini.stdout, by_ini.stdout
    named = pytest_run("bleu/matlab.yaml", "-o", "bleu_harness_cases=", "--collect-only", "-q",
                       cwd=tmp_path)
    assert "matlab.yaml::matlab-evaluate-summary" in named.stdout, named.stdout


def test_the_user_chooses_the_libraries_and_the_session_names_them(tmp_path):
    """``--bleu-backend`` (or the ini option ``bleu_harness_backends``) starts only the named
    libraries beside the engine; the session's summary names each one checked against, with
    its version (every installed one without the option: the failure test above); a name
    that is not a backend is a usage error before anything runs."""
    (tmp_path / "cases.yaml").write_text(
        (CORPUS / "families" / "ref-length-ties.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    chosen = pytest_run("cases.yaml", "--bleu-backend", "nltk", cwd=tmp_path)
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    line = next(x for x in chosen.stdout.splitlines() if "checked against" in x)
    assert "nltk " in line and "sacrebleu" not in line and "not available" not in line, line
    (tmp_path / "pytest.ini").write_text("[pytest]\nbleu_harness_backends = sacrebleu\n",
                                         encoding="utf-8")
    by_ini = pytest_run("cases.yaml", cwd=tmp_path)
    line = next(x for x in by_ini.stdout.splitlines() if "checked against" in x)
    assert "sacrebleu " in line and "nltk" not in line, line
    typo = pytest_run("cases.yaml", "--bleu-backend", "nltx", cwd=tmp_path)
    assert typo.returncode == 4 and "--bleu-backend 'nltx': unknown (did you mean 'nltk'?" \
        in typo.stderr, typo


@pytest.mark.parametrize("special", ["/dev/null", "fifo", "fifo.yaml", "socket.yml"])
def test_a_special_file_named_beside_a_case_file_is_its_problem_and_the_rest_runs(
        tmp_path, special):
    """Issue 41.7: ``pytest ok.yaml /dev/null`` stopped the session (exit 4: pytest offers
    only regular files to the hooks) and ``ok.yaml`` never ran; ``run`` reports the bad path
    and runs the rest, and so does the plugin now."""
    import socket

    good = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    (tmp_path / "ok.yaml").write_text(good, encoding="utf-8")
    server = None
    if special.startswith("fifo"):
        os.mkfifo(tmp_path / special)
    elif special.startswith("socket"):
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / special))
    try:
        done = pytest_run("-rf", "--bleu-backend", "own", "ok.yaml", special, cwd=tmp_path)
    finally:
        if server is not None:
            server.close()
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "1 failed" in out and " passed" in out, out
    assert "not a regular file" in out and "Traceback" not in out, out


def test_the_plugin_loads_nothing_of_the_harness_until_a_case_file_is_seen():
    """The ``pytest11`` entry point is imported by every pytest session of an environment
    bleu-harness is installed in: it imported the loader, the executor, the judge and the
    engine (135 ms, +64 % on another project's start-up). Only the hooks load now; the
    items' module comes with the first case file."""
    import json
    import sys

    probe = ("import json, sys, pytest\n"
             "import bleu_harness.pytest_plugin\n"
             "print(json.dumps(sorted(sys.modules)))\n")
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True,
                                           text=True, check=True).stdout))
    heavy = {"bleu_harness.bleu", "bleu_harness.cases.loader", "bleu_harness.execute",
             "bleu_harness.judge", "bleu_harness.pytest_plugin.items", "yaml", "jsonschema",
             "rich", "bleu_harness.textfiles"}
    assert not heavy & loaded, sorted(heavy & loaded)


def test_a_special_file_beside_no_case_file_is_pytests_to_answer(tmp_path):
    """Another project's ``pytest tests/ /dev/null`` names no case file: the plugin leaves
    /dev/null to pytest (its own "not found", exit 4), as if it were not installed."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_x():\n    assert True\n",
                                                  encoding="utf-8")
    with_plugin = pytest_run("tests", "/dev/null", cwd=tmp_path)
    without = pytest_run("-p", "no:bleu_harness", "tests", "/dev/null", cwd=tmp_path)
    assert with_plugin.returncode == without.returncode == 4, with_plugin.stdout


@pytest.mark.parametrize("name, text", [
    ("fixtures.yaml", "cases:\n  - name: x\n    input: 1\n"),
    ("db.yaml", "schema: public\ncases: [a, b]\n"),
    ("versions.yaml", "schema: 2\ncases: []\n"),
])
def test_a_foreign_yaml_named_on_the_command_line_is_pytests_to_answer(tmp_path, name, text):
    """``pytest tests/fixtures.yaml`` on another project's YAML with a top-level ``cases:``
    gave failures of our plugin (pytest alone says "not found"): a file named on the command
    line is a case file only if it declares the case-file format (``schema: 1``, the version
    the schema requires), as a case file must."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = pytest_run(name, cwd=tmp_path)
    assert done.returncode == 4 and "not found" in done.stdout + done.stderr, (
        done.stdout + done.stderr)
    assert "failed" not in done.stdout


def _project(tmp_path: Path) -> Path:
    """A project of its own: its BLEU module (``mybleu``: the tests' miniatures) and a test."""
    for module in ("miniatures.py", "misbehaving.py"):  # mybleu imports misbehaving
        shutil.copy(Path(__file__).parent / module,
                    tmp_path / ("mybleu.py" if module == "miniatures.py" else module))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_own.py").write_text("def test_own():\n    assert True\n",
                                                    encoding="utf-8")
    return tmp_path


def _configured(project: Path, function: str, *more: str) -> None:
    (project / "pytest.ini").write_text(
        "[pytest]\ntestpaths = tests\n"
        f"bleu_harness_implementation = mybleu:{function}\n"
        "bleu_harness_claims = nltk\nbleu_harness_backends = nltk\n" + "".join(more),
        encoding="utf-8")


def test_pytest_gates_the_projects_own_function(tmp_path):
    """A project names its BLEU function and the convention it claims in its own pytest
    configuration; its ``pytest`` then checks the function on the bundled corpus, an item
    per case: a faithful function passes, a buggy one fails with the case's YAML lines,
    expected vs actual and the cause."""
    project = _project(tmp_path)
    _configured(project, "faithful")
    passed = pytest_run("-k", "tie-", cwd=project)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    counted = re.search(r"(\d+) passed", passed.stdout)
    assert counted and int(counted.group(1)) > 5, passed.stdout
    assert re.search(r"collected 10\d\d items / \d+ deselected / \d+ selected", passed.stdout)
    _configured(project, "first_reference_wins_ties")
    failed = pytest_run("-k", "tie-", cwd=project)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "FAIL expectation · mybleu:first_reference_wins_ties as nltk" in failed.stdout
    assert "cause: the implementation equals nltk with the reference length" in failed.stdout
    assert re.search(r"^\s+\d+ \| +- id: tie-", failed.stdout, re.MULTILINE), failed.stdout
    assert "FAILED bleu-harness-corpus/families/ref-length.yaml::tie-" in failed.stdout


@exhaustive_only
def test_the_projects_known_failures_are_xfailed_and_a_broken_function_said_once(tmp_path):
    """Its failures, stored as a run (``bleu_harness_baseline``), are known: xfailed, and the
    session passes. A function that cannot even be imported stops the session once, with
    pytest's usage exit code, not a failure per case."""
    project = _project(tmp_path)
    stream = project / "baseline.jsonl"
    subprocess.run([sys.executable, "-m", "bleu_harness", "run", "--implementation",
                    "mybleu:first_reference_wins_ties", "--claims", "nltk", "--backend", "nltk",
                    "--format", "json", "--output", str(stream), "-q"], cwd=project,
                   capture_output=True, check=False, timeout=300)
    _configured(project, "first_reference_wins_ties", "bleu_harness_baseline = baseline.jsonl\n")
    known = pytest_run("-k", "tie-", cwd=project)
    assert known.returncode == 0 and "xfailed" in known.stdout, known.stdout + known.stderr
    _configured(project, "no_such_function")
    broken = pytest_run("-k", "tie-", cwd=project)
    assert broken.returncode == 4, broken.stdout + broken.stderr
    assert (broken.stdout + broken.stderr).count("did not start") == 1, broken.stdout
