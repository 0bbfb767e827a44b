"""``bleu-harness explain``: why conventions disagree on an input, knob by knob."""

from __future__ import annotations

from rich.console import Console

from harness.bleu import CONVENTIONS
from harness.cli.options import add_format, add_input, input_of, show
from harness.errors import UsageError
from harness.explain import explain as explain_module

NAME = "explain"
HELP = "why conventions disagree on an input, knob by knob"
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


def main(args, console: Console) -> int:
    conventions = args.convention or []
    unknown = [c for c in conventions if c not in CONVENTIONS]
    if unknown:
        raise UsageError(f"unknown convention {unknown[0]!r} (known: {', '.join(CONVENTIONS)})")
    document = explain_module.explain(input_of(args, args.case_id), conventions)
    show(args, console, document, explain_module.render)
    return 0
