"""The registry of conventions: name -> :class:`~harness.bleu.convention.Convention`."""

from __future__ import annotations

from types import MappingProxyType

from harness.bleu.convention import Convention
from harness.bleu.conventions import matlab, nltk, sacrebleu

CONVENTIONS: MappingProxyType[str, Convention] = MappingProxyType(
    {c.name: c for c in (nltk.CONVENTION, sacrebleu.CONVENTION, matlab.CONVENTION)}
)


def get_convention(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except (KeyError, TypeError):
        known = ", ".join(CONVENTIONS)
        raise ValueError(f"unknown convention {name!r} (known: {known})") from None
