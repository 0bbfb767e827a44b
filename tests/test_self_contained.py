"""Nothing in the repository points at a file outside it: a clone is all a user has.

The project was started from background notes kept beside the repository (a design note, a
catalogue of BLEU conventions, a survey of implementations, copies of a few public documents
and corpora one folder up). A citation of them cannot be followed from a clone, and a case
whose provenance named them showed that in every report. So no tracked file may name those
notes or a path into that folder; code, docs and cases cite the primary sources themselves
(``repo@commit path``, issue numbers, URLs) or the repository's own files.

``reports/atlas/*.jsonl`` are exempt: they are not tracked (``.gitignore``), and
``tools/atlas.py run`` writes them again from the cases, copying each case's provenance as
it stands then, so a stream from before a citation was fixed still holds the old text until
the atlas is regenerated.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The outside notes by name (spelt in pieces, so that this file does not name them itself).
NOTES = tuple(name + ".md" for name in ("CONVENTIONS", "DESIGN", "IMPLEMENTATIONS"))
#: A relative or absolute path into the folder beside the repository, or a pathlib join
#: into it (``parents[2]`` joined with the folder's name, in quotes).
OUTSIDE = re.compile("|".join((
    *(re.escape(note) for note in NOTES),
    r"\.\./" + "shared" + r"\b",
    "/work/" + "shared" + r"\b",
    r"[\"']" + "shared" + r"[\"']\s*/",
)))
EXEMPT = ("reports/atlas/*.jsonl",)


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode("utf-8")
    return [name for name in listed.split("\0") if name]


def outside_references(text: str) -> list[tuple[int, str]]:
    return [(number, match.group(0)) for number, line in enumerate(text.splitlines(), 1)
            for match in OUTSIDE.finditer(line)]


def test_the_pattern_finds_what_it_is_for():
    folder = "shared"  # the samples are put together here, so this file holds none of them
    catalogue, design, survey = NOTES
    sample = (f"see {catalogue} A.4\nwhere: \"../{folder}/seeds/000.txt\"\n"
              f"SHARED = Path(x).parents[2] / \"{folder}\" / \"corpora\"\n"
              f"({design} \"Gates\")\n/work/{folder}/corpora\n{survey}")
    assert [hit for _, hit in outside_references(sample)] == [
        catalogue, f"../{folder}", f'"{folder}" /', design, f"/work/{folder}", survey]
    assert outside_references("a shared Jerusalem; shared task; the shared count") == []


def test_no_tracked_file_cites_a_file_outside_the_repository():
    problems = []
    for name in tracked_files():
        if any(fnmatch.fnmatch(name, pattern) for pattern in EXEMPT):
            continue
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        problems += [f"{name}:{line}: {hit}" for line, hit in outside_references(text)]
    assert not problems, "cite the primary source instead:\n" + "\n".join(problems)


def test_the_benchmark_data_comes_from_the_repository():
    """``benchmarks/data.py`` reads the de-en set the repository ships, every file of which
    is tracked, so the benchmark runs from a clone."""
    spec = importlib.util.spec_from_file_location("benchmark_data", ROOT / "benchmarks" / "data.py")
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    folder = data.DEEN_3000.resolve()
    assert folder.is_relative_to(ROOT), folder
    tracked = set(tracked_files())
    for name in ("deen_output", "deen_ref_bpe"):
        assert (folder / name).relative_to(ROOT).as_posix() in tracked, name
    hypotheses, references = data.deen_3000()
    assert len(hypotheses) == len(references) == 3000
    assert all(len(refs) == 1 and "@@ " not in refs[0] for refs in references)
