"""fairseq's ``bleu`` scorer as fairseq runs it, from its own unmodified files
(``bleu_harness/adapters/vendored/fairseq``, from facebookresearch/fairseq@4a388e64cd64 =
v0.12.2, the PyPI sdist ``fairseq-0.12.2.tar.gz``): the C ``libbleu`` (``libbleu.cpp`` and
``module.cpp``, built as fairseq's ``setup.py:58-66`` builds ``fairseq.libbleu``: the
extension ``bleu_harness.adapters.libbleu``, ``-std=c++11 -O3``, when bleu-harness is
installed with a C++ compiler), loaded with ctypes by fairseq's ``fairseq/scoring/bleu.py``
(``Scorer``), fed by its ``Dictionary`` (``fairseq/data/dictionary.py``,
``fairseq/tokenizer.py``) the way ``fairseq-score`` (``fairseq_cli/score.py``) feeds it.

Without torch: the imports those files make are stubbed with the little they use --
``torch.IntTensor`` as a contiguous ``int32`` array (what ``encode_line`` fills and
``Scorer.add`` hands to ``bleu_add``: ``clone``, ``eq``/``lt`` masks, masked assignment,
``view(-1)``, ``size(0)``, ``data_ptr()``), ``fairseq.libbleu`` as a module whose ``__file__`` is
the library built, and fairseq's registries and dataclass bases as no-ops. Every line of the
scoring path is fairseq's; only the tensor is ours (``load(..., real_torch=True)`` takes
torch's own, and ``tests/test_fairseq.py`` checks that both give the same ``stat``).

The live backend ``fairseq`` (``bleu_harness/backends/fairseq.py``, the worker ``python -m
bleu_harness.worker fairseq``) answers with it; the tests drive the same files over a
``libbleu.cpp`` they compile themselves (``tests/fairseq_oracle.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import types
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bleu_harness.adapters.vendoring import load as load_file
from bleu_harness.adapters.vendoring import package, stub, swapped

#: fairseq's files, byte for byte those of the tag v0.12.2.
SOURCES = Path(__file__).resolve().parent / "vendored" / "fairseq"
#: The release they are.
VERSION = "0.12.2"


# --- the torch stub ---------------------------------------------------------------------------

class _Mask(list):
    def any(self) -> bool:
        return any(self)


class IntTensor:
    """A one-dimensional ``torch.IntTensor``: ``int32`` values in one contiguous buffer."""

    def __init__(self, size: int) -> None:
        self._data = (ctypes.c_int32 * size)()

    def __setitem__(self, key, value) -> None:
        if isinstance(key, _Mask):
            for i, chosen in enumerate(key):
                if chosen:
                    self._data[i] = value
        else:
            self._data[key] = value

    def __getitem__(self, index: int) -> int:
        return self._data[index]

    def __len__(self) -> int:
        return len(self._data)

    def tolist(self) -> list[int]:
        return list(self._data)

    def clone(self) -> IntTensor:
        copy = IntTensor(len(self._data))
        ctypes.memmove(copy._data, self._data, ctypes.sizeof(self._data))
        return copy

    def eq(self, value: int) -> _Mask:
        return _Mask(x == value for x in self._data)

    def lt(self, value: int) -> _Mask:
        return _Mask(x < value for x in self._data)

    def contiguous(self) -> IntTensor:
        return self

    def view(self, *shape: int) -> IntTensor:
        assert shape == (-1,), shape
        return self

    def size(self, dim: int) -> int:
        assert dim == 0, dim
        return len(self._data)

    def data_ptr(self) -> int:
        return ctypes.addressof(self._data)


@dataclass(frozen=True)
class Fairseq:
    """fairseq's modules, loaded against the stubs; :meth:`active` puts them back in
    ``sys.modules`` for a call that imports at run time (``Scorer`` imports
    ``fairseq.libbleu`` when constructed)."""

    modules: dict
    bleu: types.ModuleType
    dictionary: types.ModuleType
    score: types.ModuleType

    def active(self) -> contextlib.AbstractContextManager[None]:
        return swapped(self.modules)


def load(libbleu: Path, real_torch: bool = False) -> Fairseq:
    """fairseq's ``tokenizer``, ``data.dictionary``, ``scoring.bleu`` and ``fairseq_cli.score``,
    unmodified, with ``libbleu`` as the compiled ``fairseq.libbleu``; with ``real_torch``, the
    installed torch in place of the stub (to check the stub)."""
    def register_scorer(name, dataclass=None):
        return lambda cls: cls

    class BaseScorer:
        def __init__(self, cfg):
            self.cfg, self.ref, self.pred = cfg, [], []

    torch = stub("torch", IntTensor=IntTensor, Tensor=IntTensor,
                  is_tensor=lambda x: isinstance(x, IntTensor))
    if real_torch:
        import torch
    modules = {
        "torch": torch,
        "fairseq": package("fairseq"),
        "fairseq.libbleu": stub("fairseq.libbleu", __file__=str(libbleu)),
        "fairseq.utils": stub("fairseq.utils"),
        "fairseq.data": package("fairseq.data"),
        "fairseq.data.data_utils": stub("fairseq.data.data_utils"),
        "fairseq.file_chunker_utils": stub("fairseq.file_chunker_utils", Chunker=None,
                                            find_offsets=None),
        "fairseq.file_io": stub("fairseq.file_io", PathManager=None),
        "fairseq.dataclass": stub("fairseq.dataclass", FairseqDataclass=object),
        "fairseq.scoring": package("fairseq.scoring", BaseScorer=BaseScorer,
                                    register_scorer=register_scorer),
        "fairseq.scoring.tokenizer": stub("fairseq.scoring.tokenizer",
                                           EvaluationTokenizer=stub("EvaluationTokenizer",
                                                                     ALL_TOKENIZER_TYPES=str)),
        "fairseq_cli": package("fairseq_cli"),
    }
    modules["fairseq"].libbleu = modules["fairseq.libbleu"]
    files = {"fairseq.tokenizer": "tokenizer.py", "fairseq.data.dictionary": "dictionary.py",
             "fairseq.scoring.bleu": "bleu.py", "fairseq_cli.score": "score.py"}
    with swapped(modules, also=files):
        for name, file in files.items():
            modules[name] = load_file(name, SOURCES / file)
            parent, _, child = name.rpartition(".")
            setattr(modules[parent], child, modules[name])
    return Fairseq(modules, modules["fairseq.scoring.bleu"], modules["fairseq.data.dictionary"],
                   modules["fairseq_cli.score"])


# --- drivers ----------------------------------------------------------------------------------

STAT_FIELDS = ("reflen", "predlen", "match1", "count1", "match2", "count2", "match3", "count3",
               "match4", "count4")


@dataclass(frozen=True)
class Scored:
    """What the ``Scorer`` holds after the lines: ``score(order)``, ``result_string(order)``,
    ``precision()``, ``brevity()`` (or the exception each raised) and the ``bleu_stat``
    fields."""

    score: float | str
    report: str
    stat: dict[str, int]
    precision: tuple
    brevity: float | str


def _outcome(call):
    try:
        return call()
    except Exception as error:  # the tool's own exception, by name
        return f"raises {type(error).__name__}"


def _scored(scorer, order: int) -> Scored:
    stat = {name: getattr(scorer.stat, name) for name in STAT_FIELDS}
    precision = tuple(_outcome(scorer.precision))
    return Scored(_outcome(lambda: scorer.score(order)),
                  _outcome(lambda: scorer.result_string(order)), stat, precision,
                  _outcome(scorer.brevity))


def run_scorer(fairseq: Fairseq, hypotheses: Sequence[str], references: Sequence[str],
               order: int = 4, ignore_case: bool = False,
               sentence: bool = False) -> list[Scored]:
    """``fairseq-score``'s loop (``fairseq_cli/score.py:49-54,65-75,79-92``) on lines as
    ``readlines()`` gives them (each with its ``\\n``): one shared ``Dictionary``, ``encode_line``
    of the system line then the reference line, ``Scorer.add(ref, sys)``. Corpus: one result
    after every line. Sentence (``--sentence-bleu``): ``reset(one_init=True)`` before each line
    and one result per line -- with the ``Scorer(BleuConfig(...))`` the corpus branch builds,
    as the sentence branch's ``Scorer(pad, eos, unk)`` raises ``TypeError`` in 0.12.2."""
    bleu = fairseq.bleu
    vocabulary = fairseq.dictionary.Dictionary()
    with fairseq.active():
        scorer = bleu.Scorer(bleu.BleuConfig(pad=vocabulary.pad(), eos=vocabulary.eos(),
                                             unk=vocabulary.unk()))

    def line(text: str) -> str:
        text += "\n"
        return text.lower() if ignore_case else text

    results = []
    for hyp, ref in zip(hypotheses, references):
        if sentence:
            scorer.reset(one_init=True)
        sys_tok = vocabulary.encode_line(line(hyp))
        ref_tok = vocabulary.encode_line(line(ref))
        scorer.add(ref_tok, sys_tok)
        if sentence:
            results.append(_scored(scorer, order))
    return results if sentence else [_scored(scorer, order)]


# --- the live backend's answers ---------------------------------------------------------------

#: Where the install put the ``libbleu`` it built (``setup.py``).
BUILT = "bleu_harness.adapters.libbleu"


def built_libbleu() -> Fairseq:
    """fairseq's files over the ``libbleu`` the install built; a ``RuntimeError`` saying why
    where it built none."""
    import importlib

    try:
        libbleu = importlib.import_module(BUILT)
    except ImportError:
        raise RuntimeError(
            "fairseq's libbleu was not built when bleu-harness was installed (that needs a C++ "
            "compiler: reinstall bleu-harness where g++ is installed)") from None
    return load(Path(libbleu.__file__))


def why_declined(level: str, hypotheses: Sequence[str],
                 references: Sequence[Sequence[str]]) -> str:
    """Why ``fairseq-score`` cannot be given the request ('' if it can): it reads one
    reference file, so exactly one reference per segment; a sentence is one segment."""
    if level == "sentence" and len(hypotheses) != 1:
        return "a sentence is one segment"
    if any(len(refs) != 1 for refs in references):
        return "fairseq-score reads one reference file: exactly one reference per segment"
    return ""


def answer(fairseq: Fairseq, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
           level: str, options: dict) -> float | str:
    """The ``Scorer``'s score of a request (``options`` resolved by the fairseq convention:
    ``order``, ``ignore_case``), or the name of the exception it raised. A corpus is
    ``fairseq-score``'s loop over its lines; a sentence (one segment) is scored after
    ``reset(one_init=True)``, what ``--sentence-bleu`` does (:func:`run_scorer`)."""
    sentence = level == "sentence"
    scored = run_scorer(fairseq, hypotheses, [refs[0] for refs in references],
                        options["order"], options["ignore_case"], sentence)
    value = scored[-1].score
    return value.removeprefix("raises ") if isinstance(value, str) else value
