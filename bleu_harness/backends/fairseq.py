"""``fairseq``: fairseq's ``bleu`` scorer as a live backend -- its own C ``libbleu``, built when
bleu-harness is installed (``setup.py``), driven by its own unmodified ``Scorer`` and
``Dictionary`` (:mod:`bleu_harness.adapters.fairseq_scorer`) in the harness's worker
``python -m bleu_harness.worker fairseq``.

It answers for the fairseq convention, one reference per segment (``fairseq-score`` reads one
reference file; declined with that reason otherwise). Where the install built no
``libbleu`` (no C++ compiler), the run header names the backend not installed, with the
reason.
"""

from __future__ import annotations

import sys

from bleu_harness.adapters.fairseq_scorer import why_declined
from bleu_harness.backends.base import LIBRARY, Backend
from bleu_harness.records import BackendRequest


def fairseq_decline(request: BackendRequest) -> str:
    if request.convention != "fairseq":
        return "fairseq's scorer implements only the fairseq convention"
    return why_declined(request.level, request.hypotheses, request.references)


def fairseq_backend(python: str = sys.executable) -> Backend:
    """fairseq 0.12.2's ``fairseq.scoring.bleu.Scorer`` over its C ``libbleu``."""
    return Backend(name="fairseq", role=LIBRARY, conventions=("fairseq",),
                   command=(python, "-m", "bleu_harness.worker", "fairseq"),
                   decline=fairseq_decline, python=python)
