"""``run --tokenizer``: the corpus as the user's own tokenizer splits it.

Every hypothesis and reference becomes its tokens joined by single spaces, so the case is
whitespace-tokenized text: the conventions that split on whitespace (NLTK, MATLAB,
torchmetrics, multi-bleu) and the ones told ``tokenize="none"`` (SacreBLEU, TF-NMT, T2T) see
exactly the user's tokens -- what Hugging Face's ``bleu(tokenizer=...)`` and a SacreBLEU
tokenizer of one's own compute -- and mteval-v13a applies its own rules on top, as it would
to tokenized text. A token must be a non-empty string without whitespace (else the join
would not give it back); a case where the tokenizer fails or returns anything else is a
case-file problem naming the case, and the others still run.

The recorded expected values hold for each case's own tokenization, not for the user's:
their checks are skipped (``Case.retokenized_by``); the differential checks (the
implementation against the live libraries, on the new tokens) and the divergence map remain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from bleu_harness.bleu.tokenizers import tokens_problem
from bleu_harness.cases.model import Case, Expectation, Problem, Segment
from bleu_harness.signals import TimeLimitExceeded, time_limit

#: Options that choose a tokenization: the user's tokenizer replaces them.
TOKENIZATION_OPTIONS = ("tokenize", "spm_model")


class TokenizerFailed(ValueError):
    pass


def retokenize(cases: Sequence[Case], tokenize: Callable[[str], list[str]],
               name: str, timeout: float | None = None) -> tuple[list[Case], list[Problem]]:
    """The cases in the user's tokens, and a problem for each case it cannot tokenize (one
    that raises, returns something else than tokens, or takes longer than ``timeout``
    seconds on one text)."""
    done, problems = [], []
    for case in cases:
        try:
            segments = tuple(Segment(_joined(tokenize, s.hyp, timeout),
                                     tuple(_joined(tokenize, r, timeout) for r in s.refs))
                             for s in case.segments)
        except TokenizerFailed as error:
            problems.append(Problem(case.file, case.line, case.id,
                                    f"--tokenizer {name}: {error}", case_line=case.line))
            continue
        expectations = tuple(_without_tokenization(e) for e in case.expectations)
        done.append(replace(case, segments=segments, tokenizer=None,
                            expectations=expectations, retokenized_by=name))
    return done, problems


def _joined(tokenize: Callable[[str], list[str]], text: str, timeout: float | None) -> str:
    try:
        with time_limit(timeout):
            tokens = tokenize(text)
    except TimeLimitExceeded as error:
        raise TokenizerFailed(f"{error} on {text[:60]!r}") from None
    except Exception as error:  # noqa: BLE001 - the user's code: reported, never a crash
        raise TokenizerFailed(f"raised {type(error).__name__}: {error} on {text[:60]!r}"
                              ) from None
    problem = tokens_problem(tokens)
    if problem:
        raise TokenizerFailed(f"{problem} for {text[:60]!r}")
    for token in tokens:
        if not token or token != "".join(token.split()):
            raise TokenizerFailed(f"returned the token {token[:60]!r} for {text[:60]!r}: a token "
                                  "must be a non-empty string without whitespace")
    return " ".join(tokens)


def _without_tokenization(expectation: Expectation) -> Expectation:
    options = {k: v for k, v in expectation.options.items() if k not in TOKENIZATION_OPTIONS}
    return replace(expectation, options=options)
