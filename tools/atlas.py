"""The version atlas: one environment per NLTK and SacreBLEU release, a ``bleu-harness run``
with each as the live reference library, and the atlas of what changed between them.

    python tools/atlas.py prepare [RELEASE ...]   # .atlas/envs/<library>-<version>
    python tools/atlas.py run [RELEASE ...]       # reports/atlas/<library>-<version>.jsonl
    python tools/atlas.py render                  # docs/atlas.md from reports/atlas/
    python tools/atlas.py list                    # the releases and their interpreters
    python tools/atlas.py python RELEASE          # the interpreter of a prepared release

A RELEASE is ``nltk-3.4.5`` or ``sacrebleu-1.5.1`` (or tox's ``atlas-nltk345``); none means
all. Each environment holds
just the library, on an interpreter it imports on (NLTK 3.2.5-3.4.5 do not import on
Python 3.11: ``inspect.formatargspec`` went in 3.11, ``collections.Sequence`` in 3.10), and
is driven from the project's own environment through ``--library-python`` and the
stand-alone adapter ``bleu_harness/adapters/library_worker.py``. ``tox p -m atlas`` runs the same
matrix (tox.ini), ``bleu-harness atlas reports/atlas/*.jsonl`` renders the atlas.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The harness runs from here, so that ``python -m bleu_harness`` imports the installed package
#: (a tox environment's wheel), not the source tree of the working directory.
NEUTRAL = tempfile.gettempdir()
ENVS = ROOT / ".atlas" / "envs"
STREAMS = ROOT / "reports" / "atlas"

#: (library, release, the Python it runs on): the releases where something changed, and
#: the latest of each series (issue #12; the changes: bleu_harness/bleu/history.py).
RELEASES = (
    ("nltk", "3.2.2", "3.6"), ("nltk", "3.2.5", "3.6"), ("nltk", "3.3", "3.6"), ("nltk", "3.4", "3.6"),
    ("nltk", "3.4.5", "3.6"), ("nltk", "3.5", "3.11"), ("nltk", "3.6.2", "3.11"),
    ("nltk", "3.6.5", "3.11"), ("nltk", "3.6.6", "3.11"), ("nltk", "3.7", "3.11"),
    ("nltk", "3.8", "3.11"), ("nltk", "3.8.1", "3.11"), ("nltk", "3.9.2", "3.11"),
    ("nltk", "3.10.4", "3.11"),
    ("sacrebleu", "1.4.14", "3.11"), ("sacrebleu", "1.5.1", "3.11"),
    ("sacrebleu", "2.0.0", "3.11"), ("sacrebleu", "2.1.0", "3.11"),
    ("sacrebleu", "2.2.1", "3.11"), ("sacrebleu", "2.3.3", "3.11"),
    ("sacrebleu", "2.4.3", "3.11"), ("sacrebleu", "2.5.1", "3.11"),
    ("sacrebleu", "2.6.0", "3.11"),
)
#: What CI checks the engine's history against: for every change in
#: ``bleu_harness/bleu/history.py``, the last listed release before it and the first after
#: (``tests/test_release_lists.py`` checks that it still is).
CI_RELEASES = (
    "nltk-3.2.2", "nltk-3.2.5", "nltk-3.3", "nltk-3.4", "nltk-3.4.5", "nltk-3.5", "nltk-3.6.2", "nltk-3.6.5",
    "nltk-3.6.6", "nltk-3.8.1", "nltk-3.9.2",
    "sacrebleu-1.4.14", "sacrebleu-1.5.1", "sacrebleu-2.0.0", "sacrebleu-2.1.0",
    "sacrebleu-2.2.1", "sacrebleu-2.3.3",
)


def name_of(library: str, version: str) -> str:
    return f"{library}-{version}"


def tox_name(library: str, version: str) -> str:
    """``atlas-nltk345``: tox reads a factor such as ``3.4.5`` as a Python version."""
    return f"atlas-{library}{version.replace('.', '')}"


def chosen(names: list[str]) -> list[tuple[str, str, str]]:
    known = {name_of(lib, ver): (lib, ver, py) for lib, ver, py in RELEASES}
    known.update({tox_name(lib, ver): (lib, ver, py) for lib, ver, py in RELEASES})
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown release {unknown[0]!r}; known: {', '.join(known)}")
    return [known[n] for n in names] if names else list(RELEASES)


def interpreter(version: str) -> str:
    """A Python of ``version`` (3.6, 3.11, ...): this one, one on PATH, or pyenv's."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    found = shutil.which(f"python{version}")
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = sorted(glob.glob(f"{root}/versions/{version}.*/bin/python{version}"))
    for candidate in ([found] if found else []) + candidates[::-1]:
        try:
            subprocess.run([candidate, "-c", "pass"], check=True, capture_output=True)
            return candidate
        except (OSError, subprocess.CalledProcessError):
            continue
    raise SystemExit(f"no Python {version} found (pyenv install {version}, or put "
                     f"python{version} on PATH)")


def env_python(library: str, version: str) -> Path:
    return ENVS / name_of(library, version) / "bin" / "python"


def prepare(library: str, version: str, python: str) -> Path:
    """The release's environment, made once: a venv of its Python with just the library."""
    target = env_python(library, version)
    if target.exists() and subprocess.run(
            [str(target), "-c", f"import {library}"], capture_output=True).returncode == 0:
        return target
    folder = ENVS / name_of(library, version)
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([interpreter(python), "-m", "venv", str(folder)], check=True)
    subprocess.run([str(target), "-m", "pip", "install", "-q", f"{library}=={version}"],
                   check=True)
    return target


def run(library: str, version: str, python: str) -> int:
    """``bleu-harness run`` with this release as the live reference library."""
    target = prepare(library, version, python)
    STREAMS.mkdir(parents=True, exist_ok=True)
    stream = STREAMS / f"{name_of(library, version)}.jsonl"
    command = [sys.executable, "-m", "bleu_harness", "run", "--backend", "own", "--backend",
               library, "--library-python", f"{library}={target}", "--no-map", "--format",
               "json", "--output", str(stream), "--quiet"]  # the atlas reads drift checks only
    print(f"{name_of(library, version)}: {' '.join(command[2:])}", flush=True)
    done = subprocess.run(command, cwd=NEUTRAL)
    return 0 if done.returncode in (0, 3) else done.returncode  # drift is what an atlas records


def render() -> int:
    """The atlas of every stream in reports/atlas/, as docs/atlas.md (a page of the docs)."""
    streams = sorted(str(p) for p in STREAMS.glob("*.jsonl"))
    if not streams:
        raise SystemExit("no stream in reports/atlas/: python tools/atlas.py run")
    return subprocess.run([sys.executable, "-m", "bleu_harness", "atlas", *streams, "--format",
                           "markdown", "--output", str(ROOT / "docs" / "atlas.md")],
                          cwd=NEUTRAL).returncode


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("prepare", "run", "render", "list", "python"))
    parser.add_argument("releases", nargs="*", metavar="RELEASE")
    parser.add_argument("--ci", action="store_true", help="the releases CI checks")
    args = parser.parse_args(argv)
    if args.action == "render":
        return render()
    releases = chosen(list(CI_RELEASES) if args.ci else args.releases)
    if args.action == "list":
        for library, version, python in releases:
            print(f"{name_of(library, version):18} Python {python}")
        return 0
    if args.action == "python":
        library, version, _ = releases[0]
        print(env_python(library, version))
        return 0
    failures = 0
    for library, version, python in releases:
        if args.action == "prepare":
            print(prepare(library, version, python), flush=True)
        else:
            failures += run(library, version, python) != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
