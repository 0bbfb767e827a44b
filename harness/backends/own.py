"""``own``: the project's engine, every convention it has."""

from __future__ import annotations

from harness import __version__
from harness.backends.base import UNSUPPORTED, BackendInfo, Outcome, ScoreRequest, guarded
from harness.bleu import CONVENTIONS, score

#: The library version each engine convention reproduces (what version ranges are checked
#: against when the engine meets a version-ranged expectation).
EMULATED_VERSIONS = {"nltk": "3.10.4", "sacrebleu": "2.6.0"}


class OwnBackend:
    def info(self) -> BackendInfo:
        return BackendInfo("own", __version__, tuple(CONVENTIONS), "engine")

    def score(self, request: ScoreRequest) -> Outcome:
        if request.convention not in CONVENTIONS:
            return Outcome(UNSUPPORTED, message=f"the engine has no convention "
                                                f"{request.convention!r} yet")
        return guarded(lambda: score(list(request.hypotheses),
                                     [list(r) for r in request.references],
                                     request.convention, request.level,
                                     **dict(request.options)).score)

    def close(self) -> None:
        pass
