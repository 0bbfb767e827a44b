"""Record what NLTK 3.2.5's ``emulate_multibleu=True`` gives, as cases.

    python tools/nltk_emulate_cases.py   # writes cases/families/nltk-emulate-multibleu.yaml

Runs ``sentence_bleu`` / ``corpus_bleu`` of the real NLTK 3.2.5 release (its atlas environment,
``python tools/atlas.py prepare nltk-3.2.5``: Python 3.6) on each case's ``str.split()``
tokens, with ``emulate_multibleu=True`` and without, and writes the value as that release
returned it (``repr``: the int 0 stays ``0``). Nothing comes from the engine. A value with the
option holds for 3.2.4-3.2.5, the releases that have it; the range of a value without it is
the one the atlas measured (``tools/fix_ranges.py``), kept from the file being rewritten.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from family_file import write_family  # tools/ is on the path of a script run from it

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "cases" / "families" / "nltk-emulate-multibleu.yaml"
PYTHON = ROOT / ".atlas" / "envs" / "nltk-3.2.5" / "bin" / "python"
RANGE = ">=3.2.4,<3.3"

#: Runs on NLTK 3.2.5's interpreter: one JSON request a line, one answer a line.
SCRIPT = r"""
import json, sys, warnings
import nltk
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
warnings.simplefilter("ignore")
for line in sys.stdin:
    r = json.loads(line)
    o = dict(r["options"])
    o["smoothing_function"] = getattr(SmoothingFunction(), o.pop("smoothing", "method0"))
    if "weights" in o:
        o["weights"] = tuple(o["weights"])
    hyps = [h.split() for h in r["hypotheses"]]
    refs = [[x.split() for x in rs] for rs in r["references"]]
    try:
        if r["level"] == "sentence":
            v = sentence_bleu(refs[0], hyps[0], **o)
        else:
            v = corpus_bleu(refs, hyps, **o)
        print(json.dumps({"value": repr(v)}))
    except Exception as e:
        print(json.dumps({"raises": type(e).__name__}))
    sys.stdout.flush()
"""

DOC_HYPS = ["It is a guide to action which ensures that the military always obeys the commands "
            "of the party", "he read the book because he was interested in world history"]
DOC_REFS = [["It is a guide to action that ensures that the military will forever heed Party "
             "commands", "It is the guiding principle which guarantees the military forces "
             "always being under the command of the Party", "It is the practical guide for the "
             "army always to heed the directions of the party"],
            ["he was interested in world history because he read the book"]]

#: (id, description, tags, level, hypotheses, references, option sets).
CASES = [
    ("nltk-emu-rounds-to-4-decimals", "corpus_bleu's docstring example (0.5920...): with "
     "emulate_multibleu the score is round(s, 4).", ["documented", "version-change"], "corpus",
     DOC_HYPS, DOC_REFS, [{}, {"emulate_multibleu": True}]),
    ("nltk-emu-zero-order-is-w1-log-min", "No bigram matches: method0 returns "
     "[sys.float_info.min] alone, so the sum is w1 * log(2**-1022) and the score "
     "exp(-177.1) = 1.3e-77, rounded to 0.0 (3.2.5 without it truncates: 1.0).",
     ["zero-overlap", "version-change"], "sentence", ["let go it"], [["let it go"]],
     [{}, {"emulate_multibleu": True}]),
    ("nltk-emu-first-weight-zero", "Weights (0, 0.5, 0.5) and no trigram match: the one "
     "term is w1 * log(min) = 0 * -708.4, so the score is the brevity penalty, 1.0; without "
     "the option 3.2.5 truncates to the first two orders, sqrt(2/4).",
     ["zero-overlap", "weights", "version-change"], "sentence", ["a b x c d"],
     [["a b y c d"]], [{"weights": [0, 0.5, 0.5]},
                       {"weights": [0, 0.5, 0.5], "emulate_multibleu": True}]),
    ("nltk-emu-sixth-order-truncates", "Six orders, the sixth without a match (index 5): "
     "method0's i < 5 test fails and the product ends there as before 3.3 (the five "
     "first orders, weights 1/6), then rounded.", ["zero-overlap", "version-change"],
     "sentence", ["a b c d e x f"], [["a b c d e y f"]],
     [{"weights": [1 / 6] * 6}, {"weights": [1 / 6] * 6, "emulate_multibleu": True}]),
    ("nltk-emu-no-unigram-match", "No unigram matches: corpus_bleu returns the int 0 before "
     "smoothing and rounding.", ["zero-overlap"], "sentence", ["p q r s"], [["a b c d"]],
     [{"emulate_multibleu": True}]),
    ("nltk-emu-method1-rounded-too", "The rounding applies whatever the smoothing: method1 "
     "with emulate_multibleu is method1's score to 4 decimals.",
     ["smoothing", "zero-overlap", "version-change"], "sentence", ["a b c x d"],
     [["a b c y d"]], [{"smoothing": "method1"},
                       {"smoothing": "method1", "emulate_multibleu": True}]),
    ("nltk-emu-corpus-zero-trigram", "A corpus without a trigram match: w1 * log(min) alone, "
     "0.0 once rounded, where the same release without the option truncates to a positive "
     "score.", ["zero-overlap", "version-change"], "corpus", ["a b x c", "d e y f"],
     [["a b z c"], ["d e w f"]], [{}, {"emulate_multibleu": True}]),
]


def _measured_ranges() -> dict[tuple[str, str], dict]:
    """(case id, options as JSON) -> the ``versions`` the file now gives a value without the
    option (``{}``: every release)."""
    if not OUT.is_file():
        return {}
    import yaml

    found = {}
    for case in yaml.safe_load(OUT.read_text(encoding="utf-8"))["cases"]:
        for e in case["expect"]:
            options = e.get("options", {})
            if not options.get("emulate_multibleu"):
                found[(case["id"], json.dumps(options, sort_keys=True))] = e.get("versions", {})
    return found


def main() -> int:
    if not PYTHON.is_file():
        raise SystemExit(f"NLTK 3.2.5 is not prepared: python tools/atlas.py prepare "
                         f"nltk==3.2.5 ({PYTHON})")
    calls = [{"level": level, "hypotheses": hyps, "references": refs, "options": options}
             for _, _, _, level, hyps, refs, option_sets in CASES for options in option_sets]
    done = subprocess.run([str(PYTHON), "-c", SCRIPT], capture_output=True, text=True,
                          check=True, input="".join(json.dumps(c) + "\n" for c in calls))
    version = subprocess.run([str(PYTHON), "-c", "import nltk; print(nltk.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    answers = iter(json.loads(line) for line in done.stdout.splitlines())
    measured = _measured_ranges()
    cases = []
    for case_id, description, tags, level, hyps, refs, option_sets in CASES:
        expect = []
        for options in option_sets:
            answer = next(answers)
            ranges = ({"nltk": RANGE} if options.get("emulate_multibleu")
                      else measured.get((case_id, json.dumps(options, sort_keys=True)),
                                        {"nltk": RANGE}))
            expect.append({"convention": "nltk", **({"options": options} if options else {}),
                           **answer, **({"versions": ranges} if ranges else {}),
                           "provenance": {"kind": "computed", "source": (
                               "nltk.translate.bleu_score." + (
                                   "sentence_bleu" if level == "sentence" else "corpus_bleu")
                               + " of the release (its atlas environment, Python 3.6)"),
                               "library": "nltk", "version": version}})
        cases.append({"id": case_id, "description": description, "tags": tags, "level": level,
                      "segments": [{"hyp": h, "refs": r} for h, r in zip(hyps, refs)],
                      "expect": expect})
    write_family(OUT, "tools/nltk_emulate_cases.py", (
            "NLTK 3.2.4-3.2.5's emulate_multibleu=True (corpus_bleu/sentence_bleu, removed in "
            "3.3): method0 puts sys.float_info.min alone in place of the precisions from the "
            "first order without a match (below the sixth), so the sum is the first weight "
            "times log(2**-1022); every score is then rounded to 4 decimals. Values from the "
            f"real NLTK {version} (tools/atlas.py's environment), written by "
            "tools/nltk_emulate_cases.py."),
                 cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
