"""``bleu-harness identify``: which conventions and options produce a published score."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console

from bleu_harness.cli.options import (
    SUBWORD_SAMPLE,
    add_format,
    add_input,
    input_of,
    jobs,
    looks_split,
    show,
    warn_of_subwords,
)
from bleu_harness.explain import identify as identify_module

NAME = "identify"
DESCRIPTION = (
    "Search every convention with its plausible variants for the settings that produce VALUE "
    "on the input, to the digits given, on the 0-1 or 0-100 scale. Exit 0 if something "
    "matches, 1 if nothing does (the closest are shown).")
EPILOG = "Example: bleu-harness identify google.ru ref.ru --score 23.17"


def add_arguments(parser) -> None:
    add_input(parser, files=True, tokenizer_note=(
        "; a NAME changes nothing here: identify searches every tokenization each "
        "convention offers either way"))
    parser.add_argument("--score", required=True, metavar="VALUE",
                        help="the published score, as printed (e.g. 23.17 or 0.2318)")
    parser.add_argument("--jobs", "-j", type=jobs, default=1, metavar="N",
                        help="count a corpus's statistics in N worker processes (1 to 64; "
                             "default 1): every tokenization's pass shared among them, the "
                             "same answer as --jobs 1, bit for bit")
    add_format(parser, "json")


def main(args, console: Console) -> int:
    identify_module.parse_value(args.score)  # a score no paper prints: said before reading
    data = replace(input_of(args), jobs=args.jobs)
    if getattr(args, "hyp_file", None):  # read from files: say where they look split
        hyps = data.hypotheses[:SUBWORD_SAMPLE]
        refs = data.references[:SUBWORD_SAMPLE]
        warn_of_subwords(NAME, args.hyp_file, sum(map(looks_split, hyps)), len(hyps), True)
        for i, path in enumerate(args.ref_files):
            column = [r[i] for r in refs if i < len(r)]
            warn_of_subwords(NAME, path, sum(map(looks_split, column)), len(column), False)
    document = identify_module.identify(data, args.score)
    show(args, console, document, identify_module.render)
    return 0 if document["matches"] else 1
