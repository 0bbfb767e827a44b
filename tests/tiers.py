"""The two tiers of the test suite.

* The **quick tier** is the README's test command (``python -m pytest``): every rule of the
  engine and the gate, each with its differential test against the real tools, fewer
  generated examples per property (every edge a random search can miss is an ``@example``),
  and one of each end-to-end story.
* The **exhaustive tier** (``python -m pytest --exhaustive``, which CI runs after the quick
  one) adds the tests marked ``exhaustive`` -- the wheel installed into fresh virtual
  environments, the pre-commit hook through ``pre-commit try-repo``, the report in a real
  browser, every documentation page's commands, every hostile input of the fuzzers -- and
  runs each property with its full number of examples.

``tools/mutations.py`` checks that the quick tier alone catches the engine mistakes that
matter (a length tie broken the other way in C or Python, no clipping, another epsilon for
method1, torchmetrics' tie rule, a history row a release off, SacreBLEU's floor
default).
"""

from __future__ import annotations

import os

import pytest

#: Set for the whole session (and the xdist workers) by ``--exhaustive``.
VARIABLE = "BLEU_HARNESS_EXHAUSTIVE"

#: Marks a test that runs only in the exhaustive tier.
exhaustive_only = pytest.mark.exhaustive


def exhaustive() -> bool:
    return os.environ.get(VARIABLE) == "1"


def examples(full: int, quick: int | None = None) -> int:
    """A property's number of generated examples: ``full`` in the exhaustive tier, else
    ``quick`` (a tenth of ``full``, at least 15, by default: every edge a random search can
    miss is an ``@example`` of its own, and tools/mutations.py checks that the quick tier
    still catches the engine mistakes that matter)."""
    if exhaustive():
        return full
    return quick if quick is not None else min(full, max(15, full // 10))


def sampled(values, quick: int = 1, *, one_argument: bool = False) -> list:
    """Parameters of which the quick tier runs the first ``quick`` and the exhaustive tier
    every one: for an end-to-end story told once per hostile input, signal or release, each
    a process or a run of its own, where the first ones already walk the story's code. A
    tuple is the values of several arguments unless ``one_argument``."""
    return [value if index < quick else
            pytest.param(*(value if isinstance(value, tuple) and not one_argument
                           else (value,)), marks=exhaustive_only)
            for index, value in enumerate(values)]
