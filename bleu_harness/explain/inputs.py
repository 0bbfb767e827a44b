"""What explain, identify and fingerprint score: an input and its tokenization, from a case
of the corpus, from files, or from text typed at the command line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_harness.bleu import CONVENTIONS, ConventionError, Request, score_many
from bleu_harness.bleu.api import check_input, plan
from bleu_harness.bleu.result import BleuResult
from bleu_harness.bleu.shard import count_each
from bleu_harness.cases.loader import load
from bleu_harness.cases.model import Case
from bleu_harness.textfiles import InputError, read_parallel


@dataclass(frozen=True)
class Input:
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    level: str = "corpus"
    tokenizer: str | None = None  # None: whitespace-tokenized text (the cases' default)
    case_id: str = ""
    #: convention -> the option sets the case's expectations use (a case's input only)
    option_sets: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)
    #: worker processes that share the tokenizations of :meth:`score_each` (``identify
    #: --jobs``); 1: counted here
    jobs: int = 1

    def options_for(self, convention: str, options: Mapping[str, Any] | None = None) -> dict:
        """``options`` with the input's tokenization where the convention offers it."""
        return CONVENTIONS[convention].with_case_tokenizer(options or {}, self.tokenizer)

    def score(self, requests: Sequence[Request]) -> list[BleuResult | ConventionError]:
        """Every request scored in one statistics pass per distinct tokenization (here);
        any input error -- a tokenizer that refuses one of the texts -- is raised."""
        try:
            return score_many(list(self.hypotheses), [list(r) for r in self.references],
                              list(requests), self.level)
        except ValueError as error:
            raise InputError(str(error)) from None

    def score_each(self, requests: Sequence[Request],
                   ) -> list[BleuResult | ConventionError | ValueError]:
        """The same outcomes, each tokenization counted on its own pass -- in :attr:`jobs`
        worker processes, which share the tokenizations -- so that one a tokenizer refuses
        is that request's ``ValueError``, not the others' (:func:`count_each`)."""
        hypotheses, references = list(self.hypotheses), [list(r) for r in self.references]
        try:
            check_input(hypotheses, references, self.level)
            scoring = plan(list(requests), self.level)
        except ValueError as error:
            raise InputError(str(error)) from None
        return scoring.finish(*count_each(hypotheses, references, scoring.needed, self.jobs))


def from_case(case: Case) -> Input:
    option_sets: dict[str, dict[str, Mapping[str, Any]]] = {}
    for e in case.expectations:
        option_sets.setdefault(e.convention, {})[repr(sorted(e.options.items()))] = e.options
    return Input(tuple(case.hypotheses), tuple(tuple(r) for r in case.references), case.level,
                 case.tokenizer, case.id,
                 {k: tuple(v.values()) for k, v in option_sets.items()})


def find_case(case_id: str, paths: Sequence[str] = ()) -> Case:
    """The case ``case_id`` of the corpus: looked for in the case files whose text names it
    (the rest are not parsed), then -- for the similar ids an unknown one is told of -- in
    every file."""
    for mentioning in ([case_id], []):
        loaded = load(list(paths) or None, mentioning=mentioning)
        for case in loaded.cases:
            if case.id == case_id:
                return case
    wanted = case_id.lower()
    close = [c.id for c in loaded.cases if c.id.lower() == wanted]  # ids are case-sensitive
    close += [c.id for c in loaded.cases
              if wanted.split("-")[0] in c.id.lower() and c.id not in close]
    close = close[:5]
    hint = f" (similar: {', '.join(close)})" if close else ""
    raise InputError(f"no case {case_id!r} in the corpus{hint}")


def from_text(hypotheses: Sequence[str], references: Sequence[str],
              tokenizer: str | None) -> Input:
    """One hypothesis typed at the command line against every ``--ref``: a sentence."""
    if len(hypotheses) != 1:
        raise InputError("give exactly one --hyp (several segments: use files)")
    if not references:
        raise InputError("give at least one --ref")
    return Input((hypotheses[0],), (tuple(references),), "sentence", tokenizer)


def from_files(hyp_file: str, ref_files: Sequence[str], tokenizer: str | None,
               remove_from_references: str = "") -> Input:
    """A corpus read from files; ``remove_from_references`` (e.g. BPE's ``"@@ "``) taken out of
    every reference first, as ``score`` and case files do."""
    hyps, refs = read_parallel(hyp_file, list(ref_files))
    if remove_from_references:
        refs = [[r.replace(remove_from_references, "") for r in rs] for rs in refs]
    return Input(tuple(hyps), tuple(tuple(r) for r in refs), "corpus", tokenizer)
