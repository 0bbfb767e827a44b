"""Record what MultEval's BLEU gives on its quirks, as cases.

    python tools/multeval_cases.py      # writes cases/families/multeval.yaml

Compiles MultEval's own Java sources (``tests/oracles/multeval/src``, jhclark/multeval@bd93ed16,
unmodified; jannopts stubbed) with ``javac`` against Guava in a temporary directory and runs
them through ``tests/multeval_driver/MultEvalOracle.java`` (tests/multeval_oracle.py): for
``entry="eval"`` the text is written to files and read by ``HypothesisManager`` as ``multeval
eval`` reads them; for ``entry="stats"`` ``BLEU.stats`` gets the strings. The score is
``BLEU.score`` of the summed statistics (0-100). For contrast a few cases also hold what
``mteval-v13a.pl`` (tests/oracles/moses, run by Perl) printed. Nothing comes from the engine.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from family_file import write_family  # noqa: E402
from multeval_oracle import COMMIT, VERSION, Oracle, build, guava_jar, why_unavailable  # noqa: E402

from bleu_harness.adapters.perl_scripts import (  # noqa: E402
    MOSES_COMMIT,
    ScriptDied,
    perl_version,
    run_mteval,
)
from bleu_harness.adapters.perl_scripts import why_unavailable as why_no_perl  # noqa: E402

OUT = ROOT / "cases" / "families" / "multeval.yaml"
SOURCE = {"eval": f"{COMMIT} src/multeval/HypothesisManager.java:107-125 (multeval eval's "
                  "files), src/multeval/metrics/BLEU.java:33-59 (stats, score), "
                  "src/multeval/util/SuffStatUtils.java:10-19, src/jbleu/JBLEU.java; "
                  "compiled with javac {java} against Guava {guava}",
          "stats": f"{COMMIT} src/multeval/metrics/BLEU.java:33-59 (BLEU.stats on the "
                   "strings, score), src/multeval/util/SuffStatUtils.java:10-19, "
                   "src/jbleu/JBLEU.java; compiled with javac {java} against Guava {guava}"}
TWELVE = " ".join(["a"] * 12)
THIRTEEN, ELEVEN = " ".join(["a"] * 13), " ".join(["a"] * 11)
EVAL, STATS = {}, {"entry": "stats"}
MTEVAL = ("mteval-v13a", {"preserve_case": True})

#: (id, description, tags, level, segments, [(convention, options)]).
CASES = [
    ("mev-jbleu-main-example", "JBLEU.main's own example (src/jbleu/JBLEU.java:229-243): two "
     "references, no trigram match: NIST's smoothing 1/(2^k * t) for orders 3 and 4. "
     "mteval-v13a.pl with -c gives the same here.", ["smoothing", "zero-overlap"], "corpus",
     [("This is a hypothesis sentence .", ["This is the first reference sentence .",
                                           "This is the second reference sentence ."])],
     [("multeval", EVAL), ("multeval", STATS), MTEVAL]),
    ("mev-no-tokenization", "No tokenization and no lowercasing: 'mat.' and 'The' do not match "
     "'mat' and 'the', where mteval-v13a.pl splits the full stop and lowercases.",
     ["tokenization", "case"], "corpus",
     [("The cat sat on the mat.", ["the cat sat on the mat ."])],
     [("multeval", EVAL), ("mteval-v13a", {})]),
    ("mev-eval-normalises-spaces", "Double, leading and trailing spaces: multeval eval's "
     "normalizeWhitespace (trim, \\s+ -> ' ') makes the lines identical; BLEU.stats on the "
     "strings splits at every space, so empty tokens.", ["tokenization", "identical"],
     "corpus", [(" the  cat sat on the mat ", ["the cat sat on the mat"])],
     [("multeval", EVAL), ("multeval", STATS)]),
    ("mev-ideographic-space-empty-token", "Two U+3000: Guava's BREAKING_WHITESPACE splits at "
     "each, Java's \\s does not fold them, so an empty token even after eval's normalisation.",
     ["tokenization"], "corpus",
     [("the cat\u3000\u3000sat on the mat", ["the cat sat on the mat"])],
     [("multeval", EVAL), ("multeval", STATS)]),
    ("mev-no-break-space-joins", "U+00A0 is no BREAKING_WHITESPACE (nor Java's \\s): 'on\u00a0the' "
     "is one token.", ["tokenization"], "corpus",
     [("the cat sat on\u00a0the mat", ["the cat sat on the mat"])], [("multeval", EVAL)]),
    ("mev-trim-control-characters", "Java's trim() removes every character up to U+0020 from "
     "the ends (eval); BLEU.stats keeps U+0001 in the first token.", ["tokenization"],
     "corpus", [("\x01the cat sat on the mat", ["the cat sat on the mat"])],
     [("multeval", EVAL), ("multeval", STATS)]),
    ("mev-empty-lines-match", "An empty hypothesis and reference are each one empty token, "
     "which matches: 100 (orders 2-4 have no n-grams and are neutral).",
     ["empty-hypothesis", "empty-reference", "identical"], "corpus", [("", [""])],
     [("multeval", EVAL)]),
    ("mev-empty-hypothesis", "An empty hypothesis is one empty token: a hypothesis length of 1, "
     "no match, the brevity penalty exp(1 - 6/1).", ["empty-hypothesis"], "corpus",
     [("", ["the cat sat on the mat"])], [("multeval", EVAL)]),
    ("mev-blank-line", "A line of three spaces: eval trims it to '' (one empty token); "
     "BLEU.stats splits it into four.", ["empty-hypothesis", "tokenization"], "corpus",
     [("   ", ["a b c d"])], [("multeval", EVAL), ("multeval", STATS)]),
    ("mev-short-hypothesis-neutral", "Two words, identical: orders 3 and 4 have no n-grams "
     "(iscore 0, still weighted 0.25), so 100.", ["short-hypothesis", "identical"], "corpus",
     [("a b", ["a b"])], [("multeval", EVAL), MTEVAL]),
    ("mev-smoothing", "No 3- or 4-gram match: 1/(2 * 4) and 1/(4 * 3).",
     ["zero-overlap", "smoothing"], "corpus", [("a b x c d y", ["a b z c d w"])],
     [("multeval", EVAL), MTEVAL]),
    ("mev-tie-longer-first", "12 tokens against 13 and 11 (longer first): the shorter "
     "(pickReference's optimistic tie-break), so no brevity penalty.", ["ref-length-tie"],
     "corpus", [(TWELVE, [THIRTEEN, ELEVEN])], [("multeval", EVAL), MTEVAL]),
    ("mev-tie-shorter-first", "The same references in the other order: the same value.",
     ["ref-length-tie", "order-dependence"], "corpus", [(TWELVE, [ELEVEN, THIRTEEN])],
     [("multeval", EVAL)]),
    ("mev-brevity-penalty", "A shorter hypothesis: Math.exp(1.0 - r / c).", ["bp-boundary"],
     "corpus", [("the cat sat on the", ["the cat sat on the mat today"])],
     [("multeval", EVAL), MTEVAL]),
    ("mev-sentence", "A segment's score (--sentLevelDir): the same formula on its own "
     "statistics.", [], "sentence", [("the cat is on the mat", ["there is a cat on the mat"])],
     [("multeval", EVAL)]),
    ("mev-corpus-sums", "Two segments: the statistics are summed, then scored once.", [],
     "corpus", [("the cat is on the mat", ["there is a cat on the mat"]),
                ("a dog barks", ["the dog barks loudly"])],
     [("multeval", EVAL), MTEVAL]),
    ("mev-no-references", "A segment without references: pickReference returns -1 and "
     "refs.get(-1) throws.", ["empty-reference", "raises"], "corpus",
     [("the cat", [])], [("multeval", STATS), ("multeval", EVAL)]),
]


def java_version() -> str:
    import subprocess

    done = subprocess.run(["javac", "-version"], capture_output=True, text=True, check=True)
    return (done.stdout or done.stderr).strip().removeprefix("javac ")


def guava_version() -> str:
    import zipfile

    with zipfile.ZipFile(guava_jar()) as jar:
        for name in jar.namelist():
            if name.endswith("pom.properties") and "guava/" in name:
                for line in jar.read(name).decode().splitlines():
                    if line.startswith("version="):
                        return line.removeprefix("version=")
    return guava_jar().name


def mteval_provenance() -> dict:
    return {"kind": "documented",
            "source": f"mteval-v13a.pl at mosesdecoder {MOSES_COMMIT[:12]}, "
                      f"Perl {perl_version().lstrip('v')}",
            "where": "run unmodified on this input by tools/multeval_cases.py"}


def main() -> int:
    for reason in (why_unavailable(), why_no_perl("mteval-v13a.pl")):
        if reason:
            print(reason, file=sys.stderr)
            return 2
    found = {"java": java_version(), "guava": guava_version()}
    cases = []
    with tempfile.TemporaryDirectory(prefix="multeval-") as folder:
        oracle = Oracle(build(Path(folder)))
        try:
            for case_id, description, tags, level, segments, expect in CASES:
                hyps = [h for h, _ in segments]
                refs = [r for _, r in segments]
                expectations = []
                for convention, options in expect:
                    entry = {"convention": convention, **({"options": options} if options else {})}
                    if convention == "multeval":
                        answer = oracle.ask(options.get("entry", "eval"), hyps, refs)
                        if "error" in answer:
                            entry["raises"] = answer["error"]
                        else:  # Java's Math.log/exp: the last bits are the JVM's
                            entry["value"] = repr(answer["score"])
                            entry["compare"] = {"tolerance": 1e-12}
                        entry["provenance"] = {
                            "kind": "computed",
                            "source": SOURCE[options.get("entry", "eval")].format(**found),
                            "library": "multeval", "version": VERSION}
                    else:
                        try:
                            entry["value"] = run_mteval([(hyps, refs)], options).system
                        except ScriptDied as died:
                            entry["raises"] = died.message
                        entry["provenance"] = mteval_provenance()
                    expectations.append(entry)
                cases.append({"id": case_id, "description": description, "tags": tags,
                              "level": level,
                              "segments": [{"hyp": h, "refs": r} for h, r in segments],
                              "expect": expectations})
        finally:
            oracle.close()
    description = (
        f"MultEval's BLEU (jBLEU 0.1.1 in MultEval {VERSION}, {COMMIT}): mteval-v13a's "
        "smoothed BLEU without tokenization -- lines split on Guava's BREAKING_WHITESPACE with "
        "empty tokens kept, after multeval eval's whitespace normalisation (entry=eval) or "
        "as given (entry=stats) -- the closest reference, the shorter on a tie, orders summed "
        "times 0.25, 0-100. Values from MultEval's own Java sources (vendored in "
        "tests/oracles/multeval, compiled with javac {java} against Guava {guava}) and, for "
        "contrast, mteval-v13a.pl, written by tools/multeval_cases.py.").format(**found)
    write_family(OUT, "tools/multeval_cases.py", description, cases)
    print(f"{OUT.relative_to(ROOT)}: {len(cases)} cases; {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
