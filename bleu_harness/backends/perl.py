"""``multi-bleu-perl`` and ``mteval-perl``: the real Perl scripts as live backends
(:mod:`bleu_harness.adapters.perl_answers`), each run once per request by the harness's own
worker (``python -m bleu_harness.worker perl CONVENTION``).

They are asked for by name (``--backend multi-bleu-perl``, ``--backend mteval-perl``), never
by default: a script is a process per request, and the scripts are not part of the package
-- a source checkout has them vendored (``tests/oracles/moses``), elsewhere
``BLEU_HARNESS_MOSES_SCRIPTS`` names a mosesdecoder ``scripts/generic`` folder. Where the
convention's default script cannot run (no Perl, no script, a Perl module missing), the run
header names the backend not installed, with the reason; a request a script cannot be given
as it is is declined with the reason.
"""

from __future__ import annotations

import sys

from bleu_harness.adapters.perl_answers import why_declined
from bleu_harness.backends.base import LIBRARY, Backend
from bleu_harness.records import BackendRequest

#: mteval-v13a.pl and mteval-v14.pl write 15 significant digits to their score files.
PRINTED_DIGITS = 1e-14


def _declined(convention: str):
    def decline(request: BackendRequest) -> str:
        if request.convention != convention:
            return f"this backend runs the {convention} convention's scripts only"
        return why_declined(request.convention, request.hypotheses, request.references,
                            request.options)
    return decline


def multi_bleu_perl_backend(python: str = sys.executable) -> Backend:
    """Moses ``multi-bleu.perl`` and its relatives (``script``: moses, detok, wmt06)."""
    return Backend(name="multi-bleu-perl", role=LIBRARY, conventions=("multi-bleu",),
                   command=(python, "-m", "bleu_harness.worker", "perl", "multi-bleu"),
                   decline=_declined("multi-bleu"), python=python)


def mteval_perl_backend(python: str = sys.executable) -> Backend:
    """NIST ``mteval-v13a.pl`` and its relatives (``script``: v13a, v14, v11b, v12)."""
    return Backend(name="mteval-perl", role=LIBRARY, conventions=("mteval-v13a",),
                   command=(python, "-m", "bleu_harness.worker", "perl", "mteval-v13a"),
                   decline=_declined("mteval-v13a"), tolerance=PRINTED_DIGITS, python=python)
