"""``own``: the project's engine, every convention it has, in its own worker process."""

from __future__ import annotations

import sys

from bleu_harness.backends.base import ENGINE, Backend
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.history import HISTORIES

#: The library release each engine convention follows by default (it follows any release
#: of its history when asked: the ``version`` option).
EMULATED_VERSIONS = {name: history.latest for name, history in HISTORIES.items()}


def engine_backend() -> Backend:
    return Backend(name="own", role=ENGINE, conventions=tuple(CONVENTIONS),
                   command=(sys.executable, "-m", "bleu_harness.worker", "own"),
                   reports_figures=True)
