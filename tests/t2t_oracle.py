"""Tensor2Tensor's ``bleu_hook.py`` and its copy in the TensorFlow Model Garden
(``official/nlp/metrics/bleu.py``), unmodified (``tests/oracles/t2t/``,
``tests/oracles/tf_models/``), importable without TensorFlow: their imports of
``tensorflow``, ``tf_keras``, ``tensor2tensor`` and ``six`` are stubbed with the little they
use at import time (``six.unichr``, ``six.moves.range``/``zip``); ``bleu_tokenize``,
``compute_bleu`` and ``bleu_on_list`` need nothing else."""

from __future__ import annotations

import importlib.util
import sys
import types
from functools import cache
from pathlib import Path

ORACLES = Path(__file__).resolve().parent / "oracles"
HOOK = ORACLES / "t2t" / "bleu_hook.py"
TF_MODELS = ORACLES / "tf_models" / "bleu.py"


def _stub(name: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _stubbed_import(name: str, path: Path) -> types.ModuleType:
    moves = _stub("six.moves", range=range, zip=zip)
    stubs = {
        "six": _stub("six", unichr=chr, moves=moves), "six.moves": moves,
        "tensorflow": _stub("tensorflow"), "tensorflow.compat": _stub("tensorflow.compat"),
        "tensorflow.compat.v1": _stub("tensorflow.compat.v1"), "tf_keras": _stub("tf_keras"),
        "tensor2tensor": _stub("tensor2tensor"),
        "tensor2tensor.data_generators": _stub("tensor2tensor.data_generators"),
        "tensor2tensor.data_generators.text_encoder": _stub("text_encoder"),
    }
    saved = {stub: sys.modules.get(stub) for stub in stubs}
    sys.modules.update(stubs)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for stub, previous in saved.items():
            if previous is None:
                sys.modules.pop(stub, None)
            else:
                sys.modules[stub] = previous
    return module


@cache
def bleu_hook() -> types.ModuleType:
    return _stubbed_import("t2t_bleu_hook", HOOK)


@cache
def tf_models_bleu() -> types.ModuleType:
    return _stubbed_import("tf_models_bleu", TF_MODELS)
