"""keras-hub's ``Bleu`` (``tests/keras_hub_oracle.py``) on the interpreter it runs on: one JSON
request a line on stdin (``batches``, ``max_order``, ``smooth``, ``tokenize``), one answer a
line on stdout (the float32 score's ``float.hex()``, ``nan``, or the exception's name). Run on
NumPy 1 by ``tests/test_kerashub.py``; it needs only NumPy, ``packaging`` and the repository."""

from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import keras_hub_oracle as oracle  # noqa: E402
import numpy  # noqa: E402


def answer(request: dict) -> dict:
    tokenizer = oracle.tf_split if request["tokenize"] == "none" else None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's 1/0 and 0/0
            value = oracle.corpus_bleu([tuple(b) for b in request["batches"]],
                                       request["max_order"], request["smooth"], tokenizer)
    except ValueError:
        return {"raises": "ValueError"}
    return {"value": "nan" if math.isnan(value) else value.hex()}


def main() -> int:
    print(json.dumps({"numpy": numpy.__version__}), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
