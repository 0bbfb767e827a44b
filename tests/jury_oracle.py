"""jury's ``bleu`` metric, unmodified, importable without its heavy dependencies.

``tests/oracles/jury/`` holds jury's own files (obss/jury@c8d32259 = the PyPI jury 2.3.1
wheel's): ``BleuForLanguageGeneration`` and what it runs -- ``MetricForLanguageGeneration``
(``jury/metrics/_core/base.py``), ``Collator``, ``DefaultTokenizer``/``TokenizerWrapper``,
``normalize_text``, ``NestedSingleType``, ``get_token_lengths``. jury 2.3.1 installs, but its
metric downloads TF-NMT's ``bleu.py`` from GitHub when it is built, so it fails offline; here
the downloaded file is the vendored TF-NMT oracle (``tests/oracles/tfnmt/bleu.py``, the same
commit 0be864257a76 jury names).

Stubbed, as the T2T and fairseq oracles stub TensorFlow and torch: ``evaluate`` (the base
class ``Metric``: its constructor takes the keyword arguments, ``download_and_prepare`` hands
``_download_and_prepare`` a download manager that returns the vendored file for jury's URL
and refuses any other, ``compute`` calls ``_compute`` with the predictions and references
as lists of lists, as ``evaluate`` gives them back from its table), ``datasets`` (the feature
types, only named), ``pandas`` (used by reductions BLEU never makes), and the ``jury``
packages (their ``__init__`` files import every metric), present in ``sys.modules`` only
while the files load. numpy is the real one
(``Collator.can_collapse`` decides the path with ``np.array(..., dtype=object).shape``).
"""

from __future__ import annotations

import sys
import types
from functools import cache
from pathlib import Path

from bleu_harness.adapters.vendoring import load, swapped

HERE = Path(__file__).resolve().parent
JURY = HERE / "oracles" / "jury"
TFNMT = HERE / "oracles" / "tfnmt" / "bleu.py"
#: The file ``_download_and_prepare`` downloads (``bleu_for_language_generation.py:150``).
NMT_SOURCE = ("https://raw.githubusercontent.com/tensorflow/nmt/"
              "0be864257a76c151eef20ea689755f08bc1faf4e/nmt/scripts/bleu.py")

#: jury's modules, in the order they import each other, and their files.
FILES = {
    "jury.utils.common": "jury/utils/common.py",
    "jury.utils.nlp": "jury/utils/nlp.py",
    "jury.collator": "jury/collator.py",
    "jury.tokenizer": "jury/tokenizer.py",
    "jury.metrics._core.utils": "jury/metrics/_core/utils.py",
    "jury.metrics._core.base": "jury/metrics/_core/base.py",
    "jury.metrics.bleu.bleu_for_language_generation":
        "jury/metrics/bleu/bleu_for_language_generation.py",
}


class _DownloadManager:
    def download(self, url: str) -> str:
        if url != NMT_SOURCE:
            raise RuntimeError(f"the jury oracle downloads nothing ({url})")
        return str(TFNMT)


class _Metric:
    """The part of ``evaluate.Metric`` jury's BLEU uses."""

    def __init__(self, **kwargs) -> None:
        self._init_kwargs = kwargs

    @property
    def name(self) -> str:
        return "bleu"

    def download_and_prepare(self) -> None:
        self._download_and_prepare(_DownloadManager())

    def compute(self, *, predictions, references, **kwargs):
        return self._compute(predictions=[list(p) for p in predictions],
                             references=[list(r) for r in references], **kwargs)


def _stubs() -> dict[str, types.ModuleType]:
    evaluate = types.ModuleType("evaluate")
    evaluate.Metric = _Metric
    evaluate.MetricInfo = lambda **kwargs: kwargs
    utils = types.ModuleType("evaluate.utils")
    file_utils = types.ModuleType("evaluate.utils.file_utils")
    file_utils.add_start_docstrings = lambda *docstrings: (lambda cls: cls)
    logging = types.ModuleType("evaluate.utils.logging")
    logging.get_logger = lambda name: None
    utils.file_utils, utils.logging, evaluate.utils = file_utils, logging, utils
    datasets = types.ModuleType("datasets")
    for name in ("Features", "Sequence", "Value"):
        setattr(datasets, name, lambda *args, **kwargs: (args, kwargs))
    stubs = {"evaluate": evaluate, "evaluate.utils": utils,
             "evaluate.utils.file_utils": file_utils, "evaluate.utils.logging": logging,
             "datasets": datasets, "pandas": types.ModuleType("pandas")}
    for package in ("jury", "jury.utils", "jury.metrics", "jury.metrics._core",
                    "jury.metrics.bleu"):
        module = types.ModuleType(package)
        module.__path__ = []
        stubs[package] = module
    return stubs


@cache
def bleu_metric_class():
    """``BleuForLanguageGeneration``, loaded from the vendored files. The stubs and jury's
    modules are in ``sys.modules`` only while they import each other: afterwards nothing else
    sees them (plotly, for one, takes any ``pandas`` in ``sys.modules`` for the real one)."""
    with swapped(_stubs(), also=FILES):
        for name, path in FILES.items():
            module = load(name, JURY / path)
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, module)
            if name == "jury.metrics._core.base":  # what its package __init__ re-exports
                sys.modules["jury.metrics._core"].MetricForLanguageGeneration = \
                    module.MetricForLanguageGeneration
        return sys.modules["jury.metrics.bleu.bleu_for_language_generation"] \
            .BleuForLanguageGeneration


def compute(predictions, references, **kwargs) -> dict:
    """``Bleu.construct().compute(predictions=..., references=..., **kwargs)``: the one
    result dict (its key, jury's ``resulting_name``, left out)."""
    metric = bleu_metric_class()(resulting_name="bleu")
    result = metric.compute(predictions=predictions, references=references, **kwargs)
    (value,) = result.values()
    return value
