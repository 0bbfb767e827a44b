"""``documented``: answers from values recorded in the cases with a document as provenance
(MATLAB's manual, multi-bleu.perl and mteval outputs, papers, docstrings). It is how a
convention without a live library (or without an engine convention yet) appears in a run."""

from __future__ import annotations

import json
from collections.abc import Sequence

from harness.backends.base import (RAISED, UNSUPPORTED, BackendInfo, Outcome, ScoreRequest)
from harness.cases.model import Case
from harness.compare import expected_float


def options_key(options) -> str:
    return json.dumps(dict(options), sort_keys=True, default=list)


class DocumentedBackend:
    def __init__(self, cases: Sequence[Case]) -> None:
        self._answers: dict[tuple[str, str, str], Outcome] = {}
        conventions = set()
        for case in cases:
            for e in case.expectations:
                if e.provenance.kind != "documented":
                    continue
                conventions.add(e.convention)
                key = (case.id, e.convention, options_key(e.options), e.figure)
                self._answers[key] = (Outcome(RAISED, error_type=e.raises) if e.raises else
                                      Outcome.of_value(expected_float(e.value)))
        self._conventions = tuple(sorted(conventions))

    def info(self) -> BackendInfo:
        return BackendInfo("documented", "case corpus", self._conventions, "documented")

    def score(self, request: ScoreRequest) -> Outcome:
        key = (request.case_id, request.convention, options_key(request.options),
               request.figure)
        return self._answers.get(key, Outcome(UNSUPPORTED, message="no documented value"))

    def close(self) -> None:
        pass
