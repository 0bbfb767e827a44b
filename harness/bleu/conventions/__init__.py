"""The registry of conventions: name -> :class:`~harness.bleu.convention.Convention`."""

from __future__ import annotations

from types import MappingProxyType

from harness.bleu.convention import Convention
from harness.bleu.conventions import (
    matlab,
    mteval,
    multibleu,
    nltk,
    sacrebleu,
    t2t,
    tfnmt,
    torchmetrics,
)

CONVENTIONS: MappingProxyType[str, Convention] = MappingProxyType(
    {c.name: c for c in (
        nltk.CONVENTION, sacrebleu.CONVENTION, matlab.CONVENTION, multibleu.CONVENTION,
        mteval.CONVENTION, tfnmt.CONVENTION, torchmetrics.CONVENTION, t2t.CONVENTION)}
)


def get_convention(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except (KeyError, TypeError):
        known = ", ".join(CONVENTIONS)
        raise ValueError(f"unknown convention {name!r} (known: {known})") from None
