"""The import layers (``[tool.importlinter]`` in pyproject.toml), checked with import-linter:
the engine, :mod:`bleu_harness.bleu`, imports nothing of the harness around it, so it can be
used and published as a library of its own; the divergence side,
:mod:`bleu_harness.divergence`, imports nothing of the judge, the reports, the gate, the
pipeline, the command line or ``explain``, which read it."""

from __future__ import annotations

from pathlib import Path

import tomllib
from importlinter.cli import lint_imports

ROOT = Path(__file__).parents[1]


def test_the_import_contracts_hold():
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_the_engine_contract_names_every_module_outside_the_engine():
    """A module added beside the engine is forbidden to it too (the list cannot rot)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [engine] = [c for c in config["tool"]["importlinter"]["contracts"]
                if c.get("source_modules") == ["bleu_harness.bleu"]]
    package = ROOT / "bleu_harness"
    outside = {f"bleu_harness.{p.stem}" for p in package.iterdir()
               if (p.suffix == ".py" or (p / "__init__.py").exists())
               and p.stem not in ("__init__", "__main__", "bleu")}
    assert outside == set(engine["forbidden_modules"])


def test_the_divergence_side_is_below_what_reads_it():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [divergence] = [c for c in config["tool"]["importlinter"]["contracts"]
                    if c.get("source_modules") == ["bleu_harness.divergence"]]
    forbidden = set(divergence["forbidden_modules"])
    assert {"bleu_harness.judge", "bleu_harness.report", "bleu_harness.gate",
            "bleu_harness.pipeline", "bleu_harness.cli", "bleu_harness.explain"} <= forbidden
    package = ROOT / "bleu_harness"
    assert all((package / f"{name.split('.')[1]}.py").exists()
               or (package / name.split(".")[1] / "__init__.py").exists() for name in forbidden)


def test_every_package_of_the_source_is_listed_for_the_wheel():
    """``[tool.setuptools] packages`` is a list written by hand: a folder turned into a
    package and left out of it (``bleu_harness/pytest_plugin/``) was missing from the wheel,
    and every pytest session of an environment it was installed in failed to load the
    plugin. The quick tier checks the list against the source; the exhaustive tier builds
    the wheel (tests/test_distribution.py)."""
    listed = set(tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    root = Path(__file__).parents[1]
    package = root / "bleu_harness"
    found = {".".join(init.parent.relative_to(root).parts)
             for init in package.rglob("__init__.py")
             if "vendored" not in init.parts and "__pycache__" not in init.parts}
    assert found - listed == set(), sorted(found - listed)
