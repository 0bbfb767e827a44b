"""``own``: the project's engine, every convention it has."""

from __future__ import annotations

from harness import __version__
from harness.backends.base import RAISED, UNSUPPORTED, BackendInfo, Outcome, ScoreRequest, guarded
from harness.bleu import CONVENTIONS, BleuResult, score
from harness.bleu.result import UNSUPPORTED_INPUT

#: The library version each engine convention reproduces (what version ranges are checked
#: against when the engine meets a version-ranged expectation).
EMULATED_VERSIONS = {"nltk": "3.10.4", "sacrebleu": "2.6.0"}


def figure_of(result: BleuResult, figure: str) -> float:
    """The score, or one figure of ``result``: ``bp``, ``ratio``, ``hyp_len``, ``ref_len``,
    ``precision.N``, ``scores.N`` (NLTK's list of weight vectors), or mteval's ``cumulative.N`` / ``individual.N`` (N from 1)."""
    if figure == "score":
        return result.score
    if figure in ("bp", "hyp_len", "ref_len"):
        return getattr(result, figure)
    if figure == "ratio":
        return result.details.get("ratio", result.hyp_len / result.ref_len)
    name, _, order = figure.partition(".")
    series = {"precision": result.precisions, "scores": result.scores}.get(name) or (
        result.details[name])
    return series[int(order) - 1]


class OwnBackend:
    def info(self) -> BackendInfo:
        return BackendInfo("own", __version__, tuple(CONVENTIONS), "engine")

    def score(self, request: ScoreRequest) -> Outcome:
        if request.convention not in CONVENTIONS:
            return Outcome(UNSUPPORTED, message=f"the engine has no convention "
                                                f"{request.convention!r} yet")
        outcome = guarded(lambda: figure_of(score(list(request.hypotheses),
                                               [list(r) for r in request.references],
                                               request.convention, request.level,
                                               **dict(request.options)), request.figure))
        if outcome.kind == RAISED and outcome.error_type == UNSUPPORTED_INPUT:
            return Outcome(UNSUPPORTED, message=outcome.message)
        return outcome

    def close(self) -> None:
        pass
