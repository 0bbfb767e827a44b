"""Tensor2Tensor's ``bleu_hook.py``, unmodified (``tests/oracles/t2t/``), importable without
TensorFlow: its imports of ``tensorflow``, ``tensor2tensor`` and ``six`` are stubbed with the
little it uses at import time (``six.unichr``, ``six.moves.range``/``zip``); ``bleu_tokenize``
and ``compute_bleu`` need nothing else."""

from __future__ import annotations

import importlib.util
import sys
import types
from functools import cache
from pathlib import Path

HOOK = Path(__file__).resolve().parent / "oracles" / "t2t" / "bleu_hook.py"


def _stub(name: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


@cache
def bleu_hook() -> types.ModuleType:
    moves = _stub("six.moves", range=range, zip=zip)
    stubs = {
        "six": _stub("six", unichr=chr, moves=moves), "six.moves": moves,
        "tensorflow": _stub("tensorflow"), "tensorflow.compat": _stub("tensorflow.compat"),
        "tensorflow.compat.v1": _stub("tensorflow.compat.v1"),
        "tensor2tensor": _stub("tensor2tensor"),
        "tensor2tensor.data_generators": _stub("tensor2tensor.data_generators"),
        "tensor2tensor.data_generators.text_encoder": _stub("text_encoder"),
    }
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    try:
        spec = importlib.util.spec_from_file_location("t2t_bleu_hook", HOOK)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
    return module
