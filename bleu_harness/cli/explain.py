"""``bleu-harness explain``: why conventions disagree on an input, knob by knob."""

from __future__ import annotations

from rich.console import Console

from bleu_harness.backends.registry import implementation_under_test, require_started
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.conventions import unknown_convention
from bleu_harness.cli.options import (
    add_format,
    add_implementation,
    add_input,
    add_timeouts,
    input_of,
    show,
)
from bleu_harness.errors import UsageError
from bleu_harness.execute import Executor
from bleu_harness.explain import explain as explain_module
from bleu_harness.records import BackendRequest

NAME = "explain"
DESCRIPTION = (
    "Statistics per order, every convention's score, the divergence families, and for each "
    "disagreeing pair the smallest set of knobs (reference length, tie-break, zero rule, "
    "smoothing, effective order, weights, denominator floor, tokenizer, case, precision) "
    "whose switch makes them agree.")
EPILOG = ("Examples: bleu-harness explain b07-tf-nmt-issue-450; bleu-harness explain "
          "--hyp 'I ate an apple' --ref Bye --ref 'I ate an apple here' -c nltk -c tf-nmt")


def add_arguments(parser) -> None:
    parser.add_argument("case_id", metavar="CASE_ID", nargs="?",
                        help="a case of the bundled corpus")
    add_input(parser, files=False)
    parser.add_argument("--convention", "-c", action="append", metavar="NAME",
                        help="a convention to compare (repeatable; default: all)")
    add_format(parser, "json")
    under_test = parser.add_argument_group(
        "implementation under test", "its answer on the input, and why it differs from the "
        "convention it claims (the smallest knob change that gives its answer)")
    add_implementation(under_test)
    under_test.add_argument("--claims", metavar="CONVENTION",
                            help="the convention it claims to follow")
    add_timeouts(parser)


def main(args, console: Console) -> int:
    conventions = args.convention or []
    unknown = [c for c in conventions if c not in CONVENTIONS]
    if unknown:
        raise UsageError(unknown_convention(unknown[0]))
    data = input_of(args, args.case_id)
    document = explain_module.explain(data, conventions)
    render = explain_module.render
    backend = implementation_under_test(args.implementation, args.implementation_cmd,
                                        args.claims)
    if backend is not None:
        answers = _answers(args, backend, data)
        rows = explain_module.implementation_answers(data, args.claims, answers)
        document["implementation"] = {"name": backend.name, "claims": args.claims,
                                      "answers": rows}

        def render(doc):  # the implementation's verdict first, the detail after
            return (explain_module.render_implementation(
                backend.name, args.claims, doc["implementation"]["answers"]) + "\n\n"
                + explain_module.render(doc))
    show(args, console, document, render)
    return 0


def _answers(args, backend, data):
    """The implementation's answers on the input, with each option set the case uses for
    the convention it claims (its defaults for an input typed inline)."""
    option_sets = data.option_sets.get(args.claims) or ({},)
    requests = [BackendRequest.make(backend.name, args.claims, data.level, data.hypotheses,
                             data.references, data.options_for(args.claims, options))
                for options in option_sets]
    with Executor(args.timeout, 1, args.startup_timeout) as executor:
        require_started(backend, executor.start(backend))
        answered = dict(executor.run(requests))
    return [(r.options, answered[r]) for r in requests]
