"""``own``: the project's engine, every convention it has, in its own worker process."""

from __future__ import annotations

import sys

from harness.backends.base import ENGINE, Backend
from harness.bleu import CONVENTIONS

#: The library release each engine convention reproduces by default (what version ranges
#: are checked against when the engine meets a version-ranged expectation).
EMULATED_VERSIONS = {"nltk": "3.10.4", "sacrebleu": "2.6.0"}


def engine_backend() -> Backend:
    return Backend(name="own", role=ENGINE, conventions=tuple(CONVENTIONS),
                   command=(sys.executable, "-m", "harness.worker", "own"),
                   reports_figures=True)
