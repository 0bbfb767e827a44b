"""torchtext's ``bleu_score``, unmodified (``tests/oracles/torchtext/metrics.py`` and the
``utils.py`` it imports ``ngrams_iterator`` from, out of the PyPI ``torchtext`` 0.18.0 wheel),
importable where the torchtext package is not: its wheel's ``libtorchtext.so`` does not load
with torch 2.13, but ``bleu_score`` is pure Python and torch. ``import torchtext.data.utils``
is stubbed with empty ``torchtext`` and ``torchtext.data`` packages around the vendored
``utils.py`` (standard library only at import time). Needs torch: it runs on the torch
interpreter (``BLEU_HARNESS_TORCH_PYTHON``), from tools/record_ignite_torchtext.py and the
live test of tests/test_torchtext.py."""

from __future__ import annotations

import types
from functools import cache
from pathlib import Path

from bleu_harness.adapters.vendoring import load, swapped

ORACLE = Path(__file__).resolve().parent / "oracles" / "torchtext"


@cache
def bleu_score():
    """The vendored ``torchtext.data.metrics.bleu_score``."""
    stubs = {"torchtext": types.ModuleType("torchtext"),
             "torchtext.data": types.ModuleType("torchtext.data")}
    with swapped(stubs, also=["torchtext.data.utils"]):
        stubs["torchtext.data"].utils = load("torchtext.data.utils", ORACLE / "utils.py")
        return load("torchtext_oracle_metrics", ORACLE / "metrics.py").bleu_score


def answer(request: dict) -> dict:
    """``bleu_score`` of a request's ``str.split()`` tokens (``max_n`` and ``weights`` as
    given; the function's own defaults where absent): its score and the type it returned,
    or the exception it raised."""
    kwargs = {k: v for k, v in request["options"].items() if k in ("max_n", "weights")}
    candidates = [h.split() for h in request["hypotheses"]]
    references = [[r.split() for r in refs] for refs in request["references"]]
    try:
        value = bleu_score()(candidates, references, **kwargs)
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}
    return {"score": float(value), "type": type(value).__name__}
