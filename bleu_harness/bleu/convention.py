"""What a convention is: its options, its knob settings (``bleu_harness.bleu.knobs``, the one
description it has) and a pure finish over statistics."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.corpus import CorpusStats

if TYPE_CHECKING:
    from bleu_harness.bleu.knobs import KnobSettings


@dataclass(frozen=True)
class Preprocessing:
    """How text becomes tokens: case folding (``str.lower`` first), then the tokenizer;
    ``drop_empty_references`` leaves out every reference that is exactly ``''`` first
    (SacreBLEU 1.5.0-2.1.x)."""

    tokenizer: str = "none"
    lowercase: bool = False
    drop_empty_references: bool = False


@dataclass(frozen=True)
class Finished:
    """A convention's numbers before they are wrapped into a ``BleuResult``."""

    scores: tuple[float, ...]
    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[Any, ...]
    bp: float
    hyp_len: int
    ref_len: int
    details: Mapping[str, Any] = field(default_factory=dict)
    report: str = ""


@dataclass(frozen=True)
class Convention:
    """A named BLEU convention.

    ``resolve`` turns user options (in the library's own vocabulary) into the complete,
    validated option mapping; the other functions take that mapping. ``case_tokenizers`` are
    the case-file tokenizer names (SacreBLEU's: ``none``, ``13a``, ...) that the convention's
    ``tokenize`` option accepts, so a case written for pre-tokenized text is scored as such.
    """

    name: str
    description: str
    scale: float
    option_names: tuple[str, ...]
    resolve: Callable[[str, Mapping[str, Any]], dict[str, Any]]
    preprocessing: Callable[[Mapping[str, Any]], Preprocessing]
    required_order: Callable[[Mapping[str, Any]], int]
    #: The convention as knob settings at these options and level: its one description.
    knobs: Callable[[Mapping[str, Any], str], KnobSettings]
    finish: Callable[[CorpusStats, str, Mapping[str, Any]], Finished]
    case_tokenizers: tuple[str, ...] = ()
    #: Relative precision of the followed library's arithmetic: 0 for float64 (bit for bit),
    #: about 1e-6 for a float32 result (torchmetrics tensors, T2T's ``np.float32``).
    precision: float = 0.0
    #: Plausible option settings a published score may have used (``bleu-harness identify``
    #: searches them); the defaults alone if a convention lists none.
    variants: tuple[Mapping[str, Any], ...] = ({},)

    def signature(self, level: str = "corpus", **options: Any) -> str:
        """The signature string of this convention with ``options`` (defaults otherwise)."""
        return self.knobs(self.resolve(level, options), level).signature(self.name)

    def with_case_tokenizer(self, options: Mapping[str, Any],
                            tokenizer: Any) -> dict[str, Any]:
        """``options`` with a case's tokenization (``None``: whitespace-tokenized text, i.e.
        ``tokenize="none"``; or the user's own callable) where this convention's ``tokenize``
        offers it and the options do not already choose."""
        resolved = dict(options)
        wanted = tokenizer or "none"
        if wanted in self.case_tokenizers or (callable(wanted) and self.takes_tokenizer):
            resolved.setdefault("tokenize", wanted)
        return resolved

    @property
    def takes_tokenizer(self) -> bool:
        """Whether ``tokenize`` may be any callable ``str -> list[str]`` (as Hugging Face's
        ``bleu`` takes ``tokenizer=``): the conventions with a ``tokenize`` option."""
        return "tokenize" in self.option_names

    @property
    def default_signature(self) -> str:
        return self.signature()

    @classmethod
    def declared(cls, module: ModuleType) -> Convention:
        """The convention a module declares: its ``NAME``, ``DESCRIPTION``, ``DEFAULTS``
        (and ``ALIASES``, or ``OPTION_NAMES`` where the defaults depend on the level),
        ``VARIANTS``, optional ``CASE_TOKENIZERS``, and its ``resolve``, ``preprocessing``,
        ``required_order``, ``knobs`` and ``finish``. The scale and the precision are read
        from its knob settings at the defaults (``scale``; ``float32`` -> about 1e-6)."""
        defaults = module.knobs(module.resolve("corpus", {}), "corpus")
        option_names = getattr(module, "OPTION_NAMES", None) or (
            tuple(module.DEFAULTS) + tuple(getattr(module, "ALIASES", ())))
        return cls(
            name=module.NAME, description=module.DESCRIPTION, scale=defaults.scale,
            option_names=option_names, resolve=module.resolve,
            preprocessing=module.preprocessing, required_order=module.required_order,
            knobs=module.knobs, finish=module.finish,
            case_tokenizers=getattr(module, "CASE_TOKENIZERS", ()),
            precision=FLOAT32_TOLERANCE if defaults.float32 else 0.0, variants=module.VARIANTS)


def merge_options(
    convention: str, given: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """``defaults`` updated with ``given``; an unknown key is a ``ValueError`` naming it."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults))
        raise ValueError(
            f"unknown option {unknown[0]!r} for convention {convention!r} (known: {known})"
        )
    merged = dict(defaults)
    merged.update(given)
    return merged


def require_number(convention: str, key: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{convention}: option {key!r} must be a number, got {value!r}")


def require_int(convention: str, key: str, value: Any, minimum: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(
            f"{convention}: option {key!r} must be an integer >= {minimum}, got {value!r}")


#: The largest n-gram order the engine accepts: every library's default is 4 (mteval prints
#: 9); an order in the millions is a typo that would only exhaust the memory.
MAX_ORDER = 100


def require_order(convention: str, key: str, value: Any, minimum: int = 1) -> None:
    """An n-gram order: an integer from ``minimum`` to :data:`MAX_ORDER`."""
    require_int(convention, key, value, minimum)
    if value > MAX_ORDER:
        raise ValueError(f"{convention}: option {key!r} must be at most {MAX_ORDER}, "
                         f"got {value!r}")


def require_bool(convention: str, key: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{convention}: option {key!r} must be true or false, got {value!r}")


def require_choice(convention: str, key: str, value: Any, choices) -> None:
    if value not in choices:
        raise ValueError(
            f"{convention}: option {key!r} must be one of {', '.join(map(str, choices))}; "
            f"got {value!r}"
        )


def weight_tuple(convention: str, key: str, value: Any) -> tuple[float, ...]:
    """A weight vector as a tuple of numbers, or a ``ValueError`` naming the problem."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{convention}: option {key!r} must be a list of numbers, got {value!r}")
    weights = tuple(value)
    if len(weights) > MAX_ORDER:
        raise ValueError(f"{convention}: option {key!r} has {len(weights)} weights; at most "
                         f"{MAX_ORDER} n-gram orders")
    for w in weights:
        require_number(convention, key, w)
    return weights


