"""``own``: the project's engine, every convention it has, in its own worker process."""

from __future__ import annotations

import json
import sys

from bleu_harness.backends.base import ENGINE, Backend
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.history import HISTORIES
from bleu_harness.protocol import HARNESS, outcome_of, score_request
from bleu_harness.records import BackendOutcome, BackendRequest

#: The library release each engine convention follows by default (it follows any release
#: of its history when asked: the ``version`` option).
EMULATED_VERSIONS = {name: history.latest for name, history in HISTORIES.items()}


def engine_backend() -> Backend:
    return Backend(name="own", role=ENGINE, conventions=tuple(CONVENTIONS),
                   command=(sys.executable, "-m", "bleu_harness.worker", "own"),
                   reports_figures=True)


def answered_here(request: BackendRequest) -> BackendOutcome:
    """The engine's outcome of ``request`` computed in this process: what its worker would
    answer (the same answer, through the same JSON and the same reading of it), for where a
    worker is not worth starting -- a divergence map kept between runs that turned out to be
    unreadable (:mod:`bleu_harness.report.map_cache`)."""
    from bleu_harness.worker import own_answer

    answer = json.loads(json.dumps(own_answer(score_request(request, HARNESS))))
    return outcome_of(answer, HARNESS, reports_figures=True)
