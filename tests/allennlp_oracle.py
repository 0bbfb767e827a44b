"""allennlp's ``BLEU`` metric as allennlp runs it, where allennlp does not install (it pins an
old torch): its own files, unmodified, from allenai/allennlp@80fb6061 (the same files as tag
v2.10.1, the last release) -- ``tests/oracles/allennlp/bleu.py``
(``allennlp/training/metrics/bleu.py``), ``metric.py`` (its ``Metric`` base) and ``util.py``
(``allennlp/training/util.py``: ``ngrams``, ``get_valid_tokens_mask``) -- run on real torch.

Stubbed: the allennlp modules those files import and do not use on this path --
``Registrable`` (``@Metric.register`` returns the class), ``is_distributed`` (False, as it is
without ``torch.distributed`` initialised) and ``dist_reduce_sum`` (the value itself, what
allennlp's returns when not distributed, ``allennlp/nn/util.py:2161-2174``); the rest of
``training/util.py``'s imports (trainer helpers) are empty names.

Needs torch: it runs on the torch interpreter (``BLEU_HARNESS_TORCH_PYTHON``). ``python
tests/allennlp_oracle.py`` answers one JSON request a line on stdin with one JSON line (the
tests keep it running); :func:`answer` is the call.

A request: ``hypotheses``, ``references`` (one each), ``options`` (``ngram_weights``,
``exclude_indices`` as the harness takes them: words, or the indices 0 and 1) and
``batches`` (how many segments each ``__call__`` gets, in order; one call per segment if
absent). Each word has its own id in a vocabulary with ``@@PADDING@@`` = 0 and
``@@UNKNOWN@@`` = 1 (``allennlp/data/vocabulary.py:28-29, 94-98``); the rows of one call must
be equally long (the caller writes the padding out as ``@@PADDING@@``).
"""

from __future__ import annotations

import json
import sys
import types
from functools import cache
from pathlib import Path

# Run by the torch interpreter, which has not installed bleu-harness: its loader of vendored
# files (standard library only) from this checkout.
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from bleu_harness.adapters.vendoring import load  # noqa: E402

ORACLE = Path(__file__).resolve().parent / "oracles" / "allennlp"
VERSION = "2.10.1"
COMMIT = "allenai/allennlp@80fb6061e568cb9d6ab5d45b661e86eb61b92c82"
RESERVED = {"@@PADDING@@": 0, "@@UNKNOWN@@": 1}


class _Registrable:
    """``allennlp.common.registrable.Registrable``: only ``register``, a no-op decorator."""

    @classmethod
    def register(cls, name, constructor=None, exist_ok=False):
        return lambda subclass: subclass


def _is_distributed() -> bool:
    return False


def _dist_reduce_sum(value):
    return value


def _module(name: str, **names) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(names)
    sys.modules[name] = module
    return module


@cache
def bleu_class():
    """The vendored ``BLEU`` class, its allennlp imports stubbed (they stay in
    ``sys.modules``: ``BLEU`` imports ``allennlp.training.util`` at call time)."""
    empty = object()
    for package in ("allennlp", "allennlp.common", "allennlp.data", "allennlp.models",
                    "allennlp.nn", "allennlp.training", "allennlp.training.metrics"):
        _module(package)
    _module("allennlp.common.registrable", Registrable=_Registrable)
    _module("allennlp.common.util", is_distributed=_is_distributed, dump_metrics=empty,
            sanitize=empty, int_to_device=empty)
    _module("allennlp.common.checks", check_for_gpu=empty, ConfigurationError=Exception)
    _module("allennlp.common.params", Params=empty)
    _module("allennlp.common.tqdm", Tqdm=empty)
    _module("allennlp.data", Instance=empty, Vocabulary=empty, Batch=empty, DataLoader=empty)
    _module("allennlp.data.dataset_readers", DatasetReader=empty)
    _module("allennlp.models.archival", CONFIG_NAME="config.json")
    _module("allennlp.models.model", Model=empty)
    nn_util = _module("allennlp.nn.util", dist_reduce_sum=_dist_reduce_sum)
    sys.modules["allennlp.nn"].util = nn_util
    load("allennlp.training.metrics.metric", ORACLE / "metric.py")
    load("allennlp.training.util", ORACLE / "util.py")
    return load("allennlp.training.metrics.bleu", ORACLE / "bleu.py").BLEU


def answer(request: dict) -> dict:
    """``BLEU(ngram_weights, exclude_indices)``, one ``__call__`` per batch, ``get_metric``:
    the score and its type, the running sums, or the exception raised."""
    import torch

    vocabulary = dict(RESERVED)

    def ids(text: str) -> list[int]:
        return [vocabulary.setdefault(word, len(vocabulary)) for word in text.split()]

    options = request.get("options", {})
    hypotheses = request["hypotheses"]
    references = [refs[0] for refs in request["references"]]
    kwargs = {}
    if "ngram_weights" in options:
        kwargs["ngram_weights"] = tuple(options["ngram_weights"])
    if options.get("exclude_indices"):
        kwargs["exclude_indices"] = {item if isinstance(item, int) else ids(item)[0]
                                     for item in options["exclude_indices"]}
    try:
        metric = bleu_class()(**kwargs)
        start = 0
        for size in request.get("batches") or [1] * len(hypotheses):
            rows = [ids(h) for h in hypotheses[start:start + size]]
            gold = [ids(r) for r in references[start:start + size]]
            start += size
            metric(torch.tensor(rows, dtype=torch.long), torch.tensor(gold, dtype=torch.long))
        sums = {"matches": [metric._precision_matches[n] for n in sorted(metric._precision_matches)],
                "totals": [metric._precision_totals[n] for n in sorted(metric._precision_totals)],
                "prediction_lengths": metric._prediction_lengths,
                "reference_lengths": metric._reference_lengths}
        value = metric.get_metric(reset=True)["BLEU"]
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}
    return {"score": value, "type": type(value).__name__, **sums}


def versions() -> dict:
    import platform

    import torch

    return {"python": platform.python_version(), "torch": torch.__version__,
            "allennlp": VERSION}


def serve() -> int:
    """One JSON answer a line for each JSON request a line, until stdin ends; the first line
    out is the versions."""
    import warnings

    warnings.simplefilter("ignore")
    print(json.dumps(versions()), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(serve())
