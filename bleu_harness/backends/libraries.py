"""The live reference libraries, NLTK and SacreBLEU, called the way their users call them
(``bleu_harness/adapters/library_worker.py`` holds the calls)."""

from __future__ import annotations

import sys

from bleu_harness.backends.base import LIBRARY, Backend, library_worker_command

#: NLTK: ``corpus_bleu(references, hypotheses, weights, smoothing_function, auto_reweigh)``
#: with ``SmoothingFunction(epsilon, alpha, k)``, stable since 3.2.2 (``auto_reweigh``).
NLTK_SUPPORTED = ">=3.2.2"
#: SacreBLEU: the ``sacrebleu.metrics.BLEU`` class, with keyword arguments (2.x) or an
#: argparse namespace (1.4, 1.5; 4-grams only).
SACREBLEU_SUPPORTED = ">=1.4"


def nltk_backend(python: str = sys.executable) -> Backend:
    return Backend(name="nltk", role=LIBRARY, conventions=("nltk",),
                   command=library_worker_command("nltk", python), supported=NLTK_SUPPORTED,
                   module="nltk", python=python)


def sacrebleu_backend(python: str = sys.executable) -> Backend:
    return Backend(name="sacrebleu", role=LIBRARY, conventions=("sacrebleu",),
                   command=library_worker_command("sacrebleu", python),
                   supported=SACREBLEU_SUPPORTED, module="sacrebleu", python=python)
