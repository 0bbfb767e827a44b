"""``python -m harness.worker MODULE:CALLABLE``: a Python BLEU function behind the JSON-lines
protocol of ``harness.backends.external``, so the harness runs it in its own process."""

from __future__ import annotations

import importlib
import json
import math
import sys


def load(target: str):
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise SystemExit(f"harness.worker: expected MODULE:CALLABLE, got {target!r}")
    function = importlib.import_module(module_name)
    for part in attribute.split("."):
        function = getattr(function, part)
    return function


def answer(function, request: dict) -> dict:
    try:
        value = function(request["hypotheses"], request["references"], request["level"],
                         **request.get("options", {}))
    except Exception as error:  # the implementation's failure is the answer
        return {"error": str(error), "type": type(error).__name__}
    if isinstance(value, float) and not math.isfinite(value):
        return {"score": value}  # json writes NaN / Infinity, which the harness reads
    try:
        json.dumps(value)
        return {"score": value}
    except (TypeError, ValueError):
        return {"score": repr(value)}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m harness.worker MODULE:CALLABLE", file=sys.stderr)
        return 2
    function = load(argv[0])
    for line in sys.stdin:
        print(json.dumps(answer(function, json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
