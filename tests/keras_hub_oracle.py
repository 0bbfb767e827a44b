"""keras-hub's ``Bleu`` (``tests/oracles/keras_hub/bleu.py``) and the ``tensor_utils.py`` it
imports, both unmodified (keras-team/keras-hub@71453d08f59e), run without TensorFlow or
Keras: their imports are stubbed with the little ``Bleu`` uses, each stub written to the
semantics of the real call:

* ``tf.strings.regex_replace(input, pattern, rewrite, replace_global=True)``:
  ``RE2::GlobalReplace`` on each string (tensorflow/tensorflow@dfd50c949890
  ``tensorflow/core/kernels/regex_replace_op.cc``, which ignores its return value), emulated
  by :func:`global_replace` from google/re2 ``re2/re2.cc`` (``GlobalReplace``,
  ``MaxSubmatch``, ``Rewrite``): a rewrite naming a group the pattern lacks changes nothing;
  an empty match right after the previous match is skipped (Python's ``re.sub`` replaces it);
  ``\\0``-``\\9`` and ``\\\\`` are the only escapes of a rewrite, another one ends the
  rewrite there. The pattern is translated to Python's ``re`` by :func:`python_pattern`, which
  knows RE2's syntax as far as keras-hub's patterns need it and raises
  ``NotImplementedError`` on anything else: ``\\s`` is ``[\\t\\n\\f\\r ]``, ``\\d``
  ``[0-9]``, ``\\w`` ``[0-9A-Za-z_]`` (ASCII, google/re2 ``doc/syntax.txt``), ``$`` the end of
  the text only (like ``\\z``: Python's ``$`` also matches before a final line break), an
  escaped non-word ASCII character is itself (``re2/parse.cc``). The strings are UTF-8 text,
  so RE2's runes are Python's code points. ``tests/test_kerashub.py`` checks this stub against
  the real RE2 (``libre2``, compiled with ``g++``) where it is installed;
* ``tf.strings.split(input)``: TensorFlow's ``SplitV2`` with no separator splits on runs of
  bytes for which C ``isspace`` holds (space, ``\\t \\n \\v \\f \\r``): Python's
  ``bytes.split()``; the result is ragged, one rank more;
* tensors of strings hold UTF-8 ``bytes`` (``tf.convert_to_tensor`` of a nested list of
  ``str``; a ragged list is refused with ``ValueError``, as TensorFlow does), ragged ones
  (``tf.ragged.constant``) give ``to_list()``; ``shape.rank``, ``inputs[tf.newaxis]``,
  ``tf.shape``, ``tf.squeeze`` for ``validate_and_fix_rank``;
* Keras: ``keras.metrics.Metric`` with ``add_weight`` (a float32 variable initialised to
  zeros), whose ``numpy()`` is what the TensorFlow backend's ``Variable.numpy()`` gives
  (``self.value.numpy()``: a NumPy array, or a NumPy scalar ``np.float32`` for shape ``()``)
  and whose ``assign`` casts to float32 (``tf.cast``: round to nearest);
  ``keras.backend.standardize_dtype``; ``keras_hub_export`` registers nothing.

The arithmetic is keras-hub's own, on real NumPy (NumPy 2 promotion rules).
"""

from __future__ import annotations

import re
import types
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from bleu_harness.adapters.vendoring import load, stub, swapped

ORACLES = Path(__file__).resolve().parent / "oracles" / "keras_hub"
COMMIT = "keras-team/keras-hub@71453d08f59edc90d276e999319fc51e61cbf82c"

# --- RE2 -------------------------------------------------------------------------------------

#: RE2's Perl classes (``doc/syntax.txt``): ASCII only.
PERL_CLASSES = {"s": "\t\n\f\r ", "d": "0-9", "w": "0-9A-Za-z_"}


def _class_char(ch: str) -> str:
    return "\\" + ch if ch in "\\]-^[" else ch


def _escape(pattern: str, i: int) -> tuple[str, bool, int]:
    """The escape at ``pattern[i] == '\\\\'``: (its characters, whether it is a Perl class,
    the next index)."""
    if i + 1 >= len(pattern):
        raise ValueError("RE2: trailing backslash")  # kRegexpTrailingBackslash
    ch = pattern[i + 1]
    if ch in PERL_CLASSES:
        return PERL_CLASSES[ch], True, i + 2
    if ord(ch) < 128 and not ch.isalnum():
        return ch, False, i + 2  # "Escaped non-word characters are always themselves."
    raise NotImplementedError(f"RE2 escape \\{ch} is not emulated")


def python_pattern(pattern: str) -> str:
    """A Python ``re`` pattern with RE2's meaning of ``pattern`` (the subset keras-hub
    uses: literals, escaped punctuation, classes with ranges, groups, ``+ * ? |``, ``^``,
    ``$``, ``.``, ``\\s \\d \\w``)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            chars, perl, i = _escape(pattern, i)
            out.append(f"[{chars}]" if perl else re.escape(chars))
        elif ch == "[":
            i = _python_class(pattern, i, out)
        elif ch == "$":
            out.append(r"\Z")  # end of text only: RE2's $ without the m flag is \z
            i += 1
        elif ch == "(":
            if pattern[i + 1:i + 2] == "?":
                raise NotImplementedError("RE2 group flags are not emulated")
            out.append(ch)
            i += 1
        elif ch in ")|+*?^.":
            out.append(ch)
            i += 1
        elif ch == "{":
            raise NotImplementedError("RE2 counted repetition is not emulated")
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)


def _python_class(pattern: str, i: int, out: list[str]) -> int:
    """Translate the class that starts at ``pattern[i] == '['``; the index after it."""
    i += 1
    negated = pattern[i:i + 1] == "^"
    i += negated
    items: list[str] = []
    first = True

    def one(j: int) -> tuple[str, bool, int]:
        if pattern[j] == "\\":
            return _escape(pattern, j)
        if pattern[j:j + 2] == "[:":
            raise NotImplementedError("RE2 POSIX classes are not emulated")
        return pattern[j], False, j + 1

    while i < len(pattern) and (pattern[i] != "]" or first):
        first = False
        lo, perl, i = one(i)
        if perl:
            items.append(lo)
            continue
        if pattern[i:i + 1] == "-" and pattern[i + 1:i + 2] not in ("]", ""):
            hi, perl_hi, i = one(i + 1)
            if perl_hi or ord(hi) < ord(lo):
                raise ValueError("RE2: bad character class range")
            items.append(f"{_class_char(lo)}-{_class_char(hi)}")
        else:
            items.append(_class_char(lo))
    if i >= len(pattern):
        raise ValueError("RE2: missing ]")
    out.append("[" + ("^" if negated else "") + "".join(items) + "]")
    return i + 1


def max_submatch(rewrite: str) -> int:
    """``RE2::MaxSubmatch``: the largest ``\\N`` a rewrite names."""
    highest, i = 0, 0
    while i < len(rewrite):
        if rewrite[i] == "\\":
            i += 1
            if i < len(rewrite) and rewrite[i] in "0123456789":
                highest = max(highest, int(rewrite[i]))
        i += 1
    return highest


def _rewrite(rewrite: str, match: re.Match) -> str:
    """``RE2::Rewrite``: ``\\N`` is group N (empty if it did not take part), ``\\\\`` a
    backslash; any other escape stops the rewrite there (it returns false, and
    ``GlobalReplace`` keeps what was appended)."""
    out: list[str] = []
    i = 0
    while i < len(rewrite):
        ch = rewrite[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = rewrite[i + 1] if i + 1 < len(rewrite) else ""
        if nxt and nxt in "0123456789":
            out.append(match.group(int(nxt)) or "")
        elif nxt == "\\":
            out.append("\\")
        else:
            break
        i += 2
    return "".join(out)


def global_replace(text: str, regex: re.Pattern, rewrite: str) -> str:
    """``RE2::GlobalReplace(&text, regex, rewrite)`` (google/re2 ``re2/re2.cc``)."""
    if 1 + max_submatch(rewrite) > 1 + regex.groups:
        return text  # "if (nvec > 1 + re.NumberOfCapturingGroups()) return false;"
    out: list[str] = []
    p, lastend, count = 0, -1, 0
    while p <= len(text):
        match = regex.search(text, p)
        if match is None:
            break
        out.append(text[p:match.start()])
        if match.start() == lastend and match.end() == match.start():
            # Disallow an empty match at the end of the last match: skip one rune ahead.
            out.append(text[p:p + 1])
            p += 1
            continue
        out.append(_rewrite(rewrite, match))
        p = lastend = match.end()
        count += 1
    if count == 0:
        return text
    out.append(text[p:])
    return "".join(out)


@cache
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(python_pattern(pattern))


# --- TensorFlow ------------------------------------------------------------------------------

STRING = "string"


class TensorShape:
    def __init__(self, rank: int) -> None:
        self.rank = rank


def _rank(value: Any) -> int:
    return 1 + _rank(value[0]) if isinstance(value, list) and value else int(isinstance(value, list))


def _map(value: Any, fn) -> Any:
    return [_map(v, fn) for v in value] if isinstance(value, list) else fn(value)


class Tensor:
    """A dense string tensor: nested lists of UTF-8 ``bytes``, of a given rank."""

    def __init__(self, value: Any, rank: int | None = None, dtype: str = STRING) -> None:
        self.value, self.dtype = value, dtype
        self.shape = TensorShape(_rank(value) if rank is None else rank)

    def numpy(self) -> Any:
        if self.shape.rank == 0:
            return self.value
        return np.array(self.value, dtype=object).reshape(self._dims())

    def _dims(self) -> tuple[int, ...]:
        dims, value = [], self.value
        for _ in range(self.shape.rank):
            dims.append(len(value))
            value = value[0] if value else []
        return tuple(dims)

    def __getitem__(self, key: Any) -> Tensor:
        if key is None:  # tf.newaxis
            return type(self)([self.value], self.shape.rank + 1)
        raise NotImplementedError("only inputs[tf.newaxis] is stubbed")


class RaggedTensor(Tensor):
    """A ragged string tensor (``tf.RaggedTensor``)."""

    def to_list(self) -> Any:
        return self.value


def _rectangular(value: Any) -> bool:
    if not isinstance(value, list) or not value or not isinstance(value[0], list):
        return True
    width = len(value[0])
    return all(isinstance(v, list) and len(v) == width and _rectangular(v) for v in value)


def convert_to_tensor(value: Any) -> Tensor:
    if not _rectangular(value):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    return Tensor(_map(value, lambda s: s.encode("utf-8")))


def ragged_constant(value: Any, rank: int | None = None) -> RaggedTensor:
    return RaggedTensor(_map(value, lambda s: s.encode("utf-8")), rank)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    assert replace_global, "only replace_global=True is stubbed"
    regex = _compiled(pattern)

    def replace(data: bytes) -> bytes:
        return global_replace(data.decode("utf-8"), regex, rewrite).encode("utf-8")

    return type(input)(_map(input.value, replace), input.shape.rank)


def split(input, sep=None):
    assert sep is None, "only tf.strings.split(input) is stubbed"
    return RaggedTensor(_map(input.value, bytes.split), input.shape.rank + 1)


def shape(value: Tensor) -> list[int]:
    return list(value._dims())


def squeeze(value: Tensor, axis: int = -1) -> Tensor:
    assert axis == -1
    return type(value)(_map_depth(value.value, value.shape.rank - 1), value.shape.rank - 1)


def _map_depth(value: Any, depth: int) -> Any:
    if depth == 1:
        return [v[0] for v in value]
    return [_map_depth(v, depth - 1) for v in value]


def _tensorflow() -> types.ModuleType:
    strings = types.SimpleNamespace(regex_replace=regex_replace, split=split)
    ragged = types.SimpleNamespace(constant=ragged_constant)
    return stub("tensorflow", Tensor=Tensor, RaggedTensor=RaggedTensor, string=STRING,
                   newaxis=None, convert_to_tensor=convert_to_tensor, shape=shape,
                   squeeze=squeeze, strings=strings, ragged=ragged)


# --- Keras -----------------------------------------------------------------------------------

class Variable:
    """A float32 Keras variable of the TensorFlow backend."""

    def __init__(self, shape: tuple[int, ...], dtype: str) -> None:
        assert dtype == "float32", dtype
        self._value = np.zeros(shape, dtype=np.float32)

    def numpy(self) -> Any:
        value = self._value.copy()
        return value if value.ndim else value[()]  # EagerTensor.numpy(): a scalar for ()

    def assign(self, value: Any) -> None:
        self._value = np.asarray(value).astype(np.float32)


class Metric:
    def __init__(self, name: str | None = None, dtype: str | None = None, **kwargs) -> None:
        self.name, self._dtype = name, dtype

    @property
    def dtype(self) -> str:
        return self._dtype

    def add_weight(self, shape=(), initializer="zeros", dtype=None, name=None) -> Variable:
        assert initializer == "zeros"
        return Variable(tuple(shape), dtype)

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self._dtype}


def _keras() -> dict[str, types.ModuleType]:
    ops = stub("keras.ops", zeros=lambda shape, dtype=None: np.zeros(shape, np.float32),
                  is_tensor=lambda x: isinstance(x, Tensor))
    metrics = stub("keras.metrics", Metric=Metric)
    backend = stub("keras.backend", standardize_dtype=str)
    config = stub("keras.config", backend=lambda: "tensorflow")
    keras = stub("keras", ops=ops, metrics=metrics, backend=backend, config=config)
    return {"keras": keras, "keras.ops": ops, "keras.metrics": metrics,
            "keras.backend": backend, "keras.config": config}


@cache
def bleu_module() -> types.ModuleType:
    """The vendored ``keras_hub/src/metrics/bleu.py``, imported over the stubs (which are
    removed from ``sys.modules`` again)."""
    api_export = stub("keras_hub.src.api_export", keras_hub_export=lambda path: (lambda s: s))
    stubs = {"tensorflow": _tensorflow(), **_keras(), "keras_hub": stub("keras_hub"),
             "keras_hub.src": stub("keras_hub.src"),
             "keras_hub.src.api_export": api_export,
             "keras_hub.src.utils": stub("keras_hub.src.utils")}
    # tensorflow_text is not installed: its import fails, as without it
    with swapped({**stubs, "tensorflow_text": None},
                 also=["keras_hub.src.utils.tensor_utils", "keras_hub_bleu"]):
        load("keras_hub.src.utils.tensor_utils", ORACLES / "tensor_utils.py")
        return load("keras_hub_bleu", ORACLES / "bleu.py")


def tokens(text: str, tokenizer: Any = None) -> list[str]:
    """What ``Bleu(tokenizer=...)._tokenizer`` makes of one string, decoded as
    ``tensor_to_list`` decodes it."""
    metric = bleu_module().Bleu(tokenizer=tokenizer)
    return [t.decode("utf-8") for t in metric._tokenizer(Tensor(text.encode("utf-8"), 0)).value]


def tf_split(inputs: Tensor) -> RaggedTensor:
    """``tokenizer=tf.strings.split``: the tokenizer of pre-tokenized text."""
    return split(inputs)


def corpus_bleu(batches: list[tuple[list[str], list[list[str]]]], max_order: int = 4,
                smooth: bool = False, tokenizer: Any = None) -> float:
    """``Bleu(...)``, ``update_state(y_true, y_pred)`` once per batch (``y_true`` ragged
    where the batch's reference counts differ; empty batches as typed empty string
    tensors), then ``float(result())``. Exceptions propagate."""
    metric = bleu_module().Bleu(tokenizer=tokenizer, max_order=max_order, smooth=smooth)
    for hypotheses, references in batches:
        if not hypotheses:
            y_pred, y_true = Tensor([], 1), Tensor([], 2)
        elif len({len(r) for r in references}) == 1 and references[0]:
            y_pred, y_true = hypotheses, references
        else:
            y_pred, y_true = hypotheses, ragged_constant(references, 2)
        metric.update_state(y_true, y_pred)
    return float(metric.result().numpy())
