"""A copy of this checkout, and fresh virtual environments, for the tests that install
bleu-harness the way its users do (tests/test_distribution.py, tests/test_pre_commit_hook.py).

* :func:`copy_checkout` copies the files git would put in a clone, as they are on disk now
  (tracked files and new ones not ignored: what a commit of the working tree holds), so a
  build never writes into the repository (setuptools puts ``build/`` and ``*.egg-info``
  beside the sources) and never sees a built ``_native*.so``, ``__pycache__`` or ``dist/``.
* :func:`fresh_venv` makes a virtual environment (``python -m venv --without-pip``) whose
  dependencies come from this interpreter's site-packages through a ``.pth`` file
  (site-packages directories named in a ``.pth`` file are added after the environment's own,
  and their own ``.pth`` files are not run: an editable install of this checkout there adds
  nothing). What is installed into it (:func:`install`, with this interpreter's pip and
  ``--python``) is the only bleu-harness it can import from a directory outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_checkout(destination: Path) -> Path:
    """The checkout's files (``git ls-files --cached --others --exclude-standard``, those on
    disk) copied to ``destination``."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for name in sorted(set(os.fsdecode(n) for n in listed.split(b"\0") if n)):
        source = ROOT / name
        if source.is_symlink() or source.is_file():  # a deleted tracked file is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)
    return destination


def dependency_paths() -> list[str]:
    """This interpreter's site-packages directories, in order (its own, and any its ``.pth``
    files add): where bleu-harness's dependencies are installed."""
    return [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]


def fresh_venv(directory: Path) -> Path:
    """A new virtual environment in ``directory`` with this interpreter's dependencies on its
    path (after its own site-packages): its ``python``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(directory)], check=True)
    python = directory / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "zz_dependencies.pth").write_text("\n".join(dependency_paths()) + "\n",
                                                 encoding="utf-8")
    return python


def install(python: Path, wheel: Path) -> None:
    """``wheel`` installed into ``python``'s environment, offline, its dependencies left to
    the ``.pth`` file."""
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", "--no-cache-dir", str(wheel)],
                   check=True, env=clean_environment())


def clean_environment(**extra: str) -> dict[str, str]:
    """This process's environment without what would make a child see the checkout or this
    test session: ``PYTHONPATH``, pytest's and pytest-xdist's variables, and
    ``BLEU_HARNESS_NATIVE``."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "PYTHONHOME", "BLEU_HARNESS_NATIVE", "VIRTUAL_ENV")
                   and not k.startswith(("PYTEST_", "COV_CORE_"))}
    environment.update(extra)
    return environment
