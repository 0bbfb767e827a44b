"""Record what the real Perl scripts print on generated edge inputs, as cases.

    python tools/perl_cases.py      # writes cases/oracles/*.yaml

Runs Moses multi-bleu.perl and NIST mteval-v13a.pl, and their relatives (multi-bleu-detok.perl,
the WMT06 multi-bleu.perl, mteval-v14.pl, mteval-v11b.pl, mteval-v12.pl), unmodified
(tests/oracles/moses, or BLEU_HARNESS_MOSES_SCRIPTS), on inputs drawn by
tests/perl_inputs.py from fixed seeds, and writes each output with its provenance (the
commit and the Perl version), so the corpus checks these conventions where Perl is absent.
Nothing comes from the engine: every value is what a script printed (multi-bleu's line;
mteval's ``--metricsMATR`` score files, Perl's ``%.15g``), the number it handed to
``printf`` (read at full precision through a tied STDOUT,
``bleu_harness.adapters.perl_printf``; written as Python's shortest repr of that double), or
the message it died with.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from perl_inputs import detok_corpus, mteval_corpus, multi_bleu_corpus, wmt06_corpus

from bleu_harness.adapters.perl_scripts import (
    MOSES_COMMIT,
    MTEVAL_SCRIPTS,
    MULTI_BLEU_SCRIPTS,
    WMT06_COMMIT,
    WMT06_SCRIPT,
    ScriptDied,
    multi_bleu_figures,
    old_mteval_scores,
    perl_version,
    run_mteval,
    run_multi_bleu,
    run_old_mteval,
    why_unavailable,
)
from bleu_harness.bleu.conventions.mteval import OPTIONS as MTEVAL_OPTIONS
from bleu_harness.bleu.conventions.mteval import V13A_VARIANTS as MTEVAL_VARIANTS

OUT = ROOT / "cases" / "oracles"
MULTI_BLEU_LINE = re.compile(
    r"BLEU = (?P<score>[\d.]+), (?P<p1>[\d.]+)/(?P<p2>[\d.]+)/(?P<p3>[\d.]+)/(?P<p4>[\d.]+) "
    r"\(BP=(?P<bp>[\d.]+), ratio=(?P<ratio>[\d.]+), hyp_len=(?P<hyp_len>\d+), "
    r"ref_len=(?P<ref_len>\d+)\)")
#: The figures of the printed line recorded without -lc (with -lc, the score alone).
FIGURES = {"score": "score", "p1": "precision.1", "p4": "precision.4", "bp": "bp",
           "ratio": "ratio", "hyp_len": "hyp_len", "ref_len": "ref_len"}


def provenance(script: str, printf: bool = False) -> dict:
    origin = (f"OpenNMT/OpenNMT {WMT06_COMMIT[:12]} benchmark/3rdParty/multi-bleu.perl"
              if script == WMT06_SCRIPT else f"mosesdecoder {MOSES_COMMIT[:12]}")
    where = "run unmodified on this input by tools/perl_cases.py"
    if printf:
        where += "; the number it handed to printf, at full precision (tied STDOUT)"
    return {"kind": "documented", "source": f"{script} at {origin}, "
            f"Perl {perl_version().lstrip('v')}", "where": where}


def died_with(died: ScriptDied) -> str:
    """The script's message without Perl's `` at FILE line N.`` and the file names."""
    if died.status == 1 and died.stdout.startswith("BLEU = 0, 0/0/0/0"):
        return "exit status 1"
    message = re.sub(r" at \S+ line \d+(, <\w+> line \d+)?\.?$", "", died.message)
    message = re.sub(r"(could not find reference file) \S+", r"\1", message)
    message = re.sub(r"(did not find any reference translations) at \S+", r"\1", message)
    return message


def full(value: float) -> str:
    """A double as Python's shortest repr (the same double as Perl's ``%.17g``)."""
    return repr(float(value))


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
    return next(o.default for o in MTEVAL_OPTIONS if o.name == key)


def _mteval_case(case_id, level, hyps, refs, expect, changed, what,
                 file: str = "mteval-v13a.pl") -> dict:
    flags = " ".join(f"{k}={o}" for k, o in sorted(changed.items()))
    return {"id": case_id,
            "description": f"Generated input (Perl whitespace, U+001C-U+001F, line breaks in "
            f"a segment, final sigma, entities): {file}'s {what}"
            + (f" with {flags}." if flags else "."),
            "tags": ["tokenization", "perl-oracle"], "level": level,
            "segments": segments(hyps, refs), "expect": expect}


#: The figures of the printed line (``100*$bleu``, precisions, BP, ratio, lengths), in the
#: order the line's ``printf`` takes them.
LINE_FIGURES = ("score", "precision.1", "precision.2", "precision.3", "precision.4", "bp",
                "ratio", "hyp_len", "ref_len")


def multi_bleu_script_cases(script: str, corpus, count: int, lcs: tuple[bool, ...],
                            what: str) -> list[dict]:
    """multi-bleu's ``script`` (``detok``, ``wmt06``): what its line was printed from, at
    full precision, or the message it died with, with each ``-lc`` of ``lcs``."""
    cases = []
    file = MULTI_BLEU_SCRIPTS[script]
    rng = random.Random(f"multi-bleu {script} cases")
    for i in range(count):
        hyps, refs = corpus(rng)
        expect = []
        for lc in lcs:
            options = {"script": script, **({"lc": True} if lc else {})}
            base = {"convention": "multi-bleu", "options": options}
            try:
                printed = multi_bleu_figures(hyps, refs, lc, file)
            except ScriptDied as died:
                expect.append({**base, "raises": died_with(died),
                               "provenance": provenance(file, printf=True)})
                continue
            for figure, value in zip(LINE_FIGURES, printed.figures):
                shown = str(int(value)) if figure in ("hyp_len", "ref_len") else full(value)
                expect.append({**base, "value": shown,
                               **({"figure": figure} if figure != "score" else {}),
                               "provenance": provenance(file, printf=True)})
        cases.append({"id": f"perl-multi-bleu-{script}-{i:03d}",
                      "description": f"Generated input ({what}): what {file} prints"
                      + (", with and without -lc." if len(lcs) > 1 else "."),
                      "tags": ["tokenization", "perl-oracle"], "level": "corpus",
                      "segments": segments(hyps, refs), "expect": expect})
    return cases


def mteval_v14_cases(documents: int) -> list[dict]:
    """:func:`mteval_cases` with mteval-v14.pl: per option setting, ``documents`` corpora
    (system scores) and the segment scores of the first."""
    cases = []
    file = MTEVAL_SCRIPTS["v14"]
    for v, options in enumerate(MTEVAL_VARIANTS):
        rng = random.Random(f"mteval-v14 cases {sorted(options.items())}")
        corpora = [mteval_corpus(rng) for _ in range(documents)]
        changed = {"script": "v14", **{k: o for k, o in options.items() if o != _default(k)}}
        base = {"convention": "mteval-v13a", "options": changed}
        for d, (hyps, refs) in enumerate(corpora):
            try:
                outcome = {"value": run_mteval([(hyps, refs)], options, script=file).system}
            except ScriptDied as died:
                outcome = {"raises": died_with(died)}
            expect = [{**base, **outcome, "provenance": provenance(file)}]
            cases.append(_mteval_case(f"perl-mteval-v14-{v:02d}-doc{d:02d}", "corpus", hyps,
                                      refs, expect, changed, "system score", file))
        printed = run_mteval(corpora[:1], options, script=file)
        hyps, refs = corpora[0]
        for s, (hyp, seg_refs, seg) in enumerate(zip(hyps, refs, printed.segments[0])):
            expect = [{**base, "value": seg, "provenance": provenance(file)}]
            cases.append(_mteval_case(f"perl-mteval-v14-{v:02d}-doc00-seg{s}", "sentence",
                                      [hyp], [seg_refs], expect, changed, "segment score",
                                      file))
    return cases


def old_mteval_cases(script: str, documents: int) -> list[dict]:
    """mteval-v11b.pl / mteval-v12.pl, with and without ``-c``: each generated corpus alone,
    its system score (``-d 0``) or the message it dies with, and its segment scores
    (``-d 2``) up to the segment it dies on, that one as the message (it scores each
    segment with the function that scores the system)."""
    cases = []
    file = MTEVAL_SCRIPTS[script]
    for preserve_case in (False, True):
        rng = random.Random(f"mteval {script} cases {preserve_case}")
        changed = {"script": script, **({"preserve_case": True} if preserve_case else {})}
        base = {"convention": "mteval-v13a", "options": changed}
        tag = "c" if preserve_case else "lc"
        for d in range(documents):
            hyps, refs = mteval_corpus(rng)
            try:
                system = run_old_mteval([(hyps, refs)], preserve_case, file, detail=0).system
                outcome = {"value": full(system)}
            except ScriptDied as died:
                outcome = {"raises": died_with(died)}
            expect = [{**base, **outcome, "provenance": provenance(file, printf=True)}]
            cases.append(_mteval_case(f"perl-mteval-{script}-{tag}-doc{d:02d}", "corpus", hyps,
                                      refs, expect, changed, "system score", file))
            try:
                printed, died = run_old_mteval([(hyps, refs)], preserve_case, file), None
            except ScriptDied as error:
                printed, died = old_mteval_scores(error.printfs), error
            seen = printed.segments[0] if printed.segments else ()
            for s, (hyp, seg_refs) in enumerate(zip(hyps, refs)):
                if s < len(seen):
                    outcome = {"value": full(seen[s])}
                elif s == len(seen) and died is not None:
                    outcome = {"raises": died_with(died)}
                else:
                    break
                expect = [{**base, **outcome, "provenance": provenance(file, printf=True)}]
                cases.append(_mteval_case(f"perl-mteval-{script}-{tag}-doc{d:02d}-seg{s}",
                                          "sentence", [hyp], [seg_refs], expect, changed,
                                          "segment score", file))
    return cases


def write(name: str, description: str, cases: list[dict]) -> None:
    from family_file import write_family  # tools/ is on the path of a script run from it

    OUT.mkdir(parents=True, exist_ok=True)
    write_family(OUT / name, "tools/perl_cases.py", description, cases)


def main() -> int:
    for script in (*MULTI_BLEU_SCRIPTS.values(), *MTEVAL_SCRIPTS.values()):
        reason = why_unavailable(script)
        if reason:
            print(f"{script}: {reason}", file=sys.stderr)
            return 2
    perl = f"Perl {perl_version().lstrip('v')}"
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
    write("multi-bleu-detok.yaml", "What Moses multi-bleu-detok.perl (unmodified, mosesdecoder "
          f"{MOSES_COMMIT[:12]}, {perl}) prints on generated inputs, with and without -lc: the "
          "numbers its line is printed from (score, precisions, BP, ratio, lengths), as it hands "
          "them to printf, or the message it dies with.",
          multi_bleu_script_cases("detok", detok_corpus, 40, (False, True),
                                  "Perl and Python whitespace, case, entities in capitals, "
                                  "<SKIPPED>, digits"))
    write("multi-bleu-wmt06.yaml", "What the WMT06 shared task's multi-bleu.perl (unmodified, "
          f"OpenNMT/OpenNMT {WMT06_COMMIT[:12]} benchmark/3rdParty/multi-bleu.perl, {perl}) "
          "prints on generated inputs: the numbers its line is printed from (score, "
          "precisions, BP, ration), as it hands them to printf, or the message it dies with.",
          multi_bleu_script_cases("wmt06", wmt06_corpus, 40, (False,),
                                  "spaces and tabs around references, Perl and Python "
                                  "whitespace, ties"))
    write("mteval-v14.yaml", "What NIST mteval-v14.pl writes (unmodified, -b --metricsMATR, "
          f"mosesdecoder {MOSES_COMMIT[:12]}, {perl}) on generated inputs under each of its 16 "
          "option settings: system scores (corpus level) and segment scores (sentence level), "
          "as Perl prints them (%.15g).", mteval_v14_cases(3))
    for script in ("v11b", "v12"):
        write(f"mteval-{script}.yaml", f"What NIST mteval-{script}.pl (unmodified, -b, "
              f"mosesdecoder {MOSES_COMMIT[:12]}, {perl}) scores on generated inputs, with and "
              "without -c: system scores (-d 0; corpus level) and segment scores (-d 2; "
              "sentence level) as it hands them to printf, at full precision, or the message "
              "it dies with.", old_mteval_cases(script, 12))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
