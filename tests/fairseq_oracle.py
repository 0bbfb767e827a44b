"""fairseq's BLEU as fairseq runs it: the C ``libbleu`` (``tests/oracles/fairseq/libbleu.cpp``,
unmodified) compiled here with the compiler fairseq's ``setup.py`` uses, loaded with ctypes by
fairseq's own, unmodified ``fairseq/scoring/bleu.py`` (``Scorer``), fed by its own
``Dictionary`` (``fairseq/data/dictionary.py``, ``fairseq/tokenizer.py``) and its own
``fairseq-score`` (``fairseq_cli/score.py``) -- all from the PyPI sdist ``fairseq-0.12.2.tar.gz``
(tests/oracles/README.md).

Without torch: the imports those files make are stubbed with the little they use --
``torch.IntTensor`` as a contiguous ``int32`` array (what ``encode_line`` fills and ``Scorer.add``
hands to ``bleu_add``: ``clone``, ``eq``/``lt`` masks, masked assignment, ``view(-1)``,
``size(0)``, ``data_ptr()``), ``fairseq.libbleu`` as a module whose ``__file__`` is the library
built here, and fairseq's registries and dataclass bases as no-ops. Every line of the
scoring path is fairseq's; only the tensor is ours. (Checked once against the real torch: the
stub and ``torch.IntTensor`` give the same ``stat`` on the differential test's inputs.)

The build: ``g++ -std=c++11 -O3 -shared -fPIC libbleu.cpp -o libbleu.so`` (``setup.py``'s
``extra_compile_args``; ``-shared -fPIC`` as setuptools builds the extension), in a temporary
directory; :func:`why_no_compiler` says why it cannot be built here.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import shutil
import subprocess
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vendored import package, stub, swapped
from vendored import load as load_file

ORACLE = Path(__file__).resolve().parent / "oracles" / "fairseq"
SOURCE = ORACLE / "libbleu.cpp"
COMPILERS = ("g++", "c++", "clang++")
VERSION = "0.12.2"


def compiler() -> str | None:
    return next((c for c in COMPILERS if shutil.which(c)), None)


def why_no_compiler() -> str | None:
    if compiler() is None:
        return f"no C++ compiler ({', '.join(COMPILERS)}) to build fairseq's libbleu.cpp"
    return None


def build_command(output: Path) -> list[str]:
    return [compiler(), "-std=c++11", "-O3", "-shared", "-fPIC", str(SOURCE), "-o", str(output)]


def build_libbleu(directory: Path) -> Path:
    """``libbleu.cpp`` compiled into ``directory``; the compiler's message on failure."""
    output = directory / "libbleu.so"
    done = subprocess.run(build_command(output), capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"building libbleu failed: {done.stderr.strip()}")
    return output


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
            modules[name] = load_file(name, ORACLE / file)
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


def run_fairseq_score(fairseq: Fairseq, directory: Path, hypotheses: Sequence[str],
                      references: Sequence[str], *flags: str) -> str:
    """``fairseq-score -s SYS -r REF FLAGS`` (``cli_main``) on files written with one segment a
    line: what it prints after its ``Namespace`` line, or ``raises X``."""
    sys_file, ref_file = directory / "sys.txt", directory / "ref.txt"
    sys_file.write_text("".join(f"{h}\n" for h in hypotheses), encoding="utf-8")
    ref_file.write_text("".join(f"{r}\n" for r in references), encoding="utf-8")
    argv, printed = sys.argv, io.StringIO()
    sys.argv = ["fairseq-score", "-s", str(sys_file), "-r", str(ref_file), *flags]
    try:
        with fairseq.active(), contextlib.redirect_stdout(printed):
            fairseq.score.cli_main()
    except Exception as error:
        return f"raises {type(error).__name__}"
    finally:
        sys.argv = argv
    return printed.getvalue().split("\n", 1)[1].rstrip("\n")
