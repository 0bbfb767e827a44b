"""``bleu-harness fingerprint``: which convention a black-box implementation follows."""

from __future__ import annotations

from rich.console import Console

from bleu_harness.backends.registry import implementation_under_test, require_started
from bleu_harness.cli.options import (
    add_format,
    add_implementation,
    add_timeouts,
    show,
)
from bleu_harness.execute import Executor
from bleu_harness.explain import fingerprint as fingerprint_module

NAME = "fingerprint"
DESCRIPTION = (
    "Run the probe cases (a few per divergence family) through an implementation with its own "
    "defaults and report, family by family, which conventions it behaves like, the "
    "families where it matches none and those it gave no answer for. Exit 0 with the "
    "report; 2 when the implementation cannot be started or the options are wrong.")
EPILOG = "Example: bleu-harness fingerprint --implementation mypkg.metrics:bleu"


def add_arguments(parser) -> None:
    add_implementation(parser, claims=False)
    add_timeouts(parser)
    add_format(parser, "json")


def main(args, console: Console) -> int:
    backend = implementation_under_test(args.implementation, args.implementation_cmd, None,
                                        claiming=False, required=True)
    probes = fingerprint_module.probe_cases()
    with Executor(args.timeout, 1, args.startup_timeout) as executor:
        require_started(backend, executor.start(backend))
        requests = fingerprint_module.probe_requests(probes, backend.name)
        answers = dict(executor.run(requests.values()))
    document = fingerprint_module.fingerprint(
        backend.name, probes, {case_id: answers[r] for case_id, r in requests.items()})
    show(args, console, document, fingerprint_module.render)
    return 0
