"""Tensor2Tensor's ``bleu_hook.py`` and its copy in the TensorFlow Model Garden
(``official/nlp/metrics/bleu.py``), unmodified (``tests/oracles/t2t/``,
``tests/oracles/tf_models/``), importable without TensorFlow: their imports of
``tensorflow``, ``tf_keras``, ``tensor2tensor`` and ``six`` are stubbed with the little they
use at import time (``six.unichr``, ``six.moves.range``/``zip``); ``bleu_tokenize``,
``compute_bleu`` and ``bleu_on_list`` need nothing else."""

from __future__ import annotations

import types
from functools import cache
from pathlib import Path

from bleu_harness.adapters.vendoring import load, stub, swapped

ORACLES = Path(__file__).resolve().parent / "oracles"
HOOK = ORACLES / "t2t" / "bleu_hook.py"
TF_MODELS = ORACLES / "tf_models" / "bleu.py"


def _stubbed_import(name: str, path: Path) -> types.ModuleType:
    moves = stub("six.moves", range=range, zip=zip)
    stubs = {
        "six": stub("six", unichr=chr, moves=moves), "six.moves": moves,
        "tensorflow": stub("tensorflow"), "tensorflow.compat": stub("tensorflow.compat"),
        "tensorflow.compat.v1": stub("tensorflow.compat.v1"), "tf_keras": stub("tf_keras"),
        "tensor2tensor": stub("tensor2tensor"),
        "tensor2tensor.data_generators": stub("tensor2tensor.data_generators"),
        "tensor2tensor.data_generators.text_encoder": stub("text_encoder"),
    }
    with swapped(stubs, also=[name]):
        return load(name, path)


@cache
def bleu_hook() -> types.ModuleType:
    return _stubbed_import("t2t_bleu_hook", HOOK)


@cache
def tf_models_bleu() -> types.ModuleType:
    return _stubbed_import("tf_models_bleu", TF_MODELS)
