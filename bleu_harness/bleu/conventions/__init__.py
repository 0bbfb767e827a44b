"""The registry of conventions: name -> :class:`~bleu_harness.bleu.convention.Convention`."""

from __future__ import annotations

from types import MappingProxyType

from bleu_harness.bleu.agreement import Score, on_unit_scale, same_score
from bleu_harness.bleu.convention import Convention
from bleu_harness.bleu.conventions import (
    allennlp,
    coco,
    comparemt,
    fairseq,
    fast_bleu,
    ignite,
    jury,
    kerashub,
    marian,
    matlab,
    mteval,
    multibleu,
    multeval,
    nltk,
    npm_bleu_score,
    sacrebleu,
    t2t,
    tfmodels,
    tfnmt,
    torchmetrics,
    torchmetrics_sacrebleu,
    torchtext,
)
from bleu_harness.bleu.options import closest

#: Every convention module, in the order tests and reports list the conventions. Adding a
#: convention is one module (its declaration) and its name here.
MODULES = (nltk, sacrebleu, matlab, multibleu, mteval, tfnmt, torchmetrics, t2t,
           torchmetrics_sacrebleu, comparemt, tfmodels, kerashub, coco, fairseq, ignite,
           torchtext, marian, allennlp, multeval, npm_bleu_score, fast_bleu, jury)

CONVENTIONS: MappingProxyType[str, Convention] = MappingProxyType(
    {module.NAME: Convention.declared(module) for module in MODULES})


def unknown_convention(name: object, also: tuple[str, ...] = ()) -> str:
    """What a name that is no convention is told, everywhere one is named (the API, ``-c``,
    ``--claims``, a case file): the convention probably meant, and the known ones (and the
    ``also`` a command takes besides, such as ``all``)."""
    known = (*CONVENTIONS, *also)
    close = closest(name, known)
    meant = f"did you mean {close!r}? " if close else ""
    return f"unknown convention {name!r} ({meant}known: {', '.join(known)})"


def get_convention(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except (KeyError, TypeError):
        raise ValueError(unknown_convention(name)) from None


def unit_score(convention: str, score: Score) -> Score:
    """A convention's score on the 0-1 scale (SacreBLEU and multi-bleu print 0-100); a phrase
    for an outcome that is not a number (``raises X``) stays as it is."""
    return on_unit_scale(score, CONVENTIONS[convention].scale)


def scores_agree(a: str, score_a: Score, b: str, score_b: Score) -> bool:
    """Whether two conventions' scores (each on its native scale) agree on the 0-1 scale,
    within the precision of the less precise one (float32 for torchmetrics and T2T)."""
    precision = max(CONVENTIONS[a].precision, CONVENTIONS[b].precision)
    return same_score(unit_score(a, score_a), unit_score(b, score_b), precision)
