"""The engine's entry points: validate input, one statistics pass per preprocessing, finish."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.bleu.convention import Convention, Preprocessing
from harness.bleu.conventions import get_convention
from harness.bleu.corpus import CorpusStats
from harness.bleu.counting import count
from harness.bleu.result import BleuResult, ConventionError

LEVELS = ("sentence", "corpus")


@dataclass(frozen=True)
class Request:
    """One convention with its options, as the user gave them."""

    convention: str
    options: Mapping[str, Any] = field(default_factory=dict)


def score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    convention: str = "nltk",
    level: str = "corpus",
    **options: Any,
) -> BleuResult:
    """BLEU of ``hypotheses`` against ``references`` under ``convention``.

    ``references[i]`` are the references of ``hypotheses[i]`` (any number each). Options use
    the followed library's own names and defaults. Raises ``ValueError`` for bad input or
    options and :class:`ConventionError` where the followed library raises.
    """
    outcome = score_many(hypotheses, references, [Request(convention, options)], level)[0]
    if isinstance(outcome, ConventionError):
        raise outcome
    return outcome


def score_many(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    requests: Sequence[Request],
    level: str = "corpus",
) -> list[BleuResult | ConventionError]:
    """Score several conventions at once: one statistics pass per distinct preprocessing.

    Bad input or options raise ``ValueError``; a convention that cannot score this input
    yields its :class:`ConventionError` in place of a result, so the others still score.
    """
    _check_input(hypotheses, references, level)
    planned = []
    for request in requests:
        convention = get_convention(request.convention)
        resolved = convention.resolve(level, dict(request.options))
        planned.append((convention, resolved))

    needed: dict[Preprocessing, int] = {}
    for convention, resolved in planned:
        key = convention.preprocessing(resolved)
        needed[key] = max(needed.get(key, 0), convention.required_order(resolved))
    stats = count(hypotheses, references, needed)

    outcomes: list[BleuResult | ConventionError] = []
    for convention, resolved in planned:
        corpus = stats[convention.preprocessing(resolved)]
        try:
            outcomes.append(_finish(convention, corpus, level, resolved))
        except ConventionError as error:
            outcomes.append(error)
    return outcomes


def _finish(convention: Convention, corpus: CorpusStats, level: str, resolved) -> BleuResult:
    done = convention.finish(corpus, level, resolved)
    return BleuResult(
        convention=convention.name,
        level=level,
        score=done.scores[0],
        scores=done.scores,
        precisions=tuple(float(p) for p in done.precisions),
        counts=tuple(done.counts),
        totals=tuple(done.totals),
        bp=float(done.bp),
        hyp_len=done.hyp_len,
        ref_len=done.ref_len,
        options=resolved,
        signature=convention.knobs(resolved).signature(convention.name),
        details=done.details,
        report=done.report,
    )


def corpus_statistics(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                      key: Preprocessing, order: int) -> CorpusStats:
    """The statistics every convention finishes from, for one preprocessing (validated input)."""
    _check_input(hypotheses, references, "corpus")
    return count(hypotheses, references, {key: order})[key]


def _check_input(hypotheses, references, level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be 'sentence' or 'corpus', got {level!r}")
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise ValueError("hypotheses must be a list of strings, one segment each")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise ValueError("references must be a list with one list of reference strings "
                         "per hypothesis")
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references)} reference lists: "
            "references[i] must hold the references of hypotheses[i]")
    if level == "sentence" and len(hypotheses) != 1:
        raise ValueError(f"level='sentence' needs exactly one hypothesis, got {len(hypotheses)}")
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        if not isinstance(hyp, str):
            raise ValueError(f"hypotheses[{i}] must be a string, got {type(hyp).__name__}")
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise ValueError(f"references[{i}] must be a list of strings, got a "
                             f"{type(refs).__name__}")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise ValueError(f"references[{i}][{j}] must be a string, got "
                                 f"{type(ref).__name__}")
