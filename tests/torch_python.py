"""The interpreter the live tests of the torch-based tools (ignite, torchmetrics'
``SacreBLEUScore``, torchtext's and allennlp's metrics) run on: ``BLEU_HARNESS_TORCH_PYTHON``,
else the environment ``python tools/tool_envs.py torch`` prepares (``.atlas/torch``, CPU torch,
the releases the conventions follow). Those tests are the exhaustive tier's: each starts
torch, about a minute in all. Without such an interpreter they are skipped with the reason
(under ``CI=true`` that fails, ``tests/ci_oracles.py``: ``.ci/run`` prepares it), and the
answers recorded from the real tools are checked instead."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from tiers import exhaustive_only

PREPARED = Path(__file__).resolve().parents[1] / ".atlas" / "torch" / "bin" / "python"
TORCH_PYTHON = os.environ.get("BLEU_HARNESS_TORCH_PYTHON") or (
    str(PREPARED) if PREPARED.is_file() else "")
#: Said where the interpreter is missing or a tool does not start on it.
PREPARE = ("name one with BLEU_HARNESS_TORCH_PYTHON, or prepare one with python "
           "tools/tool_envs.py torch")


def live(needs: str) -> Callable:
    """A test of the real tool on the torch interpreter: the exhaustive tier's, skipped
    without the interpreter."""
    skip = pytest.mark.skipif(
        not (TORCH_PYTHON and Path(TORCH_PYTHON).is_file()),
        reason=f"no interpreter with {needs} ({PREPARE}): the recorded answers are checked "
               "instead")

    def mark(test: Callable) -> Callable:
        return exhaustive_only(skip(test))

    return mark
