"""Libraries the harness uses when they are installed: torchmetrics, fast-bleu, bleuscore,
compare-mt, pycocoevalcap, PyTorch-Ignite.

Each is optional: when its package is missing the run header says "not installed" and its
checks are left out. Each answers only for the convention it implements and only where it
implements it; elsewhere it answers ``unsupported`` with the reason, measured on the library
(fast-bleu 0.0.90, bleuscore 0.2.0; TF-NMT's own exceptions are the bundled cases b09-b11
of ``cases/documented/conventions-b-table.yaml``), so a known difference of kind is not
reported as a failure of the engine.
"""

from __future__ import annotations

import os
import shutil
import sys

from bleu_harness.backends.base import LIBRARY, Backend, library_worker_command
from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.records import BackendOutcome, BackendRequest, Unsupported, Value

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


def only(convention: str, name: str, request: BackendRequest) -> str:
    if request.convention != convention:
        return f"{name} implements only the {convention} convention"
    return ""


#: The conventions torchmetrics implements: ``BLEUScore`` and ``SacreBLEUScore``.
TORCHMETRICS_CONVENTIONS = ("torchmetrics", "torchmetrics-sacrebleu")


def torchmetrics_decline(request: BackendRequest) -> str:
    if request.convention not in TORCHMETRICS_CONVENTIONS:
        return ("torchmetrics implements only the torchmetrics and torchmetrics-sacrebleu "
                "conventions")
    return ""


def torchmetrics_backend(python: str = sys.executable) -> Backend:
    """``torchmetrics.functional.text.bleu_score`` (``BLEUScore``) and
    ``torchmetrics.text.SacreBLEUScore``, on the CPU."""
    return Backend(name="torchmetrics", role=LIBRARY, conventions=TORCHMETRICS_CONVENTIONS,
                   command=library_worker_command("torchmetrics", python),
                   tolerance=FLOAT32_TOLERANCE, decline=torchmetrics_decline,
                   module="torchmetrics", python=python)


def fast_bleu_method(options) -> int | None:
    return {"method0": 0, "method1": 1, 0: 0, 1: 1}.get(options.get("smoothing", "method0"))


#: The conventions fast-bleu answers for: its own (exactly), and NLTK's sentence BLEU (to
#: float32 precision: its weights are C floats).
FAST_BLEU_CONVENTIONS = ("fast-bleu", "nltk")


def fast_bleu_decline(request: BackendRequest) -> str:
    """fast-bleu scores each hypothesis against the whole reference set, so it answers for
    one hypothesis at a time (NLTK ``sentence_bleu``). Under its own convention it answers
    whatever its options; under NLTK's, its weights must sum to 1 within 1e-15 and have at
    least two entries (an ``assert``), and method1's epsilon is fixed."""
    options = request.options
    weights = options.get("weights", DEFAULT_WEIGHTS)
    if request.convention not in FAST_BLEU_CONVENTIONS:
        return "fast-bleu implements only the fast-bleu and nltk conventions"
    if request.level != "sentence" or len(request.hypotheses) != 1:
        return "fast-bleu scores one hypothesis at a time (sentence level)"
    if request.convention == "fast-bleu":
        return ""  # its own options: it answers what it answers
    if not request.references[0]:
        return "fast-bleu needs a reference"
    if fast_bleu_method(options) is None or set(options) - {"weights", "smoothing", "epsilon"}:
        return "fast-bleu offers only smoothing method0/method1 and weights"
    if options.get("epsilon", 0.1) != 0.1:
        return "fast-bleu's method1 epsilon is fixed at 0.1"
    if (not weights or isinstance(weights[0], (tuple, list)) or len(weights) < 2
            or abs(sum(weights) - 1) > 1e-15):
        return "fast-bleu needs one weight vector of length >= 2 summing to 1"
    if sum(1 for weight in weights if weight != 0) < 2:
        return ("fast-bleu's score with one non-zero weight is not NLTK's (weights (0, 0, 0, "
                "1): 1.0 where NLTK gives 0.75; fast-bleu 0.0.90, measured)")
    return ""


def fast_bleu_settle(request: BackendRequest, outcome: BackendOutcome) -> BackendOutcome:
    """Its method0 floor underflows to 0.0 where NLTK keeps a tiny positive score."""
    if (request.convention == "nltk" and isinstance(outcome, Value) and outcome.score == 0.0
            and fast_bleu_method(request.options) == 0):
        return Unsupported("fast-bleu's method0 floor underflows to 0.0 where NLTK keeps a "
                           "tiny positive score (measured: fast-bleu 0.0.90)")
    return outcome


def fast_bleu_backend(python: str = sys.executable) -> Backend:
    """``fast_bleu.BLEU`` (C++): NLTK's sentence BLEU with ``smoothing_func`` 0 or 1. Its
    ``#pragma omp parallel`` starts threads on every call, and the worker scores one
    hypothesis a call: one OpenMP thread (a tenth of the time on two busy cores). From
    0.0.85: earlier releases build but crash in ``get_score`` (their C++ makes Python objects
    without the GIL; Danial-Alh/fast-bleu@18f73379b350)."""
    return Backend(name="fast-bleu", role=LIBRARY, conventions=FAST_BLEU_CONVENTIONS,
                   env={**os.environ, "OMP_NUM_THREADS": "1"}, supported=">=0.0.85",
                   command=library_worker_command("fast-bleu", python),
                   tolerance=FLOAT32_TOLERANCE, decline=fast_bleu_decline,
                   settle=fast_bleu_settle, module="fast_bleu", python=python)


def compare_mt_decline(request: BackendRequest) -> str:
    if request.convention != "compare-mt":
        return only("compare-mt", "compare-mt", request)
    if any(len(refs) != 1 for refs in request.references):
        return "compare-mt's BleuScorer takes exactly one reference per segment"
    return ""


def compare_mt_backend(python: str = sys.executable) -> Backend:
    """``compare_mt.scorers.BleuScorer`` (compare-mt's ``bleu`` scorer)."""
    return Backend(name="compare-mt", role=LIBRARY, conventions=("compare-mt",),
                   command=library_worker_command("compare-mt", python),
                   decline=compare_mt_decline, module="compare_mt", python=python)


def bleuscore_decline(request: BackendRequest) -> str:
    """Where TF-NMT raises (a zero hypothesis or reference length, a segment without
    references) bleuscore returns a number or panics (measured: bleuscore 0.2.0; TF-NMT's
    exceptions: cases b09-b11 of ``cases/documented/conventions-b-table.yaml``)."""
    if request.convention != "tf-nmt":
        return only("tf-nmt", "bleuscore", request)
    if request.options.get("tokenize", "13a") != "13a":
        return "bleuscore always tokenizes with 13a"
    if any(not refs for refs in request.references):
        return "bleuscore panics on a segment without references (TF-NMT: ValueError)"
    tokenize = get_tokenizer("13a-unstripped")  # Hugging Face's copy: no rstrip
    hyp_len = sum(len(tokenize(h)) for h in request.hypotheses)
    ref_len = sum(min(len(tokenize(r)) for r in refs) for refs in request.references)
    if hyp_len == 0 or ref_len == 0:
        return ("bleuscore returns a score where TF-NMT divides by a zero length "
                "(cases b09-b11)")
    return ""


def bleuscore_backend(python: str = sys.executable) -> Backend:
    """``bleuscore.compute`` (Rust): TF-NMT's formula with 13a tokens, shortest reference."""
    return Backend(name="bleuscore", role=LIBRARY, conventions=("tf-nmt",),
                   command=library_worker_command("bleuscore", python), tolerance=1e-12,
                   decline=bleuscore_decline, module="bleuscore", python=python)


def pycocoevalcap_decline(request: BackendRequest) -> str:
    """pycocoevalcap tokenizes with ``str.split()`` or, in its pipeline, with the Stanford
    PTBTokenizer, which needs Java; ``Bleu(0)`` returns no score (an empty list)."""
    if request.convention != "pycocoevalcap":
        return only("pycocoevalcap", "pycocoevalcap", request)
    tokenize = request.options.get("tokenize", "none")
    if tokenize not in ("none", "ptb"):
        return "pycocoevalcap tokenizes with str.split() or its PTBTokenizer ('none', 'ptb')"
    if tokenize == "ptb" and shutil.which("java") is None:
        return "pycocoevalcap's PTBTokenizer runs Java: no java on the PATH"
    n = request.options.get("n", 4)
    if isinstance(n, int) and not isinstance(n, bool) and n < 1:
        return f"Bleu(n={n}) returns an empty list, no score"
    return ""


def pycocoevalcap_backend(python: str = sys.executable) -> Backend:
    """``pycocoevalcap.bleu.bleu.Bleu`` (the MS-COCO caption evaluation): it answers BLEU-n
    and the whole BLEU-1..n list as the figures ``cumulative.k``."""
    return Backend(name="pycocoevalcap", role=LIBRARY, conventions=("pycocoevalcap",),
                   command=library_worker_command("pycocoevalcap", python),
                   decline=pycocoevalcap_decline, reports_figures=True,
                   module="pycocoevalcap", python=python)


def ignite_backend(python: str = sys.executable) -> Backend:
    """PyTorch-Ignite's ``ignite.metrics.nlp.Bleu`` (``pip install pytorch-ignite``, beside
    torch), on the ``str.split()`` tokens of the segments. From 0.4.7: 0.4.5-0.4.6's
    ``update`` takes one sentence and ``Bleu`` has no ``average`` (measured on each release;
    pytorch/ignite#2179, #2180)."""
    return Backend(name="ignite", role=LIBRARY, conventions=("ignite",),
                   command=library_worker_command("ignite", python),
                   decline=lambda request: only("ignite", "ignite", request),
                   supported=">=0.4.7", module="ignite", python=python)
