"""``bleu-harness score``: every convention on the same files, side by side."""

from __future__ import annotations

import json
import math
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from rich.console import Console
from rich.table import Table

from bleu_harness.bleu import CONVENTIONS, BleuResult, ConventionDeclined, ConventionError, Request
from bleu_harness.bleu.agreement import as_percent
from bleu_harness.bleu.api import plan
from bleu_harness.bleu.conventions import scores_agree, unknown_convention
from bleu_harness.bleu.batch import sentence_results
from bleu_harness.bleu.counting import counts_in_order
from bleu_harness.bleu.shard import chunked, count_chunks, count_loaded
from bleu_harness.cli.options import (
    add_format,
    jobs,
    load_tokenizer,
    option_value,
    SUBWORD_SAMPLE,
    looks_split,
    print_json,
    user_tokenizer,
    warn_of_subwords,
)
from bleu_harness.errors import InputError, UsageError
from bleu_harness.line_ranges import LINES_PER_RANGE, UnequalFiles, line_ranges
from bleu_harness.records import json_ready
from bleu_harness.textfiles import is_sgml, read_parallel, stream_parallel

NAME = "score"
DESCRIPTION = (
    "Score a hypothesis file against one or more reference files (UTF-8, one segment a line; "
    "several reference files give several references per segment) under each convention, and "
    "mark where the conventions disagree.")
EPILOG = (f"conventions: {', '.join(CONVENTIONS)}. Examples: --option smoothing=method1 (every "
          "convention that has 'smoothing'), --option sacrebleu.tokenize=none (one convention), "
          "--option weights=[0.5,0.5].")


def add_arguments(parser) -> None:
    parser.add_argument("hyp_file", metavar="HYP_FILE", help="hypotheses, one per line")
    parser.add_argument("ref_files", metavar="REF_FILE", nargs="+",
                        help="references, one per line, aligned with HYP_FILE")
    parser.add_argument("--convention", "-c", action="append", metavar="NAME",
                        help="a convention to score with (repeatable) or 'all' (default: all)")
    parser.add_argument("--sentence", action="store_true",
                        help="score every line on its own (sentence level) instead of the corpus")
    parser.add_argument("--jobs", "-j", type=jobs, default=1, metavar="N",
                        help="count the corpus in N worker processes (1 to 64; default 1), "
                        "each reading its own ranges of plain files: the same result as "
                        "--jobs 1, bit for bit (--sentence scores in one process)")
    parser.add_argument("--tokenizer", type=load_tokenizer, metavar="MODULE:CALLABLE",
                        help="your own tokenizer, a function from text to a token list (e.g. "
                        "nltk:word_tokenize), for the conventions that take one (%s: the "
                        "default with this option), as Hugging Face's bleu takes tokenizer="
                        % ", ".join(n for n, c in CONVENTIONS.items() if c.takes_tokenizer))
    parser.add_argument("--remove-from-references", default="", metavar="TEXT",
                        help="remove TEXT from every reference line first, e.g. '@@ ' (BPE "
                        "joiners: BLEU over subword pieces is not BLEU over words)")
    add_format(parser, "json")
    parser.add_argument("--signature", choices=("library", "full"), default="library",
                        help="the signature printed under the table: 'library' (default) is the "
                        "library's own where it prints one (SacreBLEU 2.x: nrefs:1|case:mixed|"
                        "...), else the engine's; 'full' is always the engine's, every knob")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a convention option in its library's vocabulary; VALUE is YAML; "
                        "prefix KEY with 'NAME.' to set it for one convention only (repeatable)")


def selected_conventions(names: Sequence[str] | None) -> tuple[str, ...]:
    if not names or "all" in names:
        return tuple(CONVENTIONS)
    unknown = [n for n in names if n not in CONVENTIONS]
    if unknown:
        raise InputError(unknown_convention(unknown[0], also=("all",)))
    return tuple(dict.fromkeys(names))


def main(args, console: Console) -> int:
    conventions = selected_conventions(args.convention)
    tokenizer = user_tokenizer(args) if callable(args.tokenizer) else None
    if tokenizer is not None:
        if not args.convention or "all" in args.convention:
            conventions = tuple(n for n in conventions if CONVENTIONS[n].takes_tokenizer)
        refusing = [n for n in conventions if not CONVENTIONS[n].takes_tokenizer]
        if refusing:
            takers = ", ".join(n for n in CONVENTIONS if CONVENTIONS[n].takes_tokenizer)
            why = ("takes no tokenizer (it splits on whitespace or applies its own rules"
                   if len(refusing) == 1 else "take no tokenizer (they split on whitespace or "
                   "apply their own rules")
            raise InputError(f"--tokenizer: {', '.join(refusing)} {why}; these do: {takers})")
    return run_score(ScoreArgs(args.hyp_file, tuple(args.ref_files), conventions,
                               tuple(args.option), args.sentence, args.format == "json",
                               args.jobs, tokenizer, args.remove_from_references,
                               args.signature == "full"), console)

#: What the engine gave one convention: its result, or the refusal of the library it follows.
ConventionAnswer = BleuResult | ConventionError


@dataclass(frozen=True)
class ScoreArgs:
    hyp_file: str
    ref_files: tuple[str, ...]
    conventions: tuple[str, ...]
    options: tuple[str, ...]
    sentence: bool
    as_json: bool
    jobs: int = 1
    tokenizer: Any = None  # the user's callable, for every convention (all take one)
    #: a string removed from every reference line (``run``'s ``remove_from_references``)
    remove_from_references: str = ""
    #: print the engine's knob signature even where the library has its own
    full_signature: bool = False


def parse_option_assignments(
    assignments: Sequence[str], conventions: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``KEY=VALUE`` (every selected convention that has KEY) or ``CONVENTION.KEY=VALUE``.

    VALUE is read as YAML, so ``weights=[0.5,0.5]``, ``lowercase=true`` and ``k=5`` have their
    natural types. A key that no selected convention has is an :class:`InputError`.
    """
    per_convention: dict[str, dict[str, Any]] = {name: {} for name in conventions}
    for assignment in assignments:
        key, sep, raw = assignment.partition("=")
        if not sep or not key:
            raise InputError(f"--option {assignment!r}: expected KEY=VALUE")
        try:
            value = option_value(raw)
        except UsageError as error:
            raise InputError(f"--option {key}: {error}") from None
        target, dot, bare = key.partition(".")
        if dot and target in CONVENTIONS:
            if target not in per_convention:
                raise InputError(f"--option {assignment!r}: convention {target!r} is not selected")
            names, key = [target], bare
        else:
            names = list(conventions)
        takers = [n for n in names if key in CONVENTIONS[n].option_names]
        if not takers:
            known = "; ".join(f"{n}: {', '.join(CONVENTIONS[n].option_names)}" for n in names)
            raise InputError(f"unknown option {key!r} for {', '.join(names)} (known: {known})")
        for name in takers:
            per_convention[name][key] = _as_option(value)
    return per_convention


def _as_option(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_option(v) for v in value)
    return value


def run_score(args: ScoreArgs, console: Console) -> int:
    options = parse_option_assignments(args.options, args.conventions)
    if args.tokenizer is not None:
        for name in args.conventions:
            options[name].setdefault("tokenize", args.tokenizer)
    requests = [Request(name, options[name]) for name in args.conventions]
    try:
        if args.sentence:
            return _score_sentences(args, requests, console)
        scoring = plan(requests, "corpus")
        stats = _corpus_stats(args, scoring.needed)
        outcomes = scoring.finish(stats)
        segments = next(iter(stats.values())).segment_count if stats else 0
    except ValueError as error:
        raise InputError(str(error)) from None
    if args.as_json:
        print_json(_json_document(args, outcomes))
    else:
        _print_corpus(args, segments, outcomes, console)
    return 0


def _score_sentences(args: ScoreArgs, requests: list[Request], console: Console) -> int:
    """Every line scored on its own and printed as it is scored: one plan for all lines, and
    memory that does not grow with the file."""
    rows = sentence_results(_segments(args), requests)
    if args.as_json:
        _stream_json_sentences(args, rows)
    else:
        _print_sentences(args, rows, console)
    return 0


def _corpus_stats(args: ScoreArgs, needed: dict) -> dict:
    """The statistics of the files: plain regular files of equal length are read in ranges
    of lines, each range by the worker that counts it (:mod:`bleu_harness.line_ranges`; the
    parent only finds where they begin); other files are streamed, in chunks."""
    ranges = None
    if not any(map(counts_in_order, needed)) and not any(
            is_sgml(path) for path in (args.hyp_file, *args.ref_files)):
        ranges = line_ranges(args.hyp_file, args.ref_files, LINES_PER_RANGE,
                             args.remove_from_references or "")
    if ranges is not None:
        try:
            stats = count_loaded(ranges, needed, args.jobs)
        except UnequalFiles:  # the streaming reader says where
            ranges = None
    if ranges is None:
        return count_chunks(chunked(_segments(args)), needed, args.jobs)
    sample = islice(stream_parallel(args.hyp_file, args.ref_files), SUBWORD_SAMPLE)
    deque(_watched_for_subwords(sample, args), maxlen=0)  # the streaming path's warnings
    return stats


def _segments(args: ScoreArgs) -> Iterator[tuple[str, list[str]]]:
    """Plain-text files line by line (bounded memory); SGML files are read whole (their
    segments are matched by id, in mteval's order). ``--remove-from-references`` applied,
    and a warning on stderr at the end where the text looks split into subword pieces."""
    if any(is_sgml(path) for path in (args.hyp_file, *args.ref_files)):
        hyps, refs = read_parallel(args.hyp_file, list(args.ref_files))
        pairs: Iterator[tuple[str, list[str]]] = zip(hyps, refs)
    else:
        pairs = stream_parallel(args.hyp_file, args.ref_files)
    return _watched_for_subwords(pairs, args)


def _watched_for_subwords(pairs: Iterator[tuple[str, list[str]]],
                          args: ScoreArgs) -> Iterator[tuple[str, list[str]]]:
    remove = args.remove_from_references
    files = (args.hyp_file, *args.ref_files)
    marked = [0] * len(files)
    seen = 0
    for hyp, refs in pairs:
        if remove:
            refs = [ref.replace(remove, "") for ref in refs]
        if seen < SUBWORD_SAMPLE:
            seen += 1
            for i, text in enumerate((hyp, *refs)):
                marked[i] += looks_split(text)
        yield hyp, refs
    for path, count_marked in zip(files, marked):
        warn_of_subwords("score", path, count_marked, seen, path == args.hyp_file)


def outcome_dict(outcome: ConventionAnswer) -> dict[str, Any]:
    if isinstance(outcome, ConventionError):
        return {"convention": outcome.convention, "raises": outcome.library_exception,
                "rule": outcome.rule}
    return outcome.to_dict()


def _document_head(args: ScoreArgs) -> dict[str, Any]:
    return {"hypotheses": args.hyp_file, "references": list(args.ref_files),
            "level": "sentence" if args.sentence else "corpus"}


def _json_document(args: ScoreArgs, outcomes: list[ConventionAnswer]) -> dict[str, Any]:
    return {**_document_head(args), "results": [outcome_dict(o) for o in outcomes]}


def _stream_json_sentences(args: ScoreArgs, rows: Iterator[list[ConventionAnswer]]) -> None:
    """The document ``{..., "segments": [{"line": 1, "results": [...]}, ...]}``, written a
    segment at a time."""
    head = json.dumps(json_ready(_document_head(args)), indent=2, ensure_ascii=False)
    sys.stdout.write(head[:-2] + ',\n  "segments": [')
    previous: tuple[list[ConventionAnswer] | None, str] = (None, "")
    for line, outcomes in enumerate(rows, start=1):
        if outcomes is not previous[0]:  # a repeated pair's row is the same row object
            previous = (outcomes, json.dumps(json_ready([outcome_dict(o) for o in outcomes]),
                                             ensure_ascii=False, allow_nan=False, default=str))
        sys.stdout.write(("\n    " if line == 1 else ",\n    ")
                         + f'{{"line": {line}, "results": {previous[1]}}}')
    sys.stdout.write("\n  ]\n}\n")


def native(outcome: ConventionAnswer) -> float | str:
    """The score on its convention's scale, or ``raises X`` for an outcome that is an error."""
    if isinstance(outcome, ConventionError):
        return f"raises {outcome.library_exception}"
    return outcome.score


def shown_answer(outcome: ConventionAnswer) -> str:
    """A score, ``raises X`` where the tool raises, ``declined`` where its API cannot take
    the input."""
    if isinstance(outcome, ConventionDeclined):
        return "declined"
    if isinstance(outcome, ConventionError):
        return f"raises {outcome.library_exception}"
    return format_score(outcome.score)


def agreement_groups(outcomes: Sequence[ConventionAnswer]) -> list[str]:
    """A letter per outcome; equal letters agree (``scores_agree``). A convention that
    declines the input (its tool's API cannot express it) has no answer to compare: ``-``."""
    representatives: list[ConventionAnswer] = []
    letters = []
    for outcome in outcomes:
        if isinstance(outcome, ConventionDeclined):
            letters.append("-")
            continue
        for index, seen in enumerate(representatives):
            if scores_agree(outcome.convention, native(outcome), seen.convention, native(seen)):
                break
        else:
            representatives.append(outcome)
            index = len(representatives) - 1
        letters.append(chr(ord("A") + index))
    return letters


def format_score(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.4g}"
    return f"{value:.4f}"


def _print_corpus(args: ScoreArgs, segments: int, outcomes: list[ConventionAnswer],
                  console: Console):
    refs = ", ".join(args.ref_files)
    counted = f"{segments} segment{'' if segments == 1 else 's'}"
    table = Table(title=f"Corpus BLEU of {args.hyp_file} ({counted}) against {refs}",
                  title_justify="left")
    for column in ("convention", "score", "0-100", "precisions %", "BP", "hyp_len", "ref_len",
                   "group"):
        table.add_column(column, justify="left" if column in ("convention", "precisions %")
                         else "right")
    groups = agreement_groups(outcomes)
    for outcome, group in zip(outcomes, groups):
        if isinstance(outcome, ConventionError):
            table.add_row(outcome.convention, shown_answer(outcome), "", outcome.rule,
                          "", "", "", group)
            continue
        convention = CONVENTIONS[outcome.convention]
        scale = convention.scale
        percents = [as_percent(p, convention.precisions_on) for p in outcome.precisions]
        table.add_row(
            outcome.convention, format_score(outcome.score),
            f"{as_percent(outcome.score, scale):.2f}",
            "/".join(f"{p:.1f}" for p in percents), f"{outcome.bp:.4f}",
            str(outcome.hyp_len), str(outcome.ref_len), group)
    console.print(table)
    if len(set(groups) - {"-"}) > 1:
        members = {}
        for outcome, group in zip(outcomes, groups):
            if group != "-":
                members.setdefault(group, []).append(outcome.convention)
        console.print("[bold]conventions disagree:[/] " + " · ".join(
            f"{g} = {', '.join(names)}" for g, names in members.items()))
    elif len(set(groups) - {"-"}) == 1 and len(groups) - groups.count("-") > 1:
        console.print("all conventions agree" if "-" not in groups
                      else "the conventions that answer agree")
    for outcome in outcomes:
        if isinstance(outcome, BleuResult):
            library = "" if args.full_signature else outcome.library_signature
            shown = f"{outcome.convention}: {library}" if library else outcome.signature
            console.print(f"  {shown}", highlight=False, soft_wrap=True)


def _print_sentences(args: ScoreArgs, rows: Iterator[list[ConventionAnswer]],
                     console: Console) -> None:
    """One line of text per segment, printed as it is scored (a table of a million rows
    would be held whole before the first is shown)."""
    headers = ["line", *(f"{name} (0-{CONVENTIONS[name].scale:g})" for name in args.conventions),
               "agree"]
    widths = [max(len(h), 8) for h in headers]
    console.print(f"Sentence BLEU of {args.hyp_file}, line by line", highlight=False,
                  markup=False, soft_wrap=True)
    write = sys.stdout.write
    console.file.flush()
    write("  ".join(h.rjust(w) for h, w in zip(headers, widths)) + "\n")
    previous: tuple[list[ConventionAnswer] | None, str] = (None, "")
    for line, outcomes in enumerate(rows, start=1):
        if outcomes is not previous[0]:  # a repeated pair's row is the same row object
            cells = [shown_answer(o) for o in outcomes]
            groups = agreement_groups(outcomes)
            agree = "yes" if len(set(groups) - {"-"}) <= 1 else "≠ " + "".join(groups)
            rest = "  ".join(c.rjust(w) for c, w in zip(cells, widths[1:])) + "  " + agree
            previous = (outcomes, rest)
        write(str(line).rjust(widths[0]) + "  " + previous[1] + "\n")
