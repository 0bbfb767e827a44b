"""Record what the real Perl scripts print on generated edge inputs, as cases.

    python tools/perl_cases.py      # writes cases/oracles/multi-bleu.yaml, mteval-v13a.yaml

Runs Moses multi-bleu.perl and NIST mteval-v13a.pl, unmodified (tests/oracles/moses, or
BLEU_HARNESS_MOSES_SCRIPTS), on inputs drawn by tests/perl_inputs.py from fixed seeds, and
writes each output with its provenance (the mosesdecoder commit and the Perl version), so
the corpus checks these two conventions where Perl is absent. Nothing comes from the engine:
every value is what a script printed (multi-bleu's line; mteval's ``--metricsMATR`` score
files, Perl's ``%.15g``), or the message it died with.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from perl_inputs import mteval_corpus, multi_bleu_corpus

from bleu_harness.adapters.perl_scripts import (
    MOSES_COMMIT,
    ScriptDied,
    perl_version,
    run_mteval,
    run_multi_bleu,
    why_unavailable,
)
from bleu_harness.bleu.conventions.mteval import DEFAULTS as MTEVAL_DEFAULTS
from bleu_harness.bleu.conventions.mteval import V13A_VARIANTS as MTEVAL_VARIANTS

OUT = ROOT / "cases" / "oracles"
MULTI_BLEU_LINE = re.compile(
    r"BLEU = (?P<score>[\d.]+), (?P<p1>[\d.]+)/(?P<p2>[\d.]+)/(?P<p3>[\d.]+)/(?P<p4>[\d.]+) "
    r"\(BP=(?P<bp>[\d.]+), ratio=(?P<ratio>[\d.]+), hyp_len=(?P<hyp_len>\d+), "
    r"ref_len=(?P<ref_len>\d+)\)")
#: The figures of the printed line recorded without -lc (with -lc, the score alone).
FIGURES = {"score": "score", "p1": "precision.1", "p4": "precision.4", "bp": "bp",
           "ratio": "ratio", "hyp_len": "hyp_len", "ref_len": "ref_len"}


def provenance(script: str) -> dict:
    return {"kind": "documented", "source": f"{script} at mosesdecoder {MOSES_COMMIT[:12]}, "
            f"Perl {perl_version().lstrip('v')}",
            "where": "run unmodified on this input by tools/perl_cases.py"}


def died_with(died: ScriptDied) -> str:
    """The script's message without Perl's `` at FILE line N.`` and the file names."""
    if died.status == 1 and died.stdout.startswith("BLEU = 0, 0/0/0/0"):
        return "exit status 1"
    message = re.sub(r" at \S+ line \d+(, <\w+> line \d+)?\.?$", "", died.message)
    message = re.sub(r"(could not find reference file) \S+", r"\1", message)
    return message


def segments(hyps: list[str], refs: list[list[str]]) -> list[dict]:
    return [{"hyp": h, "refs": list(r)} for h, r in zip(hyps, refs)]


def multi_bleu_cases(count: int) -> list[dict]:
    cases = []
    rng = random.Random("multi-bleu cases")
    for i in range(count):
        hyps, refs = multi_bleu_corpus(rng)
        expect = []
        for lc in (False, True):
            options = {"lc": True} if lc else {}
            base = {"convention": "multi-bleu", **({"options": options} if options else {})}
            try:
                line = run_multi_bleu(hyps, refs, lc=lc)
            except ScriptDied as died:
                expect.append({**base, "raises": died_with(died),
                               "provenance": provenance("multi-bleu.perl")})
                continue
            printed = MULTI_BLEU_LINE.fullmatch(line)
            for group, figure in (FIGURES if not lc else {"score": "score"}).items():
                expect.append({**base, "value": printed[group],
                               **({"figure": figure} if figure != "score" else {}),
                               "provenance": provenance("multi-bleu.perl")})
        cases.append({"id": f"perl-multi-bleu-{i:03d}",
                      "description": "Generated input (Perl and Python whitespace, case, "
                      "entities, digits): what multi-bleu.perl prints, with and without -lc.",
                      "tags": ["tokenization", "perl-oracle"], "level": "corpus",
                      "segments": segments(hyps, refs), "expect": expect})
    return cases


def mteval_cases(documents: int) -> list[dict]:
    """Per option setting, ``documents`` generated corpora, each run on its own for a
    corpus-level case (the system line, or the message it dies with), and one run over all of
    them for the segment scores of the first few (sentence-level cases)."""
    cases = []
    for v, options in enumerate(MTEVAL_VARIANTS):
        rng = random.Random(f"mteval cases {sorted(options.items())}")
        corpora = [mteval_corpus(rng) for _ in range(documents)]
        changed = {k: o for k, o in options.items() if o != _default(k)}
        base = {"convention": "mteval-v13a", **({"options": changed} if changed else {})}
        for d, (hyps, refs) in enumerate(corpora):
            try:
                outcome = {"value": run_mteval([(hyps, refs)], options).system}
            except ScriptDied as died:
                outcome = {"raises": died_with(died)}
            expect = [{**base, **outcome, "provenance": provenance("mteval-v13a.pl")}]
            cases.append(_mteval_case(f"perl-mteval-{v:02d}-doc{d:02d}", "corpus", hyps, refs,
                                      expect, changed, "system score"))
        sample = corpora[: max(1, documents // 4)]
        printed = run_mteval(sample, options)
        for d, ((hyps, refs), seg_scores) in enumerate(zip(sample, printed.segments)):
            for s, (hyp, seg_refs, seg) in enumerate(zip(hyps, refs, seg_scores)):
                expect = [{**base, "value": seg, "provenance": provenance("mteval-v13a.pl")}]
                cases.append(_mteval_case(f"perl-mteval-{v:02d}-doc{d:02d}-seg{s}", "sentence",
                                          [hyp], [seg_refs], expect, changed, "segment score"))
    return cases


def _default(key: str):
    return MTEVAL_DEFAULTS[key]


def _mteval_case(case_id, level, hyps, refs, expect, changed, what) -> dict:
    flags = " ".join(f"{k}={o}" for k, o in sorted(changed.items()))
    return {"id": case_id,
            "description": f"Generated input (Perl whitespace, U+001C-U+001F, line breaks in "
            f"a segment, final sigma, entities): mteval-v13a.pl's {what}"
            + (f" with {flags}." if flags else "."),
            "tags": ["tokenization", "perl-oracle"], "level": level,
            "segments": segments(hyps, refs), "expect": expect}


def write(name: str, description: str, cases: list[dict]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump({"schema": 1, "description": description, "cases": cases},
                          allow_unicode=True, sort_keys=False, width=100,
                          default_flow_style=None)
    (OUT / name).write_text("# Written by tools/perl_cases.py: do not edit by hand.\n" + text,
                            encoding="utf-8")


def main() -> int:
    for script in ("multi-bleu.perl", "mteval-v13a.pl"):
        reason = why_unavailable(script)
        if reason:
            print(f"{script}: {reason}", file=sys.stderr)
            return 2
    write("multi-bleu.yaml", "What Moses multi-bleu.perl prints (unmodified, "
          f"mosesdecoder {MOSES_COMMIT[:12]}, Perl {perl_version().lstrip('v')}) on generated "
          "inputs: its "
          "line (score, precisions, BP, ratio, lengths) or the message it dies with.",
          multi_bleu_cases(60))
    write("mteval-v13a.yaml", "What NIST mteval-v13a.pl writes (unmodified, -b "
          f"--metricsMATR, mosesdecoder {MOSES_COMMIT[:12]}, Perl {perl_version().lstrip('v')}) on "
          "generated inputs under each of its 16 option settings: system scores (corpus level, "
          "or the message the system line dies with) and segment scores (sentence level), as "
          "Perl prints them (%.15g).",
          mteval_cases(8))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
