"""The engine's entry points: validate input, one statistics pass per preprocessing, finish."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from bleu_harness.bleu.convention import Convention, Preprocessing
from bleu_harness.bleu.conventions import get_convention
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.counting import count
from bleu_harness.bleu.result import BleuResult, ConventionDeclined, ConventionError
from bleu_harness.bleu.tokenizers import why_unavailable

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
    check_input(hypotheses, references, level)
    scoring = plan(requests, level)
    return scoring.finish(count(hypotheses, references, scoring.needed))


@dataclass(frozen=True)
class Plan:
    """Conventions with their resolved options, and the statistics they need: each
    preprocessing to the highest order any of them reads. Counting is separate
    (:func:`bleu_harness.bleu.counting.count`, or sharded: :mod:`bleu_harness.bleu.shard`), so the same
    plan finishes statistics however they were gathered."""

    level: str
    conventions: tuple[tuple[Convention, Mapping[str, Any]], ...]
    needed: Mapping[Preprocessing, int]
    #: Requests (by position) declined before counting: a tokenizer whose optional package
    #: or model is missing (an "unsupported" outcome, never a crash).
    declined: Mapping[int, ConventionError] = field(default_factory=dict)

    def finish(self, stats: Mapping[Preprocessing, CorpusStats],
               failed: Mapping[Preprocessing, ValueError] | None = None,
               ) -> list[BleuResult | ConventionError | ValueError]:
        """Each convention's outcome from ``stats`` (one entry per key of ``needed``); where
        a key's counting ``failed`` (:func:`bleu_harness.bleu.shard.count_each`), that
        error in place of the outcome."""
        outcomes: list[BleuResult | ConventionError | ValueError] = []
        for i, (convention, resolved) in enumerate(self.conventions):
            if i in self.declined:
                outcomes.append(self.declined[i])
                continue
            key = convention.preprocessing(resolved)
            if failed and key in failed:
                outcomes.append(failed[key])
                continue
            corpus = stats[key]
            try:
                outcomes.append(_finish(convention, corpus, self.level, resolved))
            except ConventionError as error:
                outcomes.append(error)
        return outcomes


def plan(requests: Sequence[Request], level: str = "corpus") -> Plan:
    """Resolve every request's options (``ValueError`` for a bad one) and collect the
    statistics they need."""
    if level not in LEVELS:
        raise ValueError(f"level must be 'sentence' or 'corpus', got {level!r}")
    planned = []
    needed: dict[Preprocessing, int] = {}
    declined: dict[int, ConventionError] = {}
    for i, request in enumerate(requests):
        convention = get_convention(request.convention)
        resolved = convention.resolve(level, dict(request.options))
        planned.append((convention, resolved))
        key = convention.preprocessing(resolved)
        reason = why_unavailable(key.tokenizer)
        if reason:
            declined[i] = ConventionDeclined(convention.name, reason)
            continue
        needed[key] = max(needed.get(key, 0), convention.required_order(resolved))
    return Plan(level, tuple(planned), needed, declined)


def _finish(convention: Convention, corpus: CorpusStats, level: str, resolved,
            signature: str | None = None) -> BleuResult:
    """The result of ``convention`` on ``corpus``; ``signature`` where the caller made it
    once for many results (:mod:`bleu_harness.bleu.batch`)."""
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
        signature=signature or convention.knobs(resolved, level).signature(convention.name),
        details=done.details,
        report=done.report,
        library_signature=done.library_signature,
    )


def corpus_statistics(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                      key: Preprocessing, order: int) -> CorpusStats:
    """The statistics every convention finishes from, for one preprocessing (validated input)."""
    check_input(hypotheses, references, "corpus")
    return count(hypotheses, references, {key: order})[key]


def check_input(hypotheses, references, level: str, first: int = 0) -> None:
    """``ValueError`` naming the first thing wrong with the input's shape or types; segments
    are numbered from ``first`` (a chunk's place in its corpus)."""
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
    if _plainly_valid(hypotheses, references):
        return
    for i, (hyp, refs) in enumerate(zip(hypotheses, references), start=first):
        if not isinstance(hyp, str):
            raise ValueError(f"hypotheses[{i}] must be a string, got {type(hyp).__name__}")
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise ValueError(f"references[{i}] must be a list of strings, got a "
                             f"{type(refs).__name__}")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise ValueError(f"references[{i}][{j}] must be a string, got "
                                 f"{type(ref).__name__}")


def _plainly_valid(hypotheses, references) -> bool:
    """Every hypothesis a ``str``, every reference set a list or tuple of ``str``: the common
    case, checked at C speed (the loop of :func:`check_input` finds what is wrong otherwise)."""
    return (set(map(type, hypotheses)) <= {str}
            and set(map(type, references)) <= {list, tuple}
            and set(map(type, chain.from_iterable(references))) <= {str})
