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

#: pre-commit builds an environment with pip: the exhaustive tier (tests/tiers.py).
pytestmark = exhaustive_only

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
    assert hook["entry"] == "bleu-harness validate"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    assert hook["types"] == ["yaml"]


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
    # Both YAML files were handed over in one call (require_serial), the text file was not.
    assert "in 2 file(s)" in output and "notes.txt" not in output, output
