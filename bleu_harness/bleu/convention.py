"""What a convention is: its options, its knob settings (``bleu_harness.bleu.knobs``, the one
description it has) and a pure finish over statistics."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.options import Option, option_names, resolve_options

if TYPE_CHECKING:
    from bleu_harness.bleu.kernel import SentenceArithmetic
    from bleu_harness.bleu.knobs import KnobSettings


@dataclass(frozen=True)
class Preprocessing:
    """How text becomes tokens: case folding (``str.lower`` first), then the tokenizer;
    ``drop_empty_references`` leaves out every reference that is exactly ``''`` first
    (SacreBLEU 1.5.0-2.1.x); ``segments`` keeps every segment's statistics too, in order
    (``CorpusStats.segments``: a mean of sentence scores needs them, ignite's macro
    average)."""

    tokenizer: str = "none"
    lowercase: bool = False
    drop_empty_references: bool = False
    segments: bool = False


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
    #: The signature the followed library prints itself, where it has one (SacreBLEU's
    #: ``nrefs:1|case:mixed|...``), for pasting beside the library's own.
    library_signature: str = ""


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
    #: Whether a ``tokenize`` option takes the user's own callable too (torchmetrics'
    #: ``SacreBLEUScore`` takes only the names of its tokenizers).
    callable_tokenizer: bool = True
    #: What ``finish`` scores one sentence with, at these options, where the C kernel may
    #: score a batch of sentences for it (:mod:`bleu_harness.bleu.kernel`); ``None``: never.
    sentence_arithmetic: Callable[[Mapping[str, Any]], SentenceArithmetic | None] | None = None
    #: The scale of the precisions its ``finish`` reports, where it is not the score's
    #: (MultEval: fractions beside a 0-100 score); ``None``: the score's.
    precisions_scale: float | None = None

    @property
    def precisions_on(self) -> float:
        """The scale the reported precisions are on."""
        return self.scale if self.precisions_scale is None else self.precisions_scale

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
        ``bleu`` takes ``tokenizer=``): the conventions with a ``tokenize`` option that takes
        one."""
        return self.callable_tokenizer and "tokenize" in self.option_names

    @property
    def default_signature(self) -> str:
        return self.signature()

    @classmethod
    def declared(cls, module: ModuleType) -> Convention:
        """The convention a module declares: its ``NAME``, ``DESCRIPTION``, ``OPTIONS``
        (:class:`~bleu_harness.bleu.options.Option`), ``VARIANTS``, optional
        ``CASE_TOKENIZERS`` and ``CALLABLE_TOKENIZER`` (default true), its
        ``preprocessing``, ``required_order``, ``knobs`` and ``finish``, a ``resolve``
        only where checking each option alone is not enough, a ``sentence_arithmetic``
        where its ``finish`` scores a sentence by the knob arithmetic alone, and a
        ``PRECISIONS_SCALE`` where its precisions are not on the score's scale.
        The scale and the precision are read from its knob settings at the defaults
        (``scale``; ``float32`` -> about 1e-6), or the precision from an optional
        ``PRECISION`` (a float64 result of float32 steps: ignite's macro average)."""
        resolve = getattr(module, "resolve", None) or DeclaredOptions(module.NAME,
                                                                      module.OPTIONS)
        defaults = module.knobs(resolve("corpus", {}), "corpus")
        return cls(
            name=module.NAME, description=module.DESCRIPTION, scale=defaults.scale,
            option_names=option_names(module.OPTIONS), resolve=resolve,
            preprocessing=module.preprocessing, required_order=module.required_order,
            knobs=module.knobs, finish=module.finish,
            case_tokenizers=getattr(module, "CASE_TOKENIZERS", ()),
            precision=getattr(module, "PRECISION",
                              FLOAT32_TOLERANCE if defaults.float32 else 0.0),
            variants=module.VARIANTS,
            callable_tokenizer=getattr(module, "CALLABLE_TOKENIZER", True),
            sentence_arithmetic=getattr(module, "sentence_arithmetic", None),
            precisions_scale=getattr(module, "PRECISIONS_SCALE", None))


@dataclass(frozen=True)
class DeclaredOptions:
    """``resolve`` of a convention whose options are checked one by one."""

    convention: str
    options: tuple[Option, ...]

    def __call__(self, level: str, given: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(self.convention, self.options, given)
