"""The interpreter on NumPy 1 that keras-hub's ``Bleu`` is run on for the ``keras-hub``
convention's ``numpy=1`` (``tests/test_kerashub.py``): ``BLEU_HARNESS_NUMPY1_PYTHON``, else the
environment ``python tools/tool_envs.py numpy1`` prepares (``.atlas/numpy1``, NumPy 1.26.4).
Without one the test is skipped with the reason (under ``CI=true`` that fails,
``tests/ci_oracles.py``: ``.ci/run`` prepares it), and the answers recorded from it are
checked instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PREPARED = Path(__file__).resolve().parents[1] / ".atlas" / "numpy1" / "bin" / "python"
NUMPY1_PYTHON = os.environ.get("BLEU_HARNESS_NUMPY1_PYTHON") or (
    str(PREPARED) if PREPARED.is_file() else "")

needs_numpy1 = pytest.mark.skipif(
    not (NUMPY1_PYTHON and Path(NUMPY1_PYTHON).is_file()),
    reason="no interpreter on NumPy 1 (name one with BLEU_HARNESS_NUMPY1_PYTHON, or prepare "
           "one with python tools/tool_envs.py numpy1)")
