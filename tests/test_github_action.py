"""The GitHub Action (``action.yml``): its steps run here as GitHub runs a composite action's
``run:`` steps -- ``bash --noprofile --norc -eo pipefail`` on the script, in
``$GITHUB_WORKSPACE``, with the step's ``env:`` (its ``${{ inputs.* }}`` expressions
evaluated the way GitHub does: the input given, else its default) and GitHub's variables set
(``GITHUB_WORKSPACE``, ``GITHUB_ACTION_PATH``, ``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``;
docs.github.com, "Store information in variables": default environment variables).

The ``uses:`` step (actions/setup-python) cannot run here and is only checked to run when
``python-version`` is given; the install step runs with a stand-in ``python`` that records
its arguments (installing the checkout is tests/test_distribution.py's job); the gate step
runs for real, with the implementations under test of tests/miniatures.py on the
reference-length-tie family.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from checkout import ROOT, clean_environment
from runs import CORPUS, NLTK_CHECKS, TESTS

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
TIES = CORPUS / "families" / "ref-length-ties.yaml"


def _step(name: str) -> dict:
    [step] = [s for s in STEPS if s.get("name") == name]
    return step


def _evaluate(text: str, inputs: dict[str, str]) -> str:
    """``${{ inputs.NAME }}`` as GitHub evaluates it; any other expression is refused (this
    emulation would not know its value)."""
    def value(match: re.Match) -> str:
        expression = match.group(1)
        assert expression.startswith("inputs."), f"cannot emulate ${{{{ {expression} }}}}"
        name = expression.removeprefix("inputs.")
        return inputs.get(name, ACTION["inputs"][name].get("default", ""))
    return EXPRESSION.sub(value, str(text))


def _run_step(step: dict, workspace: Path, inputs: dict[str, str], bin_first: Path,
              action_path: Path = ROOT) -> tuple[int, dict[str, Path]]:
    """One ``run:`` step: its exit code, and GitHub's files it wrote to."""
    files = {"GITHUB_STEP_SUMMARY": workspace.parent / "step_summary.md",
             "GITHUB_OUTPUT": workspace.parent / "output.txt"}
    for path in files.values():
        path.write_text("", encoding="utf-8")
    script = workspace.parent / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    environment = clean_environment(
        **{name: _evaluate(value, inputs) for name, value in step.get("env", {}).items()},
        **{name: str(path) for name, path in files.items()},
        GITHUB_WORKSPACE=str(workspace), GITHUB_ACTION_PATH=str(action_path))
    environment["PATH"] = f"{bin_first}{os.pathsep}{environment.get('PATH', '')}"
    done = subprocess.run([shutil.which("bash") or "bash", "--noprofile", "--norc", "-eo",
                           "pipefail", str(script)], cwd=workspace, env=environment,
                          timeout=300)
    return done.returncode, files


def _outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines())


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A user's checkout: the implementations under test and a case file of their own."""
    workspace = tmp_path / "workspace"
    (workspace / "cases").mkdir(parents=True)
    for module in ("miniatures.py", "misbehaving.py"):
        shutil.copy(TESTS / module, workspace / module)
    shutil.copy(TIES, workspace / "cases" / "ties.yaml")
    return workspace


def _gate(workspace: Path, **inputs: str) -> tuple[int, dict[str, Path]]:
    """The gate step with the interpreter of this session as the ``python`` on PATH (it has
    bleu-harness installed, as the install step leaves it)."""
    return _run_step(_step("Run the bleu-harness gate"), workspace, inputs,
                     Path(sys.executable).parent)


def test_the_action_is_composite_and_its_scripts_read_inputs_from_the_environment():
    assert ACTION["runs"]["using"] == "composite"
    for step in STEPS:
        if "run" in step:
            assert "${{" not in step["run"], f"an expression in {step['name']}'s script"
            assert step["shell"] == "bash"
            for value in step.get("env", {}).values():
                for expression in EXPRESSION.findall(str(value)):
                    assert expression.removeprefix("inputs.") in ACTION["inputs"]
    [setup] = [s for s in STEPS if "uses" in s]
    assert setup["uses"].startswith("actions/setup-python@")
    assert setup["if"] == "inputs.python-version != ''"
    for name, output in ACTION["outputs"].items():
        assert output["value"] == f"${{{{ steps.gate.outputs.{name} }}}}"


def test_the_github_action_module_imports_nothing_of_the_harness():
    """It drives ``bleu-harness`` as a subprocess (bleu_harness/ci/__init__.py)."""
    tree = ast.parse((ROOT / "bleu_harness" / "ci" / "github_action.py").read_text("utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not [name for name in imported if name and name.split(".")[0] == "bleu_harness"]


def test_the_install_step_installs_from_the_actions_own_checkout(tmp_path):
    """With a stand-in ``python`` that records its arguments, and an action path with a
    space in it."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    record = tmp_path / "arguments"
    (fake_bin / "python").write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{record}"\n')
    (fake_bin / "python").chmod(0o755)
    action_path = tmp_path / "the action"
    action_path.mkdir()
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    code, _ = _run_step(_step("Install bleu-harness"), workspace, {}, fake_bin, action_path)
    assert code == 0
    assert record.read_text().splitlines() == ["-m", "pip", "install", "--quiet",
                                               f"{action_path}[html]"]


def test_a_faithful_implementation_passes_and_the_reports_are_written(workspace):
    code, files = _gate(workspace, paths="cases/ties.yaml", implementation="miniatures:faithful",
                        claims="nltk", args=" ".join(f"--backend {b}" for b in NLTK_CHECKS))
    assert code == 0
    outputs = _outputs(files["GITHUB_OUTPUT"])
    assert outputs["exit-code"] == "0"
    report_dir = workspace / "bleu-harness-report"
    assert outputs["report-dir"] == str(report_dir)
    for name in ("junit-xml", "html", "markdown"):
        assert Path(outputs[name]).parent == report_dir and Path(outputs[name]).is_file()
    markdown = Path(outputs["markdown"]).read_text(encoding="utf-8")
    assert markdown.strip() and files["GITHUB_STEP_SUMMARY"].read_text("utf-8") == markdown
    assert Path(outputs["junit-xml"]).read_text("utf-8").lstrip().startswith("<?xml")


def test_a_failing_implementation_fails_the_step_with_the_gates_exit_code(workspace):
    """The implementation breaks a length tie toward the first-listed reference; NLTK's
    ``closest_ref_length`` takes the shorter (``min`` over ``(abs(len - hyp_len), len)``,
    nltk/translate/bleu_score.py), so the case with the longer reference first fails and the
    one with the shorter first passes (the summary lists failures only)."""
    code, files = _gate(workspace, paths="cases/ties.yaml",
                        implementation="miniatures:first_reference_wins_ties", claims="nltk",
                        args=" ".join(f"--backend {b}" for b in NLTK_CHECKS),
                        **{"report-dir": "out/bleu"})
    assert code == 1
    outputs = _outputs(files["GITHUB_OUTPUT"])
    assert outputs["exit-code"] == "1"
    assert outputs["report-dir"] == str(workspace / "out" / "bleu")
    summary = files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8")
    assert summary == Path(outputs["markdown"]).read_text(encoding="utf-8")
    assert "tie-len5-longer-first" in summary
    assert "tie-len5-shorter-first" not in summary
    assert Path(outputs["junit-xml"]).is_file() and Path(outputs["html"]).is_file()


def test_a_gate_that_stops_before_its_reports_says_so_in_the_summary(workspace):
    """The exit code and the report directory are outputs; a report path is one only where
    the report was written (the paths were set for reports that did not exist, and a later
    step uploading them failed on a missing file)."""
    code, files = _gate(workspace, paths="cases/no-such-file.yaml")
    assert code == 2
    outputs = _outputs(files["GITHUB_OUTPUT"])
    assert outputs["exit-code"] == "2"
    assert not {"junit-xml", "html", "markdown"} & set(outputs), outputs
    assert "exit code 2" in files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8")


def test_an_input_that_cannot_be_split_is_one_error_line(workspace, capfd):
    code, files = _gate(workspace, args="--known 'unclosed")
    assert code == 2
    error = capfd.readouterr().err
    assert error.count("\n") == 1 and "input args" in error and "Traceback" not in error
