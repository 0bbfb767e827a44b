"""The distribution: ``python -m build`` makes an sdist and a wheel that ``twine check``
accepts; the sdist holds the C kernel's source and everything the wheel is built from (the
wheel is built from it, as ``build`` does by default); the wheel, installed into a fresh
virtual environment, runs the gate on its bundled corpus and its pytest plugin on case files
of a user's project; built where no C compiler is found, it installs and runs on the
pure-Python statistics pass (``setup.py``: ``Extension(..., optional=True)``).

The builds run offline (``--no-isolation``: the build backend of the test extra,
``setuptools>=77`` as ``[build-system]`` asks). The fresh environments get the dependencies
from this interpreter's site-packages (:mod:`checkout`), and every command runs from a
temporary directory, so the only bleu-harness they can import is the installed wheel.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from checkout import ROOT, clean_environment, copy_checkout, fresh_venv, install
from tiers import exhaustive_only

#: Fresh virtual environments and a build: the exhaustive tier (tests/tiers.py).
pytestmark = exhaustive_only

NAME = "bleu_harness-0.1.0"
#: setup.py's extension: its source and the module it builds.
C_SOURCE = "bleu_harness/bleu/_native.c"
NATIVE = re.compile(r"^bleu_harness/bleu/_native\..*(\.so|\.pyd)$")
#: fairseq's C ``libbleu``, built by setup.py for the live ``fairseq`` backend.
LIBBLEU = re.compile(r"^bleu_harness/adapters/libbleu\..*(\.so|\.pyd)$")
LIBBLEU_SOURCES = {"bleu_harness/adapters/vendored/fairseq/libbleu.cpp",
                   "bleu_harness/adapters/vendored/fairseq/module.cpp"}
#: Bundled case files the plugin test copies into a user's project (each case an item).
PLUGIN_CASES = ("families/ref-length-ties.yaml", "families/identical.yaml")
#: The gate on a part of the bundled corpus, with every backend (the whole corpus takes a
#: minute): the reference-length ties.
SELECT = "tie-*"


def _run(command: list, cwd: Path, **environment: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, env=clean_environment(**environment), timeout=300)


def _output(done: subprocess.CompletedProcess) -> str:
    return f"exit {done.returncode}\n--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"


def _build(source: Path, outdir: Path, *flags: str, **environment: str) -> str:
    done = _run([sys.executable, "-m", "build", "--no-isolation", *flags, "--outdir", outdir,
                 source], cwd=source, **environment)
    assert done.returncode == 0, _output(done)
    return done.stdout + done.stderr


def _c_compiler() -> str | None:
    """The compiler setuptools would call (``CC`` as Python was built with it), if found."""
    compiler = (sysconfig.get_config_var("CC") or "").split()
    return shutil.which(compiler[0]) if compiler else None


def _checkout_files(under: str) -> set[str]:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others",
                             "--exclude-standard", under], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    return {name for name in listed if (ROOT / name).is_file()}


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel ``python -m build`` makes from a copy of the checkout."""
    source = copy_checkout(tmp_path_factory.mktemp("checkout"))
    outdir = tmp_path_factory.mktemp("dist")
    log = outdir / "build.log"
    log.write_text(_build(source, outdir), encoding="utf-8")
    [sdist] = outdir.glob("*.tar.gz")
    [wheel] = outdir.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel, "log": log}


def test_the_build_warns_of_no_folder_it_would_leave_out(dists):
    """setuptools warned "Package would be ignored" of eight folders of data (the corpus's,
    the examples', the vendored fairseq's) that package-data globs reached into: each is
    listed as a package of its own, and the build says nothing of them."""
    log = dists["log"].read_text(encoding="utf-8")
    assert "would be ignored" not in log, log[log.find("would be ignored") - 500:][:1500]


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> Path:
    """A fresh environment with the wheel installed: its ``python``."""
    python = fresh_venv(tmp_path_factory.mktemp("venv") / "env")
    install(python, dists["wheel"])
    return python


def test_the_sdist_holds_the_package_the_corpus_and_the_c_source(dists):
    with tarfile.open(dists["sdist"]) as sdist:
        names = {name.removeprefix(f"{NAME}/") for name in sdist.getnames()}
    assert C_SOURCE in names and LIBBLEU_SOURCES <= names
    assert {"pyproject.toml", "setup.py", "README.md", "PKG-INFO"} <= names
    assert _checkout_files("bleu_harness") | _checkout_files("cases") <= names
    assert not any(name.startswith("tests/") for name in names)  # MANIFEST.in: prune tests


def test_the_wheel_holds_the_package_its_data_and_the_bundled_corpus(dists):
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(f"{NAME}.dist-info/entry_points.txt").decode()
    assert _checkout_files("bleu_harness") <= names
    # pyproject.toml: package-dir {"bleu_harness.corpus" = "cases"}.
    assert {f"bleu_harness/corpus/{name.removeprefix('cases/')}"
            for name in _checkout_files("cases")} <= names
    assert "bleu-harness = bleu_harness.entry:main" in entry_points
    assert "bleu_harness = bleu_harness.pytest_plugin" in entry_points  # [pytest11]
    built = [name for name in names if NATIVE.match(name)]
    libbleu = [name for name in names if LIBBLEU.match(name)]
    if _c_compiler():
        assert len(built) == 1, f"{_c_compiler()} is here, yet the wheel has no C kernel"
        assert len(libbleu) == 1, f"{_c_compiler()} is here, yet the wheel has no libbleu"


def test_twine_check_passes(dists):
    done = _run([sys.executable, "-m", "twine", "check", "--strict", dists["sdist"],
                 dists["wheel"]], cwd=dists["wheel"].parent)
    assert done.returncode == 0, _output(done)
    assert done.stdout.count("PASSED") == 2, _output(done)


def test_the_installed_wheel_runs_the_gate_on_its_bundled_corpus(installed, tmp_path):
    done = _run([installed, "-c", "import bleu_harness; print(bleu_harness.__file__)"],
                cwd=tmp_path)
    assert done.returncode == 0, _output(done)
    assert Path(done.stdout.strip()).is_relative_to(installed.parents[1]), _output(done)
    assert not Path(done.stdout.strip()).is_relative_to(ROOT)
    done = _run([installed.parent / "bleu-harness", "run", "--select", SELECT, "--quiet"],
                cwd=tmp_path)
    assert done.returncode == 0, _output(done)
    selected = sum(fnmatch.fnmatchcase(case["id"], SELECT)
                   for path in sorted((ROOT / "cases").rglob("*.yaml"))
                   for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"])
    assert selected and re.search(rf"\b{selected} cases\b", done.stdout), _output(done)


def test_the_installed_plugin_collects_case_files_a_project_names(installed, tmp_path):
    """Collection is opt-in (bleu_harness/pytest_plugin): the ini option
    ``bleu_harness_cases`` names the project's directory of case files."""
    corpus = Path(subprocess.run(
        [installed, "-c", "from bleu_harness.cases.loader import bundled_corpus; "
                          "print(bundled_corpus())"],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip())
    assert corpus.is_relative_to(installed.parents[1])
    project = tmp_path / "project"
    (project / "bleu_cases").mkdir(parents=True)
    count = 0
    for name in PLUGIN_CASES:
        text = (corpus / name).read_text(encoding="utf-8")
        (project / "bleu_cases" / Path(name).name).write_text(text, encoding="utf-8")
        count += len(yaml.safe_load(text)["cases"])
    (project / "pytest.ini").write_text("[pytest]\nbleu_harness_cases = bleu_cases\n",
                                        encoding="utf-8")
    done = _run([installed, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=project)
    assert done.returncode == 0, _output(done)
    assert re.search(rf"\b{count} passed\b", done.stdout), _output(done)


def test_without_a_c_compiler_the_wheel_runs_on_the_python_pass(dists, tmp_path):
    """The wheel built from the sdist where the compilers cannot be run (``CC`` and ``CXX``
    name no program): the build warns and goes on (``optional=True``), the wheel has no C
    kernel and no fairseq ``libbleu``, the installed gate runs on the pure-Python statistics
    pass, and its header names the fairseq backend not installed, with the reason."""
    with tarfile.open(dists["sdist"]) as sdist:
        sdist.extractall(tmp_path / "sdist", filter="data")
    log = _build(tmp_path / "sdist" / NAME, tmp_path / "dist", "--wheel",
                 CC=str(tmp_path / "no-such-compiler"),
                 CXX=str(tmp_path / "no-such-compiler"))
    assert re.search(r'building extension "bleu_harness\.bleu\._native" failed', log), log[-4000:]
    assert re.search(r'building extension "bleu_harness\.adapters\.libbleu" failed',
                     log), log[-4000:]
    [wheel] = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as contents:
        assert not [name for name in contents.namelist()
                    if NATIVE.match(name) or LIBBLEU.match(name)]
    python = fresh_venv(tmp_path / "env")
    install(python, wheel)
    done = _run([python, "-c", "from bleu_harness.bleu import native; "
                               "print(native.AVAILABLE, native.__file__)"], cwd=tmp_path)
    assert done.returncode == 0, _output(done)
    available, where = done.stdout.split()
    assert available == "False" and Path(where).is_relative_to(tmp_path / "env")
    done = _run([python.parent / "bleu-harness", "run", "--backend", "own", "--select", SELECT,
                 "--quiet"], cwd=tmp_path)
    assert done.returncode == 0, _output(done)
    # fairseq's scorer has no libbleu: the header names it not installed, with the reason.
    done = _run([python.parent / "bleu-harness", "run", "--backend", "own", "--backend",
                 "fairseq", "--select", "fsq-basic"], cwd=tmp_path)
    assert done.returncode == 0, _output(done)
    assert re.search(r"fairseq: not installed \(.*libbleu was not built", done.stdout), (
        _output(done))

