"""The pre-commit hook (``.pre-commit-hooks.yaml``), tried as pre-commit's documentation
says a hook repository is tried (https://pre-commit.com/#developing-hooks-interactively):
``pre-commit try-repo REPO bleu-harness-validate --files ...`` in a project's git repository.

pre-commit installs the hook's environment itself (``language: python``: a virtualenv with
this repository ``pip install``-ed into it, its dependencies from the package index), in a
temporary store that ``try-repo`` makes anew on every call -- so this test costs one such
install (about 45 s here, most of it pip) and makes one call: a good case file, a bad one and
a file that is not YAML, which the hook must not be given.

The hook repository is a commit of a copy of this checkout as it is on disk
(:func:`checkout.copy_checkout`), so what is tried is the working tree, not the last commit.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from checkout import ROOT, clean_environment, copy_checkout
from tiers import exhaustive_only

HOOK = "bleu-harness-validate"
#: A case whose level is neither of the schema's two (bleu_harness/schema/case-file.schema.json).
BAD_CASE = """\
schema: 1
cases:
  - id: broken-level
    description: A level the schema does not have.
    tags: [identical]
    level: paragraph
    segments:
      - {hyp: "a b c d", refs: ["a b c d"]}
    expect:
      - {convention: nltk, value: "1.0", provenance: {kind: computed, source: "none", library: nltk, version: "3.10.4"}}
"""


def _git(cwd: Path, *arguments: str) -> None:
    subprocess.run(["git", "-c", "user.name=bleu-harness tests", "-c", "user.email=tests@invalid",
                    "-c", "commit.gpgsign=false", *arguments], cwd=cwd, check=True,
                   capture_output=True)


def _repository(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    _git(directory, "init", "--quiet")
    return directory


def test_the_hook_definition_names_the_validate_command():
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == HOOK
    assert hook["entry"] == "bleu-harness validate --only-case-files"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    assert hook["types"] == ["yaml"]


@exhaustive_only  # pre-commit builds an environment with pip (about 45 s)
def test_try_repo_fails_on_the_bad_case_file_only(tmp_path):
    hooks = copy_checkout(_repository(tmp_path / "hook-repo"))
    _git(hooks, "add", "--all")
    _git(hooks, "commit", "--quiet", "-m", "the checkout as it is")
    project = _repository(tmp_path / "project")
    shutil.copy(ROOT / "cases" / "families" / "identical.yaml", project / "good.yaml")
    (project / "bad.yaml").write_text(BAD_CASE, encoding="utf-8")
    (project / "notes.txt").write_text("cases: not a case file\n", encoding="utf-8")
    _git(project, "add", "--all")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), HOOK,
         "--files", "good.yaml", "bad.yaml", "notes.txt"],
        cwd=project, capture_output=True, text=True, timeout=600,
        env=clean_environment(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home")))
    output = done.stdout + done.stderr
    assert done.returncode == 1, output  # 1: a hook failed (3 would be pre-commit's own error)
    assert re.search(r"^bleu-harness validate\.+Failed$", output, re.MULTILINE), output
    assert "- exit code: 2" in output, output
    assert re.search(r"^bad\.yaml:\d+: broken-level: .*'paragraph'", output, re.MULTILINE), output
    assert not re.search(r"^good\.yaml:", output, re.MULTILINE), output
    # Both YAML files were handed over in one call (require_serial), the text file was not;
    # the count is of the files with problems.
    assert "1 problem(s) in 1 file(s)" in output and "notes.txt" not in output, output


OTHER_YAML = {  # what a repository holds beside its case files
    "docker-compose.yml": "services:\n  web:\n    image: nginx\n",
    ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    "tests/fixtures.yaml": "cases:\n  - name: x\n",
    "db.yaml": "schema: public\n",
    "empty.yaml": "",
}


def test_the_hooks_entry_checks_only_case_files(tmp_path):
    """The hook's entry as pre-commit runs it (``types: [yaml]``: every YAML file of the
    commit, in one call): in a repository with a docker-compose file, a workflow and other
    YAML beside a valid case file, it exits 1 with "4 problem(s) in 3 file(s)". Only files
    that declare the case-file format (``schema: 1``) are checked: the others pass, and a
    broken case file still fails, named alone; the count is of files with problems."""
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for name, text in OTHER_YAML.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "cases" / "families" / "identical.yaml", tmp_path / "good.yaml")
    entry = [sys.executable, "-m", "bleu_harness", *hook["entry"].split()[1:]]

    def hook_on(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run([*entry, *files], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)

    passed = hook_on(*OTHER_YAML, "good.yaml")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.endswith("(5 other files left alone: not case files)\n"), passed.stdout
    none = hook_on(*OTHER_YAML)  # not the bundled corpus either
    assert (none.returncode, none.stdout) == (
        0, "no case file among the 5 files named (none declares 'schema: 1')\n"), none.stdout
    (tmp_path / "bad.yaml").write_text(BAD_CASE, encoding="utf-8")
    failed = hook_on(*OTHER_YAML, "good.yaml", "bad.yaml")
    assert failed.returncode == 2, failed.stdout + failed.stderr
    named = {line.split(":")[0] for line in failed.stdout.splitlines()}
    assert named == {"bad.yaml"}, failed.stdout
    assert failed.stderr.endswith("1 problem(s) in 1 file(s)\n"), failed.stderr
