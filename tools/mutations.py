"""Check that the test command still catches the engine mistakes that matter most.

Each mutation below is one small edit of the engine that a real implementation has made (a
length tie broken the other way, no clipping, another epsilon, a history row a release off,
SacreBLEU's floor default). The tool copies the working tree (tracked and new files) into a
scratch directory (imported first through ``PYTHONPATH``), applies one mutation at a time,
rebuilds the C kernel when the edit is in C, and runs the README's test command with
``-x``: a mutation is *caught* when that run fails. An unmutated run comes first and must
pass, so a failure is the mutation's.

    python tools/mutations.py                 # every mutation
    python tools/mutations.py c-closest-tie   # some, by name
    python tools/mutations.py --list

Exit code 0 when every mutation asked for is caught, 1 otherwise (2 when the unmutated copy
fails).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    """One edit of one file: ``old`` (which must occur exactly once) becomes ``new``."""

    name: str
    path: str
    old: str
    new: str
    why: str


MUTATIONS = (
    Mutation("c-closest-tie", "bleu_harness/bleu/_native.c",
             "if (d < dc || (d == dc && len < closest)) closest = len;",
             "if (d < dc || (d == dc && len > closest)) closest = len;",
             "the C kernel breaks a closest-length tie toward the longer reference"),
    Mutation("python-closest-tie", "bleu_harness/bleu/corpus.py",
             "shorter = hyp_len - nearest if hyp_len - nearest in ref_lens "
             "else hyp_len + nearest",
             "shorter = hyp_len + nearest if hyp_len + nearest in ref_lens "
             "else hyp_len - nearest",
             "the Python pass breaks a closest-length tie toward the longer reference"),
    Mutation("c-clipping", "bleu_harness/bleu/_native.c",
             "matched += w->gram_count[g] < w->gram_best[g] ? w->gram_count[g] : "
             "w->gram_best[g];",
             "matched += w->gram_best[g] ? w->gram_count[g] : 0;",
             "the C kernel counts a repeated n-gram without clipping it"),
    Mutation("python-clipping", "bleu_harness/bleu/stats.py",
             "matched += (count if count < best else best) - 1  # noqa: FURB136",
             "matched += count - 1",
             "the Python pass counts a repeated n-gram without clipping it (one reference)"),
    Mutation("method1-epsilon", "bleu_harness/bleu/smoothing.py",
             'NLTK_PARAMETERS: dict[str, Any] = {"epsilon": 0.1,',
             'NLTK_PARAMETERS: dict[str, Any] = {"epsilon": 0.01,',
             "NLTK's method1 adds 0.01, not its default epsilon 0.1"),
    Mutation("torchmetrics-tie", "bleu_harness/bleu/conventions/torchmetrics.py",
             'arithmetic=Arithmetic(log_sum="steps"), ref="closest_first",',
             'arithmetic=Arithmetic(log_sum="steps"), ref="closest_shorter",',
             "torchmetrics breaks a length tie toward the shorter reference, not the first"),
    Mutation("history-row", "bleu_harness/bleu/history.py",
             'Change("method2", "3.6",', 'Change("method2", "3.5",',
             "NLTK's method2 change is put one release early (3.5, not 3.6)"),
    Mutation("sacrebleu-floor-default", "bleu_harness/bleu/conventions/sacrebleu.py",
             '{"none": None, "floor": 0.1, "add-k": 1, "exp": None}',
             '{"none": None, "floor": 0.01, "add-k": 1, "exp": None}',
             "SacreBLEU's floor smoothing defaults to 0.01, not 0.1"),
)


def copy_tree(into: Path) -> None:
    """The working tree's tracked and untracked (not ignored) files, as they are now, and the
    prepared library releases (``.atlas``, ignored by git) linked."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    if (ROOT / ".atlas").is_dir():  # the prepared library releases the history tests run
        (into / ".atlas").symlink_to(ROOT / ".atlas")


def prepare(repo: Path) -> Path:
    """``repo``'s C kernel built in place; the interpreter that runs it (this one: with
    ``PYTHONPATH`` naming ``repo``, its ``bleu_harness`` is imported before any installed
    one, also by the processes the tests start)."""
    python = Path(sys.executable)
    build(repo, python)
    return python


def build(repo: Path, python: Path) -> None:
    subprocess.run([str(python), "setup.py", "-q", "build_ext", "--inplace"], cwd=repo,
                   check=True, capture_output=True)


def run_tests(repo: Path, python: Path) -> tuple[bool, str, float]:
    """The README's test command with ``-x``: whether it passed, its last lines, seconds."""
    started = time.monotonic()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, (str(repo),
                                                             environment.get("PYTHONPATH"))))
    done = subprocess.run([str(python), "-m", "pytest", "-x", "-p", "no:cacheprovider"],
                          cwd=repo, capture_output=True, text=True, env=environment,
                          stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    summary = (lines[:3] or done.stdout.strip().splitlines()[-1:])
    return done.returncode == 0, "\n    ".join(summary), time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="the mutations to try (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    arguments = parser.parse_args(argv)
    known = {m.name: m for m in MUTATIONS}
    if arguments.list:
        for m in MUTATIONS:
            print(f"{m.name:20} {m.why}")
        return 0
    unknown = [n for n in arguments.names if n not in known]
    if unknown:
        parser.error(f"unknown mutation {unknown[0]!r} (known: {', '.join(known)})")
    chosen = [known[n] for n in arguments.names] or list(MUTATIONS)
    with tempfile.TemporaryDirectory(prefix="bleu-harness-mutants-") as scratch:
        repo = Path(scratch, "repo")
        copy_tree(repo)
        python = prepare(repo)
        passed, summary, seconds = run_tests(repo, python)
        print(f"unmutated: {'passes' if passed else 'FAILS'} ({seconds:.0f} s)", flush=True)
        if not passed:
            print(f"    {summary}")
            return 2
        missed = 0
        for m in chosen:
            path = repo / m.path
            original = path.read_text(encoding="utf-8")
            if original.count(m.old) != 1:
                print(f"{m.name}: the text to mutate is not in {m.path} exactly once")
                missed += 1
                continue
            path.write_text(original.replace(m.old, m.new), encoding="utf-8")
            try:
                if m.path.endswith(".c"):
                    build(repo, python)
                passed, summary, seconds = run_tests(repo, python)
            finally:
                path.write_text(original, encoding="utf-8")
                if m.path.endswith(".c"):
                    build(repo, python)
            missed += passed
            print(f"{m.name}: {'MISSED' if passed else 'caught'} ({seconds:.0f} s): {m.why}"
                  + ("" if passed else f"\n    {summary}"), flush=True)
        return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
