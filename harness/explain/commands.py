"""The ``explain``, ``identify`` and ``fingerprint`` subcommands: arguments to documents."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from harness.backends.external import DEFAULT_TIMEOUT, ExternalBackend
from harness.bleu import CONVENTIONS
from harness.cli_arguments import add_implementation_arguments
from harness.explain import explain as explain_module
from harness.explain import fingerprint as fingerprint_module
from harness.explain import identify as identify_module
from harness.explain.inputs import Input, find_case, from_case, from_files, from_text
from harness.textfiles import InputError


def add_input_arguments(parser: argparse.ArgumentParser, files: bool) -> None:
    if files:
        parser.add_argument("hyp_file", metavar="HYP_FILE", nargs="?",
                            help="hypotheses, one per line (or an mteval .sgm file)")
        parser.add_argument("ref_files", metavar="REF_FILE", nargs="*",
                            help="references, one per line, aligned with HYP_FILE")
    parser.add_argument("--hyp", action="append", default=[], metavar="TEXT",
                        help="a hypothesis typed inline (sentence level)")
    parser.add_argument("--ref", action="append", default=[], metavar="TEXT",
                        help="a reference of the inline hypothesis (repeatable)")
    parser.add_argument("--tokenizer", choices=("none", "13a", "intl", "char"),
                        help="raw text: the tokenizer conventions that tokenize use (default: "
                        "the text is already tokenized, split on whitespace)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def _input(args, case_id: str | None = None) -> Input:
    if case_id:
        if args.hyp or args.ref:
            raise InputError("give a CASE_ID or --hyp/--ref, not both")
        return from_case(find_case(case_id))
    if args.hyp or args.ref:
        return from_text(args.hyp, args.ref, args.tokenizer)
    hyp_file = getattr(args, "hyp_file", None)
    if hyp_file:
        if not args.ref_files:
            raise InputError("give at least one REF_FILE after HYP_FILE")
        return from_files(hyp_file, args.ref_files, args.tokenizer)
    raise InputError("give an input: a CASE_ID, HYP_FILE REF_FILE..., or --hyp TEXT --ref TEXT")


def _print(console: Console, document: dict, text: str, as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(document, allow_nan=False, default=str))
    else:
        console.print(text, highlight=False, markup=False, soft_wrap=True)


def explain_command(args, console: Console) -> int:
    conventions = args.convention or []
    unknown = [c for c in conventions if c not in CONVENTIONS]
    if unknown:
        raise InputError(f"unknown convention {unknown[0]!r} (known: {', '.join(CONVENTIONS)})")
    document = explain_module.explain(_input(args, args.case_id), conventions)
    _print(console, document, explain_module.render(document), args.json)
    return 0


def identify_command(args, console: Console) -> int:
    document = identify_module.identify(_input(args), args.score)
    _print(console, document, identify_module.render(document), args.json)
    return 0 if document["matches"] else 1


def fingerprint_command(args, console: Console) -> int:
    if bool(args.implementation) == bool(args.implementation_cmd):
        raise InputError("give exactly one of --implementation MODULE:CALLABLE or "
                         "--implementation-cmd COMMAND")
    if args.implementation:
        backend = ExternalBackend.for_callable(args.implementation, "", args.timeout)
    else:
        backend = ExternalBackend(args.implementation_cmd, "", args.implementation_cmd,
                                  args.timeout)
    try:
        document = fingerprint_module.fingerprint(backend)
    finally:
        backend.close()
    _print(console, document, fingerprint_module.render(document), args.json)
    return 0


def add_commands(commands) -> None:
    explain = commands.add_parser(
        "explain", help="why conventions disagree on an input, knob by knob",
        description="Statistics per order, every convention's score, the divergence families, "
        "and for each disagreeing pair the smallest set of knobs (reference length, tie-break, "
        "zero rule, smoothing, effective order, weights, denominator floor, tokenizer, case, "
        "precision) whose switch makes them agree.",
        epilog="Examples: bleu-harness explain b07-tf-nmt-issue-450; bleu-harness explain "
        "--hyp 'I ate an apple' --ref Bye --ref 'I ate an apple here' -c nltk -c tf-nmt")
    explain.add_argument("case_id", metavar="CASE_ID", nargs="?",
                         help="a case of the bundled corpus")
    add_input_arguments(explain, files=False)
    explain.add_argument("--convention", "-c", action="append", metavar="NAME",
                         help="a convention to compare (repeatable; default: all)")
    identify = commands.add_parser(
        "identify", help="which conventions and options produce a published score",
        description="Search every convention with its plausible variants for the settings that "
        "produce VALUE on the input, to the digits given, on the 0-1 or 0-100 scale. Exit 0 if "
        "something matches, 1 if nothing does (the closest are shown).",
        epilog="Example: bleu-harness identify google.ru ref.ru --score 23.17")
    add_input_arguments(identify, files=True)
    identify.add_argument("--score", required=True, metavar="VALUE",
                          help="the published score, as printed (e.g. 23.17 or 0.2318)")
    fingerprint = commands.add_parser(
        "fingerprint", help="which convention a black-box implementation follows, per family",
        description="Run the probe cases (a few per divergence family) through an implementation "
        "with its own defaults and report, family by family, which conventions it behaves like, "
        "and the families where it matches none.",
        epilog="Example: bleu-harness fingerprint --implementation mypkg.metrics:bleu")
    add_implementation_arguments(fingerprint)
    fingerprint.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                             help=f"per probe (default {DEFAULT_TIMEOUT:g})")
    fingerprint.add_argument("--json", action="store_true", help="print machine-readable JSON")


COMMANDS = {"explain": explain_command, "identify": identify_command,
            "fingerprint": fingerprint_command}
